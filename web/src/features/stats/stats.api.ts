import { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import { latestAnswer, serverCall, serverState, type CacheState } from '../../lib/server-state';

/** The dashboard reads the latest 100 payment records. */
export const PAYMENT_RECORDS_COUNT = 100;

export type ContactInboxPage = ResponseOf<typeof endpoints.contact.list>;
type UserStats = ResponseOf<typeof endpoints.stats.users>;
type PaymentRecords = ResponseOf<typeof endpoints.stats.paymentRecords>;

/** The dashboard's own reads (admin only; dropped when the viewer changes). */
const statsApi = serverState.enhanceEndpoints({ addTagTypes: ['Plan'] }).injectEndpoints({
  endpoints: (build) => ({
    /** Registered and subscribed users. */
    getUserStats: build.query<UserStats, void>({
      query: () => serverCall(endpoints.stats.users, {}, { fallback: messages.failedLoadStats }),
      providesTags: ['Viewer'],
    }),
    /** `GET /payments?count=`: the dashboard's payment figures. */
    getPaymentRecords: build.query<PaymentRecords, number>({
      query: (count) => serverCall(endpoints.stats.paymentRecords, { query: { count } }, { fallback: messages.failedPaymentRecord }),
      providesTags: ['Viewer'],
    }),
    /** Active learners, subscribers who stopped watching, each course's starters and completions. */
    getEngagement: build.query<ResponseOf<typeof endpoints.stats.engagement>, void>({
      query: () => serverCall(endpoints.stats.engagement, {}, { fallback: messages.failedLoadData }),
      providesTags: ['Viewer'],
    }),
    /**
     * MRR, subscribers, churn, refunds, net revenue; 12 months of new vs cancelled; the latest payments;
     * MRR by plan, read again when the admin changes a plan (its name, or taking it off sale).
     */
    getRevenue: build.query<ResponseOf<typeof endpoints.stats.revenue>, void>({
      query: () => serverCall(endpoints.stats.revenue, {}, { fallback: messages.failedLoadData }),
      providesTags: ['Viewer', 'Plan'],
    }),
    /** Why subscribers cancelled lately. */
    getCancellationReasons: build.query<ResponseOf<typeof endpoints.stats.cancellations>, void>({
      query: () => serverCall(endpoints.stats.cancellations, {}, { fallback: messages.failedLoadData }),
      providesTags: ['Viewer'],
    }),
    /** The newest `limit` contact messages, for the dashboard's inbox. */
    getContactMessages: build.query<ContactInboxPage, number>({
      query: (limit) => serverCall(endpoints.contact.list, { query: { limit } }, { fallback: messages.failedLoadData }),
      providesTags: ['Viewer'],
    }),
  }),
});

export const {
  useGetUserStatsQuery,
  useGetPaymentRecordsQuery,
  useGetContactMessagesQuery,
  useGetEngagementQuery,
  useGetCancellationReasonsQuery,
  useGetRevenueQuery,
} = statsApi;

/** User statistics (the `stat` state area, `subscribedCount` as the dashboard calls it), from the cache. */
export const selectStats = (state: CacheState) => {
  const answer = latestAnswer<UserStats>(state, 'getUserStats');
  return { allUsersCount: answer?.allUsersCount ?? 0, subscribedCount: answer?.subscribedUsersCount ?? 0 };
};
