import { messages } from '@lms/contract/messages';
import type { CancellationTerms } from '@lms/contract/payments';
import { formatDate, rupees } from '../../lib/format';
import { billingTexts } from './billing-texts';
import { useGetCancellationTermsQuery } from './billing.api';

/**
 * The cancel dialog's account of what cancelling does: the one case of the refund rule that applies to
 * this subscriber now, as the server works it out (GET /payments/cancellation, the rule the
 * cancellation itself then applies), asked each time the dialog opens. Until it answers, a placeholder;
 * if it cannot, the rule in general, both cases, as before.
 */
export function CancelTerms({ open, trialEnds, periodEnd }: { open: boolean; trialEnds: string | undefined; periodEnd: string | undefined }) {
  const terms = useGetCancellationTermsQuery(undefined, { skip: !open, refetchOnMountOrArgChange: true });
  if (terms.isFetching) {
    return (
      <div className="grid gap-2 py-4" role="status" aria-label={billingTexts.cancelTermsLoading}>
        <div className="skeleton h-4 w-full" />
        <div className="skeleton h-4 w-4/5" />
      </div>
    );
  }
  const said = terms.data?.cancellation && caseOf(terms.data.cancellation);
  if (said) {
    return (
      <div className="space-y-2 py-4">
        {said.map((text) => (
          <p key={text}>{text}</p>
        ))}
      </div>
    );
  }
  return (
    <ul className="list-disc space-y-2 py-4 ps-5">
      {trialEnds ? (
        <li>{billingTexts.cancelInTrial(trialEnds)}</li>
      ) : (
        <>
          <li>{messages.cancelConfirmRefund}</li>
          <li>{messages.cancelConfirmKeep(periodEnd ?? messages.paidPeriodEnd)}</li>
        </>
      )}
    </ul>
  );
}

/** The sentences for the server's case, or undefined when a date it needs is missing (then the rule in general). */
function caseOf(terms: CancellationTerms): string[] | undefined {
  const until = formatDate(terms.accessUntil);
  const paidOn = formatDate(terms.payment?.paidAt);
  switch (terms.outcome) {
    case 'refund':
      return terms.payment && paidOn ? [billingTexts.cancelRefund(rupees.format(terms.payment.amount), paidOn), billingTexts.cancelRefundOnce] : undefined;
    case 'window_passed': {
      const windowEnded = formatDate(terms.refundWindowEndsAt ?? undefined);
      return paidOn && windowEnded && until ? [billingTexts.cancelWindowPassed(terms.refundWindowDays, paidOn, windowEnded, until)] : undefined;
    }
    case 'refund_used': {
      const refundedOn = formatDate(terms.lastRefundAt ?? undefined);
      return refundedOn && until ? [billingTexts.cancelRefundUsed(refundedOn, until)] : undefined;
    }
    case 'trial':
      return until ? [billingTexts.cancelInTrial(until)] : undefined;
  }
}
