import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import {
  CancellationSchema,
  CancellationTermsResponseSchema,
  PlanResponseSchema,
  RazorpayKeyResponseSchema,
  SubscribeResponseSchema,
  UnsubscribeResponseSchema,
  VerifyPaymentSchema,
} from '@lms/contract/payments';
import { PlansResponseSchema, SaveOfferResponseSchema, SubscribeSchema } from '@lms/contract/plans';
import { MessageSchema } from '@lms/contract/users';
import { AppError } from '../../errors.ts';
import { consume, isExhausted } from '../../rate-limit.ts';
import { jsonBody } from '../../validation.ts';
import { currentUser, loadUser, requireUser } from '../auth/guards.ts';
import { defaultPlanPrice, planJson, plansOnSale } from '../plans/plans.service.ts';
import { mayHaveTrial, subscribe, verifyPayment } from './checkout.service.ts';
import { unsubscribe } from './cancellation.service.ts';
import { cancellationTerms } from './refund-rule.service.ts';
import { acceptSaveOffer, getSaveOffer } from './save-offer.service.ts';
import { handleWebhook } from './webhooks.service.ts';

/** A coupon refused for what it is (not for the plan or the account): what guessing codes runs into. */
const COUPON_REFUSALS = new Set<string>([messages.couponUnknown, messages.couponExpired, messages.couponNotYetValid, messages.couponExhausted]);

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
      message: answers.razorpayKey,
      key: payments.keyId,
      checkoutScript: payments.mode === 'sandbox' ? SANDBOX_CHECKOUT_SCRIPT : RAZORPAY_CHECKOUT_SCRIPT,
      price: await defaultPlanPrice(ctx),
    }),
  });

  // Ours, public: the home page and the course page show the price to visitors, before any login.
  app.get('/plan', {
    schema: { summary: "The bundle's price per month and refund window (public)", response: { 200: PlanResponseSchema } },
    handler: async () => ({
      success: true,
      message: answers.subscriptionPlan,
      price: await defaultPlanPrice(ctx),
      currency: 'INR' as const,
      refundWindowDays: payments.refundWindowDays,
    }),
  });

  // Ours, public (issue 16): every plan on sale; signed in, whether a free trial would be theirs.
  app.get('/plans', {
    schema: { summary: 'The plans on sale (public)', response: { 200: PlansResponseSchema } },
    handler: async (request) => {
      const user = await loadUser(request);
      return {
        success: true,
        message: answers.plansFetched,
        plans: (await plansOnSale(ctx)).map(planJson),
        trialAvailable: !user || (user.role !== 'ADMIN' && mayHaveTrial(user)),
        refundWindowDays: payments.refundWindowDays,
      };
    },
  });

  app.post('/subscribe', {
    schema: {
      summary: 'Start a subscription (the default plan without a body; ours: a plan, a coupon, the trial); Checkout takes the payment',
      body: jsonBody(SubscribeSchema),
      response: { 200: SubscribeResponseSchema },
    },
    preHandler: requireUser,
    handler: async (request) => {
      const user = currentUser(request);
      if (!(await consume(ctx.limits.checkoutsPerAccount, user.id))) throw new AppError(429, answers.tooManyRequests);
      if (request.body.coupon && (await isExhausted(ctx.limits.couponFailuresPerAccount, user.id))) throw new AppError(429, answers.tooManyRequests);
      try {
        const { subscriptionId, quote } = await subscribe(ctx, user, request.body);
        return { success: true, message: answers.subscriptionCreated, subscription_id: subscriptionId, checkout: quote };
      } catch (error) {
        if (request.body.coupon && error instanceof AppError && COUPON_REFUSALS.has(error.message)) await consume(ctx.limits.couponFailuresPerAccount, user.id);
        throw error;
      }
    },
  });

  app.post('/verify', {
    schema: { summary: 'Verify the payment Checkout reported', body: jsonBody(VerifyPaymentSchema), response: { 200: MessageSchema } },
    preHandler: requireUser,
    handler: async (request) => {
      await verifyPayment(ctx, currentUser(request), request.body, { log: request.log });
      return { success: true, message: answers.paymentVerified };
    },
  });

  // Ours (issue 16): the discount the cancellation dialog may offer instead, and taking it.
  app.get('/save-offer', {
    schema: { summary: 'The save offer this subscriber may take instead of cancelling, if any', response: { 200: SaveOfferResponseSchema } },
    preHandler: requireUser,
    handler: async (request) => ({ success: true, message: answers.saveOfferFetched, offer: await getSaveOffer(ctx, currentUser(request)) }),
  });

  app.post('/save-offer', {
    schema: { summary: 'Take the save offer: the next payments are discounted', response: { 200: SaveOfferResponseSchema } },
    preHandler: requireUser,
    handler: async (request) => ({ success: true, message: answers.saveOfferAccepted, offer: await acceptSaveOffer(ctx, currentUser(request)) }),
  });

  // Ours: the cancel dialog says which case of the refund rule applies, as unsubscribe would apply it now.
  app.get('/cancellation', {
    schema: { summary: 'What cancelling now would do for this subscriber: refunded or not, access until when', response: { 200: CancellationTermsResponseSchema } },
    preHandler: requireUser,
    handler: async (request) => ({ success: true, message: answers.cancellationTerms, cancellation: await cancellationTerms(ctx, currentUser(request)) }),
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
        return { success: true, message: answers.webhookReceived, duplicate };
      },
    });
  });
};

const firstHeader = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
