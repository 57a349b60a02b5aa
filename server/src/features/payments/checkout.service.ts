// One flow read top to bottom (a quote, subscribe, the unpaid ones it leaves behind, verify, a trial): longer than most for that.
import { createHash } from 'node:crypto';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import type { CheckoutQuote, Subscribe, VerifyPayment } from '@lms/contract/payments';
import { MONTHS_PER_CHARGE } from '@lms/contract/plans';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { coupons, subscriptions, trialCards, users } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { sellerOf } from '../settings/site-settings.ts';
import { AppError } from '../../errors.ts';
import type { UserRow } from '../auth/sessions.ts';
import { queueDocumentPdfs } from '../billing/billing.service.ts';
import {
  confirmCouponUse,
  couponForCheckout,
  discountedCharge,
  discountJson,
  releaseCouponUse,
  takeCouponUse,
  type CouponRow,
} from '../plans/coupons.service.ts';
import { intervalOf, planJson, planOfSubscription, planOnSale, type PricedPlan } from '../plans/plans.service.ts';
import { hasActiveSubscription } from '../users/users.service.ts';
import { queuePlanChange, recordPayment } from './charges.service.ts';
import { applyProviderState, type SubscriptionRow } from './subscription-state.service.ts';
import {
  atProvider,
  AUTHORISATION_PAISE,
  cancelAtProvider,
  cardReferenceOf,
  CYCLES,
  fromUnix,
  isCaptured,
  periodAfter,
  providerPlanFor,
  toUnix,
} from './provider.ts';
import { RazorpayError } from './razorpay-client.ts';
import { isSignedBy, subscriptionPaymentMessage } from './signatures.ts';

/** Where a service logs what it goes past: the request's logger, or the app's in a job. */
type LogOptions = { log: Pick<FastifyBaseLogger, 'warn'> };

/*
 * The checkout (README.md): a subscription started at the provider for the plan, coupon and trial
 * the buyer chose, and the verification of what Checkout then paid or authorised.
 */

const DAY_MS = 24 * 3600 * 1000;
/** A trial's start is fixed when its subscription is made: an unpaid one older than this is made again, so the trial is whole. */
const TRIAL_CHECKOUT_FRESH_MS = 3600 * 1000;
/** Unpaid checkouts older than this are dropped by the hourly sweep, giving back any coupon use they held. */
export const ABANDONED_AFTER_MS = DAY_MS;

/** Whether a free trial would be this account's: no access now, and never a trial before (one per account). */
export const mayHaveTrial = (user: UserRow, now = new Date()) => !hasActiveSubscription(user, now) && user.trialUsedAt === null;

interface CheckoutChoice {
  priced: PricedPlan;
  coupon: CouponRow | null;
  trialDays: number;
  /** When the first charge is taken: later for a trial or a resume; null for now. */
  startAt: Date | null;
}

/** What the first charge takes: the price bought, less the coupon's discount. */
const firstChargeOf = ({ priced, coupon }: Pick<CheckoutChoice, 'priced' | 'coupon'>) =>
  coupon ? discountedCharge(coupon, priced.price.amountPaise) : priced.price.amountPaise;

function quoteOf(user: UserRow, { priced, coupon, trialDays, startAt }: CheckoutChoice, now: Date): CheckoutQuote {
  const regular = priced.price.amountPaise;
  const first = firstChargeOf({ priced, coupon });
  const later = startAt !== null && startAt > now;
  return {
    plan: planJson(priced),
    coupon: coupon && discountJson(coupon),
    dueNow: (later ? AUTHORISATION_PAISE : first) / 100,
    authorisationOnly: later,
    firstCharge: { amount: first / 100, date: (later ? startAt : now).toISOString() },
    discountedCharges: coupon ? coupon.charges : 0,
    regularPrice: regular / 100,
    trialDays,
    trialUnavailable: priced.plan.trialDays > 0 && trialDays === 0 && !mayHaveTrial(user, now),
  };
}

