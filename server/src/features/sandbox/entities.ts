import { z } from 'zod';
import type { sandboxPayments, sandboxPlans, sandboxRefunds, sandboxSubscriptions } from '../../db/schema.ts';
import { addMonths, toUnix } from '../payments/provider.ts';

/**
 * Razorpay's entities, in the shape and with the quirks of its API's answers, made from the sandbox_*
 * rows that keep Razorpay's side of things offline.
 */

export type PlanRow = typeof sandboxPlans.$inferSelect;
export type SubscriptionRow = typeof sandboxSubscriptions.$inferSelect;
export type PaymentRow = typeof sandboxPayments.$inferSelect;
export type RefundRow = typeof sandboxRefunds.$inferSelect;

export const ENDED_STATUSES = new Set(['cancelled', 'completed', 'expired']);
export const CHARGING_STATUSES = new Set(['active', 'pending']);
/** What Razorpay takes from a card to authorise a subscription that starts later: ₹5, refunded at once. */
export const AUTHORISATION_PAISE = 500;

/** Now, to the second: what is stored is then exactly what the unix-seconds entities say. */
export const wholeSecondNow = () => new Date(Math.floor(Date.now() / 1000) * 1000);

/** The end of `count` billing cycles of a plan starting at `date`. */
export function addCycles(date: Date, plan: Pick<PlanRow, 'period' | 'interval'>, count = 1): Date {
  const n = plan.interval * count;
  const days = (d: number) => new Date(date.getTime() + d * 24 * 3600 * 1000);
  if (plan.period === 'daily') return days(n);
  if (plan.period === 'weekly') return days(7 * n);
  return addMonths(date, plan.period === 'yearly' ? 12 * n : n);
}

/** Razorpay sends empty notes as `[]` (a PHP quirk); the sandbox does too, so the app copes with both. */
const NotesSchema = z.union([z.record(z.string(), z.string()), z.array(z.never())]);
const toNotes = (notes: unknown) => {
  const record = (notes ?? {}) as Record<string, string>;
  return Object.keys(record).length === 0 ? [] : record;
};

export const PlanEntitySchema = z.object({
  id: z.string(),
  entity: z.literal('plan'),
  interval: z.number(),
  period: z.string(),
  item: z.object({
    id: z.string(),
    active: z.boolean(),
    name: z.string(),
    description: z.null(),
    amount: z.number(),
    unit_amount: z.number(),
    currency: z.string(),
    type: z.literal('plan'),
    created_at: z.number(),
    updated_at: z.number(),
  }),
  notes: NotesSchema,
  created_at: z.number(),
});
export type PlanEntity = z.infer<typeof PlanEntitySchema>;

export const SubscriptionEntitySchema = z.object({
  id: z.string(),
  entity: z.literal('subscription'),
  plan_id: z.string(),
  status: z.string(),
  current_start: z.number().nullable(),
  current_end: z.number().nullable(),
  ended_at: z.number().nullable(),
  quantity: z.number(),
  notes: NotesSchema,
  charge_at: z.number().nullable(),
  start_at: z.number(),
  end_at: z.number(),
  paid_count: z.number(),
  remaining_count: z.number(),
  total_count: z.number(),
  short_url: z.string(),
  has_scheduled_changes: z.boolean(),
  change_scheduled_at: z.number().nullable(),
  created_at: z.number(),
});
export type SubscriptionEntity = z.infer<typeof SubscriptionEntitySchema>;

export const PaymentEntitySchema = z.object({
  id: z.string(),
  entity: z.literal('payment'),
  amount: z.number(),
  currency: z.string(),
  status: z.enum(['captured', 'failed', 'refunded']),
  method: z.literal('card'),
  captured: z.boolean(),
  amount_refunded: z.number(),
  refund_status: z.enum(['full', 'partial']).nullable(),
  description: z.string().nullable(),
  notes: NotesSchema,
  error_code: z.string().nullable(),
  error_description: z.string().nullable(),
  error_source: z.string().nullable(),
  error_step: z.string().nullable(),
  error_reason: z.string().nullable(),
  token_id: z.string().nullable(),
  created_at: z.number(),
});
export type PaymentEntity = z.infer<typeof PaymentEntitySchema>;

