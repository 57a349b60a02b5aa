import { messages } from '@lms/contract/messages';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { usePageTitle } from '../../app/use-page-title';

/** Spec §2: 'Payment failed / Please try again later' with 'Try again' (to /checkout). */
export default function CheckoutFailPage() {
  usePageTitle(messages.paymentFailed);
  return (
    <section className="flex min-h-[60vh] items-center justify-center px-4 py-10">
      <div className="card w-full max-w-md bg-base-100 shadow-xl ring-1 ring-base-300">
        <div className="card-body items-center gap-4 p-6 text-center sm:p-8">
          <svg viewBox="0 0 24 24" width="64" height="64" fill="none" stroke="currentColor" strokeWidth="2" className="text-error" aria-hidden="true">
            <circle cx="12" cy="12" r="10" />
            <path d="M15 9l-6 6M9 9l6 6" />
          </svg>
          <h1 className="card-title text-2xl">{messages.paymentFailed}</h1>
          <p>{messages.tryAgainLater}</p>
          <div className="card-actions w-full">
            {/* Replacing this entry: after a good second try, Back never shows this failure again. */}
            <Link to={paths.checkout} replace className="btn btn-primary btn-block">{messages.tryAgain}</Link>
          </div>
        </div>
      </div>
    </section>
  );
}
