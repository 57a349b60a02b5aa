import { eq, inArray, sql } from 'drizzle-orm';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import type { Cancellation, CancellationOutcome } from '@lms/contract/payments';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { cancellations, payments, subscriptions, users } from '../../db/schema.ts';
import type { UserRow } from '../auth/sessions.ts';
import { issueCreditNote, queueDocumentPdfs } from '../billing/billing.service.ts';
import { queueLifecycleMails, recordLifecycleMail } from '../billing/lifecycle-mail.ts';
import { cancelAtProvider, refundInFull } from './provider.ts';
import { refundDecision } from './refund-rule.service.ts';
import type { SubscriptionRow } from './subscription-state.service.ts';

/** A subscriber cancelling: with a refund that ends access now, or stopping the renewals and keeping what was paid for. */

/**
 * Cancels, by the refund rule (docs/decisions/0010): the first cancellation inside
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
      .where(
        inArray(
          subscriptions.id,
          ending.map((subscription) => subscription.id),
        ),
      );
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
