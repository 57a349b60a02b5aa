import { and, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { messages } from '@lms/contract/messages';
import type { VerifyPayment } from '@lms/contract/payments';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { paymentPlans, payments, subscriptions, users, webhookEvents } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { UserRow } from '../auth/sessions.ts';
import { hasActiveSubscription } from '../users/users.service.ts';
import { RazorpayError, type RazorpayPayment, type RazorpaySubscription } from './razorpay-client.ts';
import { isSignedBy, subscriptionPaymentMessage } from './signatures.ts';

type SubscriptionRow = typeof subscriptions.$inferSelect;

/** How many monthly charges a subscription allows before it completes (a year). */
const BILLING_CYCLES = 12;
/** Provider states after which the subscription will never charge again: access ends. */
const ENDED_STATES = new Set(['halted', 'cancelled', 'completed', 'expired']);

/** Calls the provider; its failures become a 502 the user may retry, with nothing changed here. */
async function atProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof RazorpayError && error.status < 500) throw error;
    throw new AppError(502, messages.providerUnavailable);
  }
}

const fromUnix = (seconds: number) => new Date(seconds * 1000);

/** One calendar month later (UTC), the day clamped to the month's length: Jan 31 → Feb 28. */
export function oneMonthAfter(date: Date): Date {
  const next = new Date(date);
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return next;
}

/** The provider's plan for the configured price: RAZORPAY_PLAN_ID, or one created on first use and remembered. */
async function planId(ctx: Context): Promise<string> {
  const { planId: configured, pricePaise } = ctx.config.payments;
  if (configured) return configured;
  const [known] = await ctx.db.select().from(paymentPlans).where(eq(paymentPlans.amountPaise, pricePaise));
  if (known) return known.providerPlanId;
  const plan = await atProvider(() =>
    ctx.razorpay.createPlan({ period: 'monthly', interval: 1, item: { name: 'LMS monthly bundle', amount: pricePaise, currency: 'INR' } }),
  );
  // Two first subscribers at once may both create a plan; the first one stored is used by everybody.
  await ctx.db.insert(paymentPlans).values({ amountPaise: pricePaise, providerPlanId: plan.id }).onConflictDoNothing();
  const [stored] = await ctx.db.select().from(paymentPlans).where(eq(paymentPlans.amountPaise, pricePaise));
  return stored!.providerPlanId;
}

/**
 * Starts a subscription at the provider for the monthly plan and keeps it against
 * the user; Checkout then takes the payment. An unpaid one is reused.
 */
export async function subscribe(ctx: Context, user: UserRow): Promise<string> {
  if (user.role === 'ADMIN') throw new AppError(403, messages.adminCannotSubscribe);
  if (hasActiveSubscription(user)) throw new AppError(409, messages.alreadySubscribed);
  const plan = await planId(ctx);
  const [unpaid] = await ctx.db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, user.id), eq(subscriptions.status, 'created'), eq(subscriptions.providerPlanId, plan)))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  if (unpaid) return unpaid.providerSubscriptionId;
  const created = await atProvider(() =>
    ctx.razorpay.createSubscription({ plan_id: plan, total_count: BILLING_CYCLES, customer_notify: 1, notes: { userId: user.id } }),
  );
  await ctx.db.insert(subscriptions).values({
    userId: user.id,
    providerSubscriptionId: created.id,
    providerPlanId: plan,
    status: created.status,
  });
  return created.id;
}

/**
 * Records a captured payment once (by its provider id) and extends the user's
 * access to the end of the period it paid for. Replays and late duplicates change
 * nothing; access never moves backwards. Answers whether it was new.
 */
async function recordPayment(
  db: Db,
  subscription: SubscriptionRow,
  payment: RazorpayPayment,
  periodEnd: Date,
): Promise<boolean> {
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
  if (!inserted) return false;
  await db
    .update(users)
    .set({ subscriptionEndsAt: sql`greatest(${users.subscriptionEndsAt}, ${periodEnd})` })
    .where(eq(users.id, subscription.userId));
  await db
    .update(subscriptions)
    .set({ status: 'active', currentEnd: sql`greatest(${subscriptions.currentEnd}, ${periodEnd})`, updatedAt: new Date() })
    .where(eq(subscriptions.id, subscription.id));
  return true;
}

