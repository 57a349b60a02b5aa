import { endpoints } from '@lms/contract/endpoints';
import type { BodyOf, ResponseOf } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import { serverCall, serverState } from '../../lib/server-state';

/**
 * The admin's plans and coupons. Every write reads its list again: a new price adds a
 * version, and naming a new save offer un-marks the old one, so the server's list is the truth.
 * `Plan` also marks the dashboard's MRR by plan (stats), which shows the plans' names.
 */
const plansApi = serverState.enhanceEndpoints({ addTagTypes: ['Plan', 'Coupon'] }).injectEndpoints({
  endpoints: (build) => ({
    getAdminPlans: build.query<ResponseOf<typeof endpoints.plans.list>, void>({
      query: () => serverCall(endpoints.plans.list, {}, { fallback: messages.failedLoadData }),
      providesTags: ['Plan', 'Viewer'],
    }),
    createPlan: build.mutation<ResponseOf<typeof endpoints.plans.create>, BodyOf<typeof endpoints.plans.create>>({
      query: (body) => serverCall(endpoints.plans.create, { body }, { fallback: messages.operationFailed, toastSuccess: true }),
      invalidatesTags: (_answer, error) => (error ? [] : ['Plan']),
    }),
    updatePlan: build.mutation<ResponseOf<typeof endpoints.plans.update>, { id: string; update: BodyOf<typeof endpoints.plans.update> }>({
      query: ({ id, update }) =>
        serverCall(endpoints.plans.update, { params: { id }, body: update }, { fallback: messages.operationFailed, toastSuccess: true }),
      invalidatesTags: (_answer, error) => (error ? [] : ['Plan']),
    }),
    getCoupons: build.query<ResponseOf<typeof endpoints.coupons.list>, void>({
      query: () => serverCall(endpoints.coupons.list, {}, { fallback: messages.failedLoadData }),
      providesTags: ['Coupon', 'Viewer'],
    }),
    createCoupon: build.mutation<ResponseOf<typeof endpoints.coupons.create>, BodyOf<typeof endpoints.coupons.create>>({
      query: (body) => serverCall(endpoints.coupons.create, { body }, { fallback: messages.operationFailed, toastSuccess: true }),
      invalidatesTags: (_answer, error) => (error ? [] : ['Coupon']),
    }),
    updateCoupon: build.mutation<ResponseOf<typeof endpoints.coupons.update>, { id: string; update: BodyOf<typeof endpoints.coupons.update> }>({
      query: ({ id, update }) =>
        serverCall(endpoints.coupons.update, { params: { id }, body: update }, { fallback: messages.operationFailed, toastSuccess: true }),
      invalidatesTags: (_answer, error) => (error ? [] : ['Coupon']),
    }),
  }),
});

export const { useGetAdminPlansQuery, useCreatePlanMutation, useUpdatePlanMutation, useGetCouponsQuery, useCreateCouponMutation, useUpdateCouponMutation } =
  plansApi;
