import { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import { mirrorInto, serverCall, serverState } from '../../lib/server-state';
import { statsLoaded } from './stat.slice';

/** Spec §9: the dashboard reads the latest 100 payment records (`useGetPaymentRecordsQuery`, app/server-state.ts). */
export const PAYMENT_RECORDS_COUNT = 100;

export type ContactInboxPage = ResponseOf<typeof endpoints.contact.list>;

/** The dashboard's own reads (admin only; dropped when the viewer changes). */
const statApi = serverState.enhanceEndpoints({ addTagTypes: ['Plan'] }).injectEndpoints({
  endpoints: (build) => ({
    /** Spec §7: registered and subscribed users. */
    getUserStats: build.query<ResponseOf<typeof endpoints.stats.users>, void>({
      query: () => serverCall(endpoints.stats.users, {}, { fallback: messages.failedLoadStats }),
      providesTags: ['Viewer'],
      onQueryStarted: mirrorInto((answer: ResponseOf<typeof endpoints.stats.users>) => statsLoaded(answer)),
    }),
    /** Ours (issue 14): active learners, subscribers who stopped watching, each course's starters and completions. */
    getEngagement: build.query<ResponseOf<typeof endpoints.stats.engagement>, void>({
      query: () => serverCall(endpoints.stats.engagement, {}, { fallback: messages.failedLoadData }),
      providesTags: ['Viewer'],
    }),
    /**
     * Ours (issue 15): MRR, subscribers, churn, refunds, net revenue; 12 months of new vs cancelled; the latest payments.
     * Issue 16: MRR by plan, read again when the admin changes a plan (its name, or taking it off sale).
     */
    getRevenue: build.query<ResponseOf<typeof endpoints.stats.revenue>, void>({
      query: () => serverCall(endpoints.stats.revenue, {}, { fallback: messages.failedLoadData }),
      providesTags: ['Viewer', 'Plan'],
    }),
    /** Ours (issue 15): why subscribers cancelled lately. */
    getCancellationReasons: build.query<ResponseOf<typeof endpoints.stats.cancellations>, void>({
      query: () => serverCall(endpoints.stats.cancellations, {}, { fallback: messages.failedLoadData }),
      providesTags: ['Viewer'],
    }),
    /** Ours: the newest `limit` contact messages, for the dashboard's inbox. */
    getContactMessages: build.query<ContactInboxPage, number>({
      query: (limit) => serverCall(endpoints.contact.list, { query: { limit } }, { fallback: messages.failedLoadData }),
      providesTags: ['Viewer'],
    }),
  }),
});

export const { useGetUserStatsQuery, useGetContactMessagesQuery, useGetEngagementQuery, useGetCancellationReasonsQuery, useGetRevenueQuery } = statApi;
