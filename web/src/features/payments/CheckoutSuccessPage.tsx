import { messages } from '@lms/contract/messages';
import { Link, Navigate, useLocation } from 'react-router';
import { returnPath } from './checkout-path';
import { formatDate } from '../../lib/format';
import { paths } from '../../lib/paths';
import { usePageTitle } from '../../lib/use-page-title';
import type { FromResultState, PaidState } from './checkout-state';
import { checkoutTexts } from './checkout-texts';

/**
 * The result of a verified payment, with 'Go to dashboard' (to /; back to the course
 * whose Subscribe led to the checkout, when one did). Only right after
 * one, as the checkout's navigation says (it survives a reload of this entry); opened any other way
 * there is nothing to confirm, so the page gives way to the checkout (which sends a visitor home).
 */
export default function CheckoutSuccessPage() {
  const state = useLocation().state as Partial<PaidState> | null;
  // After resuming a cancelled subscription nothing was paid; the checkout says until when it runs.
  const resumedUntil = formatDate(state?.resumedUntil);
  // After a free trial's card check nothing was paid either: the trial runs until the first payment.
  const trialUntil = formatDate(state?.trialUntil);
  const paid = state?.paid === true;
  const title = trialUntil ? checkoutTexts.trialStarted : resumedUntil ? messages.subscriptionResumed : messages.paymentSuccessful;
  const text = trialUntil
    ? checkoutTexts.trialStartedText(state?.firstAmount ?? 0, trialUntil)
    : resumedUntil
      ? state?.yearly
        ? checkoutTexts.subscriptionResumedYearly(resumedUntil)
        : messages.subscriptionResumedText(resumedUntil)
      : messages.paymentSuccessfulText;
  usePageTitle(paid ? title : undefined);
  const dashboard = returnPath(state?.returnTo) ?? paths.home;
  // The checkout then shows what there is to show (the bundle, or "You're subscribed"); a visitor goes home.
  // (It decides, not this page: reading the store here made the bundler split the first chunk, 0.9 KB more for `/`.)
  if (!paid) return <Navigate to={paths.checkout} replace state={{ fromResult: true } satisfies FromResultState} />;
  return (
    <section className="flex min-h-[60vh] items-center justify-center px-4 py-10">
      <div className="card w-full max-w-md bg-base-100 shadow-xl ring-1 ring-base-300">
        <div className="card-body items-center gap-4 p-6 text-center sm:p-8">
          <svg viewBox="0 0 24 24" width="64" height="64" fill="none" stroke="currentColor" strokeWidth="2" className="text-success" aria-hidden="true">
            <circle cx="12" cy="12" r="10" />
            <path d="M7 12.5l3.5 3.5L17 9" />
          </svg>
          <h1 className="card-title text-2xl">{title}</h1>
          <p>{text}</p>
          <div className="card-actions w-full flex-col gap-2">
            <Link to={dashboard} replace className="btn btn-primary btn-block">
              {messages.goToDashboard}
            </Link>
            <Link to={paths.courses} replace className="btn btn-ghost btn-block">
              {messages.browseCourses}
            </Link>
          </div>
        </div>
      </div>
    </section>
  );
}
