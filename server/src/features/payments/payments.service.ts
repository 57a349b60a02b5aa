import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import type { Cancellation, CancellationOutcome, CancellationTerms, SaveOffer } from '@lms/contract/payments';
import { MONTHS_PER_CHARGE } from '@lms/contract/plans';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { cancellations, payments, subscriptions, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { UserRow } from '../auth/sessions.ts';
import { issueCreditNote, issueInvoice, queueDocumentPdfs } from '../billing/billing.service.ts';
import { queueLifecycleMails, recordLifecycleMail } from '../billing/lifecycle-mail.ts';
import type { Seller } from '../billing/tax.ts';
import { confirmCouponUse, currentSaveOffer, discountedPaise, discountJson, releaseCouponUse, takeCouponUse, usableCoupon } from '../plans/coupons.service.ts';
import { intervalOf, planOfSubscription } from '../plans/plans.service.ts';
import { hasActiveSubscription } from '../users/users.service.ts';
import { atProvider, cancelAtProvider, CHARGING_STATES, ENDED_STATES, fromUnix, providerPlanFor, refundInFull } from './provider.ts';
import type { RazorpayPayment, RazorpaySubscription } from './razorpay-client.ts';

/*
 * Charges, the provider's states, cancellations and the save offer (README.md). Starting a
 * subscription and verifying Checkout's payment are in checkout.service.ts, webhooks in
 * webhooks.service.ts.
 */

export type SubscriptionRow = typeof subscriptions.$inferSelect;

const DAY_MS = 24 * 3600 * 1000;

// ── Charges ─────────────────────────────────────────────────────────────────

/**
 * What the charge after `paidCount` charges takes: the coupon's discounted amount while its
 * charges last (from `discountFrom + 1`), the price version bought otherwise.
 */
export function nextChargeOf(subscription: Pick<SubscriptionRow, 'paidCount' | 'discountedPaise' | 'discountFrom' | 'discountCharges'>, pricePaise: number): number {
  const next = subscription.paidCount + 1;
  const discounted = subscription.discountedPaise !== null && next > subscription.discountFrom && next <= subscription.discountFrom + subscription.discountCharges;
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
  await atProvider(() => ctx.razorpay.updateSubscription(subscription.providerSubscriptionId, { plan_id: wanted, schedule_change_at: 'cycle_end', customer_notify: 0 }));
  await ctx.db
    .update(subscriptions)
    .set({ providerPlanId: wanted, updatedAt: new Date() })
    .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.providerPlanId, subscription.providerPlanId)));
}

// ── The provider's states ──────────────────────────────────────────────────

/**
 * Mirrors the provider's status. An ended subscription ends access now, a pending one keeps it
 * to the period's end; one that will charge and that the user did not cancel (a resumed one,
 * once authorised) means the user's subscription renews again. A subscription the user cancelled
 * themselves had its access end decided then (now with a refund, the paid period's or the trial's
 * end without): the provider's `cancelled` that follows changes nothing. The user's row is written
 * before the subscription's, as everywhere: two transactions about one user then never deadlock.
 */
export async function applyProviderState(db: Db, subscription: SubscriptionRow, truth: RazorpaySubscription) {
  const [current] = await db.select({ cancelledAt: subscriptions.cancelledAt }).from(subscriptions).where(eq(subscriptions.id, subscription.id));
  const cancelledByUser = Boolean(current?.cancelledAt);
  if (CHARGING_STATES.includes(truth.status) && !cancelledByUser) {
    await db.update(users).set({ subscriptionCancelledAt: null }).where(eq(users.id, subscription.userId));
  }
  if (ENDED_STATES.has(truth.status) && !(truth.status === 'cancelled' && cancelledByUser)) {
    // Unless access comes from another, newer subscription of the same user.
    await db
      .update(users)
      .set({ subscriptionEndsAt: sql`least(${users.subscriptionEndsAt}, now())`, trialEndsAt: null })
      .where(
        and(
          eq(users.id, subscription.userId),
          sql`not exists (select 1 from subscriptions other where other.user_id = ${subscription.userId}
            and other.id <> ${subscription.id} and other.status in ('active', 'authenticated', 'pending') and other.current_end > now())`,
        ),
      );
  }
  await db.update(subscriptions).set({ status: truth.status, updatedAt: new Date() }).where(eq(subscriptions.id, subscription.id));
}

// ── Cancelling ─────────────────────────────────────────────────────────────

