import type { Lecture, Section } from '@lms/contract/lectures';
import type { CourseProgress, LectureProgress } from '@lms/contract/progress';
import { curriculumItems, type CurriculumItem } from '@lms/contract/curriculum';
import type { QuizStanding, QuizSummary } from '@lms/contract/quizzes';
import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { clockDuration, isoDuration } from '../../lib/format';
import { CourseProgressBar } from '../progress';
import { progressTexts } from '../progress';
import { QuizIcon, quizLink, quizTakeTexts } from '../quizzes';

type Item = CurriculumItem<Lecture, QuizSummary>;

/**
 * The lecture list beside the player: each lecture's number, title and length; for a signed-in
 * learner a check on completed lectures and where they stopped in started ones, and the course's
 * progress above. `adminTools` adds the admin's controls under each lecture. A course with
 * sections lists its lectures of no section first, then each section's under its title, with how
 * many of them the learner has completed once they have started the course. The course's quizzes
 * sit at their places among the lectures, each a link to its page, checked once passed.
 */
export function LectureList({
  sections = [],
  lectures,
  quizzes = [],
  quizStanding = () => undefined,
  courseId,
  current,
  onPick,
  progressOf,
  course,
  action,
  adminTools,
  footer,
}: {
  /** The course's sections, in order; none for a course whose lectures are listed alone. */
  sections?: readonly Section[];
  lectures: Lecture[];
  /** The course's quizzes, each shown at its place. */
  quizzes?: readonly QuizSummary[];
  /** The learner's standing in a quiz (undefined: not attempted, or not signed in). */
  quizStanding?: (quizId: string) => QuizStanding | undefined;
  /** For the quizzes' links. */
  courseId?: string;
  current: number;
  onPick: (index: number) => void;
  progressOf: (lectureId: string) => LectureProgress | undefined;
  course: CourseProgress | null | undefined;
  /** Beside the heading (the admin's "Add new lecture"). */
  action?: ReactNode;
  adminTools?: (lecture: Lecture) => ReactNode;
  /** Under the list (the admin's note of the server's ffmpeg). */
  footer?: ReactNode;
}) {
  const isAdmin = adminTools !== undefined;
  const listClass = isAdmin ? 'divide-y divide-base-content/10' : 'space-y-1';
  const indexOf = new Map(lectures.map((lecture, index) => [lecture._id, index]));
  const items = curriculumItems(sections, lectures, quizzes);
  const isDone = (item: Item) => (item.kind === 'lecture' ? progressOf(item.lecture._id)?.completed === true : quizStanding(item.quiz._id)?.passed === true);
  const entry = (item: Item) => (item.kind === 'lecture' ? row(item.lecture, indexOf.get(item.lecture._id) ?? 0) : quizRow(item.quiz));
  const quizRow = (quiz: QuizSummary) => {
    const passed = quizStanding(quiz._id)?.passed === true;
    return (
      <li key={`quiz:${quiz._id}`} className={isAdmin ? 'py-1' : undefined}>
        {courseId ? (
          <Link to={quizLink(courseId, quiz._id)} className="flex w-full items-start gap-2 rounded-field px-3 py-2.5 text-left hover:bg-base-200">
            <span className="w-5 shrink-0 text-base-content/70">{passed ? <CompletedMark label={quizTakeTexts.quizPassed} /> : <QuizIcon />}</span>{' '}
            <span className="min-w-0 flex-1">
              <span className="block wrap-anywhere">{quizTakeTexts.quizRow(quiz.title)}</span>
              <span className="mt-0.5 block text-xs text-base-content/70">{quizTakeTexts.quizMeta(quiz.questionCount)}</span>
            </span>
          </Link>
        ) : null}
      </li>
    );
  };
  const row = (item: Lecture, index: number) => {
    const progress = progressOf(item._id);
    const stoppedAt = progress && !progress.completed && progress.position >= 1 ? progress.position : null;
    return (
      <li key={item._id} className={isAdmin ? 'py-1' : undefined}>
        <button
          type="button"
          className={`flex w-full cursor-pointer items-start gap-2 rounded-field px-3 py-2.5 text-left ${index === current ? 'bg-primary/10 font-semibold text-primary' : 'hover:bg-base-200'}`}
          aria-current={index === current ? 'true' : undefined}
          onClick={() => onPick(index)}
        >
          <span className="w-5 shrink-0 text-base-content/70 tabular-nums">{progress?.completed ? <CompletedMark /> : `${index + 1}.`}</span>{' '}
          <span className="min-w-0 flex-1">
            <span className="block wrap-anywhere">{item.title}</span>
            {stoppedAt !== null && (
              <span className="mt-1 flex items-center gap-2 text-xs font-normal text-base-content/70">
                {item.duration ? <progress className="progress progress-primary h-1 w-16" value={stoppedAt} max={item.duration} aria-hidden="true" /> : null}
                {progressTexts.watchedUntil(clockDuration(stoppedAt))}
              </span>
            )}
          </span>
          {item.duration !== null && ' '}
          {item.duration !== null && (
            <time dateTime={isoDuration(item.duration)} className="shrink-0 text-sm font-normal text-base-content/70 tabular-nums">
              {clockDuration(item.duration)}
            </time>
          )}
        </button>
        {adminTools?.(item)}
      </li>
    );
  };
  return (
    <aside aria-labelledby="lecture-list" className="min-w-0 self-start rounded-box border border-base-content/15 bg-base-100 p-3 sm:p-4">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2 px-1">
        <h2 id="lecture-list" className="text-lg font-semibold">
          Lectures list
        </h2>
        {action}
      </div>
      {course && (
        <CourseProgressBar
          className="mb-3 px-1"
          percent={course.percent}
          label={
            course.quizCount > 0
              ? quizTakeTexts.progressWithQuizzes(course.completedLectures, course.lectureCount, course.passedQuizzes, course.quizCount, course.percent)
              : progressTexts.courseProgress(course.completedLectures, course.lectureCount, course.percent)
          }
        />
      )}
      {sections.length === 0 ? (
        <ol className={listClass}>{items.map(entry)}</ol>
      ) : (
        [null, ...sections].map((section) => {
          const inGroup = items.filter((item) => item.sectionId === (section?._id ?? null));
          if (inGroup.length === 0) return null;
          return section === null ? (
            <ol key="" className={`${listClass} mb-3`}>
              {inGroup.map(entry)}
            </ol>
          ) : (
            <SectionOfList
              key={section._id}
              title={section.title}
              total={inGroup.length}
              done={course ? inGroup.filter(isDone).length : null}
              className={listClass}
            >
              {inGroup.map(entry)}
            </SectionOfList>
          );
        })
      )}
      {footer}
    </aside>
  );
}

