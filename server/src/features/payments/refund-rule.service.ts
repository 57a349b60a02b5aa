import { and, desc, eq, gt, inArray, isNull } from 'drizzle-orm';
import { answers } from '@lms/contract/answers';
import type { CancellationTerms } from '@lms/contract/payments';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { payments, subscriptions } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { UserRow } from '../auth/sessions.ts';
import { hasActiveSubscription } from '../users/users.service.ts';
import { CHARGING_STATES } from './provider.ts';
import type { SubscriptionRow } from './subscription-state.service.ts';

/**
 * The refund rule (docs/decisions/0010), decided in one place: the cancel dialog asks it before,
 * unsubscribe acts on it, so what the dialog says is what the cancellation does.
 */

const DAY_MS = 24 * 3600 * 1000;

export interface RefundDecision {
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
export async function refundDecision(ctx: Context, user: UserRow, now: Date): Promise<RefundDecision> {
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
      terms: {
        ...paid,
        outcome: 'refund_used',
        lastRefundAt: lastRefund.toISOString(),
        nextRefundFrom: nextRefundFrom.toISOString(),
        accessUntil: accessUntil.toISOString(),
      },
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
