import { messages } from '@lms/contract/messages';
import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../lib/paths';

/** A friendly card in the bundle's place, with the way to the courses. */
export function CheckoutStateCard({ title, secondary, children }: { title: string; secondary?: { to: string; label: string }; children: ReactNode }) {
  const titleId = useId();
  return (
    <section className="flex justify-center px-4 py-10 sm:py-16">
      <article aria-labelledby={titleId} className="card w-full max-w-md bg-base-100 shadow-xl ring-1 ring-base-300">
        <div className="card-body items-center gap-4 p-6 text-center sm:p-8">
          <svg viewBox="0 0 24 24" width="56" height="56" fill="none" stroke="currentColor" strokeWidth="2" className="text-primary" aria-hidden="true">
            <circle cx="12" cy="12" r="10" />
            <path d="M7 12.5l3.5 3.5L17 9" />
          </svg>
          <h1 id={titleId} className="card-title text-2xl sm:text-3xl">
            {title}
          </h1>
          {children}
          <div className="card-actions w-full flex-col gap-2">
            <Link to={paths.courses} className="btn btn-primary btn-block">
              {messages.browseCourses}
            </Link>
            {secondary && (
              <Link to={secondary.to} className="btn btn-ghost btn-block">
                {secondary.label}
              </Link>
            )}
          </div>
        </div>
      </article>
    </section>
  );
}
