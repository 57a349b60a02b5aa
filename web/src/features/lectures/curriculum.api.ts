import { endpoints } from '@lms/contract/endpoints';
import type { BodyOf, ResponseOf } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import { groupBySection, placeLecture, placeSection, type LecturePlace } from '../../lib/lecture-groups';
import type { QueryReturnValue } from '@reduxjs/toolkit/query';
import { serverCall, type ServerCall, type ServerError } from '../../lib/server-state';
import { arranging } from './arrangements';
import { lectureApi, type LecturesAnswer } from './lectures.api';

/**
 * The admin's arrangement of a course (sections, the order of lectures, a lecture's texts), on
 * the lecture list of `GET /courses/:id` in the cache. A move shows at once (the list is reordered
 * here as the server will), its requests go one after another in the order they were made (two
 * moves in flight could otherwise land in the other order), a read that overlapped a move is not
 * shown, and once none is left the list is read again: it then shows what the server holds,
 * another admin's changes included.
 */

/** What the curriculum changes invalidate: the list they were made on, and the course's public page. */
const curriculumOf = (courseId: string) => [
  { type: 'Lecture' as const, id: courseId },
  { type: 'Curriculum' as const, id: courseId },
];

let turn: Promise<unknown> = Promise.resolve();
/**
 * A mutation's `queryFn` that sends `callOf(arg)` once every call queued before it has been
 * answered; until its own answer, reads of the course's list are stale (arrangements.ts).
 */
function inTurn<Arg extends { courseId: string }, Answer>(callOf: (arg: Arg) => ServerCall) {
  return (arg: Arg, _api: unknown, _extra: unknown, baseQuery: (call: ServerCall) => unknown) => {
    const answer = arranging(arg.courseId, () => turn.then(() => baseQuery(callOf(arg)) as Promise<QueryReturnValue<Answer, ServerError, undefined>>));
    turn = answer.catch(() => undefined);
    return answer;
  };
}

/** Reorders the cached list of the course's lectures (and sections) with `change`. */
const reorderCached = (courseId: string, change: (answer: LecturesAnswer) => void) =>
  lectureApi.util.updateQueryData('getLectures', courseId, (draft) => change(draft));

const curriculumApi = lectureApi.injectEndpoints({
  endpoints: (build) => ({
    /** Into a section (or none), after a lecture of it (or first); quiet when it works, as dragging is. */
    moveLecture: build.mutation<ResponseOf<typeof endpoints.lectures.move>, LecturePlace & { courseId: string }>({
      queryFn: inTurn(({ courseId, lectureId, sectionId, afterId }) =>
        serverCall(endpoints.lectures.move, { params: { courseId, lectureId }, body: { sectionId, afterId } }, { fallback: messages.operationFailed }),
      ),
      onQueryStarted({ courseId, ...place }, { dispatch }) {
        dispatch(
          reorderCached(courseId, (answer) => {
            answer.lectures = placeLecture(answer.sections, answer.lectures, place);
          }),
        );
      },
      invalidatesTags: (_answer, _error, { courseId }) => curriculumOf(courseId),
    }),
    moveSection: build.mutation<ResponseOf<typeof endpoints.lectures.moveSection>, { courseId: string; sectionId: string; afterId: string | null }>({
      queryFn: inTurn(({ courseId, sectionId, afterId }) =>
        serverCall(endpoints.lectures.moveSection, { params: { courseId, sectionId }, body: { afterId } }, { fallback: messages.operationFailed }),
      ),
      onQueryStarted({ courseId, sectionId, afterId }, { dispatch }) {
        dispatch(
          reorderCached(courseId, (answer) => {
            answer.sections = placeSection(answer.sections, sectionId, afterId);
            // Lectures follow their section: the list is in display order again.
            answer.lectures = groupBySection(answer.sections, answer.lectures).flatMap((group) => group.lectures.map((item) => item.lecture));
          }),
        );
      },
      invalidatesTags: (_answer, _error, { courseId }) => curriculumOf(courseId),
    }),
    addSection: build.mutation<ResponseOf<typeof endpoints.lectures.addSection>, { courseId: string } & BodyOf<typeof endpoints.lectures.addSection>>({
      query: ({ courseId, title }) =>
        serverCall(endpoints.lectures.addSection, { params: { id: courseId }, body: { title } }, { fallback: messages.operationFailed, toastSuccess: true }),
      invalidatesTags: (_answer, error, { courseId }) => (error ? [] : curriculumOf(courseId)),
    }),
    renameSection: build.mutation<ResponseOf<typeof endpoints.lectures.renameSection>, { courseId: string; sectionId: string; title: string }>({
      query: ({ courseId, sectionId, title }) =>
        serverCall(
          endpoints.lectures.renameSection,
          { params: { courseId, sectionId }, body: { title } },
          { fallback: messages.operationFailed, toastSuccess: true },
        ),
      invalidatesTags: (_answer, error, { courseId }) => (error ? [] : curriculumOf(courseId)),
    }),
    deleteSection: build.mutation<ResponseOf<typeof endpoints.lectures.deleteSection>, { courseId: string; sectionId: string }>({
      query: (params) => serverCall(endpoints.lectures.deleteSection, { params }, { fallback: messages.operationFailed, toastSuccess: true }),
      invalidatesTags: (_answer, error, { courseId }) => (error ? [] : curriculumOf(courseId)),
    }),
    /** A lecture's title, description and free-preview flag, changed in place; the list holds the answer. */
    editLecture: build.mutation<
      ResponseOf<typeof endpoints.lectures.update>,
      { courseId: string; lectureId: string; change: BodyOf<typeof endpoints.lectures.update> }
    >({
      query: ({ courseId, lectureId, change }) =>
        serverCall(endpoints.lectures.update, { params: { courseId, lectureId }, body: change }, { fallback: messages.operationFailed, toastSuccess: true }),
      async onQueryStarted({ courseId }, { dispatch, queryFulfilled }) {
        const answer = await queryFulfilled.catch(() => undefined);
        if (!answer) return;
        const { lecture } = answer.data;
        dispatch(
          reorderCached(courseId, (list) => {
            const index = list.lectures.findIndex((item) => item._id === lecture._id);
            if (index >= 0) list.lectures[index] = lecture;
          }),
        );
      },
      invalidatesTags: (_answer, error, { courseId }) => (error ? [] : [{ type: 'Curriculum', id: courseId }]),
    }),
  }),
});

export const {
  useMoveLectureMutation,
  useMoveSectionMutation,
  useAddSectionMutation,
  useRenameSectionMutation,
  useDeleteSectionMutation,
  useEditLectureMutation,
} = curriculumApi;
