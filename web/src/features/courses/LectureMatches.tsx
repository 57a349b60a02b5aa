import type { CaptionMatch } from '@lms/contract/captions';
import { Link } from 'react-router';
import { clockDuration } from '../../lib/format';
import { paths } from '../../lib/paths';
import { lectureMatchesTexts as texts } from './lecture-matches-texts';
import { useGetLectureMatchesQuery } from './lecture-matches.api';

/** The shortest search the server reads inside lectures. */
const SEARCH_MIN = 2;

/**
 * Where a match opens: the lecture at the cue, for a viewer who may watch it; otherwise the
 * course's page, which says how to get it.
 */
export function matchLink(match: CaptionMatch): string {
  const course = `?id=${encodeURIComponent(match.course._id)}`;
  if (!match.canWatch) return `${paths.courseDescription}${course}`;
  return `${paths.courseLecture}${course}&lecture=${encodeURIComponent(match.lecture._id)}&t=${match.start}`;
}

/**
 * The catalogue's search inside what lectures say: the best cue of each lecture that says it,
 * its words marked, linking to the lecture at that moment. Shown only while there is a search;
 * says nothing when the search fails (the courses above are the page's answer).
 */
export function LectureMatches({ search }: { search: string }) {
  const skip = search.length < SEARCH_MIN;
  const { currentData, isFetching, isError } = useGetLectureMatchesQuery(search, { skip });
  if (skip || isError) return null;
  const matches = currentData?.matches;
  return (
    <section aria-labelledby="lecture-matches-heading" aria-busy={isFetching} className="mt-10">
      <h2 id="lecture-matches-heading" className="text-xl font-semibold">
        {texts.heading}
      </h2>
      <p className="mb-4 text-sm text-base-content/70 wrap-anywhere">{texts.intro(search)}</p>
      {!matches && isFetching && (
        <p role="status" className="flex items-center gap-2 text-sm text-base-content/70">
          <span className="loading loading-sm loading-spinner" aria-hidden="true" />
          {texts.loading}
        </p>
      )}
      {matches?.length === 0 && <p className="text-base-content/80 wrap-anywhere">{texts.none(search)}</p>}
      {matches && matches.length > 0 && (
        <ul className="grid grid-cols-1 gap-3 lg:grid-cols-2">
          {matches.map((match) => (
            <li key={match.lecture._id}>
              <MatchCard match={match} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function MatchCard({ match }: { match: CaptionMatch }) {
  const time = clockDuration(match.start);
  return (
    <article className="relative flex h-full flex-col gap-2 rounded-box bg-base-100 p-4 shadow-sm ring-1 ring-base-content/10 transition hover:shadow-md has-focus-visible:ring-3 has-focus-visible:ring-primary">
      <p className="text-sm text-base-content/70 wrap-anywhere">{match.course.title}</p>
      <h3 className="font-semibold leading-snug wrap-anywhere">
        {/* The whole card opens the match; the link carries its name. */}
        <Link to={matchLink(match)} aria-label={texts.openAt(match.lecture.title, time)} className="after:absolute after:inset-0 focus-visible:outline-none">
          {match.lecture.title}
        </Link>
      </h3>
      <blockquote lang={match.language} className="border-l-4 border-primary/40 pl-3 text-base-content/90 wrap-anywhere">
        {match.parts.map((part, index) =>
          part.hit ? (
            <mark key={index} className="rounded-sm bg-warning/40 px-0.5 text-base-content dark:bg-warning/30">
              {part.text}
            </mark>
          ) : (
            <span key={index}>{part.text}</span>
          ),
        )}
      </blockquote>
      <p className="mt-auto flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-base-content/70">
        <span className="badge badge-ghost badge-sm font-mono tabular-nums">{time}</span>
        <span>{match.label}</span>
        <span className={match.canWatch ? 'text-primary' : ''}>{match.canWatch ? texts.playsFrom : texts.aboutCourse}</span>
      </p>
    </article>
  );
}
