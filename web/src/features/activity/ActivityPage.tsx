import { AUDIT_ACTIONS, AUDIT_AREA_LABELS, AUDIT_AREAS, type AuditAction, type AuditArea, type AuditEntry } from '@lms/contract/audit';
import { useId, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { usePageTitle } from '../../lib/use-page-title';
import { activityTexts as texts } from './activity-texts';
import { activityExportUrl, useGetActivityInfiniteQuery, type ActivityFilter } from './activity.api';
import { AdminPageHeader } from '../../lib/components/AdminPageHeader';
import { DownloadIcon } from '../../lib/components/icons';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isArea = (value: string | null): value is AuditArea => AUDIT_AREAS.includes(value as AuditArea);
const isAction = (value: string | null): value is AuditAction => value !== null && Object.hasOwn(AUDIT_ACTIONS, value);
const ACTIONS = Object.entries(AUDIT_ACTIONS) as [AuditAction, (typeof AUDIT_ACTIONS)[AuditAction]][];

/** The filters the address holds; what cannot be read there is left out rather than sent to be refused. */
function filterOf(params: URLSearchParams): ActivityFilter {
  const area = params.get('area');
  const action = params.get('action');
  const actorId = params.get('actorId');
  const targetId = params.get('targetId');
  const from = params.get('from');
  const to = params.get('to');
  return {
    ...(isArea(area) && { area }),
    ...(isAction(action) && { action }),
    ...(actorId && UUID.test(actorId) && { actorId }),
    ...(targetId && UUID.test(targetId) && { targetId }),
    ...(from && DAY.test(from) && { from }),
    ...(to && DAY.test(to) && { to }),
  };
}

/** "28 Nov 2026, 14:05", India's time, as the CSV has it. */
const indianTime = new Intl.DateTimeFormat('en-IN', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'Asia/Kolkata',
});
const when = (iso: string) => indianTime.format(new Date(iso));
const actionLabel = (action: string) => (isAction(action) ? AUDIT_ACTIONS[action].label : action);

/**
 * Admin only (the router guards it): the audit trail, newest first: who did what, when, to what
 * and why. Filters by area, action, administrator and days (India's calendar), and by one target
 * when a link brings its id (a learner's page links here with `?targetId=`). The filters live in the
 * address, so a reload or a link shows the same; "Load more" reads the entries before the last
 * shown, and the CSV export takes the same filters. A stacked list below `lg`, a table above.
 */