const isCaptured = (payment: RazorpayPayment) =>
  payment.status === 'captured' || payment.captured === true || payment.captured === '1';

/**
 * Checks what Checkout handed the browser: the signature over payment id and the
 * subscription id stored for this user, then asks the provider for the payment
 * itself (amount, time) before granting a month from the payment.
 */
export async function verifyPayment(ctx: Context, user: UserRow, input: VerifyPayment): Promise<void> {
  const [subscription] = await ctx.db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.providerSubscriptionId, input.razorpay_subscription_id));
  if (!subscription || subscription.userId !== user.id) throw new AppError(403, messages.subscriptionNotYours);
  const message = subscriptionPaymentMessage(input.razorpay_payment_id, subscription.providerSubscriptionId);
  if (!isSignedBy(ctx.config.payments.keySecret, message, input.razorpay_signature)) {
    throw new AppError(400, messages.paymentSignatureInvalid);
  }
  const payment = await atProvider(() => ctx.razorpay.fetchPayment(input.razorpay_payment_id)).catch((error: unknown) => {
    throw error instanceof RazorpayError ? new AppError(400, messages.paymentNotCaptured) : error;
  });
  if (!isCaptured(payment)) throw new AppError(400, messages.paymentNotCaptured);
  await ctx.db.transaction((tx) => recordPayment(tx, subscription, payment, oneMonthAfter(fromUnix(payment.created_at))));
}

/**
 * Cancels at the provider, ends access now and refunds the last payment in full
 * when it is inside the refund window. Every step is safe to repeat, and nothing
 * changes here until the provider has cancelled, so the two never disagree for
 * long: a failed call leaves everything as it was, and calling again finishes the job.
 */
export async function unsubscribe(ctx: Context, user: UserRow, now = new Date()): Promise<{ refunded: boolean; message: string }> {
  if (!hasActiveSubscription(user)) throw new AppError(400, messages.noActiveSubscription);
  const [last] = await ctx.db
    .select({ payment: payments, subscription: subscriptions })
    .from(payments)
    .innerJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId))
    .where(eq(payments.userId, user.id))
    .orderBy(desc(payments.paidAt), desc(payments.createdAt))
    .limit(1);
  if (!last) throw new AppError(400, messages.noActiveSubscription);
  const { payment, subscription } = last;

  await cancelAtProvider(ctx, subscription.providerSubscriptionId);

  const windowMs = ctx.config.payments.refundWindowDays * 24 * 3600 * 1000;
  const refundable = payment.refundedPaise === 0 && now.getTime() - payment.paidAt.getTime() <= windowMs;
  const refund = refundable ? await refundInFull(ctx, payment.providerPaymentId) : undefined;

  await ctx.db.transaction(async (tx) => {
    await tx
      .update(subscriptions)
      .set({ status: 'cancelled', updatedAt: now })
      .where(eq(subscriptions.userId, user.id));
    await tx.update(users).set({ subscriptionEndsAt: now }).where(eq(users.id, user.id));
    if (refund?.ok) {
      await tx
        .update(payments)
        .set({ status: 'refunded', refundedPaise: refund.amount, providerRefundId: refund.id, refundedAt: now })
        .where(eq(payments.id, payment.id));
    }
  });
  ctx.recentViewers.forgetUser(user.id);
  if (!refundable) return { refunded: false, message: messages.unsubscribedNoRefund };
  return refund?.ok ? { refunded: true, message: messages.unsubscribedRefunded } : { refunded: false, message: messages.unsubscribedRefundFailed };
}

/** Cancels now; a subscription the provider already ended counts as cancelled. */
async function cancelAtProvider(ctx: Context, subscriptionId: string): Promise<void> {
  try {
    await atProvider(() => ctx.razorpay.cancelSubscription(subscriptionId));
  } catch (error) {
    if (!(error instanceof RazorpayError)) throw error;
    const current = await atProvider(() => ctx.razorpay.fetchSubscription(subscriptionId));
    if (!ENDED_STATES.has(current.status)) throw new AppError(502, messages.providerUnavailable);
  }
}

