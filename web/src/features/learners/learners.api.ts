import { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import type { LearnersQuery } from '@lms/contract/learners';
import { messages } from '@lms/contract/messages';
import { API_ROOT, urlFor } from '../../lib/api-client';
import { serverCall, serverState } from '../../lib/server-state';

/** The list's search, state and order; the cursor is the pages' own. */
export type LearnersFilter = Omit<LearnersQuery, 'cursor' | 'limit'>;

/** The list shows this many learners a page ("Load more" adds the next as many). */
export const LEARNERS_PAGE_SIZE = 50;

/**
 * The administrator's learners: the list, a page at a time by cursor, and one learner's page.
 * The list is one infinite query per search: "Load more" appends the next page, and an action on a
 * learner (which invalidates 'Learner') reads every page shown again, so a row never shows a state
 * the learner has left.
 */
const learnersApi = serverState.enhanceEndpoints({ addTagTypes: ['Learner'] }).injectEndpoints({
  endpoints: (build) => ({
    getLearners: build.infiniteQuery<ResponseOf<typeof endpoints.learners.list>, LearnersFilter, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (lastPage) => lastPage.nextCursor,
      },
      query: ({ queryArg, pageParam }) =>
        serverCall(
          endpoints.learners.list,
          { query: { ...queryArg, ...(pageParam !== null && { cursor: pageParam }), limit: LEARNERS_PAGE_SIZE } },
          { fallback: messages.failedLoadData },
        ),
      providesTags: ['Learner', 'Viewer'],
    }),
    /** Quiet: a 404 is an answer (the page says there is no such learner), not an error to toast. */
    getLearner: build.query<ResponseOf<typeof endpoints.learners.get>, string>({
      query: (id) => serverCall(endpoints.learners.get, { params: { id } }, { fallback: messages.failedLoadData, quiet: true }),
      providesTags: (_answer, _error, id) => [{ type: 'Learner', id }, 'Viewer'],
    }),
  }),
});

export const { useGetLearnersInfiniteQuery, useGetLearnerQuery } = learnersApi;

/** The CSV of the learners the search and state find: a plain link, so the browser saves what the server streams. */
export const learnersExportUrl = ({ q, state }: Pick<LearnersFilter, 'q' | 'state'>) => API_ROOT + urlFor(endpoints.learners.export, { query: { q, state } });

/** A billing document's PDF (an invoice or a credit note): administrators may download any. */
export const documentUrl = (id: string) => API_ROOT + urlFor(endpoints.billing.document, { params: { id } });
