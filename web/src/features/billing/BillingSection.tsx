import type { BillingDocument, BillingEntry, BillingHistory } from '@lms/contract/billing';
import { endpoints } from '@lms/contract/endpoints';
import { useEffect, useId, useState } from 'react';
import { API_ROOT, urlFor } from '../../lib/api-client';
import { formatDate, rupees } from '../../lib/format';
import { useGetBillingHistoryQuery } from './billing.api';
import { billingTexts } from './billing-texts';
import { TaxDetails } from './TaxDetails';

/** How often the history is read again while a PDF is being made (a job makes it within seconds). */
const PREPARING_POLL_MS = 3000;

/**
 * On the profile: every payment with its invoice and credit note to download, and
 * the tax details (GSTIN, state) the next invoices will carry.
 */
export function BillingSection({ className = '' }: { className?: string }) {
  const headingId = useId();
  const [preparing, setPreparing] = useState(false);
  const history = useGetBillingHistoryQuery(undefined, { pollingInterval: preparing ? PREPARING_POLL_MS : 0 });
  const entries = history.data?.entries ?? [];
  const nowPreparing = entries.some((entry) => [entry.invoice, ...entry.creditNotes].some((document) => document && !document.ready));
  useEffect(() => setPreparing(nowPreparing), [nowPreparing]);

  return (
    <section aria-labelledby={headingId} className={`space-y-4 *:max-w-3xl ${className}`}>
      <h2 id={headingId} className="text-xl font-semibold">
        {billingTexts.history}
      </h2>
      {history.data?.renewal && <RenewalLine renewal={history.data.renewal} />}
      {history.isLoading ? (
        <div className="skeleton h-24 w-full rounded-box" aria-hidden="true" />
      ) : entries.length === 0 ? (
        <p className="rounded-box bg-base-200 p-4 text-sm text-base-content/80">{billingTexts.noPayments}</p>
      ) : (
        <ul className="divide-y divide-base-content/10 rounded-box bg-base-100 shadow-sm ring-1 ring-base-content/10">
          {entries.map((entry) => (
            <HistoryRow key={entry.paymentId} entry={entry} />
          ))}
        </ul>
      )}
      <TaxDetails />
    </section>
  );
}

/** What comes next: the plan and its next charge (the first, after a free trial), or none once cancelled. */
function RenewalLine({ renewal }: { renewal: NonNullable<BillingHistory['renewal']> }) {
  const amount = renewal.nextAmount ?? undefined;
  const trialEnds = formatDate(renewal.trialEndsAt ?? undefined);
  const renews = formatDate(renewal.renewsOn ?? undefined);
  const until = formatDate(renewal.accessUntil ?? undefined);
  const next = renewal.cancelled
    ? until && billingTexts.noMorePayments(until)
    : trialEnds
      ? billingTexts.trialPayment(amount, trialEnds)
      : renews && billingTexts.nextPayment(amount, renews);
  if (!next) return null;
  return (
    // Under the heading, as its subtitle: what comes next, before the payments that came before.
    <p className="-mt-2 flex items-start gap-2 text-sm text-base-content/80">
      <svg
        viewBox="0 0 24 24"
        width="18"
        height="18"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        className="mt-px shrink-0 text-primary"
        aria-hidden="true"
      >
        <rect x="3" y="5" width="18" height="16" rx="2" />
        <path d="M3 10h18M8 3v4M16 3v4" strokeLinecap="round" />
      </svg>
      <span className="min-w-0 wrap-anywhere">
        {renewal.plan ? (
          <>
            <strong className="font-semibold text-base-content">{billingTexts.planName(renewal.plan.name)}</strong> · {next}
          </>
        ) : (
          next.charAt(0).toUpperCase() + next.slice(1)
        )}
      </span>
    </p>
  );
}

function HistoryRow({ entry }: { entry: BillingEntry }) {
  const refunded = entry.status === 'refunded';
  const partly = entry.status === 'partly_refunded';
  return (
    <li className="flex flex-wrap items-start justify-between gap-x-4 gap-y-3 p-4">
      <div className="min-w-0 flex-1">
        <p className="font-medium">{formatDate(entry.date)}</p>
        <p className="text-sm text-base-content/80 wrap-anywhere">{entry.description}</p>
      </div>
      <div className="flex flex-col items-end gap-1">
        <p className={`font-semibold tabular-nums ${refunded ? 'line-through decoration-base-content/50' : ''}`}>{rupees.format(entry.amount)}</p>
        {/* The word carries the status in the text colour (green 12 px text fails contrast); a dot adds the colour. */}
        <span className="badge badge-sm badge-ghost gap-1.5">
          <span className={`size-2 rounded-full ${refunded ? 'bg-base-content/40' : partly ? 'bg-warning' : 'bg-success'}`} aria-hidden="true" />
          {refunded ? billingTexts.refunded : partly ? billingTexts.partlyRefunded : billingTexts.paid}
        </span>
        {partly && <span className="text-xs text-base-content/80 tabular-nums">{billingTexts.refundedAmount(entry.refunded)}</span>}
      </div>
      {(entry.invoice || entry.creditNotes.length > 0) && (
        <div className="flex basis-full flex-wrap gap-2">
          {entry.invoice && <DocumentLink what={billingTexts.invoice} document={entry.invoice} />}
          {entry.creditNotes.map((creditNote) => (
            <DocumentLink key={creditNote.id} what={billingTexts.creditNote} document={creditNote} />
          ))}
        </div>
      )}
    </li>
  );
}

function DocumentLink({ what, document }: { what: string; document: BillingDocument }) {
  if (!document.ready) {
    return (
      <span className="inline-flex items-center gap-2 text-sm text-base-content/80" role="status">
        <span className="loading loading-spinner loading-xs" aria-hidden="true" />
        {what} {document.number} · {billingTexts.preparing}
      </span>
    );
  }
  return (
    <a
      className="btn btn-outline btn-sm"
      href={API_ROOT + urlFor(endpoints.billing.document, { params: { id: document.id } })}
      download
      aria-label={billingTexts.download(what, document.number)}
    >
      <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <path d="M12 4v11m0 0-4-4m4 4 4-4M5 19h14" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      {what} <span className="font-mono text-xs">{document.number}</span>
    </a>
  );
}
