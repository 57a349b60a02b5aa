import type { FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../lib/paths';
import { useMyCourses } from './my-courses';
import { useGetCategoriesQuery, useGetCoursesQuery } from './courses.api';
import { courseLink } from '../../lib/paths';
import { usePageTitle } from '../../lib/use-page-title';
import { CourseCard, CourseCardPlaceholder } from './CourseCard';
import { LectureMatches } from './LectureMatches';

const PAGE_SIZE = 12;
/** Enough to fill a screen while the first page loads. */
const PLACEHOLDERS = 6;

/** The catalogue: search, category filter and pages live in the address, so a reload or a shared link shows the same. */
export default function CourseListPage() {
  usePageTitle('All courses');
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const category = params.get('category') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  // While another page loads, the cards of the last one stay (`data` is the latest answer, whatever its query).
  const { data, isFetching: loading, isError } = useGetCoursesQuery({ search, category, page, limit: PAGE_SIZE });
  const courses = data?.courses ?? [];
  const total = isError ? 0 : (data?.total ?? 0);
  const { data: categories = [] } = useGetCategoriesQuery();
  const { byCourse, cardProgress, reader } = useMyCourses();

  function update(next: Record<string, string>) {
    const merged = new URLSearchParams(params);
    for (const [name, value] of Object.entries(next)) {
      if (value) merged.set(name, value);
      else merged.delete(name);
    }
    setParams(merged);
  }

  function onSearch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    update({ search: String(form.get('search') ?? '').trim(), page: '' });
  }

  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <section className="mx-auto max-w-6xl px-4 py-8">
      {reader}
      <h1 className="mb-6 text-3xl font-bold wrap-anywhere">
        Explore the courses made by <span className="text-primary">industry experts</span>
      </h1>
      <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end">
        <form role="search" onSubmit={onSearch} className="flex flex-1 gap-2">
          <label className="flex-1">
            <span className="label mb-1 block text-sm">Search courses</span>
            <input
              key={search}
              name="search"
              type="search"
              defaultValue={search}
              placeholder="Title, category or instructor"
              className="input w-full"
              maxLength={100}
            />
          </label>
          <button type="submit" className="btn btn-primary self-end">
            Search
          </button>
        </form>
        <label>
          <span className="label mb-1 block text-sm">Category</span>
          <select className="select w-full sm:w-56" value={category} onChange={(event) => update({ category: event.target.value, page: '' })}>
            <option value="">All categories</option>
            {categories.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
      </div>

      <p className="sr-only" aria-live="polite">
        {loading ? 'Loading courses' : `${total} ${total === 1 ? 'course' : 'courses'} found`}
      </p>
      {!loading && courses.length === 0 && <p className="py-12 text-center text-lg wrap-anywhere">No courses match your search.</p>}
      {loading && courses.length === 0 && (
        <ul aria-hidden="true" className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {Array.from({ length: PLACEHOLDERS }, (_, i) => (
            <li key={i}>
              <CourseCardPlaceholder />
            </li>
          ))}
        </ul>
      )}
      <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {courses.map((course, index) => (
          <li key={course._id} className="relative">
            {/* The first row (one card on a phone, three on a desktop) is the first screen. */}
            <CourseCard
              course={course}
              priority={index < 3}
              progress={cardProgress(byCourse.get(course._id))}
              onOpen={() => void navigate(courseLink(paths.courseDescription, course), { state: course })}
            />
          </li>
        ))}
      </ul>

      {pages > 1 && (
        <nav aria-label="Pages" className="join mt-8 flex justify-center">
          <button type="button" className="btn join-item" disabled={page <= 1} onClick={() => update({ page: String(page - 1) })}>
            Previous
          </button>
          <span className="btn join-item pointer-events-none" aria-current="page">
            Page {page} of {pages}
          </span>
          <button type="button" className="btn join-item" disabled={page >= pages} onClick={() => update({ page: String(page + 1) })}>
            Next
          </button>
        </nav>
      )}

      {/* A search is also looked for in what the lectures say. */}
      {search && <LectureMatches search={search} />}
    </section>
  );
}
