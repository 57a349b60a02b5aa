import type { BillingDocument } from '@lms/contract/billing';
import type { AdminRefund, LearnerDetail, LearnerPayment } from '@lms/contract/learners';
import { formatDate, rupees } from '../../../lib/format';
import { PaymentActions } from '../actions';
import { documentUrl } from '../learners.api';
import { learnersTexts as texts } from '../learners-texts';
import { DotBadge } from './badges';
import { Section } from './Section';

const statusDots: Record<LearnerPayment['status'], string> = {
  paid: 'bg-success',
  partly_refunded: 'bg-warning',
  refunded: 'bg-base-content/40',
};
const refundDots: Record<AdminRefund['state'], string> = {
  pending: 'bg-info animate-pulse',
  processed: 'bg-success',
  failed: 'bg-error',
};

/**
 * Every payment, newest first: what it was for, what was charged and refunded, its invoice and
 * credit notes to download, the administrators' refunds under it, and its actions (refund, resend).
 * A table from a tablet's width; on a phone each payment's cells stack, each with its label.
 */
export function PaymentsSection({ learner }: { learner: LearnerDetail }) {
  const { payments } = learner;
  return (
    <Section title={texts.payments} empty={payments.length === 0} emptyText={texts.noPayments}>
      <table
        className="table max-md:block max-md:[&_tbody]:block max-md:[&_td]:block max-md:[&_td]:px-0 max-md:[&_td]:py-1 max-md:[&_td]:border-0 max-md:[&_tr]:grid max-md:[&_tr]:grid-cols-2 max-md:[&_tr]:gap-x-4 max-md:[&_tr]:py-2"
        aria-label={texts.payments}
      >
        <thead className="max-md:sr-only">
          <tr>
            <th scope="col">{texts.date}</th>
            <th scope="col">{texts.description}</th>
            <th scope="col" className="text-right">
              {texts.amount}
            </th>
            <th scope="col" className="text-right">
              {texts.refunded}
            </th>
            <th scope="col">{texts.status}</th>
            <th scope="col">{texts.documents}</th>
          </tr>
        </thead>
        {payments.map((payment) => (
          <tbody key={payment._id} className="border-b border-base-300 last:border-b-0 [&_tr]:border-b-0">
            <tr className="align-top">
              <td className="font-medium whitespace-nowrap">
                <time dateTime={payment.paidAt}>{formatDate(payment.paidAt)}</time>
              </td>
              <td className="wrap-anywhere md:min-w-40">{payment.description}</td>
              <td className="tabular-nums md:text-right md:whitespace-nowrap">
                <Label>{texts.amount}</Label>
                <span className="font-semibold">{rupees.format(payment.amount)}</span>
              </td>
              <td className="tabular-nums md:text-right md:whitespace-nowrap">
                <Label>{texts.refunded}</Label>
                {payment.refunded > 0 ? rupees.format(payment.refunded) : <span className="text-base-content/60">—</span>}
              </td>
              <td>
                <DotBadge dot={statusDots[payment.status]}>{texts.paymentStatuses[payment.status]}</DotBadge>
              </td>
              <td className="max-md:col-span-2">
                <div className="flex flex-wrap items-center gap-2">
                  {payment.invoice && <DocumentLink what={texts.invoice} document={payment.invoice} />}
                  {payment.creditNotes.map((creditNote) => (
                    <DocumentLink key={creditNote.id} what={texts.creditNote} document={creditNote} />
                  ))}
                  {!payment.invoice && payment.creditNotes.length === 0 && <span className="text-sm text-base-content/60">{texts.noDocuments}</span>}
                  <PaymentActions learner={learner} payment={payment} />
                </div>
              </td>
            </tr>
            {payment.refunds.length > 0 && (
              <tr>
                <td colSpan={6} className="pt-0 max-md:col-span-2">
                  <Refunds refunds={payment.refunds} />
                </td>
              </tr>
            )}
          </tbody>
        ))}
      </table>
    </Section>
  );
}

/** A cell's label on a phone, where the table's head is hidden. */
function Label({ children }: { children: string }) {
  return <span className="mr-2 text-sm text-base-content/70 md:hidden">{children}</span>;
}

function Refunds({ refunds }: { refunds: AdminRefund[] }) {
  return (
    <div className="rounded-box bg-base-200/60 p-3 text-sm">
      <p className="mb-1 font-medium">{texts.refunds}</p>
      <ul className="flex flex-col gap-2">
        {refunds.map((refund) => (
          <li key={refund._id} className="flex flex-col gap-0.5">
            <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <DotBadge dot={refundDots[refund.state]}>{texts.refundStates[refund.state]}</DotBadge>
              <span className="tabular-nums">{texts.refundLine(rupees.format(refund.amount), formatDate(refund.createdAt) ?? '', refund.by)}</span>
              <span className="text-base-content/70">· {texts.refundAccess[refund.access]}</span>
            </span>
            {refund.note && <span className="text-base-content/80 wrap-anywhere">“{refund.note}”</span>}
            {refund.state === 'failed' && refund.failure && <span className="font-medium wrap-anywhere">{texts.refundFailure(refund.failure)}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A document's PDF to download, or a note while it is being made. */
function DocumentLink({ what, document }: { what: string; document: BillingDocument }) {
  if (!document.ready) {
    return (
      <span className="inline-flex items-center gap-2 text-sm text-base-content/80">
        <span className="loading loading-spinner loading-xs" aria-hidden="true" />
        {what} {document.number} · {texts.preparing}
      </span>
    );
  }
  return (
    <a className="btn btn-outline btn-xs" href={documentUrl(document.id)} download aria-label={texts.download(what, document.number)}>
      <svg viewBox="0 0 24 24" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <path d="M12 4v11m0 0-4-4m4 4 4-4M5 19h14" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      {what} <span className="font-mono">{document.number}</span>
    </a>
  );
}
