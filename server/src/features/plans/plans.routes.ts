import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { route } from '../../route.ts';
import { createCoupon, listCoupons, updateCoupon } from './coupons.service.ts';
import { createPlan, listPlansForAdmin, updatePlan } from './plans.service.ts';

/** The admin's plans and coupons. The plans on sale are public, with the payments. */
export const planRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.plans.list, {
    handler: async () => ({
      success: true,
      message: answers.plansFetched,
      plans: await listPlansForAdmin(ctx),
      tax: { pricesAddTax: ctx.config.payments.pricesAddTax, gstRate: ctx.config.seller.gstRate },
    }),
  });

  route(app, api.plans.create, {
    handler: async (request) => ({ success: true, message: answers.planCreated, plan: await createPlan(ctx, request.body) }),
  });

  route(app, api.plans.update, {
    handler: async (request) => ({ success: true, message: answers.planUpdated, plan: await updatePlan(ctx, request.params.id, request.body) }),
  });

  route(app, api.coupons.list, {
    handler: async () => ({ success: true, message: answers.couponsFetched, coupons: await listCoupons(ctx) }),
  });

  route(app, api.coupons.create, {
    handler: async (request) => ({ success: true, message: answers.couponCreated, coupon: await createCoupon(ctx, request.body) }),
  });

  route(app, api.coupons.update, {
    handler: async (request) => ({ success: true, message: answers.couponUpdated, coupon: await updateCoupon(ctx, request.params.id, request.body) }),
  });
};
