import type { Course } from '@lms/contract/courses';
import { ProgressBar } from './ProgressBar';
import { CourseStateBadge } from './CourseStateBadge';

/**
 * A course in the catalogue: thumbnail, title, description, category, lectures, instructor.
 * `priority`: the card is in the first screen (the page's largest paint, likely): its picture is
 * fetched at once and first, not lazily.
 */
export function CourseCard({
  course,
  onOpen,
  priority = false,
  progress,
}: {
  course: Course;
  onOpen: () => void;
  priority?: boolean;
  /** The signed-in learner's progress in it, once started: a bar at the foot of the card. */
  progress?: { percent: number; label: string };
}) {
  return (
    <article className="card h-full overflow-hidden bg-base-100 shadow-md ring-1 ring-base-content/10 transition hover:shadow-xl has-focus-visible:ring-3 has-focus-visible:ring-primary">
      <figure className="relative aspect-video bg-base-300">
        <img
          src={course.thumbnail.secure_url}
          alt=""
          width={640}
          height={360}
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : undefined}
          className="h-full w-full object-cover"
        />
        {/* Only administrators are ever shown a course that is not published: they are told so. */}
        {course.state !== 'published' && <CourseStateBadge course={course} className="absolute top-2 left-2 bg-base-100" />}
      </figure>
      <div className="card-body gap-3 p-4">
        <h2 className="card-title text-lg leading-snug">
          {/* The whole card opens the course; the button carries its accessible name. */}
          <button
            type="button"
            onClick={onOpen}
            className="min-w-0 cursor-pointer text-left wrap-anywhere after:absolute after:inset-0 focus-visible:outline-none"
          >
            {course.title}
          </button>
        </h2>
        {/*
          Two lines and an ellipsis, whatever the card's height: the clamped box is not itself a flex
          item (Chromium sizes a clamped flex item by its whole text and lets lines 3 and 4 show when the
          row is taller), and its height is exactly two of its lines, so nothing peeks out below.
        */}
        <div>
          <p className="line-clamp-2 h-10 text-sm leading-5 text-base-content/80 wrap-anywhere">{course.description}</p>
        </div>
        <dl className="mt-auto grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-sm">
          <dt className="text-base-content/70">Category</dt>
          <dd className="wrap-anywhere">{course.category}</dd>
          <dt className="text-base-content/70">Total lectures</dt>
          <dd>{course.numbersOfLectures}</dd>
          <dt className="text-base-content/70">Instructor</dt>
          <dd className="wrap-anywhere">{course.createdBy}</dd>
        </dl>
        {progress && <ProgressBar percent={progress.percent} label={progress.label} />}
      </div>
    </article>
  );
}

/**
 * The shape of a CourseCard while the catalogue loads, so the cards arriving do not push
 * the rest of the page down (Lighthouse measured a layout shift of 0.11 without it).
 */
export function CourseCardPlaceholder() {
  return (
    <div className="card h-full overflow-hidden bg-base-100 shadow-md ring-1 ring-base-content/10" data-testid="course-placeholder">
      <div className="skeleton aspect-video rounded-none" />
      <div className="card-body gap-3 p-4">
        <div className="skeleton h-7 w-3/4" />
        <div className="skeleton h-10 w-full" />
        <div className="skeleton h-[3.75rem] w-2/3" />
      </div>
    </div>
  );
}
