import { LEARNER_SORTS, LEARNER_STATE_LABELS, LEARNER_STATES, type LearnerRow, type LearnerSort, type LearnerState } from '@lms/contract/learners';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { formatDate, rupees } from '../../lib/format';
import { usePageTitle } from '../../lib/use-page-title';
import { learnerLink } from './learner-link';
import { learnersExportUrl, useGetLearnersInfiniteQuery, type LearnersFilter } from './learners.api';
import { learnersTexts as texts } from './learners-texts';
import { Ago, Avatar, Email, StateBadge, SuspendedBadge } from './sections/badges';
import { AdminPageHeader } from '../../lib/components/AdminPageHeader';
import { DownloadIcon } from '../../lib/components/icons';

/** How long typing must pause before the list is searched: one request per word, not per letter. */
const SEARCH_DEBOUNCE_MS = 300;

const isState = (value: string | null): value is LearnerState => LEARNER_STATES.includes(value as LearnerState);
const isSort = (value: string | null): value is LearnerSort => LEARNER_SORTS.includes(value as LearnerSort);

/**
 * Admin only (the router guards it): every account, found by name or email and by state, newest
 * sign-ups or most recently active first, fifty at a time ("Load more" adds the next fifty). The
 * search, state and order live in the address, so a reload, a shared link or Back shows the same
 * list. A table from a tablet's width, a card per learner on a phone.
 */
