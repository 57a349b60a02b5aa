import type { ActivityExportQuery } from '@lms/contract/audit';
import { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import { API_ROOT, urlFor } from '../../lib/api-client';
import { serverCall, serverState } from '../../lib/server-state';
import { activityTexts } from './activity-texts';

/** The Activity page reads this many entries at a time. */
export const ACTIVITY_PAGE_SIZE = 50;

/** The filters the page sets: area, action, administrator, target, days. */
export type ActivityFilter = ActivityExportQuery;
type ActivityAnswer = ResponseOf<typeof endpoints.activity.list>;

/**
 * The audit trail for administrators, newest first: each "Load more" asks for the entries before
 * the last one shown (the answer's cursor), and the pages read so far stay in one cache entry per
 * filter. The trail only grows: a write elsewhere changes nothing shown, so no tags.
 */
const activityApi = serverState.injectEndpoints({
  endpoints: (build) => ({
    getActivity: build.infiniteQuery<ActivityAnswer, ActivityFilter, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (lastPage) => lastPage.nextCursor,
      },
      query: ({ queryArg, pageParam }) =>
        serverCall(
          endpoints.activity.list,
          { query: { ...queryArg, ...(pageParam && { cursor: pageParam }), limit: ACTIVITY_PAGE_SIZE } },
          { fallback: activityTexts.failed },
        ),
    }),
  }),
});

export const { useGetActivityInfiniteQuery } = activityApi;

/** The CSV of the trail the filters find: a plain link, so the browser saves what the server streams. */
export const activityExportUrl = (filter: ActivityFilter) => API_ROOT + urlFor(endpoints.activity.export, { query: filter });
