import { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import { ApiError, uploadWithProgress, urlFor } from '../../lib/api-client';
import { takePageAnswer } from '../../lib/page-answers';
import type { QueryReturnValue } from '@reduxjs/toolkit/query';
import { latestAnswer, LIST, serverCall, serverState, type CacheDispatch, type CacheState, type ServerError } from '../../lib/server-state';
import { read } from './arrangements';

export type LecturesAnswer = ResponseOf<typeof endpoints.lectures.list>;
type CourseWithLectures = ResponseOf<typeof endpoints.lectures.add>['course'];

export const lectureApi = serverState.injectEndpoints({
  endpoints: (build) => ({
    /**
     * `GET /courses/:id`: the course's lectures with their video URLs, for a subscriber or
     * an admin; anyone else is refused (403), which the lecture page shows in place, so no toast.
     */
    getLectures: build.query<LecturesAnswer, string>({
      // An answer that a move of the curriculum overlapped keeps the list shown (arrangements.ts).
      async queryFn(id, { getState }, _extra, baseQuery) {
        const { answer, stale } = await read(id, async () =>
          baseQuery(serverCall(endpoints.lectures.list, { params: { id } }, { fallback: messages.failedLoadLectures, quiet: true })),
        );
        const shown = stale ? shownLectures(getState() as CacheState, id) : undefined;
        return shown && !answer.error ? { data: shown } : (answer as QueryReturnValue<LecturesAnswer, ServerError, undefined>);
      },
      providesTags: (_answer, _error, id) => [{ type: 'Lecture', id }, 'Viewer'],
    }),
    /** The admin deletes a lecture; the answer carries the lectures left. */
    deleteLecture: build.mutation<ResponseOf<typeof endpoints.lectures.delete>, { courseId: string; lectureId: string }>({
      query: (ids) => serverCall(endpoints.lectures.delete, { query: ids }, { fallback: messages.failedDeleteLectures, toastSuccess: true }),
      async onQueryStarted({ courseId }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(lecturesChanged(courseId, data.course));
        } catch {
          // The client has shown the failure; the list stays as it was.
        }
      },
    }),
    /** Admin: makes a lecture a free preview, or no longer one; the course's curriculum changes with it. */
    setLecturePreview: build.mutation<ResponseOf<typeof endpoints.lectures.update>, { courseId: string; lectureId: string; preview: boolean }>({
      query: ({ courseId, lectureId, preview }) =>
        serverCall(
          endpoints.lectures.update,
          { params: { courseId, lectureId }, body: { preview } },
          { fallback: messages.operationFailed, toastSuccess: true },
        ),
      // Optimistic: the switch moves as it is clicked (as a switch does), and moves back if the server refuses.
      async onQueryStarted({ courseId, lectureId, preview }, { dispatch, queryFulfilled }) {
        const patch = dispatch(
          lectureApi.util.updateQueryData('getLectures', courseId, (draft) => {
            const lecture = draft.lectures.find((item) => item._id === lectureId);
            if (lecture) lecture.preview = preview;
          }),
        );
        try {
          const { data } = await queryFulfilled;
          dispatch(lectureReplaced(courseId, data.lecture));
        } catch {
          // The client has shown the failure; the list goes back to what the server holds.
          patch.undo();
        }
      },
      invalidatesTags: (_answer, error, { courseId }) => (error ? [] : [{ type: 'Curriculum', id: courseId }]),
    }),
    /** Admin: process a lecture's video again after its processing failed. */
    retryProcessing: build.mutation<ResponseOf<typeof endpoints.lectures.retryProcessing>, { courseId: string; lectureId: string }>({
      query: ({ courseId, lectureId }) =>
        serverCall(endpoints.lectures.retryProcessing, { params: { courseId, lectureId } }, { fallback: messages.operationFailed, toastSuccess: true }),
      async onQueryStarted({ courseId }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(lectureReplaced(courseId, data.lecture));
        } catch {
          // The client has shown the failure.
        }
      },
    }),
    /**
     * `POST /courses/:id` (multipart: title, description, the video as `lectures`). Sent with
     * XMLHttpRequest, which reports upload progress (fetch cannot); aborting the request cancels it.
     */
    addLecture: build.mutation<
      ResponseOf<typeof endpoints.lectures.add>,
      { courseId: string; form: FormData; onProgress: (fraction: number) => void; quiet?: boolean }
    >({
      async queryFn({ courseId, form, onProgress, quiet = false }, { signal }) {
        try {
          const answer = await uploadWithProgress<ResponseOf<typeof endpoints.lectures.add>>(
            urlFor(endpoints.lectures.add, { params: { id: courseId }, body: form }),
            form,
            {
              fallback: messages.failedAddLectures,
              toastSuccess: !quiet,
              quiet,
              onProgress,
              signal,
            },
          );
          return { data: answer };
        } catch (error) {
          if (error instanceof ApiError) return { error: { status: error.status, message: error.message } };
          // Cancelled: the request was aborted, and its promise has already rejected with an AbortError.
          if ((error as Error).name === 'AbortError') return { error: { status: 0, message: (error as Error).message } };
          throw error;
        }
      },
      async onQueryStarted({ courseId }, { dispatch, queryFulfilled }) {
        const answer = await queryFulfilled.catch(() => undefined);
        if (answer) dispatch(lecturesChanged(courseId, answer.data.course));
      },
    }),
    /**
     * `PUT /courses/:courseId/lectures/:lectureId/video` (multipart: the new video as `lectures`),
     * with upload progress as addLecture. The answer is the lecture, which may now have a
     * replacement on its way, or a new video that plays at once.
     */
    replaceLectureVideo: build.mutation<
      ResponseOf<typeof endpoints.lectures.replaceVideo>,
      { courseId: string; lectureId: string; form: FormData; onProgress: (fraction: number) => void }
    >({
      async queryFn({ courseId, lectureId, form, onProgress }, { signal }) {
        try {
          const answer = await uploadWithProgress<ResponseOf<typeof endpoints.lectures.replaceVideo>>(
            urlFor(endpoints.lectures.replaceVideo, { params: { courseId, lectureId }, body: form }),
            form,
            { method: endpoints.lectures.replaceVideo.method, fallback: messages.operationFailed, toastSuccess: true, onProgress, signal },
          );
          return { data: answer };
        } catch (error) {
          if (error instanceof ApiError) return { error: { status: error.status, message: error.message } };
          if ((error as Error).name === 'AbortError') return { error: { status: 0, message: (error as Error).message } };
          throw error;
        }
      },
      async onQueryStarted({ courseId }, { dispatch, queryFulfilled }) {
        const answer = await queryFulfilled.catch(() => undefined);
        if (answer) dispatch(lectureReplaced(courseId, answer.data.lecture));
      },
      // A video that plays at once has no length yet: what shows lengths reads them again.
      invalidatesTags: (_answer, error, { courseId }) => (error ? [] : lengthsOf(courseId)),
    }),
    /** Admin: whether this server processes videos, and if not, why. */
    getVideoStatus: build.query<ResponseOf<typeof endpoints.video.status>, void>({
      query: () => serverCall(endpoints.video.status, {}, { fallback: messages.operationFailed, quiet: true }),
    }),
  }),
});