/**
 * Cancels, by the refund rule (DESIGN §6, docs/decisions/0010): the first cancellation inside
 * the refund window in any 12 months refunds the last payment in full and ends access now;
 * any other stops the renewals at the provider and keeps access to the end of the paid period
 * (or of the free trial: nothing was paid, nothing is refunded). Every step is safe to repeat,
 * and nothing changes here until the provider has cancelled, so the two never disagree for long:
 * a failed call leaves everything as it was, and calling again finishes the job.
 */
export async function unsubscribe(ctx: Context, user: UserRow, why: Cancellation = {}, now = new Date()): Promise<{ refunded: boolean; message: string }> {
  const { terms, live, refunding: last } = await refundDecision(ctx, user, now);
  if (terms.outcome !== 'refund' || !last) {
    await stopRenewals(ctx, user, live, why, now);
    return { refunded: false, message: NO_REFUND_ANSWERS[terms.outcome === 'refund' ? 'window_passed' : terms.outcome] };
  }
  const { payment } = last;

  const ending = [...new Map([last.subscription, ...live].map((subscription) => [subscription.id, subscription])).values()];
  for (const subscription of ending) await cancelAtProvider(ctx, subscription.providerSubscriptionId, { atCycleEnd: false });
  const refund = await refundInFull(ctx, payment.providerPaymentId);
  const mails = await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ subscriptionEndsAt: now, subscriptionCancelledAt: null, trialEndsAt: null }).where(eq(users.id, user.id));
    await tx
      .update(subscriptions)
      .set({ status: 'cancelled', cancelledAt: sql`coalesce(${subscriptions.cancelledAt}, ${now})`, updatedAt: now })
      .where(inArray(subscriptions.id, ending.map((subscription) => subscription.id)));
    if (refund.ok) {
      await tx
        .update(payments)
        // Of two cancellations at once only one refund succeeds; the other learns only that it happened: never forget its id.
        .set({ status: 'refunded', refundedPaise: refund.amount, providerRefundId: sql`coalesce(${payments.providerRefundId}, ${refund.id})`, refundedAt: now })
        .where(eq(payments.id, payment.id));
    }
    const creditNote = refund.ok ? await issueCreditNote(tx, payment.id, refund.amount, now) : null;
    // Its mail waits for the credit note's PDF (queued by the PDF's job).
    if (creditNote) await recordLifecycleMail(tx, { key: `refund:${creditNote}`, kind: 'refund', userId: user.id, data: { documentId: creditNote } });
    const cancelled = await recordCancellation(tx, { key: `refund:${payment.id}`, userId: user.id, why, refunded: refund.ok, accessUntil: now });
    return { creditNote, cancelled };
  });
  await queueDocumentPdfs(ctx, [mails.creditNote]);
  await queueLifecycleMails(ctx, [mails.cancelled]);
  return refund.ok ? { refunded: true, message: answers.unsubscribedRefunded } : { refunded: false, message: messages.unsubscribedRefundFailed };
}

const NO_REFUND_ANSWERS: Record<Exclude<CancellationOutcome, 'refund'>, string> = {
  window_passed: answers.unsubscribedNoRefund,
  refund_used: answers.unsubscribedRefundUsed,
  trial: answers.unsubscribedTrial,
};

interface RefundDecision {
  terms: CancellationTerms;
  /** Whatever would still charge the user: the paid subscription, a resumed one waiting to start, a trial. */
  live: SubscriptionRow[];
  /** The payment a refund gives back, with its subscription: only when the outcome is a refund. */
  refunding: { payment: typeof payments.$inferSelect; subscription: SubscriptionRow } | null;
}

/**
 * The refund rule applied to this subscriber now: what a cancellation would do (the cancel dialog
 * asks before, unsubscribe acts on it, so the two never disagree). The rule looks at the last
 * payment: inside the window after it, not refunded yet, and no refund in the last 12 months, it is
 * refunded in full and access ends now. Otherwise access runs to the end of what was paid for, or
 * of the free trial when nothing was.
 */