export const RefundEntitySchema = z.object({
  id: z.string(),
  entity: z.literal('refund'),
  amount: z.number(),
  currency: z.string(),
  payment_id: z.string(),
  notes: NotesSchema,
  receipt: z.string().nullable(),
  status: z.enum(['processed', 'pending', 'failed']),
  created_at: z.number(),
});
export type RefundEntity = z.infer<typeof RefundEntitySchema>;
export const RefundCollectionSchema = z.object({ entity: z.literal('collection'), count: z.number(), items: z.array(RefundEntitySchema) });

export function toPlanEntity(plan: PlanRow): PlanEntity {
  const createdAt = toUnix(plan.createdAt);
  return {
    id: plan.id,
    entity: 'plan',
    interval: plan.interval,
    period: plan.period,
    item: {
      // A plan has exactly one item here, so its id follows from the plan's.
      id: `item_${plan.id.slice('plan_'.length)}`,
      active: true,
      name: plan.itemName,
      description: null,
      amount: plan.amount,
      unit_amount: plan.amount,
      currency: plan.currency,
      type: 'plan',
      created_at: createdAt,
      updated_at: createdAt,
    },
    notes: [],
    created_at: createdAt,
  };
}

/**
 * A subscription starts at its first payment, or at its `start_at` when it was created with
 * one (the card is authorised first, then charged at that time). The cycles run from there.
 */
export function toSubscriptionEntity(subscription: SubscriptionRow, plan: PlanRow, publicUrl: string): SubscriptionEntity {
  const remaining = subscription.totalCount - subscription.paidCount;
  const startAt = subscription.startAt ?? subscription.createdAt;
  const endAt = subscription.currentEnd ? addCycles(subscription.currentEnd, plan, remaining) : addCycles(startAt, plan, subscription.totalCount);
  const chargeAt =
    subscription.status === 'created' || subscription.status === 'authenticated'
      ? startAt
      : CHARGING_STATUSES.has(subscription.status) && remaining > 0 && !subscription.cancelAtCycleEnd
        ? subscription.currentEnd
        : null;
  return {
    id: subscription.id,
    entity: 'subscription',
    plan_id: subscription.planId,
    status: subscription.status,
    current_start: subscription.currentStart && toUnix(subscription.currentStart),
    current_end: subscription.currentEnd && toUnix(subscription.currentEnd),
    // An ended subscription never changes again, so its last update is when it ended.
    ended_at: ENDED_STATUSES.has(subscription.status) ? toUnix(subscription.updatedAt) : null,
    quantity: 1,
    notes: toNotes(subscription.notes),
    charge_at: chargeAt && toUnix(chargeAt),
    start_at: toUnix(startAt),
    end_at: toUnix(endAt),
    paid_count: subscription.paidCount,
    remaining_count: remaining,
    total_count: subscription.totalCount,
    short_url: `${publicUrl}/sandbox/pay/${subscription.id}`,
    has_scheduled_changes: subscription.scheduledPlanId !== null,
    // A scheduled change applies when the cycle ends: the first charge's time for one not yet charged.
    change_scheduled_at: subscription.scheduledPlanId ? toUnix(subscription.currentEnd ?? startAt) : null,
    created_at: toUnix(subscription.createdAt),
  };
}

export function toPaymentEntity(payment: PaymentRow): PaymentEntity {
  const failed = payment.status === 'failed';
  return {
    id: payment.id,
    entity: 'payment',
    amount: payment.amount,
    currency: payment.currency,
    status: payment.status as PaymentEntity['status'],
    method: 'card',
    captured: !failed,
    amount_refunded: payment.amountRefunded,
    refund_status: payment.amountRefunded === 0 ? null : payment.amountRefunded >= payment.amount ? 'full' : 'partial',
    description: null,
    notes: [],
    error_code: payment.errorCode,
    error_description: payment.errorDescription,
    // Declines are the only failure the sandbox makes.
    error_source: failed ? 'bank' : null,
    error_step: failed ? 'payment_authorization' : null,
    error_reason: failed ? 'payment_declined' : null,
    token_id: payment.tokenId,
    created_at: toUnix(payment.createdAt),
  };
}

export function toRefundEntity(refund: RefundRow, currency: string): RefundEntity {
  return {
    id: refund.id,
    entity: 'refund',
    amount: refund.amount,
    currency,
    payment_id: refund.paymentId,
    notes: toNotes(refund.notes),
    receipt: refund.receipt,
    status: refund.status as RefundEntity['status'],
    created_at: toUnix(refund.createdAt),
  };
}
