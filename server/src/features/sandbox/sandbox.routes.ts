import { readFile } from 'node:fs/promises';
import type { FastifyError, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paths } from '../../paths.ts';
import { jsonBody } from '../../validation.ts';
import {
  cardFingerprint,
  CardFingerprintSchema,
  CardReferenceEntitySchema,
  checkoutSummary,
  CheckoutSummarySchema,
  payWithCard,
  PayWithCardSchema,
} from './card-checkout.service.ts';
import { PaymentEntitySchema, PlanEntitySchema, RefundCollectionSchema, RefundEntitySchema, SubscriptionEntitySchema } from './entities.ts';
import { authenticationFailed, inputError, SandboxError } from './errors.ts';
import { hostedPaymentPage } from './hosted-page.service.ts';
import { parseFormBody } from './inputs.ts';
import { createPlan, CreatePlanSchema } from './plans.service.ts';
import { fetchPayment, fetchRefunds, refundPayment, RefundPaymentSchema } from './refunds.service.ts';
import { hasApiKeys } from './signing.ts';
import {
  CancelSubscriptionSchema,
  cancelSubscription,
  chargeSubscription,
  createSubscription,
  CreateSubscriptionSchema,
  failRenewal,
  fetchSubscription,
  haltSubscription,
  updateSubscription,
  UpdateSubscriptionSchema,
} from './subscriptions.service.ts';
import { deliverInBackground, deliverWebhook, type WebhookSender } from './webhooks.service.ts';

// The sandbox stands in for Razorpay's API, which Razorpay documents; the LMS API docs leave it out.
const hide = true;
const IdParamsSchema = z.object({ id: z.string().max(100) });
const WebhookStatusSchema = z.object({ status: z.number() });

/**
 * The offline imitation of Razorpay, mounted at /sandbox in sandbox mode only, so that payments
 * can be tried with no account and no network:
 *   /sandbox/checkout.js   the imitation Checkout script (browser/checkout.js, served as it is)
 *   /sandbox/pay/:id       a subscription's short_url: a page that opens that Checkout
 *   /sandbox/v1            the API (Basic auth with the key id and secret): plans;
 *                          subscriptions, /:id (GET, PATCH), /:id/cancel, /:id/charge, /:id/fail, /:id/halt;
 *                          payments/:id, /:id/refund, /:id/refunds; cards/fingerprints; and, without auth, Checkout's subscriptions/:id/checkout
 *                          (the amount it shows) and subscriptions/:id/pay
 */
export const sandboxRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { statusCode, body } = toSandboxError(error);
    if (statusCode >= 500) request.log.error({ err: error }, 'sandbox request failed');
    return reply.code(statusCode).send({ error: body });
  });

  // Read once, at start, and sent as the file's own bytes: there is no build step for it.
  const checkoutScript = await readFile(paths.sandboxCheckoutScript);
  app.get('/checkout.js', { schema: { hide } }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(checkoutScript),
  );

  app.get('/pay/:id', { schema: { hide, params: IdParamsSchema } }, async (request, reply) => {
    const page = await hostedPaymentPage(ctx, request.params.id);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    return page ? reply.send(page) : reply.code(404).send('<!doctype html><title>Not found</title><p>No such subscription.</p>');
  });

  await app.register(sandboxApi, { prefix: '/v1' });
};