/**
 * Starts a subscription at the provider for the plan (the default when none is named), with the
 * coupon and the free trial the buyer chose, and keeps it against the user; Checkout then takes
 * the payment (or, when the first charge comes later, authorises the card). Answers its id and
 * what the checkout shows.
 *
 * A user has at most one unpaid subscription (a partial unique index): asking again for the same
 * reuses it, and asking for something else drops it (at the provider too) and gives back its
 * coupon use. A coupon's use is taken as the subscription is stored, so of two buyers after its
 * last use one gets it (the other's subscription is cancelled at the provider unpaid). A
 * subscriber who cancelled without a refund still has access until the paid period ends;
 * subscribing again resumes: Razorpay cannot undo a cancellation, so the new subscription starts
 * when the paid period ends and nobody pays twice.
 */
export async function subscribe(
  ctx: Context,
  user: UserRow,
  request: Subscribe = {},
  now = new Date(),
): Promise<{ subscriptionId: string; quote: CheckoutQuote }> {
  if (user.role === 'ADMIN') throw new AppError(403, messages.adminCannotSubscribe);
  const active = hasActiveSubscription(user, now);
  if (active && !user.subscriptionCancelledAt) throw new AppError(409, messages.alreadySubscribed);
  const priced = await planOnSale(ctx, request.plan);
  if (request.trial === true && priced.plan.trialDays === 0) throw new AppError(400, answers.planHasNoTrial);
  if (request.trial === true && !mayHaveTrial(user, now)) throw new AppError(400, answers.trialUsed);
  const trialDays = request.trial !== false && mayHaveTrial(user, now) ? priced.plan.trialDays : 0;
  const unpaid = await unpaidSubscriptionOf(ctx.db, user.id);
  const coupon = request.coupon
    ? await couponForCheckout(ctx, { code: request.coupon, planId: priced.plan.id, userId: user.id, heldBy: unpaid?.id, now })
    : null;
  const choice: CheckoutChoice = {
    priced,
    coupon,
    trialDays,
    // A trial's end in whole seconds, as the provider keeps `start_at`.
    startAt: active ? user.subscriptionEndsAt : trialDays > 0 ? new Date(Math.floor((now.getTime() + trialDays * DAY_MS) / 1000) * 1000) : null,
  };
  const quote = quoteOf(user, choice, now);

  if (unpaid && isSameChoice(unpaid, choice, now)) {
    return { subscriptionId: unpaid.providerSubscriptionId, quote: quoteOf(user, { ...choice, startAt: unpaid.startAt }, now) };
  }
  // Another plan, coupon or start: no longer what this user would pay for.
  if (unpaid) await dropUnpaid(ctx, unpaid);

  const interval = intervalOf(priced.plan);
  const firstCharge = firstChargeOf(choice);
  const providerPlan = await providerPlanFor(ctx, interval, firstCharge);
  const created = await atProvider(() =>
    ctx.razorpay.createSubscription({
      plan_id: providerPlan,
      total_count: CYCLES[interval],
      customer_notify: 1,
      ...(choice.startAt && { start_at: toUnix(choice.startAt) }),
      notes: { userId: user.id },
    }),
  );
  try {
    // Stored with the coupon's use in one transaction: of two buyers after its last use, one gets it.
    await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(subscriptions)
        .values({
          userId: user.id,
          providerSubscriptionId: created.id,
          providerPlanId: providerPlan,
          status: created.status,
          startAt: choice.startAt,
          planId: priced.plan.id,
          planPriceId: priced.price.id,
          trialDays,
          couponId: coupon?.id ?? null,
          discountedPaise: coupon ? firstCharge : null,
          discountCharges: coupon?.charges ?? 0,
          nextChargePaise: firstCharge,
          monthlyValuePaise: Math.round(firstCharge / MONTHS_PER_CHARGE[interval]),
        })
        .returning({ id: subscriptions.id });
      if (coupon) await takeCouponUse(tx, { couponId: coupon.id, userId: user.id, subscriptionId: row!.id });
    });
    return { subscriptionId: created.id, quote };
  } catch (error) {
    // Nothing stored: the provider's subscription must never be paid.
    await ctx.razorpay.cancelSubscription(created.id).catch(() => undefined);
    if (!isUniqueViolation(error)) throw error;
    // A concurrent call of this user stored its unpaid subscription first: everybody uses that one.
    const stored = await unpaidSubscriptionOf(ctx.db, user.id);
    if (!stored) throw error;
    return { subscriptionId: stored.providerSubscriptionId, quote: quoteOf(user, await choiceOf(ctx.db, stored), now) };
  }
}