async function refundDecision(ctx: Context, user: UserRow, now: Date): Promise<RefundDecision> {
  if (!hasActiveSubscription(user, now)) throw new AppError(400, answers.noActiveSubscription);
  const live = await ctx.db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, user.id), inArray(subscriptions.status, CHARGING_STATES), isNull(subscriptions.cancelledAt)));
  const [last] = await ctx.db
    .select({ payment: payments, subscription: subscriptions })
    .from(payments)
    .innerJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId))
    .where(eq(payments.userId, user.id))
    .orderBy(desc(payments.paidAt), desc(payments.createdAt))
    .limit(1);
  const { refundWindowDays } = ctx.config.payments;
  const accessUntil = user.subscriptionEndsAt!;
  const base = { payment: null, refundWindowEndsAt: null, refundWindowDays, lastRefundAt: null, nextRefundFrom: null };
  if (!last) {
    // A free trial: nothing paid, nothing to refund; access lasts until the trial ends.
    if (live.length === 0) throw new AppError(400, answers.noActiveSubscription);
    return { live, refunding: null, terms: { ...base, outcome: 'trial', accessUntil: accessUntil.toISOString() } };
  }
  const { payment } = last;
  const windowEnds = new Date(payment.paidAt.getTime() + refundWindowDays * DAY_MS);
  const paid = { ...base, payment: { amount: payment.amountPaise / 100, paidAt: payment.paidAt.toISOString() }, refundWindowEndsAt: windowEnds.toISOString() };
  const insideWindow = payment.refundedPaise === 0 && now.getTime() <= windowEnds.getTime();
  if (!insideWindow) {
    // In a free trial after an earlier, older payment: the trial is what ends, and it was not paid for.
    const outcome = user.trialEndsAt && user.trialEndsAt > now ? 'trial' : 'window_passed';
    return { live, refunding: null, terms: { ...paid, outcome, accessUntil: accessUntil.toISOString() } };
  }
  const lastRefund = await refundWithinAYear(ctx.db, user.id, now);
  if (lastRefund) {
    const nextRefundFrom = new Date(lastRefund);
    nextRefundFrom.setUTCFullYear(nextRefundFrom.getUTCFullYear() + 1);
    return {
      live,
      refunding: null,
      terms: { ...paid, outcome: 'refund_used', lastRefundAt: lastRefund.toISOString(), nextRefundFrom: nextRefundFrom.toISOString(), accessUntil: accessUntil.toISOString() },
    };
  }
  return { live, refunding: last, terms: { ...paid, outcome: 'refund', accessUntil: now.toISOString() } };
}

/** What cancelling now would do for this subscriber: GET /payments/cancellation, for the cancel dialog. */
export async function cancellationTerms(ctx: Context, user: UserRow, now = new Date()): Promise<CancellationTerms> {
  return (await refundDecision(ctx, user, now)).terms;
}

/** The refund rule's "once in any 12 months": the latest refund of the last year, if any. */
async function refundWithinAYear(db: Db, userId: string, now: Date): Promise<Date | null> {
  const yearAgo = new Date(now);
  yearAgo.setUTCFullYear(yearAgo.getUTCFullYear() - 1);
  const [refunded] = await db
    .select({ at: payments.refundedAt })
    .from(payments)
    .where(and(eq(payments.userId, userId), gt(payments.refundedAt, yearAgo)))
    .orderBy(desc(payments.refundedAt))
    .limit(1);
  return refunded?.at ?? null;
}

/**
 * A cancellation without a refund: the paid subscription charges no more once its period ends,
 * one waiting to start (a resume, a trial) is cancelled outright, and access stays until the
 * period's (or the trial's) end.
 */
async function stopRenewals(ctx: Context, user: UserRow, live: SubscriptionRow[], why: Cancellation, now: Date): Promise<void> {
  for (const subscription of live) await cancelAtProvider(ctx, subscription.providerSubscriptionId, { atCycleEnd: hasPaidCycle(subscription) });
  const accessUntil = user.subscriptionEndsAt!;
  const mail = await ctx.db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ subscriptionCancelledAt: sql`coalesce(${users.subscriptionCancelledAt}, ${now})` })
      .where(eq(users.id, user.id));
    for (const subscription of live) {
      await tx
        .update(subscriptions)
        .set({ cancelledAt: now, updatedAt: now, ...(!hasPaidCycle(subscription) && { status: 'cancelled' }) })
        .where(eq(subscriptions.id, subscription.id));
    }
    // One per paid period: asking twice (or twice at once) records and mails one cancellation.
    return recordCancellation(tx, { key: `stop:${user.id}:${accessUntil.toISOString()}`, userId: user.id, why, refunded: false, accessUntil });
  });
  await queueLifecycleMails(ctx, [mail]);
}

/**
 * Records a cancellation (once per `key`) with the subscriber's reason, and writes its confirmation
 * mail; answers the mail's id to queue once the transaction has committed, or null for a repeat.
 */
