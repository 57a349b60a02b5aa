import { and, eq } from 'drizzle-orm';
import { answers } from '@lms/contract/answers';
import type { PlanInterval } from '@lms/contract/plans';
import type { Context } from '../../context.ts';
import { paymentPlans } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { RazorpayError, type RazorpayPayment } from './razorpay-client.ts';

/** The calls to the provider the payment services share, and what its answers mean. */

/** Provider states after which the subscription will never charge again: access ends. */
export const ENDED_STATES = new Set(['halted', 'cancelled', 'completed', 'expired']);
/** Provider states in which a subscription may still charge the user. */
export const CHARGING_STATES = ['authenticated', 'active', 'pending'];
/**
 * What Checkout takes to authorise a card for a subscription that starts later (a trial, a resume):
 * ₹5, refunded at once, as Razorpay's subscriptions do (the sandbox takes the same).
 */
export const AUTHORISATION_PAISE = 500;

/** Calls the provider; its failures become a 502 the user may retry, with nothing changed here. */
export async function atProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof RazorpayError && error.status < 500) throw error;
    throw new AppError(502, answers.providerUnavailable);
  }
}

export const fromUnix = (seconds: number) => new Date(seconds * 1000);
export const toUnix = (date: Date) => Math.floor(date.getTime() / 1000);

export const isCaptured = (payment: RazorpayPayment) => payment.status === 'captured' || payment.captured === true || payment.captured === '1';

/** Calendar months later (UTC), the day clamped to the month's length: Jan 31 + 1 → Feb 28. */
export function addMonths(date: Date, months: number): Date {
  const next = new Date(date);
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return next;
}

/** The end of the period one charge of the interval pays for. */
export const periodAfter = (date: Date, interval: PlanInterval) => addMonths(date, interval === 'yearly' ? 12 : 1);

/** Charges a subscription allows before it completes: ten years of either period. */
export const CYCLES: Record<PlanInterval, number> = { monthly: 120, yearly: 10 };

/**
 * The provider's plan that charges `amountPaise` every `interval`: RAZORPAY_PLAN_ID for the monthly
 * price it was configured with, else one created on first use and remembered (Razorpay plans cannot
 * be edited, so each amount is its own plan, whichever of our plans or coupons needs it). Two first
 * buyers at once may both create one; the first stored is used by everybody.
 */
export async function providerPlanFor(
  ctx: Pick<Context, 'db' | 'config' | 'razorpay' | 'settings'>,
  interval: PlanInterval,
  amountPaise: number,
): Promise<string> {
  const { planId: configured, pricePaise } = ctx.config.payments;
  if (configured && interval === 'monthly' && amountPaise === pricePaise) return configured;
  const known = () =>
    ctx.db
      .select()
      .from(paymentPlans)
      .where(and(eq(paymentPlans.period, interval), eq(paymentPlans.amountPaise, amountPaise)));
  const [stored] = await known();
  if (stored) return stored.providerPlanId;
  // The provider shows the plan's name to the buyer (its hosted page, its mails): the site's own name.
  const { site } = await ctx.settings.current();
  const made = await atProvider(() =>
    ctx.razorpay.createPlan({
      period: interval,
      interval: 1,
      item: { name: `${site.name} ${interval} bundle, INR ${(amountPaise / 100).toFixed(2)}`, amount: amountPaise, currency: 'INR' },
    }),
  );
  await ctx.db.insert(paymentPlans).values({ period: interval, amountPaise, providerPlanId: made.id }).onConflictDoNothing();
  const [first] = await known();
  return first!.providerPlanId;
}

/** Cancels now or at the cycle's end; a subscription the provider already ended counts as cancelled. */
export async function cancelAtProvider(ctx: Pick<Context, 'razorpay'>, subscriptionId: string, { atCycleEnd }: { atCycleEnd: boolean }): Promise<void> {
  try {
    await atProvider(() => ctx.razorpay.cancelSubscription(subscriptionId, { atCycleEnd }));
  } catch (error) {
    if (!(error instanceof RazorpayError)) throw error;
    const current = await atProvider(() => ctx.razorpay.fetchSubscription(subscriptionId));
    if (!ENDED_STATES.has(current.status)) throw new AppError(502, answers.providerUnavailable);
  }
}

/** Refunds the whole payment; one already refunded (by an earlier try) counts as done. */
export async function refundInFull(
  ctx: Pick<Context, 'razorpay'>,
  paymentId: string,
): Promise<{ ok: true; id: string | null; amount: number } | { ok: false }> {
  try {
    const refund = await ctx.razorpay.refundPayment(paymentId);
    return { ok: true, id: refund.id, amount: refund.amount };
  } catch {
    const payment = await ctx.razorpay.fetchPayment(paymentId).catch(() => undefined);
    if (payment && payment.amount_refunded >= payment.amount) return { ok: true, id: null, amount: payment.amount_refunded };
    return { ok: false };
  }
}

/**
 * The card network's reference for the card a payment was made with (Razorpay's card fingerprint,
 * an on-demand feature of the account): null when the payment has no saved card, or the account
 * does not have the feature (a 4xx), so a trial then goes by the account alone.
 */
export async function cardReferenceOf(
  ctx: Pick<Context, 'razorpay'>,
  paymentId: string,
  { log }: { log: { warn(object: object, message: string): void } },
): Promise<string | null> {
  try {
    const payment = await atProvider(() => ctx.razorpay.fetchPayment(paymentId));
    if (!payment.token_id) return null;
    const reference = await atProvider(() => ctx.razorpay.cardReference(payment.token_id!));
    return reference.payment_account_reference ?? reference.network_reference_id ?? null;
  } catch (error) {
    if (!(error instanceof RazorpayError)) throw error;
    log.warn({ err: error }, 'the provider gave no card reference; the free trial is checked by account only');
    return null;
  }
}