export default function ActivityPage() {
  usePageTitle(texts.title);
  const [params, setParams] = useSearchParams();
  const filter = filterOf(params);
  const query = useGetActivityInfiniteQuery(filter);
  const pages = query.currentData?.pages;
  const entries = pages?.flatMap((page) => page.entries) ?? [];
  // The administrators who have acted do not depend on the filters: the last answer's list stays
  // while the next is read, so the choice is never empty under the pointer.
  const actors = query.data?.pages[0]?.actors ?? [];
  const filtered = Object.keys(filter).length > 0;
  const ids = { area: useId(), action: useId(), actor: useId(), from: useId(), to: useId() };

  function set(changes: Partial<Record<keyof ActivityFilter, string | undefined>>) {
    const next = { ...filter, ...changes } as Record<string, string | undefined>;
    // An action belongs to one area: choosing another area lets it go.
    if (changes.area && next.action && isAction(next.action) && AUDIT_ACTIONS[next.action].area !== changes.area) delete next.action;
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(next)) if (value) search.set(key, value);
    setParams(search, { replace: true });
  }

  const shownActions = ACTIONS.filter(([, action]) => !filter.area || action.area === filter.area);

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-8">
      <AdminPageHeader title={texts.title} intro={texts.intro} />

      <section aria-label={texts.filters} className="flex flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4 shadow-sm">
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-5">
          <Field id={ids.area} label={texts.area}>
            <select id={ids.area} className="select w-full" value={filter.area ?? ''} onChange={(event) => set({ area: event.target.value || undefined })}>
              <option value="">{texts.allAreas}</option>
              {AUDIT_AREAS.map((area) => (
                <option key={area} value={area}>
                  {AUDIT_AREA_LABELS[area]}
                </option>
              ))}
            </select>
          </Field>
          <Field id={ids.action} label={texts.action}>
            <select
              id={ids.action}
              className="select w-full"
              value={filter.action ?? ''}
              onChange={(event) => set({ action: event.target.value || undefined })}
            >
              <option value="">{texts.allActions}</option>
              {AUDIT_AREAS.filter((area) => shownActions.some(([, action]) => action.area === area)).map((area) => (
                <optgroup key={area} label={AUDIT_AREA_LABELS[area]}>
                  {shownActions
                    .filter(([, action]) => action.area === area)
                    .map(([name, action]) => (
                      <option key={name} value={name}>
                        {action.label}
                      </option>
                    ))}
                </optgroup>
              ))}
            </select>
          </Field>
          <Field id={ids.actor} label={texts.administrator}>
            <select
              id={ids.actor}
              className="select w-full"
              value={filter.actorId ?? ''}
              onChange={(event) => set({ actorId: event.target.value || undefined })}
            >
              <option value="">{texts.allAdministrators}</option>
              {actors.map((actor) => (
                <option key={actor._id} value={actor._id}>
                  {actor.name} ({actor.email})
                </option>
              ))}
              {/* One chosen by a link but not (or no longer) among those listed still shows as chosen. */}
              {filter.actorId && pages && !actors.some((actor) => actor._id === filter.actorId) && (
                <option value={filter.actorId}>{texts.administrator}</option>
              )}
            </select>
          </Field>
          <Field id={ids.from} label={texts.from}>
            <input
              id={ids.from}
              type="date"
              className="input w-full"
              value={filter.from ?? ''}
              max={filter.to}
              onChange={(event) => set({ from: event.target.value || undefined })}
            />
          </Field>
          <Field id={ids.to} label={texts.to}>
            <input
              id={ids.to}
              type="date"
              className="input w-full"
              value={filter.to ?? ''}
              min={filter.from}
              onChange={(event) => set({ to: event.target.value || undefined })}
            />
          </Field>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            {filter.targetId && (
              <span className="badge badge-ghost gap-2">
                {texts.targetOnly}
                <button type="button" className="link" onClick={() => set({ targetId: undefined })}>
                  {texts.clearTarget}
                </button>
              </span>
            )}
            {filtered && (
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => setParams(new URLSearchParams(), { replace: true })}>
                {texts.clear}
              </button>
            )}
          </div>
          <a className="btn btn-outline btn-sm" href={activityExportUrl(filter)} download title={texts.exportHint}>
            <DownloadIcon />
            {texts.exportCsv}
          </a>
        </div>
      </section>

      {pages ? (
        entries.length === 0 ? (
          <EmptyState filtered={filtered} />
        ) : (
          <>
            <EntryList entries={entries} />
            <div className="flex flex-col items-center gap-2">
              <p className="text-sm text-base-content/80 tabular-nums" aria-live="polite">
                {texts.shown(entries.length)}
              </p>
              {query.hasNextPage && (
                <button type="button" className="btn btn-outline btn-sm" disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
                  {query.isFetchingNextPage ? texts.loadingMore : texts.loadMore}
                </button>
              )}
            </div>
          </>
        )
      ) : (
        <Pending failed={query.isError && !query.isFetching} />
      )}
    </div>
  );
}

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="fieldset min-w-0 p-0">
      <label htmlFor={id} className="fieldset-legend pt-0 text-sm">
        {label}
      </label>
      {children}
    </div>
  );
}

function Pending({ failed }: { failed: boolean }) {
  if (failed) return <p className="rounded-box bg-base-200 p-6 text-base-content/80">{texts.failed}</p>;
  return (
    <div className="flex flex-col gap-3" aria-busy="true">
      <span className="sr-only">{texts.loading}</span>
      <div className="skeleton h-16 w-full" />
      <div className="skeleton h-16 w-full" />
      <div className="skeleton h-16 w-full" />
    </div>
  );
}

