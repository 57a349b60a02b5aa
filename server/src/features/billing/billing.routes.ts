import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { route } from '../../route.ts';
import { currentUser } from '../auth/guards.ts';
import { billingDetailsOf, documentDownload, getBillingHistory, setBillingDetails } from './billing.service.ts';

/** The signed-in buyer's tax details, billing history and documents. */
export const billingRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.billing.details, {
    handler: async (request) => ({ success: true, message: answers.billingDetailsFetched, details: billingDetailsOf(currentUser(request)) }),
  });

  route(app, api.billing.saveDetails, {
    handler: async (request) => ({
      success: true,
      message: answers.billingDetailsSaved,
      details: await setBillingDetails(ctx, currentUser(request), request.body),
    }),
  });

  route(app, api.billing.history, {
    handler: async (request) => ({ success: true, message: answers.billingHistoryFetched, ...(await getBillingHistory(ctx, currentUser(request))) }),
  });

  route(app, api.billing.document, {
    handler: async (request, reply) => {
      const { fileName, body } = await documentDownload(ctx, currentUser(request), request.params.id);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(body);
    },
  });
};
