import type { Course } from '@lms/contract/courses';
import { messages } from '@lms/contract/messages';
import { api } from '../../app/api';
import type { AppDispatch } from '../../app/store';
import { coursesLoaded } from './course.slice';

export interface CourseQuery {
  id?: string;
  search?: string;
  category?: string;
  page?: number;
  limit?: number;
}
export interface CoursePage {
  courses: Course[];
  total: number;
  page: number;
  limit: number;
}

/** A page of the catalogue; it also becomes the course list of the store (spec §3). */
export const getAllCourses = (query: CourseQuery = {}) => async (dispatch: AppDispatch) => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, String(value));
  const suffix = params.size > 0 ? `?${params}` : '';
  const page = await api.get<CoursePage>(`/courses${suffix}`, { fallback: messages.failedGetCourses });
  dispatch(coursesLoaded(page.courses));
  return page;
};

export const createCourse = (form: FormData) =>
  api.post<{ course: Course }>('/courses', form, { fallback: messages.failedCreateCourse, toastSuccess: true });

export const updateCourse = (courseId: string, form: FormData) =>
  api.put<{ course: Course }>(`/courses/${courseId}`, form, { fallback: messages.failedCreateCourse, toastSuccess: true });

export const deleteCourse = (courseId: string) =>
  api.delete(`/courses/${courseId}`, { fallback: messages.failedDeleteCourses, toastSuccess: true });
