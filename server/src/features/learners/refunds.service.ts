import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { answers } from '@lms/contract/answers';
import type { AdminRefund, RefundRequest } from '@lms/contract/learners';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { adminRefunds, payments, subscriptions, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { recordAudit, type AuditActor } from '../audit/audit.ts';
import type { UserRow } from '../auth/sessions.ts';
import { issueCreditNote, queueDocumentPdfs } from '../billing/billing.service.ts';
import { formatIndiaDate, rupees } from '../billing/format.ts';
import { recordLifecycleMail } from '../billing/lifecycle-mail.ts';
import { CHARGING_STATES, cancelAtProvider } from '../payments/provider.ts';
import { RazorpayError, type RazorpayRefund } from '../payments/razorpay-client.ts';

/**
 * An administrator's refund of a payment, in full or in part, through the provider (decision 0035).
 * The request's `key` is the refund: a row is written `pending` under it before the provider is
 * called, so a second click (or a retry after a lost answer) finds that row and never refunds twice.
 * The provider is called outside any transaction; what it answers is recorded afterwards, in one
 * transaction with everything that follows from it (the payment's refunded amount, the credit note,
 * the end of access, the mail, the audit entry). A refund whose answer never came stays pending until
 * the sweep reads the payment's refunds at the provider, found again by the key in their notes.
 */

type RefundRow = typeof adminRefunds.$inferSelect;
type PaymentRow = typeof payments.$inferSelect;
type Log = { warn(object: object, message: string): void; error(object: object, message: string): void };

/** A refund as the learner's page shows it. */
export const adminRefundJson = (row: RefundRow): AdminRefund => ({
  _id: row.id,
  amount: row.amountPaise / 100,
  state: row.state,
  failure: row.failure,
  note: row.note,
  access: row.access,
  by: row.actorName,
  createdAt: row.createdAt.toISOString(),
});

/** How the audit trail names a payment: "₹99.00 on 20 Nov 2026 by Asha". */
/** A refund is an action on the learner (their page lists it); the payment is named in its summary. */
const learnerTarget = (buyer: { id: string; fullName: string; email: string }) => ({
  type: 'user' as const,
  id: buyer.id,
  label: `${buyer.fullName} <${buyer.email}>`,
});
const paymentWords = (payment: PaymentRow) => `the ${rupees(payment.amountPaise)} paid on ${formatIndiaDate(payment.paidAt)}`;

/** A refund already asked for under this key: its outcome again, whatever was sent this time. */
function answerExisting(row: RefundRow, paymentId: string): { refund: AdminRefund; message: string } {
  if (row.paymentId !== paymentId) throw new AppError(400, answers.invalidRequest);
  if (row.state === 'pending') throw new AppError(409, answers.refundInProgress);
  if (row.state === 'failed') throw new AppError(400, row.failure === answers.refundNotMade ? row.failure : answers.refundRefused(row.failure ?? ''));
  return { refund: adminRefundJson(row), message: answers.refundIssued(rupees(row.amountPaise)) };
}

export async function refundPayment(
  ctx: Context,
  admin: UserRow,
  paymentId: string,
  request: RefundRequest,
  { log }: { log: Log },
): Promise<{ refund: AdminRefund; message: string }> {
  const amountPaise = Math.round(request.amount * 100);
  const started = await ctx.db.transaction(async (tx) => {
    // The payment's lock serialises refunds of it: each sees what the others asked for.
    const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
    if (!payment) throw new AppError(404, answers.notFound);
    const [existing] = await tx.select().from(adminRefunds).where(eq(adminRefunds.key, request.key));
    if (existing) return { existing };
    const [pending] = await tx
      .select({ paise: sql<string>`coalesce(sum(${adminRefunds.amountPaise}), 0)` })
      .from(adminRefunds)
      .where(and(eq(adminRefunds.paymentId, paymentId), eq(adminRefunds.state, 'pending')));
    const remaining = payment.amountPaise - payment.refundedPaise - Number(pending!.paise);
    if (amountPaise > remaining) throw new AppError(400, answers.refundTooLarge(rupees(Math.max(remaining, 0))));
    const [row] = await tx
      .insert(adminRefunds)
      .values({
        key: request.key,
        paymentId,
        userId: payment.userId,
        amountPaise,
        access: request.access,
        note: request.note,
        actorId: admin.id,
        actorName: admin.fullName,
      })
      .returning();
    return { row: row!, payment };
  });
  if ('existing' in started) return answerExisting(started.existing!, paymentId);

  const { row, payment } = started;
  let made: RazorpayRefund;
  try {
    made = await ctx.razorpay.refundPayment(payment.providerPaymentId, { amount: amountPaise, notes: { refund_key: row.key }, receipt: row.id });
  } catch (error) {
    if (error instanceof RazorpayError && error.status < 500) {
      const reason = error.error?.description ?? error.message;
      await refuse(ctx, row, reason, admin);
      throw new AppError(400, answers.refundRefused(reason));
    }
    // Whether the provider refunded is unknown: the row stays pending, and the sweep finds out.
    log.warn({ err: error, refund: row.id }, 'the provider did not answer a refund; the sweep will reconcile it');
    throw new AppError(502, answers.refundProviderDown);
  }
  if (made.status === 'failed') {
    await refuse(ctx, row, answers.refundNotMade, admin);
    throw new AppError(400, answers.refundNotMade);
  }
  const settled = await settle(ctx, row, made.id, { log, actor: admin });
  return { refund: adminRefundJson(settled), message: answers.refundIssued(rupees(row.amountPaise)) };
}

/** The provider refused (or never made) the refund: recorded as failed with its words; nothing refunded. */
async function refuse(ctx: Context, row: RefundRow, reason: string, actor: AuditActor): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [failed] = await tx
      .update(adminRefunds)
      .set({ state: 'failed', failure: reason, processedAt: new Date() })
      .where(and(eq(adminRefunds.id, row.id), eq(adminRefunds.state, 'pending')))
      .returning();
    if (!failed) return;
    const { payment, buyer } = await paymentAndBuyer(tx, row.paymentId);
    await recordAudit(tx, {
      actor,
      action: 'learners.refund',
      target: learnerTarget(buyer),
      reason: row.note,
      summary: `${rupees(row.amountPaise)} of ${paymentWords(payment)}, refused by the provider: ${reason}`,
      details: { paymentId: payment.id, key: row.key, amount: row.amountPaise / 100, access: row.access, state: 'failed' },
    });
  });
}

