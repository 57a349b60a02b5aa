import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { messages } from '@lms/contract/messages';
import type { Cancellation, VerifyPayment } from '@lms/contract/payments';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { cancellations, paymentPlans, payments, subscriptions, users, webhookEvents } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../errors.ts';
import type { UserRow } from '../auth/sessions.ts';
import { issueCreditNote, issueInvoice, queueDocumentPdfs } from '../billing/billing.service.ts';
import { queueLifecycleMails, recordLifecycleMail } from '../billing/lifecycle-mail.ts';
import type { Seller } from '../billing/tax.ts';
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
 * Starts a subscription at the provider for the monthly plan and keeps it against the user;
 * Checkout then takes the payment. A user has at most one unpaid subscription (a partial
 * unique index): it is reused, and of concurrent calls all get the one stored first.
 *
 * A subscriber who cancelled without a refund still has access until the paid period ends;
 * subscribing again resumes: Razorpay cannot undo a cancellation, so the new subscription
 * starts when the paid period ends, Checkout only authorises the card, and nobody pays twice.
 */
export async function subscribe(ctx: Context, user: UserRow): Promise<string> {
  if (user.role === 'ADMIN') throw new AppError(403, messages.adminCannotSubscribe);
  const active = hasActiveSubscription(user);
  if (active && !user.subscriptionCancelledAt) throw new AppError(409, messages.alreadySubscribed);
  const startAt = active ? user.subscriptionEndsAt : null;
  const plan = await planId(ctx);
  const unpaid = await unpaidSubscriptionOf(ctx.db, user.id);
  if (unpaid && unpaid.providerPlanId === plan && unpaid.startAt?.getTime() === startAt?.getTime()) return unpaid.providerSubscriptionId;
  // One for another price, or for a start that has passed: no longer what this user would pay for.
  if (unpaid) await dropUnpaid(ctx, unpaid);
  const created = await atProvider(() =>
    ctx.razorpay.createSubscription({
      plan_id: plan,
      total_count: BILLING_CYCLES,
      customer_notify: 1,
      ...(startAt && { start_at: Math.floor(startAt.getTime() / 1000) }),
      notes: { userId: user.id },
    }),
  );
  try {
    await ctx.db.insert(subscriptions).values({
      userId: user.id,
      providerSubscriptionId: created.id,
      providerPlanId: plan,
      status: created.status,
      startAt,
    });
    return created.id;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // A concurrent call stored its unpaid subscription first: everybody uses that one.
    await ctx.razorpay.cancelSubscription(created.id).catch(() => undefined);
    const stored = await unpaidSubscriptionOf(ctx.db, user.id);
    if (!stored) throw error;
    return stored.providerSubscriptionId;
  }
}

const unpaidSubscriptionOf = async (db: Db, userId: string): Promise<SubscriptionRow | undefined> =>
  (await db.select().from(subscriptions).where(and(eq(subscriptions.userId, userId), eq(subscriptions.status, 'created'))))[0];

/** Cancels an unpaid subscription the user will not pay for, at the provider and here. */
async function dropUnpaid(ctx: Context, unpaid: SubscriptionRow): Promise<void> {
  await cancelAtProvider(ctx, unpaid.providerSubscriptionId, { atCycleEnd: false });
  await ctx.db
    .update(subscriptions)
    .set({ status: 'cancelled', cancelledAt: new Date(), updatedAt: new Date() })
    .where(and(eq(subscriptions.id, unpaid.id), eq(subscriptions.status, 'created')));
}

/**
 * Records a captured payment once (by its provider id), issues its invoice (features/billing) and
 * extends the user's access to the end of the period it paid for. Replays and late duplicates
 * change nothing; access never moves backwards. Answers the new invoice's id, or null for a
 * payment already recorded.
 */
