import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../lib/paths';

/** How many of the newest courses the home page shows: one row on a desktop. */
export const NEWEST_COUNT = 3;

/**
 * The newest courses' section: its heading, the way to the catalogue, and a grid. The same frame
 * holds the placeholders while the section's code and the courses load, and then the cards, so
 * nothing on screen moves when they arrive.
 */
export function NewestCoursesFrame({ children }: { children?: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mx-auto w-full max-w-6xl px-4 py-12 sm:py-16">
      <div className="mb-6 flex flex-wrap items-end justify-between gap-x-6 gap-y-2">
        <div>
          <h2 id={headingId} className="text-2xl font-bold sm:text-3xl">
            New in the catalogue
          </h2>
          <p className="mt-1 text-base-content/70">The latest courses, all included in the monthly bundle.</p>
        </div>
        <Link to={paths.courses} className="link-hover link-primary inline-flex items-center gap-1 font-semibold">
          See all courses
          <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
            <path d="M5 12h14M13 6l6 6-6 6" />
          </svg>
        </Link>
      </div>
      {children ?? <NewestCoursesPlaceholders />}
    </section>
  );
}

/** The grid the cards go into. */
export const courseGridClass = 'grid gap-6 sm:grid-cols-2 lg:grid-cols-3';

/**
 * The cards' shapes (a cover, a title, two lines, the details), until they come. Drawn here rather
 * than with the catalogue's placeholder, whose module would join the first download of `/`; the
 * grid's top stays where the cards will be, so the screen does not move when they arrive.
 */
export function NewestCoursesPlaceholders() {
  return (
    <div className={courseGridClass} aria-busy="true" data-testid="newest-placeholders">
      {Array.from({ length: NEWEST_COUNT }, (_, index) => (
        <div key={index} className={`card bg-base-100 shadow-md ${index === NEWEST_COUNT - 1 ? 'sm:max-lg:hidden' : ''}`}>
          <div className="skeleton aspect-video rounded-b-none" />
          <div className="card-body gap-2 p-4">
            <div className="skeleton h-7 w-3/4" />
            <div className="skeleton h-10 w-full" />
            <div className="skeleton h-[3.75rem] w-2/3" />
          </div>
        </div>
      ))}
    </div>
  );
}