export const { useGetLecturesQuery, useDeleteLectureMutation, useSetLecturePreviewMutation, useRetryProcessingMutation, useGetVideoStatusQuery } = lectureApi;

/** One lecture of the course's list becomes the one the server answered with (its switch, its processing state). */
const lectureReplaced = (courseId: string, lecture: ResponseOf<typeof endpoints.lectures.update>['lecture']) =>
  lectureApi.util.updateQueryData('getLectures', courseId, (draft) => {
    const index = draft.lectures.findIndex((item) => item._id === lecture._id);
    if (index >= 0) draft.lectures[index] = lecture;
  });

/**
 * After a lecture is added or deleted: the lecture list becomes the one the server answered
 * with, and what counts or lists lectures (the course, the catalogue, the curriculum) goes stale.
 */
const lecturesChanged = (courseId: string, course: CourseWithLectures) => (dispatch: CacheDispatch) => {
  dispatch(
    lectureApi.util.updateQueryData('getLectures', courseId, (draft) => {
      draft.lectures = course.lectures;
    }),
  );
  dispatch(
    serverState.util.invalidateTags([
      { type: 'Course', id: LIST },
      { type: 'Course', id: courseId },
      { type: 'Curriculum', id: courseId },
    ]),
  );
};

/** What shows a course's lecture lengths: the course (its total), the catalogue, the curriculum. */
const lengthsOf = (courseId: string) => [
  { type: 'Course' as const, id: LIST },
  { type: 'Course' as const, id: courseId },
  { type: 'Curriculum' as const, id: courseId },
];

/**
 * While a lecture's new video is processed, its list is read again every few seconds (whatever
 * page shows it) until the new video plays; then what shows lengths is read again too.
 */
export const lectureListStale = (courseId: string) => serverState.util.invalidateTags([{ type: 'Lecture', id: courseId }]);
export const lectureLengthsStale = (courseId: string) => serverState.util.invalidateTags(lengthsOf(courseId));

/** Replaces a lecture's video; `signal` cancels the upload (the promise then rejects with an AbortError). */
export const replaceLectureVideo =
  (ids: { courseId: string; lectureId: string }, form: FormData, options: { onProgress: (fraction: number) => void; signal: AbortSignal }) =>
  async (dispatch: CacheDispatch) => {
    const request = dispatch(lectureApi.endpoints.replaceLectureVideo.initiate({ ...ids, form, onProgress: options.onProgress }));
    options.signal.addEventListener('abort', () => request.abort());
    return request.unwrap();
  };

/**
 * Adds a lecture with its video; `signal` cancels the upload (the promise then rejects with an AbortError).
 * `quiet`: no toast either way, for a caller that shows the outcome in place (one of many uploads).
 */
export const addLecture =
  (courseId: string, form: FormData, options: { onProgress: (fraction: number) => void; signal: AbortSignal; quiet?: boolean }) =>
  async (dispatch: CacheDispatch) => {
    const request = dispatch(lectureApi.endpoints.addLecture.initiate({ courseId, form, onProgress: options.onProgress, quiet: options.quiet }));
    options.signal.addEventListener('abort', () => request.abort());
    return request.unwrap();
  };

/** The list of `courseId`'s lectures the cache holds now. */
function shownLectures(state: CacheState, courseId: string): LecturesAnswer | undefined {
  return lectureApi.endpoints.getLectures.select(courseId)(state as Required<CacheState>).data;
}

/** The lectures of the course watched last (the `lecture` state area), from the cache. */
export const selectLectures = (state: CacheState) => latestAnswer<LecturesAnswer>(state, 'getLectures')?.lectures ?? [];

/**
 * The lecture list sent with the page (lib/page-answers.ts), taken as the list's query would take it
 * and put in the cache before the page's first render, which then shows it: the query would have it
 * only once that render had asked. The list, or undefined when none was sent.
 */
export function cacheSentLectures(dispatch: CacheDispatch, courseId: string): LecturesAnswer | undefined {
  const sent = takePageAnswer(urlFor(endpoints.lectures.list, { params: { id: courseId } })) as LecturesAnswer | undefined;
  if (sent) dispatch(lectureApi.util.upsertQueryEntries([{ endpointName: 'getLectures', arg: courseId, value: sent }]));
  return sent;
}