async function recordPayment(
  db: Db,
  seller: Seller,
  subscription: SubscriptionRow,
  payment: RazorpayPayment,
  periodEnd: Date,
): Promise<string | null> {
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
  if (!inserted) return null;
  await db
    .update(users)
    .set({
      subscriptionEndsAt: sql`greatest(${users.subscriptionEndsAt}, ${periodEnd})`,
      // When they became a subscriber (the revenue figures' new subscribers); webhooks may come late.
      firstPaidAt: sql`least(coalesce(${users.firstPaidAt}, ${paidAt}), ${paidAt})`,
      // A charge on a subscription nobody cancelled: it renews from here on.
      ...(!subscription.cancelledAt && { subscriptionCancelledAt: null }),
    })
    .where(eq(users.id, subscription.userId));
  await db
    .update(subscriptions)
    .set({ status: 'active', currentEnd: sql`greatest(${subscriptions.currentEnd}, ${periodEnd})`, updatedAt: new Date() })
    .where(eq(subscriptions.id, subscription.id));
  const invoice = await issueInvoice(db, seller, { id: inserted.id, userId: subscription.userId, amountPaise: payment.amount, paidAt }, periodEnd);
  // Sent by the PDF's job once the invoice it carries exists.
  await recordLifecycleMail(db, { key: `receipt:${invoice}`, kind: 'receipt', userId: subscription.userId, data: { documentId: invoice } });
  return invoice;
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
  if (subscription.startAt) return confirmAuthorisation(ctx, subscription);
  const payment = await atProvider(() => ctx.razorpay.fetchPayment(input.razorpay_payment_id)).catch((error: unknown) => {
    throw error instanceof RazorpayError ? new AppError(400, messages.paymentNotCaptured) : error;
  });
  if (!isCaptured(payment)) throw new AppError(400, messages.paymentNotCaptured);
  const invoice = await ctx.db.transaction((tx) => recordPayment(tx, ctx.config.seller, subscription, payment, oneMonthAfter(fromUnix(payment.created_at))));
  await queueDocumentPdfs(ctx, [invoice]);
}

/**
 * A subscription that starts later was paid for with an authorisation, not a charge: nothing
 * to record, no access to give. Once the provider says the card is authorised, the user's
 * subscription renews again (the first charge comes by webhook when it starts).
 */
async function confirmAuthorisation(ctx: Context, subscription: SubscriptionRow): Promise<void> {
  const truth = await atProvider(() => ctx.razorpay.fetchSubscription(subscription.providerSubscriptionId));
  if (!['authenticated', 'active'].includes(truth.status)) throw new AppError(400, messages.paymentNotCaptured);
  await ctx.db.transaction((tx) => applyProviderState(tx, subscription, truth));
}

/**
 * Cancels, by the refund rule (DESIGN §6, docs/decisions/0010): the first cancellation inside
 * the refund window in any 12 months refunds the last payment in full and ends access now;
 * any other stops the renewals at the provider and keeps access to the end of the paid period.
 * Every step is safe to repeat, and nothing changes here until the provider has cancelled, so
 * the two never disagree for long: a failed call leaves everything as it was, and calling
 * again finishes the job.
 */
export async function unsubscribe(ctx: Context, user: UserRow, why: Cancellation = {}, now = new Date()): Promise<{ refunded: boolean; message: string }> {
  if (!hasActiveSubscription(user, now)) throw new AppError(400, messages.noActiveSubscription);
  const [last] = await ctx.db
    .select({ payment: payments, subscription: subscriptions })
    .from(payments)
    .innerJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId))
    .where(eq(payments.userId, user.id))
    .orderBy(desc(payments.paidAt), desc(payments.createdAt))
    .limit(1);
  if (!last) throw new AppError(400, messages.noActiveSubscription);
  const { payment } = last;
  // Whatever would still charge the user: the paid one, and a resumed one waiting to start.
  const live = await ctx.db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, user.id), inArray(subscriptions.status, CHARGING_STATES), isNull(subscriptions.cancelledAt)));

  const windowMs = ctx.config.payments.refundWindowDays * 24 * 3600 * 1000;
  const insideWindow = payment.refundedPaise === 0 && now.getTime() - payment.paidAt.getTime() <= windowMs;
  const refundUsed = insideWindow && (await hadRefundWithinAYear(ctx.db, user.id, now));
  if (!insideWindow || refundUsed) {
    await stopRenewals(ctx, user, live, why, now);
    return { refunded: false, message: refundUsed ? messages.unsubscribedRefundUsed : messages.unsubscribedNoRefund };
  }

  const ending = [...new Map([last.subscription, ...live].map((subscription) => [subscription.id, subscription])).values()];
  for (const subscription of ending) await cancelAtProvider(ctx, subscription.providerSubscriptionId, { atCycleEnd: false });
  const refund = await refundInFull(ctx, payment.providerPaymentId);
  const mails = await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ subscriptionEndsAt: now, subscriptionCancelledAt: null }).where(eq(users.id, user.id));
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
  ctx.recentViewers.forgetUser(user.id);
  return refund.ok ? { refunded: true, message: messages.unsubscribedRefunded } : { refunded: false, message: messages.unsubscribedRefundFailed };
}

/** Provider states in which a subscription may still charge the user. */
const CHARGING_STATES = ['authenticated', 'active', 'pending'];

/** The refund rule's "once in any 12 months". */
async function hadRefundWithinAYear(db: Db, userId: string, now: Date): Promise<boolean> {
  const yearAgo = new Date(now);
  yearAgo.setUTCFullYear(yearAgo.getUTCFullYear() - 1);
  const [refunded] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.userId, userId), gt(payments.refundedAt, yearAgo)))
    .limit(1);
  return refunded !== undefined;
}

