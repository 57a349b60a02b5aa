import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '@lms/contract/messages';
import {
  CancellationSchema,
  PlanResponseSchema,
  RazorpayKeyResponseSchema,
  SubscribeResponseSchema,
  UnsubscribeResponseSchema,
  VerifyPaymentSchema,
} from '@lms/contract/payments';
import { MessageSchema } from '@lms/contract/users';
import { jsonBody } from '../../validation.ts';
import { currentUser, requireUser } from '../auth/guards.ts';
import { handleWebhook, subscribe, unsubscribe, verifyPayment } from './payments.service.ts';

export const SANDBOX_CHECKOUT_SCRIPT = '/sandbox/checkout.js';
export const RAZORPAY_CHECKOUT_SCRIPT = 'https://checkout.razorpay.com/v1/checkout.js';

/** Mounted at /api/v1/payments. The admin's payment records (GET /payments) are with the statistics. */
export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const { payments } = ctx.config;

  app.get('/razorpay-key', {
    schema: { summary: "The payment provider's public key, Checkout script and price", response: { 200: RazorpayKeyResponseSchema } },
    preHandler: requireUser,
    handler: async () => ({
      success: true,
      message: messages.razorpayKey,
      key: payments.keyId,
      checkoutScript: payments.mode === 'sandbox' ? SANDBOX_CHECKOUT_SCRIPT : RAZORPAY_CHECKOUT_SCRIPT,
      price: payments.pricePaise / 100,
    }),
  });

  // Ours, public: the home page and the course page show the price to visitors, before any login.
  app.get('/plan', {
    schema: { summary: "The bundle's price per month and refund window (public)", response: { 200: PlanResponseSchema } },
    handler: async () => ({
      success: true,
      message: messages.subscriptionPlan,
      price: payments.pricePaise / 100,
      currency: 'INR' as const,
      refundWindowDays: payments.refundWindowDays,
    }),
  });

  app.post('/subscribe', {
    schema: { summary: 'Start a monthly subscription; Checkout takes the payment', response: { 200: SubscribeResponseSchema } },
    preHandler: requireUser,
    handler: async (request) => ({
      success: true,
      message: messages.subscriptionCreated,
      subscription_id: await subscribe(ctx, currentUser(request)),
    }),
  });

  app.post('/verify', {
    schema: { summary: 'Verify the payment Checkout reported', body: jsonBody(VerifyPaymentSchema), response: { 200: MessageSchema } },
    preHandler: requireUser,
    handler: async (request) => {
      await verifyPayment(ctx, currentUser(request), request.body);
      return { success: true, message: messages.paymentVerified };
    },
  });

  app.post('/unsubscribe', {
    schema: {
      summary: 'Cancel: the first cancellation inside the refund window in 12 months refunds and ends access now; any other keeps access to the period end',
      body: jsonBody(CancellationSchema),
      response: { 200: UnsubscribeResponseSchema },
    },
    preHandler: requireUser,
    handler: async (request) => ({ success: true, ...(await unsubscribe(ctx, currentUser(request), request.body)) }),
  });

  // The signature covers the exact bytes Razorpay sent, so this route keeps the body raw.
  await app.register(async (webhook) => {
    webhook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    webhook.post('/webhook', {
      schema: {
        summary: 'Razorpay webhook (X-Razorpay-Signature over the raw body; deduplicated on x-razorpay-event-id)',
        response: { 200: MessageSchema.extend({ duplicate: z.boolean() }) },
      },
      handler: async (request) => {
        const { duplicate } = await handleWebhook(
          ctx,
          {
            rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
            signature: firstHeader(request.headers['x-razorpay-signature']),
            eventId: firstHeader(request.headers['x-razorpay-event-id']),
          },
          { log: request.log },
        );
        return { success: true, message: messages.webhookReceived, duplicate };
      },
    });
  });
};

const firstHeader = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
