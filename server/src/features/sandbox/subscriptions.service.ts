import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Context } from '../../context.ts';
import { sandboxPlans, sandboxSubscriptions } from '../../db/schema.ts';
import { toUnix } from '../payments/provider.ts';
import {
  addCycles,
  CHARGING_STATUSES,
  ENDED_STATUSES,
  toPaymentEntity,
  toSubscriptionEntity,
  wholeSecondNow,
  type PaymentEntity,
  type PaymentRow,
  type SubscriptionEntity,
} from './entities.ts';
import { DECLINED, inputError, stateError } from './errors.ts';
import { newId } from './ids.ts';
import { CustomerNotifySchema, NotesInputSchema, required, wholeNumber } from './inputs.ts';
import { changeSubscription, insertPayment, loadSubscription } from './store.ts';

/**
 * Razorpay's subscriptions through their life: made on a plan, charged cycle by cycle, failing,
 * halted, moved to another plan, cancelled. Checkout's first payment is in card-checkout.service.ts.
 */

export const CreateSubscriptionSchema = z.object({
  plan_id: z.string(required('plan id')).min(1, 'The plan id field is required.'),
  total_count: wholeNumber('total count').min(1, 'The total count must be at least 1.').max(1200, 'The total count may be at most 1200.'),
  // Only a quantity of one: the sandbox charges the plan's amount.
  quantity: z.coerce
    .number()
    .pipe(z.literal(1, { error: 'The sandbox supports a quantity of 1 only.' }))
    .optional(),
  customer_notify: CustomerNotifySchema.optional(),
  /** A later start (unix seconds): Checkout then only authorises the card, and the first charge comes at that time. */
  start_at: wholeNumber('start at').positive().optional(),
  expire_by: wholeNumber('expire by').positive().optional(),
  notes: NotesInputSchema.optional(),
});
export type CreateSubscription = z.infer<typeof CreateSubscriptionSchema>;

export const CancelSubscriptionSchema = z.object({
  cancel_at_cycle_end: z
    .union([z.boolean(), z.coerce.number()])
    .pipe(z.union([z.literal(0), z.literal(1), z.literal(false), z.literal(true)], { error: 'The cancel_at_cycle_end must be 0 or 1.' }))
    .optional(),
});
export type CancelSubscription = z.infer<typeof CancelSubscriptionSchema>;

/**
 * PATCH /subscriptions/:id: another plan, from the next cycle. Razorpay refuses an immediate change
 * when a card mandate applies (razorpay-node #409), which every sandbox subscription has.
 */
export const UpdateSubscriptionSchema = z.object({
  plan_id: z.string(required('plan id')).min(1, 'The plan id field is required.'),
  schedule_change_at: z.enum(['now', 'cycle_end'], { error: 'The schedule change at must be now or cycle_end.' }).optional(),
  customer_notify: CustomerNotifySchema.optional(),
});
export type UpdateSubscription = z.infer<typeof UpdateSubscriptionSchema>;

export async function createSubscription(ctx: Context, input: CreateSubscription): Promise<SubscriptionEntity> {
  const [plan] = await ctx.db.select().from(sandboxPlans).where(eq(sandboxPlans.id, input.plan_id));
  if (!plan) throw inputError('The id provided does not exist', 'plan_id');
  if (input.start_at !== undefined && input.start_at <= toUnix(new Date())) {
    throw inputError('The start time should be in the future.', 'start_at');
  }
  const notes = Object.fromEntries(Object.entries(input.notes ?? {}).map(([key, value]) => [key, String(value)]));
  const [subscription] = await ctx.db
    .insert(sandboxSubscriptions)
    .values({
      id: newId('sub'),
      planId: plan.id,
      status: 'created',
      totalCount: input.total_count,
      startAt: input.start_at === undefined ? null : new Date(input.start_at * 1000),
      notes,
    })
    .returning();
  return toSubscriptionEntity(subscription!, plan, ctx.config.publicUrl);
}

export async function fetchSubscription(ctx: Context, id: string): Promise<SubscriptionEntity> {
  const { subscription, plan } = await loadSubscription(ctx.db, id);
  return toSubscriptionEntity(subscription, plan, ctx.config.publicUrl);
}

/**
 * Cancels at once (`cancel_at_cycle_end: 0`), or when the paid cycle ends (`1`): until then
 * it stays as it is and charges no more; the sandbox's "charge" then ends it instead.
 * A subscription with no paid cycle running has nothing to wait for and ends at once.
 */
