import { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import type { LegalPage } from '@lms/contract/settings';
import { serverCall, serverState } from '../../lib/server-state';

/** The seller's legal pages: read by anyone, written and reset by an administrator; each write reads its page again. */
const legalApi = serverState.enhanceEndpoints({ addTagTypes: ['LegalPage'] }).injectEndpoints({
  endpoints: (build) => ({
    getLegalPage: build.query<ResponseOf<typeof endpoints.legalPages.get>, LegalPage>({
      // The page shows its own error in place of the text: no toast on top.
      query: (page) => serverCall(endpoints.legalPages.get, { params: { page } }, { fallback: messages.failedLoadData, quiet: true }),
      providesTags: (_answer, _error, page) => [{ type: 'LegalPage', id: page }],
    }),
    updateLegalPage: build.mutation<ResponseOf<typeof endpoints.legalPages.update>, { page: LegalPage; markdown: string }>({
      query: ({ page, markdown }) =>
        serverCall(endpoints.legalPages.update, { params: { page }, body: { markdown } }, { fallback: messages.operationFailed, toastSuccess: true }),
      invalidatesTags: (_answer, error, { page }) => (error ? [] : [{ type: 'LegalPage', id: page }]),
    }),
    resetLegalPage: build.mutation<ResponseOf<typeof endpoints.legalPages.reset>, LegalPage>({
      query: (page) => serverCall(endpoints.legalPages.reset, { params: { page } }, { fallback: messages.operationFailed, toastSuccess: true }),
      invalidatesTags: (_answer, error, page) => (error ? [] : [{ type: 'LegalPage', id: page }]),
    }),
  }),
});

export const { useGetLegalPageQuery, useUpdateLegalPageMutation, useResetLegalPageMutation } = legalApi;
