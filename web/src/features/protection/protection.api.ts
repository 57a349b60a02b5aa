import { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import { serverCall, serverState } from '../../lib/server-state';

/**
 * The administrator's leak trace and sharing-risk list, and what can be done about an account
 * (end its sessions, suspend or restore it). An action reads both lists again: they show each
 * account's sessions and whether it is suspended; so does the learner's page of that account.
 */
const protectionApi = serverState.enhanceEndpoints({ addTagTypes: ['AccountProtection', 'Learner'] }).injectEndpoints({
  endpoints: (build) => ({
    /** The playbacks whose code contains `code` (as typed: the server reads it as a person would type it). */
    trace: build.query<ResponseOf<typeof endpoints.protection.trace>, string>({
      query: (code) => serverCall(endpoints.protection.trace, { query: { code } }, { fallback: messages.failedLoadData }),
      providesTags: ['AccountProtection', 'Viewer'],
    }),
    getSharingRisk: build.query<ResponseOf<typeof endpoints.protection.sharingRisk>, void>({
      query: () => serverCall(endpoints.protection.sharingRisk, {}, { fallback: messages.failedLoadData }),
      providesTags: ['AccountProtection', 'Viewer'],
    }),
    // `quiet` when a dialog says the refusal itself.
    endAccountSessions: build.mutation<ResponseOf<typeof endpoints.protection.endSessions>, { id: string; quiet?: boolean }>({
      query: ({ id, quiet = false }) =>
        serverCall(endpoints.protection.endSessions, { params: { id } }, { fallback: messages.operationFailed, toastSuccess: true, quiet }),
      invalidatesTags: (_answer, error, { id }) => (error ? [] : ['AccountProtection', { type: 'Learner', id }, 'Learner']),
    }),
    // Quiet: the dialog that asks for the reason says a refusal beside it.
    setSuspension: build.mutation<ResponseOf<typeof endpoints.protection.suspend>, { id: string; suspended: boolean; reason?: string }>({
      query: ({ id, suspended, reason }) =>
        serverCall(
          endpoints.protection.suspend,
          { params: { id }, body: { suspended, ...(reason !== undefined && { reason }) } },
          { fallback: messages.operationFailed, toastSuccess: true, quiet: true },
        ),
      invalidatesTags: (_answer, error, { id }) => (error ? [] : ['AccountProtection', { type: 'Learner', id }, 'Learner']),
    }),
  }),
});

export const { useTraceQuery, useGetSharingRiskQuery, useEndAccountSessionsMutation, useSetSuspensionMutation } = protectionApi;
