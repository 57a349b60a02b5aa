import { codeForDisplay, normaliseCode, TraceQuerySchema, WATERMARK_CODE_LENGTH, type TracedPlayback } from '@lms/contract/protection';
import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Link, useSearchParams } from 'react-router';
import { FormField } from '../../lib/components/FormField';
import { courseLink, paths } from '../../lib/paths';
import { usePageTitle } from '../../lib/use-page-title';
import { AccountActions, AccountLine } from './AccountActions';
import { useTraceQuery } from './protection.api';
import { protectionTexts as texts } from './protection-texts';
import { AdminPageHeader } from '../../lib/components/AdminPageHeader';

/** The server lists at most this many playbacks (the newest). */
const TRACE_LIMIT = 20;

const timeFormat = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Kolkata' });
const when = (iso: string) => timeFormat.format(new Date(iso));

/** A trace's playbacks by account, each account where its newest playback is. */
function byAccount(playbacks: TracedPlayback[]) {
  const accounts = new Map<string, { account: TracedPlayback['account']; playbacks: TracedPlayback[] }>();
  for (const playback of playbacks) {
    const entry = accounts.get(playback.account._id) ?? { account: playback.account, playbacks: [] };
    entry.playbacks.push(playback);
    accounts.set(playback.account._id, entry);
  }
  return [...accounts.values()];
}

/**
 * The leak trace (ADMIN only; the router guards it): a watermark code, or the part of it read off
 * a leaked clip, gives the accounts that played it, with what, when and from where; from there the
 * administrator ends the account's sessions or suspends it. The code is kept in the address, so a
 * reload or a link shows the same trace.
 */
