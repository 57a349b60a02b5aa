import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answers } from '@lms/contract/answers';
import { CancellationReasonsResponseSchema, PaymentRecordsQuerySchema, PaymentRecordsResponseSchema } from '@lms/contract/payments';
import { EngagementResponseSchema } from '@lms/contract/progress';
import { RevenueExportQuerySchema, RevenueResponseSchema, UserStatsResponseSchema } from '@lms/contract/stats';
import { AppError } from '../../errors.ts';
import { consume } from '../../rate-limit.ts';
import { currentUser, requireRole } from '../auth/guards.ts';
import { revenueExport } from './revenue-export.ts';
import { getRevenue } from './revenue.service.ts';
import { getCancellationReasons, getEngagement, getPaymentRecords, getUserStats } from './stats.service.ts';

const adminOnly = requireRole('ADMIN');

/** Mounted at /api/v1 itself: the spec puts the dashboard's two calls under different paths. */
export const statsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.get('/admin/status/users', {
    schema: { summary: 'Registered users, and those with an active subscription', response: { 200: UserStatsResponseSchema } },
    preHandler: adminOnly,
    handler: async () => ({ success: true, message: answers.userStats, ...(await getUserStats(ctx)) }),
  });

  app.get('/admin/engagement', {
    schema: {
      summary: 'Active learners this week, active subscribers who stopped watching (14 days), and per course: started, completed, average completion',
      response: { 200: EngagementResponseSchema },
    },
    preHandler: adminOnly,
    handler: async () => ({ success: true, message: answers.engagementFetched, ...(await getEngagement(ctx)) }),
  });

  app.get('/admin/cancellations', {
    schema: {
      summary: 'Why subscribers cancelled in the last 90 days (most given first; null: skipped) and the latest 20 with their notes',
      response: { 200: CancellationReasonsResponseSchema },
    },
    preHandler: adminOnly,
    handler: async () => ({ success: true, message: answers.cancellationsFetched, ...(await getCancellationReasons(ctx)) }),
  });

  app.get('/admin/revenue', {
    schema: {
      summary: 'MRR, subscribers, new and cancelled this month, churn rate, refunds, gross and net revenue; 12 months of new vs cancelled; the latest payments with their documents',
      response: { 200: RevenueResponseSchema },
    },
    preHandler: adminOnly,
    handler: async () => ({ success: true, message: answers.revenueFetched, ...(await getRevenue(ctx)) }),
  });

  app.get('/admin/revenue/export', {
    schema: {
      summary: "CSV for an accountant: the payments, or the invoices and credit notes, of a range of days (India's calendar, at most 400)",
      querystring: RevenueExportQuerySchema,
    },
    preHandler: adminOnly,
    handler: async (request, reply) => {
      // Each export reads up to a year of rows: a few a minute per admin.
      if (!(await consume(ctx.limits.exportsPerAccount, currentUser(request).id))) throw new AppError(429, answers.tooManyRequests);
      const { fileName, body } = revenueExport(ctx, request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(body);
    },
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
      message: answers.paymentRecords,
      ...(await getPaymentRecords(ctx, { count: request.query.count })),
    }),
  });
};
