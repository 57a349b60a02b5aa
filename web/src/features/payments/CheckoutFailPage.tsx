import { messages } from '@lms/contract/messages';
import { Link, useLocation } from 'react-router';
import { checkoutPath } from './checkout-path';
import { usePageTitle } from '../../lib/use-page-title';
import type { FailedState } from './checkout-state';
import { reasonToShow } from './failure-reason';
import { checkoutTexts } from './checkout-texts';

/**
 * 'Payment failed / Please try again later' with 'Try again' (to /checkout). Beside the
 * spec's texts, the provider's reason, as the checkout passed it on (never from the address, which
 * anyone can write); and "Try again" comes back to the plan and coupon that were being paid, and to
 * the course page the checkout was reached from. Opened any other way, the spec's page as it is.
 */
export default function CheckoutFailPage() {
  usePageTitle(messages.paymentFailed);
  const state = useLocation().state as Partial<FailedState> | null;
  const failed = state?.failed === true;
  const reason = failed ? reasonToShow(state.reason) : undefined;
  const retry = failed ? state.retry : undefined;
  // Said when there is more to keep than the default plan alone.
  const keeps = retry && (retry.plan || retry.coupon) ? checkoutTexts.retryKeeps(state?.planTitle ?? checkoutTexts.yourPlan, retry.coupon) : undefined;
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
          {reason && (
            <div role="status" className="w-full rounded-box bg-base-200 p-3 text-left text-sm">
              <p className="font-semibold">{checkoutTexts.failureReason}</p>
              <p className="wrap-anywhere">{reason}</p>
            </div>
          )}
          {keeps && <p className="text-sm text-base-content/80">{keeps}</p>}
          <div className="card-actions w-full">
            {/* Replacing this entry: after a good second try, Back never shows this failure again. */}
            <Link to={checkoutPath(retry)} replace className="btn btn-primary btn-block">
              {messages.tryAgain}
            </Link>
          </div>
        </div>
      </div>
    </section>
  );
}