/**
 * A cancellation without a refund: the paid subscription charges no more once its period ends,
 * one waiting to start (a resume) is cancelled outright, and access stays until the period's end.
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

/** Whether a paid cycle is running, to its end: otherwise (a resume waiting to start) there is nothing to wait for. */
const hasPaidCycle = (subscription: SubscriptionRow) => subscription.status === 'active' || subscription.status === 'pending';

/** Cancels now or at the cycle's end; a subscription the provider already ended counts as cancelled. */
async function cancelAtProvider(ctx: Context, subscriptionId: string, { atCycleEnd }: { atCycleEnd: boolean }): Promise<void> {
  try {
    await atProvider(() => ctx.razorpay.cancelSubscription(subscriptionId, { atCycleEnd }));
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
  { log }: { log: Pick<FastifyBaseLogger, 'warn'> },
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
  let truth: RazorpaySubscription | undefined;
  let charge: RazorpayPayment | undefined;
  try {
    truth = subscription ? await atProvider(() => ctx.razorpay.fetchSubscription(subscription.providerSubscriptionId)) : undefined;
    charge =
      subscription && body.payload.payment && ['subscription.activated', 'subscription.charged'].includes(body.event)
        ? await atProvider(() => ctx.razorpay.fetchPayment(body.payload.payment!.entity.id))
        : undefined;
  } catch (error) {
    // The provider was reached and does not know what the event names: a signed event about nothing
    // real (a test event, a deleted object). Acknowledged, so it is not delivered again for a day.
    if (!(error instanceof RazorpayError)) throw error;
    log.warn({ err: error, event: body.event, eventId }, 'webhook about an object the provider does not know; acknowledged and ignored');
    truth = undefined;
    charge = undefined;
  }

  const { invoice, mail, ...outcome } = await ctx.db.transaction(async (tx) => {
    const [fresh] = await tx.insert(webhookEvents).values({ eventId, event: body.event }).onConflictDoNothing().returning();
    if (!fresh) return { duplicate: true, invoice: null, mail: null };
    if (!subscription || !truth) return { duplicate: false, invoice: null, mail: null };
    let invoice: string | null = null;
    if (charge && isCaptured(charge)) {
      const periodEnd = truth.current_end ? fromUnix(truth.current_end) : oneMonthAfter(fromUnix(charge.created_at));
      invoice = await recordPayment(tx, ctx.config.seller, subscription, charge, periodEnd);
    }
    await applyProviderState(tx, subscription, truth);
    return { duplicate: false, invoice, mail: await recordStateMail(tx, subscription, truth) };
  });
  await queueDocumentPdfs(ctx, [invoice]);
  await queueLifecycleMails(ctx, [mail]);
  // The event may have ended access: the next video request asks the database again.
  if (subscription) ctx.recentViewers.forgetUser(subscription.userId);
  return outcome;
}

/**
 * The mail a provider state calls for, once per subscription and state (and period, for a failed
 * renewal): a renewal that failed (`pending`: access goes on while the provider retries), or access
 * that ended because renewals failed for good (`halted`, unless another subscription still gives access).
 */
async function recordStateMail(db: Db, subscription: SubscriptionRow, truth: RazorpaySubscription): Promise<string | null> {
  const [user] = await db.select().from(users).where(eq(users.id, subscription.userId));
  if (!user) return null;
  if (truth.status === 'pending') {
    return recordLifecycleMail(db, {
      key: `payment_failed:${subscription.id}:${truth.current_end ?? ''}`,
      kind: 'payment_failed',
      userId: user.id,
      data: { accessUntil: (user.subscriptionEndsAt ?? new Date()).toISOString() },
    });
  }
  if (truth.status === 'halted' && !hasActiveSubscription(user)) {
    return recordLifecycleMail(db, { key: `access_ended:${subscription.id}`, kind: 'access_ended', userId: user.id, data: {} });
  }
  return null;
}

/**
 * Mirrors the provider's status. An ended subscription ends access now, a pending one keeps it
 * to the period's end; one that will charge and that the user did not cancel (a resumed one,
 * once authorised) means the user's subscription renews again. The user's row is written before
 * the subscription's, as everywhere: two transactions about one user then never deadlock.
 */
async function applyProviderState(db: Db, subscription: SubscriptionRow, truth: RazorpaySubscription) {
  if (CHARGING_STATES.includes(truth.status) && !subscription.cancelledAt) {
    await db.update(users).set({ subscriptionCancelledAt: null }).where(eq(users.id, subscription.userId));
  }
  if (ENDED_STATES.has(truth.status)) {
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
  await db.update(subscriptions).set({ status: truth.status, updatedAt: new Date() }).where(eq(subscriptions.id, subscription.id));
}
