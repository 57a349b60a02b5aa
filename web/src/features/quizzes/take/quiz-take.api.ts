import { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import type { Answer } from '@lms/contract/quizzes';
import { serverCall, serverState } from '../../../lib/server-state';
import { quizTakeTexts } from './quiz-take-texts';

type SubmitAnswer = ResponseOf<typeof endpoints.quizzes.submit>;

/**
 * A learner taking a quiz: its rules and their attempts, starting (or carrying on with) an attempt,
 * and submitting it. Quiet: the page says every refusal in place (a 403 with its way to subscribe,
 * a 409 of time up or of an attempt already graded), never as a toast over the questions.
 */
const quizTakeApi = serverState.enhanceEndpoints({ addTagTypes: ['Quiz', 'Progress', 'Certificates'] }).injectEndpoints({
  endpoints: (build) => ({
    getLearnerQuiz: build.query<ResponseOf<typeof endpoints.quizzes.get>, string>({
      query: (quizId) => serverCall(endpoints.quizzes.get, { params: { quizId } }, { fallback: quizTakeTexts.loadFailed, quiet: true }),
      providesTags: (_answer, _error, quizId) => [{ type: 'Quiz', id: quizId }, 'Viewer'],
    }),
    /** A new attempt, or the one under way (the server resumes it rather than start another). */
    startAttempt: build.mutation<ResponseOf<typeof endpoints.quizzes.start>, string>({
      query: (quizId) => serverCall(endpoints.quizzes.start, { params: { quizId } }, { fallback: quizTakeTexts.startFailed, quiet: true }),
    }),
    submitAttempt: build.mutation<SubmitAnswer, { courseId: string; quizId: string; attemptId: string; answers: Answer[] }>({
      query: ({ quizId, attemptId, answers }) =>
        serverCall(endpoints.quizzes.submit, { params: { quizId, attemptId }, body: { answers } }, { fallback: quizTakeTexts.submitFailed, quiet: true }),
      // Graded or refused (time up, already graded), the quiz's attempts changed; a pass moves the
      // course's progress, the lists' checks and perhaps the certificate.
      invalidatesTags: (_answer, _error, { courseId, quizId }) => [
        { type: 'Quiz', id: quizId },
        { type: 'Progress', id: courseId },
        { type: 'Progress', id: 'MINE' },
        { type: 'Certificates', id: 'COURSE' },
      ],
    }),
  }),
});

export const { useGetLearnerQuizQuery, useStartAttemptMutation, useSubmitAttemptMutation } = quizTakeApi;
