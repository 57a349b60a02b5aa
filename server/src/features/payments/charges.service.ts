import { and, eq, sql } from 'drizzle-orm';
import { MONTHS_PER_CHARGE } from '@lms/contract/plans';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { payments, subscriptions, users } from '../../db/schema.ts';
import { issueInvoice } from '../billing/billing.service.ts';
import { recordLifecycleMail } from '../billing/lifecycle-mail.ts';
import type { Seller } from '../billing/tax.ts';
import { confirmCouponUse } from '../plans/coupons.service.ts';
import { intervalOf, planOfSubscription } from '../plans/plans.service.ts';
import { atProvider, fromUnix, providerPlanFor } from './provider.ts';
import type { RazorpayPayment } from './razorpay-client.ts';
import type { SubscriptionRow } from './subscription-state.service.ts';

/**
 * Charges: recording a captured payment (its invoice, the access it pays for) and keeping the
 * provider's plan on what the next charge takes. Checkout's verify and the webhooks both record.
 */

/**
 * What the charge after `paidCount` charges takes: the coupon's discounted amount while its
 * charges last (from `discountFrom + 1`), the price version bought otherwise.
 */
export function nextChargeOf(
  subscription: Pick<SubscriptionRow, 'paidCount' | 'discountedPaise' | 'discountFrom' | 'discountCharges'>,
  pricePaise: number,
): number {
  const next = subscription.paidCount + 1;
  const discounted =
    subscription.discountedPaise !== null && next > subscription.discountFrom && next <= subscription.discountFrom + subscription.discountCharges;
  return discounted ? subscription.discountedPaise! : pricePaise;
}

/**
 * Records a captured payment once (by its provider id), issues its invoice (features/billing) and
 * extends the user's access to the end of the period it paid for. Replays and late duplicates
 * change nothing; access never moves backwards. Answers the new invoice's id (null for a payment
 * already recorded), and whether the next charge differs from this one, so that the provider's
 * plan must change (`changeProviderPlan`, a job: a coupon's discount starts or ends there).
 */
export async function recordPayment(
  db: Db,
  seller: Seller,
  subscription: SubscriptionRow,
  payment: RazorpayPayment,
  periodEnd: Date,
): Promise<{ invoice: string | null; planChange: boolean }> {
  const paidAt = fromUnix(payment.created_at);
  const [inserted] = await db
    .insert(payments)
    .values({
      userId: subscription.userId,
      subscriptionId: subscription.id,
      providerPaymentId: payment.id,
      amountPaise: payment.amount,
      currency: payment.currency,
      status: 'captured',
      paidAt,
    })
    .onConflictDoNothing({ target: payments.providerPaymentId })
    .returning({ id: payments.id });
  if (!inserted) return { invoice: null, planChange: false };
  await db
    .update(users)
    .set({
      subscriptionEndsAt: sql`greatest(${users.subscriptionEndsAt}, ${periodEnd})`,
      // When they became a subscriber (the revenue figures' new subscribers); webhooks may come late.
      firstPaidAt: sql`least(coalesce(${users.firstPaidAt}, ${paidAt}), ${paidAt})`,
      // The first charge ends a free trial.
      trialEndsAt: null,
      // A charge on a subscription nobody cancelled: it renews from here on.
      ...(!subscription.cancelledAt && { subscriptionCancelledAt: null }),
    })
    .where(eq(users.id, subscription.userId));
  const [charged] = await db
    .update(subscriptions)
    .set({
      status: 'active',
      currentEnd: sql`greatest(${subscriptions.currentEnd}, ${periodEnd})`,
      paidCount: sql`${subscriptions.paidCount} + 1`,
      updatedAt: new Date(),
    })
    .where(eq(subscriptions.id, subscription.id))
    .returning();
  const { plan, price } = await planOfSubscription(db, charged!);
  const next = nextChargeOf(charged!, price.amountPaise);
  await db
    .update(subscriptions)
    .set({ nextChargePaise: next, monthlyValuePaise: Math.round(next / MONTHS_PER_CHARGE[intervalOf(plan)]) })
    .where(eq(subscriptions.id, subscription.id));
  await confirmCouponUse(db, subscription.id, paidAt);
  const invoice = await issueInvoice(db, seller, { id: inserted.id, userId: subscription.userId, amountPaise: payment.amount, paidAt }, periodEnd, {
    planName: plan.isDefault ? null : plan.name,
  });
  // Sent by the PDF's job once the invoice it carries exists.
  await recordLifecycleMail(db, { key: `receipt:${invoice}`, kind: 'receipt', userId: subscription.userId, data: { documentId: invoice } });
  return { invoice, planChange: next !== payment.amount };
}

/** Queues the provider plan change a charge called for; the job compares before it changes, so a repeat does nothing. */
export async function queuePlanChange(ctx: Pick<Context, 'jobs'>, subscriptionId: string, needed: boolean): Promise<void> {
  if (needed) await ctx.jobs.send('subscription-plan', { subscriptionId }).catch(() => undefined);
}

/**
 * The `subscription-plan` job: puts the subscription on the provider's plan for what its next
 * charge takes, from the next cycle (Razorpay's update with `schedule_change_at: cycle_end`). A
 * coupon's discount starts this way after the save offer, and ends after its last discounted
 * charge. Asking again changes nothing: the plan is compared first.
 */
export async function changeProviderPlan(ctx: Context, { subscriptionId }: { subscriptionId: string }): Promise<void> {
  const [subscription] = await ctx.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
  // Razorpay updates only authenticated and active subscriptions; an ended or cancelled one charges no more.
  if (!subscription || subscription.cancelledAt || !['active', 'authenticated'].includes(subscription.status) || subscription.nextChargePaise === null) return;
  const { plan } = await planOfSubscription(ctx.db, subscription);
  const wanted = await providerPlanFor(ctx, intervalOf(plan), subscription.nextChargePaise);
  if (wanted === subscription.providerPlanId) return;
  await atProvider(() =>
    ctx.razorpay.updateSubscription(subscription.providerSubscriptionId, { plan_id: wanted, schedule_change_at: 'cycle_end', customer_notify: 0 }),
  );
  await ctx.db
    .update(subscriptions)
    .set({ providerPlanId: wanted, updatedAt: new Date() })
    .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.providerPlanId, subscription.providerPlanId)));
}