/** A section of the list: its title, how many of its items the learner completed or passed (null: not counted), and its items. */
function SectionOfList({
  title,
  total,
  done,
  className,
  children,
}: {
  title: string;
  total: number;
  done: number | null;
  className: string;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mb-3 last:mb-0">
      <div className="flex items-baseline justify-between gap-3 border-b border-base-content/10 px-1 pt-1 pb-1.5">
        <h3 id={headingId} className="min-w-0 text-sm font-semibold wrap-anywhere">
          {title}
        </h3>
        {done !== null && (
          <span className={`shrink-0 text-xs tabular-nums ${done === total ? 'font-medium text-success' : 'text-base-content/70'}`}>
            {progressTexts.sectionDone(done, total)}
          </span>
        )}
      </div>
      <ol className={`${className} mt-1`}>{children}</ol>
    </section>
  );
}

/** The check of a completed lecture (or a passed quiz), in place of its number; named for screen readers. */
function CompletedMark({ label = progressTexts.completedLecture }: { label?: string }) {
  return (
    <span className="inline-flex size-5 items-center justify-center rounded-full bg-success text-success-content" title={label}>
      <svg viewBox="0 0 24 24" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="3.5" aria-hidden="true">
        <path d="M5 12l5 5L20 7" />
      </svg>
      <span className="sr-only">{label}</span>
    </span>
  );
}
