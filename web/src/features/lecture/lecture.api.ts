import type { Course, Lecture } from '@lms/contract/courses';
import { messages } from '@lms/contract/messages';
import { api, uploadWithProgress } from '../../app/api';
import type { AppDispatch } from '../../app/store';
import { lecturesLoaded } from './lecture.slice';

/** The course's lectures, for a subscriber or an admin; the server refuses anyone else (403). */
export const getLectures = (courseId: string) => async (dispatch: AppDispatch) => {
  const { lectures } = await api.get<{ lectures: Lecture[] }>(`/courses/${courseId}`, { fallback: messages.failedLoadLectures, quiet: true });
  dispatch(lecturesLoaded(lectures));
  return lectures;
};

export const addLecture = (courseId: string, form: FormData, options: { onProgress: (fraction: number) => void; signal: AbortSignal }) =>
  uploadWithProgress<{ course: Course & { lectures: Lecture[] } }>(`/courses/${courseId}`, form, {
    fallback: messages.failedAddLectures,
    toastSuccess: true,
    ...options,
  });

export const deleteLecture = (courseId: string, lectureId: string) => async (dispatch: AppDispatch) => {
  const { course } = await api.delete<{ course: Course & { lectures: Lecture[] } }>(
    `/courses?courseId=${encodeURIComponent(courseId)}&lectureId=${encodeURIComponent(lectureId)}`,
    { fallback: messages.failedDeleteLectures, toastSuccess: true },
  );
  dispatch(lecturesLoaded(course.lectures));
};