async function paymentAndBuyer(db: Db, paymentId: string) {
  const [found] = await db
    .select({ payment: payments, buyer: users })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.userId))
    .where(eq(payments.id, paymentId))
    .for('update', { of: payments });
  return found!;
}

/**
 * Records a refund the provider made, once (a sweep and a late answer may both try): the payment's
 * refunded amount (refunded in full once all of it went back), the credit note for this amount, the
 * end of access when the administrator chose `now`, the learner's mail and the audit entry. The PDF
 * is queued after the commit; the mail follows it. With access ending now the subscription is then
 * cancelled at the provider too, so that it charges no more.
 */
async function settle(ctx: Context, row: RefundRow, providerRefundId: string, { log, actor }: { log: Log; actor: AuditActor }): Promise<RefundRow> {
  const now = new Date();
  const outcome = await ctx.db.transaction(async (tx) => {
    const [processed] = await tx
      .update(adminRefunds)
      .set({ state: 'processed', providerRefundId, processedAt: now })
      .where(and(eq(adminRefunds.id, row.id), eq(adminRefunds.state, 'pending')))
      .returning();
    if (!processed) return null;
    const { payment, buyer } = await paymentAndBuyer(tx, row.paymentId);
    const refunded = payment.refundedPaise + row.amountPaise;
    const whole = refunded >= payment.amountPaise;
    // refundedAt is the latest refund's time: the revenue figures count a month's refunds by it.
    await tx
      .update(payments)
      .set({ refundedPaise: refunded, refundedAt: now, ...(whole && { status: 'refunded' }) })
      .where(eq(payments.id, payment.id));
    const creditNote = await issueCreditNote(tx, payment.id, row.amountPaise, now, { adminRefundId: row.id });
    if (creditNote) await tx.update(adminRefunds).set({ creditNoteId: creditNote }).where(eq(adminRefunds.id, row.id));

    const endsNow = row.access === 'now';
    const ending = endsNow
      ? await tx
          .update(subscriptions)
          .set({ status: 'cancelled', cancelledAt: sql`coalesce(${subscriptions.cancelledAt}, ${now})`, updatedAt: now })
          .where(and(eq(subscriptions.userId, buyer.id), inArray(subscriptions.status, CHARGING_STATES)))
          .returning({ providerSubscriptionId: subscriptions.providerSubscriptionId })
      : [];
    if (endsNow) {
      // Only ever shortens access: a refund does not lengthen a period that already ended.
      await tx
        .update(users)
        .set({
          subscriptionEndsAt: sql`least(coalesce(${users.subscriptionEndsAt}, ${now}), ${now})`,
          subscriptionCancelledAt: null,
          trialEndsAt: null,
        })
        .where(eq(users.id, buyer.id));
    }
    // Its mail waits for the credit note's PDF (queued by the PDF's job, under this key).
    if (creditNote) {
      await recordLifecycleMail(tx, {
        key: `refund:${creditNote}`,
        kind: 'refund',
        userId: buyer.id,
        data: { documentId: creditNote, paidPaise: payment.amountPaise, accessEndedNow: endsNow },
      });
    }
    await recordAudit(tx, {
      actor,
      action: 'learners.refund',
      target: learnerTarget(buyer),
      reason: row.note,
      summary: `${rupees(row.amountPaise)} of ${paymentWords(payment)}, ${endsNow ? 'access ended now' : 'access to the period’s end'}`,
      details: { paymentId: payment.id, key: row.key, amount: row.amountPaise / 100, access: row.access, providerRefundId, creditNoteId: creditNote },
    });
    return { processed: { ...processed, creditNoteId: creditNote }, creditNote, ending };
  });
  if (!outcome) {
    const [current] = await ctx.db.select().from(adminRefunds).where(eq(adminRefunds.id, row.id));
    return current!;
  }
  await queueDocumentPdfs(ctx, [outcome.creditNote]);
  for (const { providerSubscriptionId } of outcome.ending) {
    // The refund stands whatever happens here; a subscription left running is logged to be cancelled by hand.
    await cancelAtProvider(ctx, providerSubscriptionId, { atCycleEnd: false }).catch((error: unknown) =>
      log.error({ err: error, subscription: providerSubscriptionId }, 'a refunded subscription could not be cancelled at the provider'),
    );
  }
  return outcome.processed;
}