export default function TracePage() {
  usePageTitle(texts.traceTitle);
  const [params, setParams] = useSearchParams();
  const asked = params.get('code') ?? '';
  const [typed, setTyped] = useState(asked);
  const query = useTraceQuery(asked, { skip: !asked });
  const resultsId = useId();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const check = TraceQuerySchema.safeParse({ code: typed });
    if (!check.success) {
      toast.error(check.error.issues[0]!.message, { id: 'form-check' });
      return;
    }
    setParams({ code: check.data.code });
    // The same code again reads it again: another playback may have started since.
    if (check.data.code === asked) void query.refetch();
  }

  const answer = query.currentData;
  const accounts = answer ? byAccount(answer.playbacks) : [];

  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6 px-4 py-8">
      <AdminPageHeader title={texts.traceTitle} intro={texts.traceIntro} />

      <form
        role="search"
        aria-label={texts.traceTitle}
        noValidate
        onSubmit={onSubmit}
        className="flex flex-col gap-2 rounded-box border border-base-300 bg-base-100 p-4 shadow-sm sm:flex-row sm:items-end sm:gap-3"
      >
        <div className="min-w-0 flex-1">
          <FormField
            label={texts.code}
            name="code"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            className="font-mono text-lg tracking-wider uppercase"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={40}
            placeholder={codeForDisplay('7K2M9QXD')}
            hint={texts.traceHint}
          />
        </div>
        {/* Level with the input: the hint below it takes the same room on the button's side. */}
        <button type="submit" className="btn btn-primary sm:mb-7 sm:min-w-28" disabled={query.isFetching} aria-busy={query.isFetching}>
          {query.isFetching ? (
            <span className="loading loading-spinner loading-sm" aria-hidden="true" />
          ) : (
            <svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
              <circle cx="11" cy="11" r="7" />
              <path d="m20 20-3.5-3.5" />
            </svg>
          )}
          {texts.trace}
        </button>
      </form>

      {asked && (
        <section aria-labelledby={resultsId} aria-busy={query.isFetching} className="flex flex-col gap-4">
          <h2 id={resultsId} className="sr-only">
            {texts.results}
          </h2>
          {!answer ? (
            query.isError ? (
              <p className="rounded-box bg-base-200 p-6 text-base-content/80">{texts.failed}</p>
            ) : (
              <div className="flex flex-col gap-3">
                <span className="sr-only">{texts.tracing}</span>
                <div className="skeleton h-40 w-full" />
              </div>
            )
          ) : answer.playbacks.length === 0 ? (
            <div role="status" className="rounded-box bg-base-200 p-6">
              <p className="font-semibold">{texts.noPlayback(normaliseCode(asked))}</p>
              <p className="mt-1 text-sm text-base-content/80">{texts.noPlaybackHint}</p>
            </div>
          ) : (
            <>
              <div role="status" className="text-sm text-base-content/80">
                <p>{texts.found(answer.playbacks.length, accounts.length)}</p>
                {answer.playbacks.length >= TRACE_LIMIT && <p>{texts.mostShown(TRACE_LIMIT)}</p>}
              </div>
              <ul className="flex flex-col gap-4">
                {accounts.map(({ account, playbacks }) => (
                  <li key={account._id}>
                    <AccountCard account={account} playbacks={playbacks} asked={normaliseCode(asked)} />
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      )}
    </div>
  );
}

function AccountCard({ account, playbacks, asked }: { account: TracedPlayback['account']; playbacks: TracedPlayback[]; asked: string }) {
  const nameId = useId();
  return (
    <article aria-labelledby={nameId} className="flex flex-col gap-4 rounded-box border border-base-300 bg-base-100 p-4 shadow-sm sm:p-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <AccountLine account={account} id={nameId} />
        <AccountActions account={account} describedBy={nameId} />
      </div>
      <ul aria-label={texts.playbacksOf(account.fullName)} className="flex flex-col gap-3">
        {playbacks.map((playback) => (
          <li key={playback.code} className="rounded-box bg-base-200 p-3 sm:p-4">
            <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
              <p className="min-w-0 font-medium wrap-anywhere">
                {playback.lecture ? (
                  <Link className="link link-hover" to={courseLink(paths.courseLecture, { _id: playback.lecture.courseId }, playback.lecture._id)}>
                    {texts.lectureIn(playback.lecture.title, playback.lecture.courseTitle)}
                  </Link>
                ) : (
                  <span className="text-base-content/80 italic">{texts.lectureDeleted}</span>
                )}
              </p>
              <Code code={playback.code} asked={asked} />
            </div>
            <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_minmax(0,1fr)_auto_minmax(0,1fr)]">
              <dt className="text-base-content/70">{texts.started}</dt>
              <dd>
                <time dateTime={playback.startedAt}>{when(playback.startedAt)}</time>
              </dd>
              <dt className="text-base-content/70">{texts.lastSeen}</dt>
              <dd>
                <time dateTime={playback.lastSeenAt}>{when(playback.lastSeenAt)}</time>
              </dd>
              <dt className="text-base-content/70">{texts.place}</dt>
              <dd className="font-mono break-all">{playback.place}</dd>
              <dt className="text-base-content/70">{texts.device}</dt>
              <dd className="wrap-anywhere">{playback.device}</dd>
            </dl>
          </li>
        ))}
      </ul>
    </article>
  );
}

/** The code as the video shows it (two groups of four), the part that was asked for marked. */
function Code({ code, asked }: { code: string; asked: string }) {
  const at = code.indexOf(asked);
  const shown = codeForDisplay(code);
  // Positions in the shown code: the dash in the middle moves the characters after it on by one.
  const half = WATERMARK_CODE_LENGTH / 2;
  const start = at < 0 ? -1 : at >= half ? at + 1 : at;
  const end = at < 0 ? -1 : at + asked.length > half ? at + asked.length + 1 : at + asked.length;
  return (
    <p className="font-mono text-sm whitespace-nowrap">
      <span className="sr-only">{texts.watermark}: </span>
      {start < 0 ? (
        shown
      ) : (
        <>
          {shown.slice(0, start)}
          <mark className="rounded-sm bg-warning/40 px-0.5 text-base-content">{shown.slice(start, end)}</mark>
          {shown.slice(end)}
        </>
      )}
    </p>
  );
}
