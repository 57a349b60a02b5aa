import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answers } from '@lms/contract/answers';
import {
  AdminPlanResponseSchema,
  AdminPlansResponseSchema,
  CouponIdParamsSchema,
  CouponInputSchema,
  CouponResponseSchema,
  CouponsResponseSchema,
  CouponUpdateSchema,
  PlanIdParamsSchema,
  PlanInputSchema,
  PlanUpdateSchema,
} from '@lms/contract/plans';
import { jsonBody } from '../../validation.ts';
import { requireRole } from '../auth/guards.ts';
import { createCoupon, listCoupons, updateCoupon } from './coupons.service.ts';
import { createPlan, listPlansForAdmin, updatePlan } from './plans.service.ts';

const adminOnly = requireRole('ADMIN');

/** Mounted at /api/v1: the admin's plans and coupons (issue 16). The plans on sale are public at /payments/plans. */
export const planRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.get('/admin/plans', {
    schema: { summary: 'Every plan, archived ones too, with its price versions and subscribers', response: { 200: AdminPlansResponseSchema } },
    preHandler: adminOnly,
    handler: async () => ({
      success: true,
      message: answers.plansFetched,
      plans: await listPlansForAdmin(ctx),
      tax: { pricesAddTax: ctx.config.payments.pricesAddTax, gstRate: ctx.config.seller.gstRate },
    }),
  });

  app.post('/admin/plans', {
    schema: { summary: 'Create a plan', body: jsonBody(PlanInputSchema), response: { 201: AdminPlanResponseSchema } },
    preHandler: adminOnly,
    handler: async (request, reply) => reply.code(201).send({ success: true, message: answers.planCreated, plan: await createPlan(ctx, request.body) }),
  });

  app.patch('/admin/plans/:id', {
    schema: {
      summary: 'Rename, re-price (a new price version: subscribers keep theirs), set the trial, archive or bring back a plan',
      params: PlanIdParamsSchema,
      body: jsonBody(PlanUpdateSchema),
      response: { 200: AdminPlanResponseSchema },
    },
    preHandler: adminOnly,
    handler: async (request) => ({ success: true, message: answers.planUpdated, plan: await updatePlan(ctx, request.params.id, request.body) }),
  });

  app.get('/admin/coupons', {
    schema: { summary: 'Every coupon, with its redemptions', response: { 200: CouponsResponseSchema } },
    preHandler: adminOnly,
    handler: async () => ({ success: true, message: answers.couponsFetched, coupons: await listCoupons(ctx) }),
  });

  app.post('/admin/coupons', {
    schema: { summary: 'Create a coupon', body: jsonBody(CouponInputSchema), response: { 201: CouponResponseSchema } },
    preHandler: adminOnly,
    handler: async (request, reply) => reply.code(201).send({ success: true, message: answers.couponCreated, coupon: await createCoupon(ctx, request.body) }),
  });

  app.patch('/admin/coupons/:id', {
    schema: {
      summary: "Change when, how often and for which plans a coupon may be redeemed, whether it is the save offer, or archive it (its code and discount stay)",
      params: CouponIdParamsSchema,
      body: jsonBody(CouponUpdateSchema),
      response: { 200: CouponResponseSchema },
    },
    preHandler: adminOnly,
    handler: async (request) => ({ success: true, message: answers.couponUpdated, coupon: await updateCoupon(ctx, request.params.id, request.body) }),
  });
};
