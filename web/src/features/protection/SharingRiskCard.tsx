import type { SharingRisk } from '@lms/contract/protection';
import { useId } from 'react';
import { Link } from 'react-router';
import { paths } from '../../lib/paths';
import { AccountActions, AccountLine } from './AccountActions';
import { useGetSharingRiskQuery } from './protection.api';
import { protectionTexts as texts } from './protection-texts';

const timeFormat = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Kolkata' });

/**
 * The dashboard's list of accounts that look shared: seen from more address blocks, or refused
 * more streams, than the settings' thresholds in the last day; the worst first, each with what the
 * administrator can do about it. `wait` holds its call back while the page loads what comes first.
 */
export function SharingRiskCard({ wait = false }: { wait?: boolean }) {
  const headingId = useId();
  const query = useGetSharingRiskQuery(undefined, { skip: wait });
  const answer = query.currentData;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4 rounded-box border border-base-300 bg-base-100 p-4 shadow-sm sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex max-w-2xl min-w-0 flex-col gap-1">
          <h2 id={headingId} className="text-2xl font-semibold">
            {texts.riskTitle}
          </h2>
          {answer && <p className="text-sm text-base-content/80">{texts.riskIntro(answer.windowHours, answer.addressBlocks, answer.refusals)}</p>}
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to={paths.trace} className="btn btn-outline btn-sm">
            <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
              <circle cx="11" cy="11" r="7" />
              <path d="m20 20-3.5-3.5" />
            </svg>
            {texts.toTrace}
          </Link>
          <Link to={{ pathname: paths.settings, hash: '#settings-protection' }} className="btn btn-ghost btn-sm">
            {texts.thresholds}
          </Link>
        </div>
      </div>
      {!answer ? (
        query.isError ? (
          <p className="text-base-content/80">{texts.riskFailed}</p>
        ) : (
          <p aria-busy="true" className="text-base-content/80">
            {texts.riskLoading}
          </p>
        )
      ) : answer.accounts.length === 0 ? (
        <div className="flex items-start gap-3 rounded-box bg-base-200 p-4">
          <svg
            viewBox="0 0 24 24"
            width="24"
            height="24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
            className="mt-0.5 shrink-0 text-success"
            aria-hidden="true"
          >
            <path d="M12 3 4 6v6c0 4.5 3.4 8.3 8 9 4.6-.7 8-4.5 8-9V6z" />
            <path d="m8.5 12 2.5 2.5 4.5-5" />
          </svg>
          <div>
            <p className="font-semibold">{texts.riskEmpty(answer.windowHours)}</p>
            <p className="text-sm text-base-content/80">{texts.riskEmptyHint}</p>
          </div>
        </div>
      ) : (
        <ul aria-label={texts.riskList} className="flex flex-col gap-3">
          {answer.accounts.map((entry) => (
            <li key={entry.account._id}>
              <RiskRow entry={entry} thresholds={{ addressBlocks: answer.addressBlocks, refusals: answer.refusals }} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function RiskRow({ entry, thresholds }: { entry: SharingRisk; thresholds: { addressBlocks: number; refusals: number } }) {
  const nameId = useId();
  return (
    <article aria-labelledby={nameId} className="flex flex-col gap-3 rounded-box bg-base-200 p-4">
      <div className="flex flex-col gap-3 md:flex-row md:items-start md:justify-between">
        <div className="flex min-w-0 flex-col gap-1">
          <AccountLine account={entry.account} id={nameId} />
          {entry.lastSeenAt && (
            <p className="text-xs text-base-content/70">
              {texts.lastSeen} <time dateTime={entry.lastSeenAt}>{timeFormat.format(new Date(entry.lastSeenAt))}</time>
            </p>
          )}
        </div>
        <AccountActions account={entry.account} describedBy={nameId} />
      </div>
      <dl className="grid gap-3 sm:grid-cols-2">
        <Gauge label={texts.addressBlocks} count={entry.addressBlocks} threshold={thresholds.addressBlocks} />
        <Gauge label={texts.refusals} count={entry.refusals} threshold={thresholds.refusals} />
      </dl>
    </article>
  );
}

/**
 * A count against its threshold, in words and as a bar: the threshold sits at the bar's middle,
 * so an account past it reads as past the mark at a glance. The words carry it for a screen reader.
 */
function Gauge({ label, count, threshold }: { label: string; count: number; threshold: number }) {
  const over = count > threshold;
  const width = Math.min(100, (count / (2 * threshold)) * 100);
  return (
    <div className="flex flex-col gap-1">
      <dt className="text-sm text-base-content/80">{label}</dt>
      <dd className="flex flex-col gap-1.5">
        <span className={`text-sm tabular-nums ${over ? 'font-semibold' : ''}`}>
          {over ? texts.ofThreshold(count, threshold) : texts.underThreshold(count, threshold)}
        </span>
        <span className="relative block h-2 overflow-hidden rounded-full bg-base-300" aria-hidden="true">
          <span className={`absolute inset-y-0 left-0 rounded-full ${over ? 'bg-error' : 'bg-base-content/40'}`} style={{ width: `${width}%` }} />
          <span className="absolute inset-y-0 left-1/2 w-0.5 bg-base-content/70" />
        </span>
      </dd>
    </div>
  );
}
