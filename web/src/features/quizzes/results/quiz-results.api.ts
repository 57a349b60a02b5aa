import { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import { serverCall, serverState } from '../../../lib/server-state';
import { quizResultsTexts } from './quiz-results-texts';

/** The attempts table shows this many attempts a page. */
export const ATTEMPTS_PAGE_SIZE = 25;

export interface QuizAttemptsArgs {
  courseId: string;
  page: number;
  /** One learner's attempts; everyone's when left out. */
  userId?: string;
}

/**
 * The administrator's quiz results of a course: each quiz's figures, and its attempts a page at a
 * time. Read only: a learner's submission elsewhere shows here on the next visit (tag `Viewer`:
 * another account signing in reads them again).
 */
const quizResultsApi = serverState.enhanceEndpoints({ addTagTypes: ['QuizResults'] }).injectEndpoints({
  endpoints: (build) => ({
    getQuizResults: build.query<ResponseOf<typeof endpoints.quizzes.results>, string>({
      query: (courseId) => serverCall(endpoints.quizzes.results, { params: { courseId } }, { fallback: quizResultsTexts.failed, quiet: true }),
      providesTags: ['QuizResults', 'Viewer'],
    }),
    getQuizAttempts: build.query<ResponseOf<typeof endpoints.quizzes.attempts>, QuizAttemptsArgs>({
      query: ({ courseId, page, userId }) =>
        serverCall(
          endpoints.quizzes.attempts,
          { params: { courseId }, query: { page, limit: ATTEMPTS_PAGE_SIZE, userId } },
          { fallback: quizResultsTexts.attemptsFailed, quiet: true },
        ),
      providesTags: ['QuizResults', 'Viewer'],
    }),
  }),
});

export const { useGetQuizResultsQuery, useGetQuizAttemptsQuery } = quizResultsApi;
