import { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import { serverCall, serverState } from '../../lib/server-state';

/** The signed-in user's sessions: every browser signed in to the account, and signing them out. */
const sessionsApi = serverState.enhanceEndpoints({ addTagTypes: ['Session'] }).injectEndpoints({
  endpoints: (build) => ({
    getSessions: build.query<ResponseOf<typeof endpoints.sessions.list>, void>({
      // Quiet: the section says it could not load them, in its place on the page.
      query: () => serverCall(endpoints.sessions.list, {}, { fallback: messages.failedLoadData, quiet: true }),
      providesTags: ['Session', 'Viewer'],
    }),
    signOutSession: build.mutation<ResponseOf<typeof endpoints.sessions.signOut>, string>({
      query: (id) => serverCall(endpoints.sessions.signOut, { params: { id } }, { fallback: messages.operationFailed, toastSuccess: true }),
      // Also after a refusal: a session already gone (404) leaves the list.
      invalidatesTags: ['Session'],
    }),
    signOutOtherSessions: build.mutation<ResponseOf<typeof endpoints.sessions.signOutOthers>, void>({
      query: () => serverCall(endpoints.sessions.signOutOthers, {}, { fallback: messages.operationFailed, toastSuccess: true }),
      invalidatesTags: ['Session'],
    }),
  }),
});

export const { useGetSessionsQuery, useSignOutSessionMutation, useSignOutOtherSessionsMutation } = sessionsApi;
