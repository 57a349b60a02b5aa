import type { CurriculumLecture, Section } from '@lms/contract/lectures';
import { messages } from '@lms/contract/messages';
import { curriculumItems, type CurriculumItem } from '@lms/contract/curriculum';
import type { QuizSummary } from '@lms/contract/quizzes';
import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { clockDuration, isoDuration, spokenDuration } from '../../lib/format';
import { QuizIcon, quizLink, quizTakeTexts } from '../quizzes';
import { PlayIcon } from './PlayIcon';
import type { PlayablePreview } from './PreviewDialog';

/** Past this many sections, only the first is open at first: the list stays short enough to take in. */
const SECTIONS_ALL_OPEN = 5;

/** "3 lectures · 24s total length", or just the count while no length is known. */
export function curriculumSummary(lectureCount: number, totalDuration: number | null) {
  const count = messages.lectureCount(lectureCount);
  return totalDuration ? `${count} · ${messages.totalLength(spokenDuration(totalDuration))}` : count;
}

type Item = CurriculumItem<CurriculumLecture, QuizSummary>;

export const isPlayable = (lecture: CurriculumLecture): lecture is PlayablePreview => lecture.preview && Boolean(lecture.secure_url);

interface CurriculumProps {
  /** The course's sections, in order; none for a course whose lectures are listed alone. */
  sections?: readonly Section[];
  lectures: CurriculumLecture[] | undefined;
  /** The course's quizzes, each at its place among the lectures. */
  quizzes?: readonly QuizSummary[];
  /** For the quizzes' links. */
  courseId?: string;
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
 * with the free previews playable by anyone. A course with sections lists its lectures of no
 * section first, then each section under its title, with how many lectures it has and how long
 * they last; sections without lectures yet are left out. The course's quizzes sit at their places,
 * a link to each for those who may take them.
 */
export function Curriculum({ sections = [], lectures, quizzes = [], courseId, lectureCount, totalDuration, canWatch, onPlay, failure }: CurriculumProps) {
  const headingId = useId();
  const rows = (items: Item[]) =>
    items.map((item) =>
      item.kind === 'lecture' ? (
        <CurriculumRow key={item.lecture._id} lecture={item.lecture} canWatch={canWatch} onPlay={onPlay} />
      ) : (
        <QuizRow key={`quiz:${item.quiz._id}`} quiz={item.quiz} courseId={canWatch ? courseId : undefined} />
      ),
    );
  const items = lectures ? curriculumItems(sections, lectures, quizzes) : [];
  const groups =
    lectures && sections.length > 0
      ? [null, ...sections].map((section) => ({ section, items: items.filter((item) => item.sectionId === (section?._id ?? null)) }))
      : undefined;
  const shownSections = groups?.slice(1).filter((group) => group.items.length > 0) ?? [];
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
      ) : items.length === 0 ? (
        <p className="mt-4 rounded-box bg-base-200 p-6 text-center">{messages.noLecturesYet}</p>
      ) : !groups ? (
        <ol className="mt-4 divide-y divide-base-content/10 rounded-box border border-base-content/15">{rows(items)}</ol>
      ) : (
        <div className="mt-4 space-y-3">
          {groups[0]!.items.length > 0 && (
            <ol className="divide-y divide-base-content/10 rounded-box border border-base-content/15">{rows(groups[0]!.items)}</ol>
          )}
          {shownSections.map(({ section, items: inSection }, index) => (
            <SectionPanel
              key={section!._id}
              title={section!.title}
              lectures={inSection.flatMap((item) => (item.kind === 'lecture' ? [item.lecture] : []))}
              quizCount={inSection.filter((item) => item.kind === 'quiz').length}
              open={index === 0 || shownSections.length <= SECTIONS_ALL_OPEN}
            >
              {rows(inSection)}
            </SectionPanel>
          ))}
        </div>
      )}
    </section>
  );
}

/** "5 lectures · 24m": a section's size, with its length once known (and its quizzes, when it has some). */
function sectionSummary(lectures: CurriculumLecture[], quizCount: number) {
  const known = lectures.map((lecture) => lecture.duration).filter((seconds) => seconds !== null);
  const count = messages.lectureCount(lectures.length) + (quizCount > 0 ? ` · ${quizTakeTexts.quizCount(quizCount)}` : '');
  return known.length > 0 ? `${count} · ${spokenDuration(known.reduce((sum, seconds) => sum + seconds, 0))}` : count;
}

/** A section: its title and size, opening onto its lectures (a native disclosure, as the FAQ's). */
function SectionPanel({
  title,
  lectures,
  quizCount,
  open,
  children,
}: {
  title: string;
  lectures: CurriculumLecture[];
  quizCount: number;
  open: boolean;
  children: ReactNode;
}) {
  return (
    <details open={open} className="group rounded-box border border-base-content/15">
      <summary className="flex cursor-pointer list-none items-center gap-3 rounded-box bg-base-200 px-4 py-3 group-open:rounded-b-none [&::-webkit-details-marker]:hidden">
        <svg
          viewBox="0 0 24 24"
          width="18"
          height="18"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          className="shrink-0 -rotate-90 transition-transform group-open:rotate-0"
          aria-hidden="true"
        >
          <path d="M6 9l6 6 6-6" />
        </svg>
        <h3 className="min-w-0 flex-1 font-semibold wrap-anywhere">{title}</h3>
        <span className="shrink-0 text-sm text-base-content/70">{sectionSummary(lectures, quizCount)}</span>
      </summary>
      <ol className="divide-y divide-base-content/10 border-t border-base-content/15">{children}</ol>
    </details>
  );
}

/** One lecture: its title (a preview's plays), its preview badge and its length. */
function CurriculumRow({ lecture, canWatch, onPlay }: { lecture: CurriculumLecture; canWatch: boolean; onPlay: (lecture: PlayablePreview) => void }) {
  return (
    <li className="flex items-center gap-3 px-4 py-3">
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
  );
}

/** A quiz at its place: its title and size; a link to it for those who may take it. */
function QuizRow({ quiz, courseId }: { quiz: QuizSummary; courseId: string | undefined }) {
  const title = (
    <span className="min-w-0 wrap-anywhere">
      <span className="sr-only">{quizTakeTexts.quiz}: </span>
      {quiz.title}
    </span>
  );
  return (
    <li className="flex items-center gap-3 px-4 py-3">
      {courseId ? (
        <Link to={quizLink(courseId, quiz._id)} className="flex min-w-0 flex-1 items-center gap-3 font-medium text-primary hover:underline">
          <QuizIcon className="size-5 shrink-0" />
          {title}
        </Link>
      ) : (
        <span className="flex min-w-0 flex-1 items-center gap-3">
          <QuizIcon />
          {title}
        </span>
      )}
      <span className="badge badge-sm shrink-0 badge-ghost">{quizTakeTexts.quiz}</span>
      <span className="shrink-0 text-right text-sm text-base-content/70">{quizTakeTexts.quizMeta(quiz.questionCount)}</span>
    </li>
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