/** What an unpaid subscription was made for, to answer a checkout with it. */
async function choiceOf(db: Db, subscription: SubscriptionRow): Promise<CheckoutChoice> {
  const [coupon] = subscription.couponId ? await db.select().from(coupons).where(eq(coupons.id, subscription.couponId)) : [];
  return { priced: await planOfSubscription(db, subscription), coupon: coupon ?? null, trialDays: subscription.trialDays, startAt: subscription.startAt };
}

function isSameChoice(unpaid: SubscriptionRow, choice: CheckoutChoice, now: Date): boolean {
  if (unpaid.planPriceId !== choice.priced.price.id || unpaid.couponId !== (choice.coupon?.id ?? null) || unpaid.trialDays !== choice.trialDays) return false;
  if (choice.trialDays > 0) return now.getTime() - unpaid.createdAt.getTime() < TRIAL_CHECKOUT_FRESH_MS;
  return unpaid.startAt?.getTime() === choice.startAt?.getTime();
}

const unpaidSubscriptionOf = async (db: Db, userId: string): Promise<SubscriptionRow | undefined> =>
  (
    await db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), eq(subscriptions.status, 'created')))
  )[0];

/** Cancels an unpaid subscription the user will not pay for, at the provider and here, giving back its coupon use. */
async function dropUnpaid(ctx: Context, unpaid: SubscriptionRow): Promise<void> {
  await cancelAtProvider(ctx, unpaid.providerSubscriptionId, { atCycleEnd: false });
  await ctx.db.transaction(async (tx) => {
    const [dropped] = await tx
      .update(subscriptions)
      .set({ status: 'cancelled', cancelledAt: new Date(), updatedAt: new Date() })
      .where(and(eq(subscriptions.id, unpaid.id), eq(subscriptions.status, 'created')))
      .returning({ id: subscriptions.id });
    if (dropped) await releaseCouponUse(tx, dropped.id);
  });
}

/**
 * The hourly sweep: checkouts left unpaid for a day are cancelled at the provider and their coupon
 * uses given back. One the provider cannot cancel now is tried again next hour.
 */
export async function dropAbandonedCheckouts(ctx: Context, { log, now = new Date() }: { log: Pick<FastifyBaseLogger, 'warn'>; now?: Date }): Promise<number> {
  const abandoned = await ctx.db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.status, 'created'), lt(subscriptions.createdAt, new Date(now.getTime() - ABANDONED_AFTER_MS))))
    .limit(500);
  let dropped = 0;
  for (const subscription of abandoned) {
    try {
      await dropUnpaid(ctx, subscription);
      dropped++;
    } catch (error) {
      log.warn({ err: error, subscription: subscription.providerSubscriptionId }, 'could not drop an abandoned checkout; trying again next hour');
    }
  }
  return dropped;
}

// ── Verifying what Checkout did ────────────────────────────────────────────

/**
 * Checks what Checkout handed the browser: the signature over payment id and the
 * subscription id stored for this user, then asks the provider for the payment
 * itself (amount, time) before granting the period it paid for.
 */
export async function verifyPayment(ctx: Context, user: UserRow, input: VerifyPayment, options: LogOptions): Promise<void> {
  const [subscription] = await ctx.db.select().from(subscriptions).where(eq(subscriptions.providerSubscriptionId, input.razorpay_subscription_id));
  if (!subscription || subscription.userId !== user.id) throw new AppError(403, answers.subscriptionNotYours);
  const message = subscriptionPaymentMessage(input.razorpay_payment_id, subscription.providerSubscriptionId);
  if (!isSignedBy(ctx.config.payments.keySecret, message, input.razorpay_signature)) {
    throw new AppError(400, answers.paymentSignatureInvalid);
  }
  if (subscription.startAt) return confirmAuthorisation(ctx, user, subscription, input.razorpay_payment_id, options);
  const payment = await atProvider(() => ctx.razorpay.fetchPayment(input.razorpay_payment_id)).catch((error: unknown) => {
    throw error instanceof RazorpayError ? new AppError(400, answers.paymentNotCaptured) : error;
  });
  if (!isCaptured(payment)) throw new AppError(400, answers.paymentNotCaptured);
  const { plan } = await planOfSubscription(ctx.db, subscription);
  // The seller as the settings name them now: the invoice keeps what it was issued with.
  const seller = await sellerOf(ctx);
  const paid = await ctx.db.transaction((tx) => recordPayment(tx, seller, subscription, payment, periodAfter(fromUnix(payment.created_at), intervalOf(plan))));
  await queueDocumentPdfs(ctx, [paid.invoice]);
  await queuePlanChange(ctx, subscription.id, paid.planChange);
}

