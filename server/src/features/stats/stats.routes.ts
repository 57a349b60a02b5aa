import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messages } from '@lms/contract/messages';
import { CancellationReasonsResponseSchema, PaymentRecordsQuerySchema, PaymentRecordsResponseSchema } from '@lms/contract/payments';
import { EngagementResponseSchema } from '@lms/contract/progress';
import { UserStatsResponseSchema } from '@lms/contract/stats';
import { requireRole } from '../auth/guards.ts';
import { getCancellationReasons, getEngagement, getPaymentRecords, getUserStats } from './stats.service.ts';

const adminOnly = requireRole('ADMIN');

/** Mounted at /api/v1 itself: the spec puts the dashboard's two calls under different paths. */
export const statsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.get('/admin/status/users', {
    schema: { summary: 'Registered users, and those with an active subscription', response: { 200: UserStatsResponseSchema } },
    preHandler: adminOnly,
    handler: async () => ({ success: true, message: messages.userStats, ...(await getUserStats(ctx)) }),
  });

  app.get('/admin/engagement', {
    schema: {
      summary: 'Active learners this week, active subscribers who stopped watching (14 days), and per course: started, completed, average completion',
      response: { 200: EngagementResponseSchema },
    },
    preHandler: adminOnly,
    handler: async () => ({ success: true, message: messages.engagementFetched, ...(await getEngagement(ctx)) }),
  });

  app.get('/admin/cancellations', {
    schema: {
      summary: 'Why subscribers cancelled in the last 90 days (most given first; null: skipped) and the latest 20 with their notes',
      response: { 200: CancellationReasonsResponseSchema },
    },
    preHandler: adminOnly,
    handler: async () => ({ success: true, message: messages.cancellationsFetched, ...(await getCancellationReasons(ctx)) }),
  });

  app.get('/payments', {
    schema: {
      summary: 'The latest `count` payments, this year’s sales by month (Asia/Kolkata), subscriptions sold and net revenue',
      querystring: PaymentRecordsQuerySchema,
      response: { 200: PaymentRecordsResponseSchema },
    },
    preHandler: adminOnly,
    handler: async (request) => ({
      success: true,
      message: messages.paymentRecords,
      ...(await getPaymentRecords(ctx, { count: request.query.count })),
    }),
  });
};