/** How long a refund stays pending before the sweep asks the provider what became of it: well past the client's timeout. */
const RECONCILE_AFTER_MS = 2 * 60_000;

/**
 * The `admin-refunds-pending` job, every minute: each refund left pending (the provider's answer
 * was lost) is looked for among its payment's refunds at the provider, by the key in its notes.
 * Found, it is recorded as made; not found, it failed and the administrator may try again.
 * The provider being unreachable leaves it for the next run.
 */
export async function reconcilePendingRefunds(ctx: Context, { log }: { log: Log }, now = new Date()): Promise<number> {
  const stale = await ctx.db
    .select({ row: adminRefunds, providerPaymentId: payments.providerPaymentId })
    .from(adminRefunds)
    .innerJoin(payments, eq(payments.id, adminRefunds.paymentId))
    .where(and(eq(adminRefunds.state, 'pending'), lt(adminRefunds.createdAt, new Date(now.getTime() - RECONCILE_AFTER_MS))))
    .limit(100);
  let settled = 0;
  for (const { row, providerPaymentId } of stale) {
    let items: RazorpayRefund[];
    try {
      items = (await ctx.razorpay.fetchRefunds(providerPaymentId)).items;
    } catch (error) {
      log.warn({ err: error, refund: row.id }, 'the provider could not list a payment’s refunds; trying again later');
      continue;
    }
    const made = items.find((item) => !Array.isArray(item.notes) && item.notes?.refund_key === row.key);
    const [actor] = row.actorId ? await ctx.db.select().from(users).where(eq(users.id, row.actorId)) : [];
    const who = actor ? { id: actor.id, fullName: actor.fullName, email: actor.email } : null;
    if (made && made.status !== 'failed') await settle(ctx, row, made.id, { log, actor: who });
    else await refuse(ctx, row, answers.refundNotMade, who);
    settled++;
  }
  return settled;
}