/**
 * A subscription that starts later was paid for with an authorisation, not a charge: nothing
 * to record. A resume keeps the access already paid for, and the user's subscription renews again;
 * a trial begins: access until the first charge. The first charge comes by webhook.
 */
async function confirmAuthorisation(ctx: Context, user: UserRow, subscription: SubscriptionRow, paymentId: string, options: LogOptions): Promise<void> {
  const truth = await atProvider(() => ctx.razorpay.fetchSubscription(subscription.providerSubscriptionId));
  if (!['authenticated', 'active'].includes(truth.status)) throw new AppError(400, answers.paymentNotCaptured);
  if (subscription.trialDays > 0) return startTrial(ctx, user, subscription, truth, paymentId, options);
  await ctx.db.transaction(async (tx) => {
    await confirmCouponUse(tx, subscription.id);
    await applyProviderState(tx, subscription, truth);
  });
}

class TrialRefused extends Error {
  constructor(readonly reason: 'account' | 'card') {
    super(reason);
  }
}

/**
 * Starts a free trial: one per account, and one per card where the provider tells cards apart (its
 * card reference, kept as a hash). Verifying the same trial twice changes nothing. A refused trial
 * is cancelled at the provider before it can charge, its coupon use given back, and the account
 * marked as having had its trial, so the next checkout starts with a payment.
 */
async function startTrial(
  ctx: Context,
  user: UserRow,
  subscription: SubscriptionRow,
  truth: Parameters<typeof applyProviderState>[2],
  paymentId: string,
  options: LogOptions,
): Promise<void> {
  if (subscription.trialStartedAt) return;
  const reference = await cardReferenceOf(ctx, paymentId, options);
  const fingerprintHash = reference && createHash('sha256').update(reference).digest('hex');
  const trialEnd = subscription.startAt!;
  try {
    await ctx.db.transaction(async (tx) => {
      // The user's row before the subscription's, as everywhere (applyProviderState, recordPayment): a
      // webhook about this subscription at the same moment then waits instead of deadlocking.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
      const [first] = await tx
        .update(subscriptions)
        .set({ trialStartedAt: new Date() })
        .where(and(eq(subscriptions.id, subscription.id), isNull(subscriptions.trialStartedAt)))
        .returning({ id: subscriptions.id });
      // Verified twice at once: the other one starts it.
      if (!first) return;
      if (fingerprintHash) {
        await tx.insert(trialCards).values({ fingerprintHash, userId: user.id }).onConflictDoNothing();
        const [card] = await tx.select().from(trialCards).where(eq(trialCards.fingerprintHash, fingerprintHash));
        if (card!.userId !== user.id) throw new TrialRefused('card');
      }
      const [started] = await tx
        .update(users)
        .set({ trialUsedAt: new Date(), trialEndsAt: trialEnd, subscriptionEndsAt: sql`greatest(${users.subscriptionEndsAt}, ${trialEnd})` })
        .where(and(eq(users.id, user.id), isNull(users.trialUsedAt)))
        .returning({ id: users.id });
      if (!started) throw new TrialRefused('account');
      await confirmCouponUse(tx, subscription.id);
      await applyProviderState(tx, subscription, truth);
    });
  } catch (error) {
    if (!(error instanceof TrialRefused)) throw error;
    await cancelAtProvider(ctx, subscription.providerSubscriptionId, { atCycleEnd: false });
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ trialUsedAt: new Date() })
        .where(and(eq(users.id, user.id), isNull(users.trialUsedAt)));
      await tx.update(subscriptions).set({ status: 'cancelled', cancelledAt: new Date(), updatedAt: new Date() }).where(eq(subscriptions.id, subscription.id));
      await releaseCouponUse(tx, subscription.id);
    });
    throw new AppError(400, error.reason === 'card' ? answers.trialCardUsed : answers.trialUsed);
  }
}
