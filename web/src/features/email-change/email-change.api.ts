import { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import { serverCall, serverState } from '../../lib/server-state';

/** Confirming an email an administrator changed, by the link mailed to it. Quiet: the page says the answer. */
const emailChangeApi = serverState.injectEndpoints({
  endpoints: (build) => ({
    confirmEmail: build.mutation<ResponseOf<typeof endpoints.users.confirmEmail>, string>({
      query: (token) => serverCall(endpoints.users.confirmEmail, { params: { token } }, { fallback: messages.operationFailed, quiet: true }),
    }),
  }),
});

export const { useConfirmEmailMutation } = emailChangeApi;
