import { CANCEL_REASONS, CANCELLATION_DAYS, type CancellationReasons as Reasons } from '@lms/contract/payments';
import { useId } from 'react';
import { formatDate } from '../../lib/format';

const countFormat = new Intl.NumberFormat('en-IN');

/** The section's words, with it rather than in the catalogue (which ships with every page's first chunk). */
export const texts = {
  heading: 'Why subscribers cancel',
  hint: `Cancellations in the last ${CANCELLATION_DAYS} days, by the reason given.`,
  none: `Nobody has cancelled in the last ${CANCELLATION_DAYS} days.`,
  skipped: 'No reason given',
  latest: 'Latest cancellations',
  refunded: 'Refunded',
  keptAccess: 'Kept access to period end',
  share: (count: number, total: number) => `${countFormat.format(count)} of ${countFormat.format(total)}`,
  loading: 'Loading cancellation reasons…',
  failed: 'Cancellation reasons could not be loaded.',
};

const labelOf = (reason: keyof typeof CANCEL_REASONS | null) => (reason ? CANCEL_REASONS[reason] : texts.skipped);

/**
 * The reasons subscribers gave when cancelling, as bars (most given first), and the
 * latest cancellations with the subscriber's own words.
 */
export function CancellationReasons({ data, status }: { data: Reasons | undefined; status: 'loading' | 'ready' | 'failed' }) {
  const headingId = useId();
  const latestId = useId();
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <div>
        <h2 id={headingId} className="text-2xl font-semibold">
          {texts.heading}
        </h2>
        <p className="text-sm text-base-content/70">{texts.hint}</p>
      </div>
      {status !== 'ready' || !data ? (
        <p className="rounded-box bg-base-200 p-6 text-base-content/70" aria-live="polite">
          {status === 'failed' ? texts.failed : texts.loading}
        </p>
      ) : data.total === 0 ? (
        <p className="rounded-box bg-base-200 p-4">{texts.none}</p>
      ) : (
        <div className="grid gap-6 lg:grid-cols-2">
          <ul className="flex flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4 shadow-sm">
            {data.reasons.map(({ reason, count }) => (
              <li key={reason ?? 'skipped'} className="flex flex-col gap-1">
                <div className="flex items-baseline justify-between gap-3">
                  <span className="font-medium">{labelOf(reason)}</span>
                  <span className="text-sm text-base-content/70 tabular-nums">{texts.share(count, data.total)}</span>
                </div>
                <progress
                  className="progress progress-primary h-3"
                  value={count}
                  max={data.total}
                  aria-label={`${labelOf(reason)}: ${texts.share(count, data.total)}`}
                />
              </li>
            ))}
          </ul>
          <div className="flex min-w-0 flex-col gap-2">
            <h3 id={latestId} className="text-lg font-semibold">
              {texts.latest}
            </h3>
            <ul aria-labelledby={latestId} className="divide-y divide-base-content/10 rounded-box border border-base-300">
              {data.latest.map((row) => (
                <li key={`${row.email}-${row.date}`} className="flex flex-col gap-1 p-3">
                  <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                    <span className="min-w-0 font-medium wrap-anywhere">{row.fullName}</span>
                    <span className="text-sm text-base-content/70 tabular-nums">{formatDate(row.date)}</span>
                  </div>
                  <span className="text-sm">
                    {labelOf(row.reason)} · <span className="text-base-content/70">{row.refunded ? texts.refunded : texts.keptAccess}</span>
                  </span>
                  {row.note && <q className="text-sm text-base-content/80 italic wrap-anywhere">{row.note}</q>}
                </li>
              ))}
            </ul>
          </div>
        </div>
      )}
    </section>
  );
}