export function cancelSubscription(ctx: Context, id: string, input: CancelSubscription = {}): Promise<SubscriptionEntity> {
  const atCycleEnd = input.cancel_at_cycle_end === 1 || input.cancel_at_cycle_end === true;
  return changeSubscription(ctx, id, async ({ subscription }) => {
    if (ENDED_STATUSES.has(subscription.status)) throw stateError(`Subscription is not cancellable in ${subscription.status} status.`);
    if (atCycleEnd && CHARGING_STATUSES.has(subscription.status)) return { cancelAtCycleEnd: true };
    return { status: 'cancelled' };
  });
}

/**
 * A renewal whose charge failed, as at Razorpay: a failed payment, and the subscription `pending`
 * (Razorpay retries daily; four failures halt it, which `haltSubscription` plays).
 */
export function failRenewal(ctx: Context, id: string): Promise<SubscriptionEntity> {
  return changeSubscription(ctx, id, async ({ subscription, plan }, tx) => {
    if (subscription.status !== 'active' && subscription.status !== 'pending')
      throw stateError(`Subscription cannot be charged in ${subscription.status} status.`);
    await insertPayment(tx, subscription, plan, wholeSecondNow(), { status: 'failed', errorCode: 'BAD_REQUEST_ERROR', errorDescription: DECLINED });
    return { status: 'pending' };
  });
}

/** Halts, as four failed renewals would at Razorpay. */
export function haltSubscription(ctx: Context, id: string): Promise<SubscriptionEntity> {
  return changeSubscription(ctx, id, async ({ subscription }) => {
    if (!CHARGING_STATUSES.has(subscription.status)) throw stateError(`Subscription cannot be halted in ${subscription.status} status.`);
    return { status: 'halted' };
  });
}

/**
 * Moves the subscription to another plan from its next cycle: the next charge takes the new
 * plan's amount (`chargeSubscription` applies it). Only authenticated and active subscriptions
 * may be updated, and never at once: every sandbox subscription has a card mandate.
 */
export function updateSubscription(ctx: Context, id: string, input: UpdateSubscription): Promise<SubscriptionEntity> {
  return changeSubscription(ctx, id, async ({ subscription }, tx) => {
    if (subscription.status !== 'authenticated' && subscription.status !== 'active') {
      throw stateError(`Subscription cannot be updated in ${subscription.status} status.`);
    }
    if (input.schedule_change_at !== 'cycle_end')
      throw inputError("Can't update subscription immediately when card mandate is applicable", 'schedule_change_at');
    const [plan] = await tx.select().from(sandboxPlans).where(eq(sandboxPlans.id, input.plan_id));
    if (!plan) throw inputError('The id provided does not exist', 'plan_id');
    return { scheduledPlanId: plan.id === subscription.planId ? null : plan.id };
  });
}

/**
 * The next cycle boundary, now ("charge now"): a renewal, paid for the cycle that starts where the
 * last one ended; the first charge of an authenticated subscription, for the cycle from its start;
 * or, for one cancelled at the cycle's end, its end (no payment).
 */
export async function chargeSubscription(
  ctx: Context,
  id: string,
): Promise<{ subscription: SubscriptionEntity; payment?: PaymentEntity; first: boolean; updated: boolean }> {
  let paid: PaymentRow | undefined;
  let first = false;
  let updated = false;
  const subscription = await changeSubscription(ctx, id, async ({ subscription, plan: current }, tx) => {
    first = subscription.status === 'authenticated';
    if (!first && !CHARGING_STATUSES.has(subscription.status)) throw stateError(`Subscription cannot be charged in ${subscription.status} status.`);
    if (subscription.cancelAtCycleEnd) return { status: 'cancelled' };
    if (subscription.paidCount >= subscription.totalCount) throw stateError('Subscription has no charges left.');
    // A change scheduled for the cycle's end takes effect now: the new cycle is charged at the new plan's amount.
    const [scheduled] = subscription.scheduledPlanId ? await tx.select().from(sandboxPlans).where(eq(sandboxPlans.id, subscription.scheduledPlanId)) : [];
    const plan = scheduled ?? current;
    updated = scheduled !== undefined;
    paid = await insertPayment(tx, subscription, plan, wholeSecondNow(), { status: 'captured' });
    const currentStart = (first ? subscription.startAt : subscription.currentEnd) ?? paid.createdAt;
    return {
      status: 'active',
      currentStart,
      currentEnd: addCycles(currentStart, plan),
      paidCount: subscription.paidCount + 1,
      ...(scheduled && { planId: scheduled.id, scheduledPlanId: null }),
    };
  });
  return { subscription, payment: paid && toPaymentEntity(paid), first, updated };
}
