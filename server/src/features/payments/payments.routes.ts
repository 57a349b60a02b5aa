import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { byAccount, rateLimited } from '../../rate-limit.ts';
import { route } from '../../route.ts';
import { currentUser, loadUser } from '../auth/guards.ts';
import { bundlePrice, checkoutSetup, plansOnSaleFor, startCheckout } from './checkout-start.ts';
import { verifyPayment } from './checkout.service.ts';
import { unsubscribe } from './cancellation.service.ts';
import { cancellationTerms } from './refund-rule.service.ts';
import { acceptSaveOffer, getSaveOffer } from './save-offer.service.ts';
import { handleWebhook } from './webhooks.service.ts';

/** Checkout, cancelling and the provider's webhook. The admin's payment records (GET /payments) are with the statistics. */
export const paymentRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.payments.razorpayKey, {
    handler: async () => ({ success: true, message: answers.razorpayKey, ...(await checkoutSetup(ctx)) }),
  });

  // Public: the home page and the course page show the price to visitors, before any login.
  route(app, api.payments.plan, {
    handler: async () => ({ success: true, message: answers.subscriptionPlan, ...(await bundlePrice(ctx)) }),
  });

  // Public; signed in, it says whether a free trial would be the learner's.
  route(app, api.payments.plans, {
    handler: async (request) => ({ success: true, message: answers.plansFetched, ...(await plansOnSaleFor(ctx, await loadUser(request))) }),
  });

  route(app, api.payments.subscribe, {
    // Each may create a subscription, and a plan, at the provider; refused coupons are counted by startCheckout.
    rateLimit: rateLimited(
      { limiter: 'checkoutsPerAccount', key: byAccount },
      { limiter: 'couponFailuresPerAccount', key: byAccount, mode: 'check', when: (request) => Boolean(request.body.coupon) },
    ),
    handler: async (request) => {
      const { subscriptionId, quote } = await startCheckout(ctx, currentUser(request), request.body);
      return { success: true, message: answers.subscriptionCreated, subscription_id: subscriptionId, checkout: quote };
    },
  });

  route(app, api.payments.verify, {
    handler: async (request) => {
      await verifyPayment(ctx, currentUser(request), request.body, { log: request.log });
      return { success: true, message: answers.paymentVerified };
    },
  });

  // The discount the cancellation dialog may offer instead, and taking it.
  route(app, api.payments.saveOffer, {
    handler: async (request) => ({ success: true, message: answers.saveOfferFetched, offer: await getSaveOffer(ctx, currentUser(request)) }),
  });

  route(app, api.payments.acceptSaveOffer, {
    handler: async (request) => ({ success: true, message: answers.saveOfferAccepted, offer: await acceptSaveOffer(ctx, currentUser(request)) }),
  });

  // The cancel dialog says which case of the refund rule applies, as unsubscribe would apply it now.
  route(app, api.payments.cancellation, {
    handler: async (request) => ({ success: true, message: answers.cancellationTerms, cancellation: await cancellationTerms(ctx, currentUser(request)) }),
  });

  route(app, api.payments.unsubscribe, {
    handler: async (request) => ({ success: true, ...(await unsubscribe(ctx, currentUser(request), request.body)) }),
  });

  // The signature covers the exact bytes Razorpay sent: the contract keeps this body raw.
  route(app, api.payments.webhook, {
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
};

const firstHeader = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
