import { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import type { NewQuiz, QuizInput, QuizPlacement } from '@lms/contract/quizzes';
import { serverCall, serverState } from '../../../lib/server-state';

type AuthoredAnswer = ResponseOf<typeof endpoints.quizzes.authored>;
type QuizIds = { courseId: string; quizId: string };

/** What a quiz write changes besides the quiz: the course's curriculum (the editor's list and the course's pages). */
const curriculumOf = (courseId: string) => [
  { type: 'Lecture' as const, id: courseId },
  { type: 'Curriculum' as const, id: courseId },
];

/**
 * The admin's quizzes: one as written (with its answers), and its writes. A write's answer is the
 * quiz as now saved, put into the cache at once; the course's lecture list (which carries its
 * quizzes) is read again. Refusals are the API client's toasts; the page says what worked.
 */
const quizEditorApi = serverState.enhanceEndpoints({ addTagTypes: ['Quiz'] }).injectEndpoints({
  endpoints: (build) => ({
    /** Quiet: the page says a failure (or a quiz not found) in its place. */
    getAuthoredQuiz: build.query<AuthoredAnswer, QuizIds>({
      query: (params) => serverCall(endpoints.quizzes.authored, { params }, { fallback: messages.operationFailed, quiet: true }),
      providesTags: (_answer, _error, { quizId }) => [{ type: 'Quiz', id: quizId }, 'Viewer'],
    }),
    createQuiz: build.mutation<AuthoredAnswer, { courseId: string; quiz: NewQuiz }>({
      query: ({ courseId, quiz }) => serverCall(endpoints.quizzes.create, { params: { courseId }, body: quiz }, { fallback: messages.operationFailed }),
      async onQueryStarted({ courseId }, { dispatch, queryFulfilled }) {
        const answer = await queryFulfilled.catch(() => undefined);
        if (answer) void dispatch(quizEditorApi.util.upsertQueryData('getAuthoredQuiz', { courseId, quizId: answer.data.quiz._id }, answer.data));
      },
      invalidatesTags: (_answer, error, { courseId }) => (error ? [] : curriculumOf(courseId)),
    }),
    updateQuiz: build.mutation<AuthoredAnswer, QuizIds & { quiz: QuizInput }>({
      query: ({ courseId, quizId, quiz }) =>
        serverCall(endpoints.quizzes.update, { params: { courseId, quizId }, body: quiz }, { fallback: messages.operationFailed }),
      async onQueryStarted({ courseId, quizId }, { dispatch, queryFulfilled }) {
        const answer = await queryFulfilled.catch(() => undefined);
        if (answer) void dispatch(quizEditorApi.util.upsertQueryData('getAuthoredQuiz', { courseId, quizId }, answer.data));
      },
      invalidatesTags: (_answer, error, { courseId }) => (error ? [] : curriculumOf(courseId)),
    }),
    placeQuiz: build.mutation<AuthoredAnswer, QuizIds & { place: QuizPlacement }>({
      query: ({ courseId, quizId, place }) =>
        serverCall(endpoints.quizzes.place, { params: { courseId, quizId }, body: place }, { fallback: messages.operationFailed }),
      async onQueryStarted({ courseId, quizId }, { dispatch, queryFulfilled }) {
        const answer = await queryFulfilled.catch(() => undefined);
        if (answer) void dispatch(quizEditorApi.util.upsertQueryData('getAuthoredQuiz', { courseId, quizId }, answer.data));
      },
      invalidatesTags: (_answer, error, { courseId }) => (error ? [] : curriculumOf(courseId)),
    }),
    /** Says "Quiz deleted, with its attempts" when it works. */
    deleteQuiz: build.mutation<ResponseOf<typeof endpoints.quizzes.delete>, QuizIds>({
      query: (params) => serverCall(endpoints.quizzes.delete, { params }, { fallback: messages.operationFailed, toastSuccess: true }),
      // The quiz's own entry is left alone: the page leaves for the course editor, and a read now would be a 404.
      invalidatesTags: (_answer, error, { courseId }) => (error ? [] : curriculumOf(courseId)),
    }),
  }),
});

export const { useGetAuthoredQuizQuery, useCreateQuizMutation, useUpdateQuizMutation, usePlaceQuizMutation, useDeleteQuizMutation } = quizEditorApi;
