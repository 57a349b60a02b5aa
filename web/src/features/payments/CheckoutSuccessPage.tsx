import { messages } from '@lms/contract/messages';
import { Link } from 'react-router';
import { paths } from '../../app/paths';

/** Spec §2: the result of a verified payment, with 'Go to dashboard' (to /). */
export default function CheckoutSuccessPage() {
  return (
    <section className="flex min-h-[60vh] items-center justify-center px-4 py-10">
      <div className="card w-full max-w-md bg-base-100 shadow-xl ring-1 ring-base-300">
        <div className="card-body items-center gap-4 p-6 text-center sm:p-8">
          <svg viewBox="0 0 24 24" width="64" height="64" fill="none" stroke="currentColor" strokeWidth="2" className="text-success" aria-hidden="true">
            <circle cx="12" cy="12" r="10" />
            <path d="M7 12.5l3.5 3.5L17 9" />
          </svg>
          <h1 className="card-title text-2xl">Payment successful</h1>
          <p>Your subscription is active: you can now watch the lectures of every course.</p>
          <div className="card-actions w-full">
            <Link to={paths.home} className="btn btn-primary btn-block">{messages.goToDashboard}</Link>
          </div>
        </div>
      </div>
    </section>
  );
}