async function recordCancellation(
  db: Db,
  cancellation: { key: string; userId: string; why: Cancellation; refunded: boolean; accessUntil: Date },
): Promise<string | null> {
  const { key, userId, why, refunded, accessUntil } = cancellation;
  const [recorded] = await db
    .insert(cancellations)
    .values({ key, userId, reason: why.reason ?? null, note: why.note || null, refunded, accessUntil })
    .onConflictDoNothing({ target: cancellations.key })
    .returning({ id: cancellations.id });
  if (!recorded) return null;
  return recordLifecycleMail(db, {
    key: `cancelled:${recorded.id}`,
    kind: 'cancelled',
    userId,
    data: { refunded, accessUntil: accessUntil.toISOString(), endedNow: accessUntil.getTime() <= Date.now() },
  });
}

/** Whether a paid cycle is running, to its end: otherwise (a resume or a trial waiting to start) there is nothing to wait for. */
const hasPaidCycle = (subscription: SubscriptionRow) => subscription.status === 'active' || subscription.status === 'pending';

// ── The save offer ─────────────────────────────────────────────────────────

/**
 * The save offer this subscriber may take instead of cancelling: the coupon named as the save
 * offer, on a paid subscription that renews, has no discount running and is one the coupon may be
 * used on (its plans, its dates, its uses, once per account).
 */
async function saveOfferFor(ctx: Context, user: UserRow, now: Date) {
  if (!hasActiveSubscription(user, now) || user.subscriptionCancelledAt) return null;
  const [subscription] = await ctx.db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, user.id), eq(subscriptions.status, 'active'), isNull(subscriptions.cancelledAt)))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  if (!subscription || subscription.planPriceId === null) return null;
  if (subscription.discountedPaise !== null && subscription.paidCount < subscription.discountFrom + subscription.discountCharges) return null;
  const coupon = await currentSaveOffer(ctx.db, now);
  if (!coupon) return null;
  const priced = await planOfSubscription(ctx.db, subscription);
  try {
    await usableCoupon(ctx.db, coupon, { planId: priced.plan.id, userId: user.id, now });
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
  const discounted = discountedPaise(coupon, priced.price.amountPaise);
  if (discounted < 100) return null;
  return { subscription, coupon, priced, discounted };
}

const saveOfferJson = (found: NonNullable<Awaited<ReturnType<typeof saveOfferFor>>>): SaveOffer => ({
  discount: discountJson(found.coupon),
  discountedPrice: found.discounted / 100,
  regularPrice: found.priced.price.amountPaise / 100,
  interval: intervalOf(found.priced.plan),
});

export async function getSaveOffer(ctx: Context, user: UserRow, now = new Date()): Promise<SaveOffer> {
  const found = await saveOfferFor(ctx, user, now);
  return found && saveOfferJson(found);
}

/**
 * Takes the save offer: the next `charges` charges are discounted. The use is taken first (of two
 * acceptances at once, one wins), then the provider moves the subscription to the discounted plan
 * from its next cycle; if the provider cannot, the use is given back and nothing changed.
 */
export async function acceptSaveOffer(ctx: Context, user: UserRow, now = new Date()): Promise<SaveOffer> {
  const found = await saveOfferFor(ctx, user, now);
  if (!found) throw new AppError(400, answers.saveOfferNone);
  const { subscription, coupon, priced, discounted } = found;
  const providerPlan = await providerPlanFor(ctx, intervalOf(priced.plan), discounted);
  await ctx.db.transaction((tx) => takeCouponUse(tx, { couponId: coupon.id, userId: user.id, subscriptionId: subscription.id }));
  try {
    await atProvider(() =>
      ctx.razorpay.updateSubscription(subscription.providerSubscriptionId, { plan_id: providerPlan, schedule_change_at: 'cycle_end', customer_notify: 0 }),
    );
  } catch (error) {
    await ctx.db.transaction((tx) => releaseCouponUse(tx, subscription.id));
    throw error;
  }
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(subscriptions)
      .set({
        couponId: coupon.id,
        discountedPaise: discounted,
        discountFrom: subscription.paidCount,
        discountCharges: coupon.charges,
        nextChargePaise: discounted,
        monthlyValuePaise: Math.round(discounted / MONTHS_PER_CHARGE[intervalOf(priced.plan)]),
        providerPlanId: providerPlan,
        updatedAt: now,
      })
      .where(eq(subscriptions.id, subscription.id));
    await confirmCouponUse(tx, subscription.id, now);
  });
  return saveOfferJson(found);
}