export default function LearnersPage() {
  usePageTitle(texts.title);
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const stateParam = params.get('state');
  const state = isState(stateParam) ? stateParam : undefined;
  const sortParam = params.get('sort');
  const sort: LearnerSort = isSort(sortParam) ? sortParam : 'signed_up';
  const filter: LearnersFilter = { q: q.trim() || undefined, state, sort };
  const list = useGetLearnersInfiniteQuery(filter);
  const searchId = useId();
  const stateId = useId();
  const sortId = useId();

  function go(next: { q?: string; state?: LearnerState; sort?: LearnerSort }, replace = false) {
    const search = new URLSearchParams();
    if (next.q) search.set('q', next.q);
    if (next.state) search.set('state', next.state);
    if (next.sort && next.sort !== 'signed_up') search.set('sort', next.sort);
    setParams(search, { replace });
  }

  // What is typed reaches the address (and the list) once typing pauses; the address's own changes
  // (Back, a link) reach the box. `written` is the last search this box put there.
  const [typed, setTyped] = useState(q);
  const written = useRef(q);
  useEffect(() => {
    if (q !== written.current) {
      written.current = q;
      setTyped(q);
    }
  }, [q]);
  useEffect(() => {
    if (typed === q) return;
    const timer = setTimeout(() => {
      written.current = typed;
      go({ q: typed, state, sort }, true);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [typed]);

  // The pages of this search; while another search loads, the previous one's rows stay dimmed.
  const learners = list.data?.pages.flatMap((page) => page.learners) ?? [];
  const filtered = filter.q !== undefined || state !== undefined;
  const stale = list.isFetching && !list.isFetchingNextPage;

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-8">
      <AdminPageHeader
        title={texts.title}
        intro={texts.intro}
        actions={
          <a className="btn btn-outline btn-sm" href={learnersExportUrl(filter)} download title={filtered ? texts.exportHint : undefined}>
            <DownloadIcon />
            {texts.exportCsv}
          </a>
        }
      />

      <div role="search" className="grid grid-cols-2 gap-3 rounded-box border border-base-300 bg-base-100 p-4 shadow-sm md:grid-cols-[minmax(0,1fr)_auto_auto]">
        <div className="fieldset col-span-2 min-w-0 p-0 md:col-span-1">
          <label htmlFor={searchId} className="fieldset-legend pt-0 text-sm">
            {texts.search}
          </label>
          <label className="input w-full">
            <SearchIcon />
            <input
              id={searchId}
              type="search"
              className="grow"
              placeholder={texts.searchPlaceholder}
              maxLength={100}
              autoComplete="off"
              spellCheck={false}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
            />
          </label>
        </div>
        <div className="fieldset min-w-0 p-0">
          <label htmlFor={stateId} className="fieldset-legend pt-0 text-sm">
            {texts.state}
          </label>
          <select
            id={stateId}
            className="select w-full md:w-52"
            value={state ?? ''}
            onChange={(event) => go({ q, state: isState(event.target.value) ? event.target.value : undefined, sort })}
          >
            <option value="">{texts.allStates}</option>
            {LEARNER_STATES.map((value) => (
              <option key={value} value={value}>
                {LEARNER_STATE_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <div className="fieldset min-w-0 p-0">
          <label htmlFor={sortId} className="fieldset-legend pt-0 text-sm">
            {texts.sort}
          </label>
          <select
            id={sortId}
            className="select w-full md:w-48"
            value={sort}
            onChange={(event) => go({ q, state, sort: isSort(event.target.value) ? event.target.value : undefined })}
          >
            {LEARNER_SORTS.map((value) => (
              <option key={value} value={value}>
                {texts.sorts[value]}
              </option>
            ))}
          </select>
        </div>
      </div>

      {list.data ? (
        learners.length === 0 ? (
          <EmptyState filtered={filtered} onClear={() => go({ sort })} />
        ) : (
          <div className={`flex flex-col gap-4 transition-opacity ${stale ? 'opacity-60' : ''}`} aria-busy={stale}>
            <LearnerList learners={learners} />
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-sm text-base-content/80 tabular-nums" aria-live="polite">
                {texts.shown(learners.length)}
              </p>
              {list.hasNextPage && (
                <button type="button" className="btn btn-outline btn-sm" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
                  {list.isFetchingNextPage && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
                  {list.isFetchingNextPage ? texts.loadingMore : texts.loadMore}
                </button>
              )}
            </div>
          </div>
        )
      ) : list.isError && !list.isFetching ? (
        <div role="alert" className="flex flex-wrap items-center justify-between gap-3 rounded-box bg-base-200 p-6 text-base-content/80">
          <span>{texts.failed}</span>
          <button type="button" className="btn btn-sm" onClick={() => void list.refetch()}>
            {texts.tryAgain}
          </button>
        </div>
      ) : (
        <div className="flex flex-col gap-3" aria-busy="true">
          <span className="sr-only">{texts.loading}</span>
          <div className="skeleton h-16 w-full" />
          <div className="skeleton h-16 w-full" />
          <div className="skeleton h-16 w-full" />
        </div>
      )}
    </div>
  );
}

function EmptyState({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-box border border-dashed border-base-300 px-6 py-12 text-center">
      <PeopleIcon className="size-10 text-base-content/40" />
      <h2 className="text-lg font-semibold">{filtered ? texts.noMatch : texts.empty}</h2>
      <p className="max-w-md text-base-content/80">{filtered ? texts.noMatchHint : texts.emptyHint}</p>
      {filtered && (
        <button type="button" className="btn btn-outline btn-sm mt-1" onClick={onClear}>
          {texts.clearFilters}
        </button>
      )}
    </div>
  );
}

function LearnerList({ learners }: { learners: LearnerRow[] }) {
  return (
    <>
      {/* Phones: a card per learner, the whole card a link. */}
      <ul aria-label={texts.listLabel} className="flex flex-col gap-3 md:hidden">
        {learners.map((learner) => (
          <li key={learner._id}>
            <Link
              to={learnerLink(learner._id)}
              className="flex flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4 shadow-sm transition-colors hover:border-base-content/30 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
            >
              <Who learner={learner} heading />
              <div className="flex flex-wrap gap-1.5">
                <StateBadge state={learner.state} />
                {learner.suspended && <SuspendedBadge />}
              </div>
              <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
                <Detail label={texts.plan}>{learner.plan ?? texts.noPlan}</Detail>
                <Detail label={texts.lifetimePaid}>
                  <span className="tabular-nums">{rupees.format(learner.lifetimePaid)}</span>
                </Detail>
                <Detail label={texts.signedUp}>
                  <time dateTime={learner.signedUpAt}>{formatDate(learner.signedUpAt)}</time>
                </Detail>
                <Detail label={texts.lastActive}>
                  <LastActive learner={learner} />
                </Detail>
              </dl>
            </Link>
          </li>
        ))}
      </ul>

      {/* From a tablet's width: a table, the name a link. */}
      <div className="hidden overflow-x-auto rounded-box border border-base-300 bg-base-100 md:block">
        <table className="table" aria-label={texts.listLabel}>
          <thead>
            <tr>
              <th scope="col">{texts.learner}</th>
              <th scope="col">{texts.state}</th>
              <th scope="col">{texts.plan}</th>
              <th scope="col">{texts.signedUp}</th>
              <th scope="col">{texts.lastActive}</th>
              <th scope="col" className="text-right">
                {texts.lifetimePaid}
              </th>
            </tr>
          </thead>
          <tbody>
            {learners.map((learner) => (
              <tr key={learner._id} className="hover:bg-base-200/60">
                <th scope="row" className="max-w-72 min-w-52 font-normal">
                  <Who learner={learner} linked />
                </th>
                <td>
                  <div className="flex flex-col items-start gap-1">
                    <StateBadge state={learner.state} />
                    {learner.suspended && <SuspendedBadge />}
                  </div>
                </td>
                <td className="max-w-36 wrap-anywhere">{learner.plan ?? <span className="text-base-content/60">{texts.noPlan}</span>}</td>
                <td className="whitespace-nowrap">
                  <time dateTime={learner.signedUpAt}>{formatDate(learner.signedUpAt)}</time>
                </td>
                <td className="whitespace-nowrap">
                  <LastActive learner={learner} />
                </td>
                <td className="text-right whitespace-nowrap tabular-nums">{rupees.format(learner.lifetimePaid)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** Picture, name and email; in the table the name is the row's link. */
function Who({ learner, heading = false, linked = false }: { learner: LearnerRow; heading?: boolean; linked?: boolean }) {
  const Name = heading ? 'h2' : 'span';
  const name = (
    <Name className={`font-semibold wrap-anywhere ${heading ? 'text-base' : ''}`}>
      {learner.fullName}
      {learner.role === 'ADMIN' && <span className="ml-2 align-middle text-xs font-normal text-base-content/70">{texts.admin}</span>}
    </Name>
  );
  return (
    <div className="flex min-w-0 items-center gap-3">
      <Avatar url={learner.avatarUrl} name={learner.fullName} />
      <div className="flex min-w-0 flex-col">
        {linked ? (
          <Link to={learnerLink(learner._id)} className="link link-hover" aria-label={texts.open(learner.fullName)}>
            {name}
          </Link>
        ) : (
          name
        )}
        <span className="text-sm text-base-content/70 wrap-anywhere">
          <Email address={learner.email} />
        </span>
      </div>
    </div>
  );
}

function LastActive({ learner }: { learner: LearnerRow }) {
  return learner.lastActiveAt ? <Ago iso={learner.lastActiveAt} /> : <span className="text-base-content/60">{texts.never}</span>;
}

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col">
      <dt className="text-base-content/70">{label}</dt>
      <dd className="wrap-anywhere">{children}</dd>
    </div>
  );
}

// Icons: 16 px strokes in the text's colour, as on the other admin pages.
const icon = {
  viewBox: '0 0 24 24',
  width: 16,
  height: 16,
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;

function SearchIcon() {
  return (
    <svg {...icon} className="shrink-0 opacity-60" aria-hidden="true">
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" />
    </svg>
  );
}
function PeopleIcon({ className = '' }: { className?: string }) {
  return (
    <svg {...icon} width={40} height={40} strokeWidth={1.5} className={className} aria-hidden="true">
      <circle cx="9" cy="8" r="4" />
      <path d="M2 21a7 7 0 0 1 14 0M16 4a4 4 0 0 1 0 8M22 21a7 7 0 0 0-4-6.3" />
    </svg>
  );
}
