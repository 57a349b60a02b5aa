import type { CurriculumLecture } from '@lms/contract/lectures';
import { messages } from '@lms/contract/messages';
import { useId, type ReactNode } from 'react';
import { clockDuration, isoDuration, spokenDuration } from '../../lib/format';
import { PlayIcon, type PlayablePreview } from './PreviewDialog';

/** "3 lectures · 24s total length", or just the count while no length is known. */
export function curriculumSummary(lectureCount: number, totalDuration: number | null) {
  const count = messages.lectureCount(lectureCount);
  return totalDuration ? `${count} · ${messages.totalLength(spokenDuration(totalDuration))}` : count;
}

export const isPlayable = (lecture: CurriculumLecture): lecture is PlayablePreview => lecture.preview && Boolean(lecture.secure_url);

interface CurriculumProps {
  lectures: CurriculumLecture[] | undefined;
  lectureCount: number | undefined;
  totalDuration: number | null | undefined;
  /** A subscriber or an administrator: every lecture plays on the lecture page, none is locked. */
  canWatch: boolean;
  onPlay: (lecture: PlayablePreview) => void;
  /** Instead of the list, when it could not be loaded. */
  failure?: ReactNode;
}

/**
 * What a buyer weighs before paying: every lecture's title and length, in the order they play,
 * with the free previews playable by anyone.
 */
export function Curriculum({ lectures, lectureCount, totalDuration, canWatch, onPlay, failure }: CurriculumProps) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="min-w-0">
      <h2 id={headingId} className="text-2xl font-bold">
        {messages.courseContent}
      </h2>
      {lectures && lectureCount !== undefined ? (
        <p className="mt-1 text-sm text-base-content/70">{curriculumSummary(lectureCount, totalDuration ?? null)}</p>
      ) : (
        !failure && <div className="skeleton mt-2 h-4 w-48" />
      )}
      {failure ? (
        <div className="mt-4">{failure}</div>
      ) : !lectures ? (
        <ul aria-hidden="true" className="mt-4 divide-y divide-base-content/10 rounded-box border border-base-content/15">
          {[0, 1, 2].map((row) => (
            <li key={row} className="flex items-center gap-3 px-4 py-3.5">
              <div className="skeleton size-5 shrink-0 rounded-full" />
              <div className="skeleton h-4 flex-1" />
              <div className="skeleton h-4 w-10" />
            </li>
          ))}
        </ul>
      ) : lectures.length === 0 ? (
        <p className="mt-4 rounded-box bg-base-200 p-6 text-center">{messages.noLecturesYet}</p>
      ) : (
        <ol className="mt-4 divide-y divide-base-content/10 rounded-box border border-base-content/15">
          {lectures.map((lecture) => (
            <li key={lecture._id} className="flex items-center gap-3 px-4 py-3">
              {isPlayable(lecture) ? (
                <button
                  type="button"
                  className="flex min-w-0 flex-1 cursor-pointer items-center gap-3 text-left font-medium text-primary hover:underline"
                  onClick={() => onPlay(lecture)}
                >
                  <PlayIcon />
                  <span className="min-w-0 wrap-anywhere">
                    <span className="sr-only">{messages.playPreview}: </span>
                    {lecture.title}
                  </span>
                </button>
              ) : (
                <span className="flex min-w-0 flex-1 items-center gap-3">
                  {canWatch ? <VideoIcon /> : <LockIcon />}
                  <span className="min-w-0 wrap-anywhere">
                    {lecture.title}
                    {!canWatch && <span className="sr-only"> ({messages.forSubscribers})</span>}
                  </span>
                </span>
              )}
              {lecture.preview && <span className="badge badge-sm shrink-0 badge-soft badge-primary">{messages.previewBadge}</span>}
              {lecture.duration !== null && (
                <time dateTime={isoDuration(lecture.duration)} className="w-12 shrink-0 text-right text-sm tabular-nums text-base-content/70">
                  {clockDuration(lecture.duration)}
                </time>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function LockIcon() {
  return (
    <svg viewBox="0 0 24 24" className="size-5 shrink-0 text-base-content/60" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <rect x="5" y="11" width="14" height="10" rx="2" />
      <path d="M8 11V8a4 4 0 0 1 8 0v3" />
    </svg>
  );
}

function VideoIcon() {
  return (
    <svg viewBox="0 0 24 24" className="size-5 shrink-0 text-base-content/60" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="M10 9.5v5l4.5-2.5z" fill="currentColor" stroke="none" />
    </svg>
  );
}
