import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BillingDetailsResponseSchema, BillingDetailsSchema, BillingDocumentParamsSchema, BillingHistoryResponseSchema } from '@lms/contract/billing';
import { answers } from '@lms/contract/answers';
import { jsonBody } from '../../validation.ts';
import { currentUser, requireUser } from '../auth/guards.ts';
import { billingDetailsOf, documentFileName, documentFor, getBillingHistory, setBillingDetails } from './billing.service.ts';

/** Mounted at /api/v1/billing: the signed-in buyer's tax details, billing history and documents. */
export const billingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.get('/details', {
    schema: { summary: 'What goes on your invoices: business name, GSTIN, state, address', response: { 200: BillingDetailsResponseSchema } },
    preHandler: requireUser,
    handler: async (request) => ({ success: true, message: answers.billingDetailsFetched, details: billingDetailsOf(currentUser(request)) }),
  });

  app.put('/details', {
    schema: {
      summary: 'Set what goes on your future invoices (a GSTIN needs its business name, and its state)',
      body: jsonBody(BillingDetailsSchema),
      response: { 200: BillingDetailsResponseSchema },
    },
    preHandler: requireUser,
    handler: async (request) => ({
      success: true,
      message: answers.billingDetailsSaved,
      details: await setBillingDetails(ctx, currentUser(request), request.body),
    }),
  });

  app.get('/history', {
    schema: { summary: 'Your payments, newest first, with their invoices and credit notes; when the subscription renews or ends', response: { 200: BillingHistoryResponseSchema } },
    preHandler: requireUser,
    handler: async (request) => ({ success: true, message: answers.billingHistoryFetched, ...(await getBillingHistory(ctx, currentUser(request))) }),
  });

  app.get('/documents/:id/pdf', {
    schema: {
      summary: "An invoice's or credit note's PDF: your own, or anyone's for an admin. 409 while it is being made",
      params: BillingDocumentParamsSchema,
    },
    preHandler: requireUser,
    handler: async (request, reply) => {
      const document = await documentFor(ctx, currentUser(request), request.params.id);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${documentFileName(document.number)}"`)
        .header('cache-control', 'private, no-store')
        .send(ctx.media.read(document.pdfKey));
    },
  });
};