/** Refunds the whole payment; one already refunded (by an earlier try) counts as done. */
async function refundInFull(ctx: Context, paymentId: string): Promise<{ ok: true; id: string | null; amount: number } | { ok: false }> {
  try {
    const refund = await ctx.razorpay.refundPayment(paymentId);
    return { ok: true, id: refund.id, amount: refund.amount };
  } catch {
    const payment = await ctx.razorpay.fetchPayment(paymentId).catch(() => undefined);
    if (payment && payment.amount_refunded >= payment.amount) return { ok: true, id: null, amount: payment.amount_refunded };
    return { ok: false };
  }
}

// ── Webhooks ────────────────────────────────────────────────────────────────

const WebhookSchema = z.object({
  event: z.string(),
  payload: z.object({
    subscription: z.object({ entity: z.object({ id: z.string() }).loose() }).optional(),
    payment: z.object({ entity: z.object({ id: z.string() }).loose() }).optional(),
  }),
});

/**
 * Handles one delivery of a provider event. Razorpay delivers at least once and
 * in any order, so: the event id is recorded in the same transaction as its
 * effects (a repeat does nothing), and the subscription's state is re-read from
 * the provider rather than taken from the event, so a late `halted` cannot end
 * access that a newer charge renewed.
 */
export async function handleWebhook(
  ctx: Context,
  delivery: { rawBody: Buffer; signature: string | undefined; eventId: string | undefined },
): Promise<{ duplicate: boolean }> {
  if (!delivery.signature || !isSignedBy(ctx.config.payments.webhookSecret, delivery.rawBody, delivery.signature)) {
    throw new AppError(400, messages.webhookSignatureInvalid);
  }
  if (!delivery.eventId || delivery.eventId.length > 100) throw new AppError(400, messages.invalidRequest);
  let body: z.infer<typeof WebhookSchema>;
  try {
    body = WebhookSchema.parse(JSON.parse(delivery.rawBody.toString('utf8')));
  } catch {
    throw new AppError(400, messages.invalidRequest);
  }
  const eventId = delivery.eventId;
  const providerSubscriptionId = body.payload.subscription?.entity.id;
  const [subscription] = providerSubscriptionId
    ? await ctx.db.select().from(subscriptions).where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId))
    : [];
  // Events about subscriptions that are not ours (another app on the account) are noted and left alone.
  const truth = subscription ? await atProvider(() => ctx.razorpay.fetchSubscription(subscription.providerSubscriptionId)) : undefined;
  const charge = subscription && body.payload.payment && ['subscription.activated', 'subscription.charged'].includes(body.event)
    ? await atProvider(() => ctx.razorpay.fetchPayment(body.payload.payment!.entity.id))
    : undefined;

  const outcome = await ctx.db.transaction(async (tx) => {
    const [fresh] = await tx.insert(webhookEvents).values({ eventId, event: body.event }).onConflictDoNothing().returning();
    if (!fresh) return { duplicate: true };
    if (!subscription || !truth) return { duplicate: false };
    if (charge && isCaptured(charge)) {
      const periodEnd = truth.current_end ? fromUnix(truth.current_end) : oneMonthAfter(fromUnix(charge.created_at));
      await recordPayment(tx, subscription, charge, periodEnd);
    }
    await applyProviderState(tx, subscription, truth);
    return { duplicate: false };
  });
  // The event may have ended access: the next video request asks the database again.
  if (subscription) ctx.recentViewers.forgetUser(subscription.userId);
  return outcome;
}

/** Mirrors the provider's status; an ended subscription ends access now, a pending one keeps it to the period's end. */
async function applyProviderState(db: Db, subscription: SubscriptionRow, truth: RazorpaySubscription) {
  await db.update(subscriptions).set({ status: truth.status, updatedAt: new Date() }).where(eq(subscriptions.id, subscription.id));
  if (!ENDED_STATES.has(truth.status)) return;
  // Unless access comes from another, newer subscription of the same user.
  await db
    .update(users)
    .set({ subscriptionEndsAt: sql`least(${users.subscriptionEndsAt}, now())` })
    .where(
      and(
        eq(users.id, subscription.userId),
        sql`not exists (select 1 from subscriptions other where other.user_id = ${subscription.userId}
          and other.id <> ${subscription.id} and other.status in ('active', 'authenticated', 'pending') and other.current_end > now())`,
      ),
    );
}