const sandboxApi: FastifyPluginAsyncZod = async (api) => {
  const { ctx } = api;
  const { keyId, keySecret } = ctx.config.payments;
  // Webhooks go to the app's own receiver through inject: in-process, as Razorpay's would arrive.
  const webhooks: WebhookSender = { inject: (request) => api.inject(request), payments: ctx.config.payments };
  const apiKeys = async (request: FastifyRequest) => {
    if (!hasApiKeys(request.headers.authorization, keyId, keySecret)) throw authenticationFailed();
  };

  // Razorpay takes JSON or form bodies, and its SDK may send an empty one.
  const json = api.getDefaultJsonParser('error', 'error');
  api.removeContentTypeParser('application/json');
  api.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : json(request, body as string, done),
  );
  api.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, parseFormBody(body as string)));

  api.setNotFoundHandler((_request, reply) => reply.code(400).send({ error: inputError('The requested URL was not found on the server.').body }));

  api.post('/plans', {
    schema: { hide, body: jsonBody(CreatePlanSchema), response: { 200: PlanEntitySchema } },
    onRequest: apiKeys,
    handler: (request) => createPlan(ctx, request.body),
  });

  api.post('/subscriptions', {
    schema: { hide, body: jsonBody(CreateSubscriptionSchema), response: { 200: SubscriptionEntitySchema } },
    onRequest: apiKeys,
    handler: (request) => createSubscription(ctx, request.body),
  });

  api.get('/subscriptions/:id', {
    schema: { hide, params: IdParamsSchema, response: { 200: SubscriptionEntitySchema } },
    onRequest: apiKeys,
    handler: (request) => fetchSubscription(ctx, request.params.id),
  });

  api.patch('/subscriptions/:id', {
    schema: { hide, params: IdParamsSchema, body: jsonBody(UpdateSubscriptionSchema), response: { 200: SubscriptionEntitySchema } },
    onRequest: apiKeys,
    handler: (request) => updateSubscription(ctx, request.params.id, request.body),
  });

  api.post('/cards/fingerprints', {
    schema: { hide, body: jsonBody(CardFingerprintSchema), response: { 200: CardReferenceEntitySchema } },
    onRequest: apiKeys,
    handler: (request) => cardFingerprint(ctx, request.body),
  });

  api.post('/subscriptions/:id/cancel', {
    schema: { hide, params: IdParamsSchema, body: jsonBody(CancelSubscriptionSchema), response: { 200: SubscriptionEntitySchema } },
    onRequest: apiKeys,
    handler: (request) => cancelSubscription(ctx, request.params.id, request.body ?? {}),
  });

  // Checkout's own calls from the browser: the subscription id is the credential, as in Razorpay's Checkout.
  api.get('/subscriptions/:id/checkout', {
    schema: { hide, params: IdParamsSchema, response: { 200: CheckoutSummarySchema } },
    handler: (request) => checkoutSummary(ctx, request.params.id),
  });

  api.post('/subscriptions/:id/pay', {
    schema: {
      hide,
      params: IdParamsSchema,
      body: jsonBody(PayWithCardSchema),
      response: {
        200: z.object({ razorpay_payment_id: z.string(), razorpay_subscription_id: z.string(), razorpay_signature: z.string() }),
      },
    },
    handler: async (request) => {
      const { subscription, payment, signature } = await payWithCard(ctx, request.params.id, request.body.card_number);
      // Like Razorpay, the webhooks follow the payment rather than hold up its answer.
      setImmediate(() => {
        void deliverInBackground(
          webhooks,
          subscription.status === 'authenticated'
            ? [{ event: 'subscription.authenticated', subscription }]
            : [
                { event: 'subscription.activated', subscription },
                { event: 'subscription.charged', subscription, payment },
              ],
          { log: api.log },
        );
      });
      return { razorpay_payment_id: payment.id, razorpay_subscription_id: subscription.id, razorpay_signature: signature };
    },
  });

  api.post('/subscriptions/:id/charge', {
    schema: {
      hide,
      summary:
        'Sandbox only: the next cycle boundary now (a renewal, the first charge of an authenticated subscription, or the end of one cancelled at cycle end), delivering its webhooks before answering',
      params: IdParamsSchema,
      response: {
        200: z.object({ subscription: SubscriptionEntitySchema, payment: PaymentEntitySchema.optional(), webhook: WebhookStatusSchema }),
      },
    },
    onRequest: apiKeys,
    handler: async (request) => {
      const { subscription, payment, first, updated } = await chargeSubscription(ctx, request.params.id);
      if (!payment) {
        const delivered = await deliverWebhook(webhooks, { event: 'subscription.cancelled', subscription });
        return { subscription, webhook: { status: delivered.statusCode } };
      }
      if (updated) await deliverWebhook(webhooks, { event: 'subscription.updated', subscription });
      if (first) await deliverWebhook(webhooks, { event: 'subscription.activated', subscription });
      const delivered = await deliverWebhook(webhooks, { event: 'subscription.charged', subscription, payment });
      return { subscription, payment, webhook: { status: delivered.statusCode } };
    },
  });

  api.post('/subscriptions/:id/fail', {
    schema: {
      hide,
      summary: 'Sandbox only: a renewal whose charge fails; the subscription goes pending, delivering subscription.pending before answering',
      params: IdParamsSchema,
      response: { 200: z.object({ subscription: SubscriptionEntitySchema, webhook: WebhookStatusSchema }) },
    },
    onRequest: apiKeys,
    handler: async (request) => {
      const subscription = await failRenewal(ctx, request.params.id);
      const delivered = await deliverWebhook(webhooks, { event: 'subscription.pending', subscription });
      return { subscription, webhook: { status: delivered.statusCode } };
    },
  });

  api.post('/subscriptions/:id/halt', {
    schema: {
      hide,
      summary: 'Sandbox only: halt as failed renewals would, delivering subscription.halted before answering',
      params: IdParamsSchema,
      response: { 200: z.object({ subscription: SubscriptionEntitySchema, webhook: WebhookStatusSchema }) },
    },
    onRequest: apiKeys,
    handler: async (request) => {
      const subscription = await haltSubscription(ctx, request.params.id);
      const delivered = await deliverWebhook(webhooks, { event: 'subscription.halted', subscription });
      return { subscription, webhook: { status: delivered.statusCode } };
    },
  });

  api.get('/payments/:id', {
    schema: { hide, params: IdParamsSchema, response: { 200: PaymentEntitySchema } },
    onRequest: apiKeys,
    handler: (request) => fetchPayment(ctx, request.params.id),
  });

  api.post('/payments/:id/refund', {
    schema: { hide, params: IdParamsSchema, body: jsonBody(RefundPaymentSchema), response: { 200: RefundEntitySchema } },
    onRequest: apiKeys,
    handler: (request) => refundPayment(ctx, request.params.id, request.body),
  });

  api.get('/payments/:id/refunds', {
    schema: { hide, params: IdParamsSchema, response: { 200: RefundCollectionSchema } },
    onRequest: apiKeys,
    handler: (request) => fetchRefunds(ctx, request.params.id),
  });
};

/** Every failure in Razorpay's error shape: bad input names its field; anything unexpected says nothing more. */
function toSandboxError(error: FastifyError): SandboxError {
  if (error instanceof SandboxError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issue = error.validation[0]!;
    return inputError(issue.message ?? 'The request is invalid.', issue.instancePath.split('/').filter(Boolean).at(-1));
  }
  const status = error.statusCode ?? 500;
  if (status < 500) {
    return new SandboxError(status, { code: 'BAD_REQUEST_ERROR', description: error.message, source: 'NA', step: 'NA', reason: 'NA', metadata: {} });
  }
  return new SandboxError(500, {
    code: 'SERVER_ERROR',
    description: 'The server encountered an error. The incident has been reported to admins.',
    source: 'NA',
    step: 'NA',
    reason: 'NA',
    metadata: {},
  });
}