function EmptyState({ filtered }: { filtered: boolean }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-box border border-dashed border-base-300 px-6 py-12 text-center">
      <ListIcon />
      <h2 className="text-lg font-semibold">{filtered ? texts.emptyFiltered : texts.empty}</h2>
      <p className="max-w-md text-base-content/80">{filtered ? texts.emptyFilteredHint : texts.emptyHint}</p>
    </div>
  );
}

function EntryList({ entries }: { entries: AuditEntry[] }) {
  return (
    <>
      {/* Up to a laptop's width: one entry under another, each a short stack. */}
      <ul aria-label={texts.listLabel} className="flex flex-col gap-3 lg:hidden">
        {entries.map((entry) => (
          <li key={entry._id} className="flex flex-col gap-2 rounded-box border border-base-300 bg-base-100 p-4 shadow-sm">
            <div className="flex items-start justify-between gap-3">
              <h2 className="font-semibold wrap-anywhere">{actionLabel(entry.action)}</h2>
              <AreaBadge area={entry.area} />
            </div>
            <p className="text-sm text-base-content/80">
              <time dateTime={entry.at}>{when(entry.at)}</time> · <Actor entry={entry} />
            </p>
            <dl className="grid grid-cols-1 gap-1 text-sm">
              {entry.target && <Detail label={texts.target}>{entry.target.label}</Detail>}
              {entry.reason && <Detail label={texts.reason}>{entry.reason}</Detail>}
              <Detail label={texts.summary}>{entry.summary}</Detail>
            </dl>
          </li>
        ))}
      </ul>

      {/* Wide screens: a table. */}
      <div className="hidden rounded-box border border-base-300 bg-base-100 lg:block">
        <table className="table [&_tbody_:is(td,th)]:align-top" aria-label={texts.listLabel}>
          <thead>
            <tr>
              <th scope="col">{texts.when}</th>
              <th scope="col">{texts.administrator}</th>
              <th scope="col">{texts.action}</th>
              <th scope="col">{texts.target}</th>
              <th scope="col">{texts.reason}</th>
              <th scope="col">{texts.summary}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry._id}>
                <td className="whitespace-nowrap tabular-nums">
                  <time dateTime={entry.at}>{when(entry.at)}</time>
                </td>
                <td className="max-w-48 wrap-anywhere">
                  <Actor entry={entry} withEmail />
                </td>
                <th scope="row" className="min-w-44 font-normal">
                  <span className="block font-medium">{actionLabel(entry.action)}</span>
                  <AreaBadge area={entry.area} />
                </th>
                <td className="max-w-48 wrap-anywhere">{entry.target?.label ?? texts.noTarget}</td>
                <td className="max-w-48 wrap-anywhere">{entry.reason ?? ''}</td>
                <td className="max-w-64 wrap-anywhere">{entry.summary}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Actor({ entry, withEmail = false }: { entry: AuditEntry; withEmail?: boolean }) {
  if (!entry.actor) return <span className="italic">{texts.queue}</span>;
  return (
    <>
      <span className={withEmail ? 'block' : ''}>{entry.actor.name}</span>
      {withEmail && <span className="block text-xs text-base-content/70">{entry.actor.email}</span>}
    </>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 gap-2">
      <dt className="shrink-0 text-base-content/70">{label}</dt>
      <dd className="min-w-0 wrap-anywhere">{children}</dd>
    </div>
  );
}

/** The area in words, its colour on a dot beside them (coloured small text fails contrast). */
const AREA_DOTS: Record<AuditArea, string> = { people: 'bg-info', money: 'bg-success', content: 'bg-secondary', settings: 'bg-warning' };
function AreaBadge({ area }: { area: AuditArea }) {
  return (
    <span className="badge badge-sm badge-ghost mt-1 shrink-0 gap-1.5 whitespace-nowrap">
      <span className={`size-2 shrink-0 rounded-full ${AREA_DOTS[area]}`} aria-hidden="true" />
      {AUDIT_AREA_LABELS[area]}
    </span>
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

function ListIcon() {
  return (
    <svg {...icon} width={40} height={40} strokeWidth={1.5} className="size-10 text-base-content/40" aria-hidden="true">
      <path d="M9 6h11M9 12h11M9 18h11M4 6h.01M4 12h.01M4 18h.01" />
    </svg>
  );
}
