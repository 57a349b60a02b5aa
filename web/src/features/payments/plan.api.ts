import { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import { serverCall, serverState } from '../../lib/server-state';

/*
 * The storefront's one read of payments, in a module of its own: the checkout's steps
 * (payments.api.ts) reload the signed-in user, and the home and course pages, which show the
 * price to every visitor, need none of that.
 */
const planApi = serverState.injectEndpoints({
  endpoints: (build) => ({
    /** Public: the bundle's price per month and refund window, for the storefront (home, course page). Quiet: a page shows it is missing. */
    getPlan: build.query<ResponseOf<typeof endpoints.payments.plan>, void>({
      query: () => serverCall(endpoints.payments.plan, {}, { fallback: messages.failedLoadData, quiet: true }),
    }),
  }),
});

export const { useGetPlanQuery } = planApi;
