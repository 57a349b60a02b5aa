import type { Course } from '@lms/contract/courses';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { useAppDispatch } from '../../app/store';
import { getAllCourses } from './course.api';

/**
 * The course a page is about: passed through navigation (spec §2), or fetched by
 * the `id` in the address when the page is opened directly or reloaded. Without
 * either, back to the catalogue.
 */
export function useCourse(): Course | undefined {
  const location = useLocation();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const passed = (location.state as Course | null)?._id ? (location.state as Course) : undefined;
  const id = search.get('id');
  const [fetched, setFetched] = useState<Course>();

  useEffect(() => {
    if (passed) return;
    if (!id) {
      navigate(paths.courses, { replace: true });
      return;
    }
    dispatch(getAllCourses({ id }))
      .then(({ courses }) => (courses[0] ? setFetched(courses[0]) : navigate(paths.courses, { replace: true })))
      .catch(() => navigate(paths.courses, { replace: true }));
  }, [passed, id, dispatch, navigate]);

  return passed ?? fetched;
}

/** Where a page about `course` lives, with the id in the address so a reload finds it again. */
export const courseLink = (path: string, course: Course) => ({ pathname: path, search: `?id=${course._id}` });
