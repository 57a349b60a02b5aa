import type { Course } from '@lms/contract/courses';
import { useEffect } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../lib/paths';
import { useGetCourseQuery } from './courses.api';

/**
 * The course a page is about: passed through navigation (a card or link hands it over), or fetched by the `id` in
 * the address when the page is opened directly or reloaded. Without either, or when there is
 * no such course, back to the catalogue.
 */
export function useCourse(): Course | undefined {
  const location = useLocation();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const passed = (location.state as Course | null)?._id ? (location.state as Course) : undefined;
  const id = search.get('id');
  const fetched = useGetCourseQuery(id ?? '', { skip: Boolean(passed) || !id });
  const notFound = fetched.isSuccess && !fetched.isFetching && fetched.currentData === null;
  const missing = !passed && (!id || fetched.isError || notFound);

  useEffect(() => {
    if (missing) void navigate(paths.courses, { replace: true });
  }, [missing, navigate]);

  return passed ?? fetched.currentData ?? undefined;
}
