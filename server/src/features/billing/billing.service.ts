import type { Readable } from 'node:stream';
import { and, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { BillingDetails, BillingDocument, BillingHistory } from '@lms/contract/billing';
import { answers } from '@lms/contract/answers';
import { messages } from '@lms/contract/messages';
import { addressLines, imitatesInvoiceLabel } from '@lms/contract/plain-text';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { billingCounters, billingDocuments, payments, plans, subscriptions, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { UserRow } from '../auth/sessions.ts';
import { hasActiveSubscription } from '../users/users.service.ts';
import { formatIndiaDate } from './format.ts';
import { documentNumber, fiscalYearOf, taxLines, type DocumentKind, type Seller } from './tax.ts';

/**
 * Invoices, credit notes and what a buyer reads of their billing (decision 0016).
 * Documents are issued inside the transaction that records the payment or the refund, so each
 * payment gets exactly one invoice however verify and webhooks race, and a number is used only
 * by a document that exists: the counter's row lock serialises issuers and a rollback undoes both.
 */

type DocumentRow = typeof billingDocuments.$inferSelect;

/** The next number of a series in the financial year of `at`; the row stays locked until the transaction ends. */
async function nextNumber(db: Db, kind: DocumentKind, at: Date): Promise<{ number: string; fiscalYear: string }> {
  const fiscalYear = fiscalYearOf(at);
  const [counter] = await db
    .insert(billingCounters)
    .values({ series: kind, fiscalYear, lastNumber: 1 })
    .onConflictDoUpdate({ target: [billingCounters.series, billingCounters.fiscalYear], set: { lastNumber: sql`${billingCounters.lastNumber} + 1` } })
    .returning({ lastNumber: billingCounters.lastNumber });
  return { number: documentNumber(kind, fiscalYear, counter!.lastNumber), fiscalYear };
}

/**
 * The buyer as the invoice names them. Details saved before labels were refused may still carry
 * one: such a name or address is left off rather than printed (the PDF also flattens any control
 * character, billing-pdf.ts).
 */
const buyerOf = (user: UserRow) => ({
  name: user.fullName,
  email: user.email,
  businessName: user.billingName !== null && !imitatesInvoiceLabel(user.billingName) ? user.billingName : null,
  gstin: user.billingGstin,
  stateCode: user.billingState,
  address: user.billingAddress !== null && !addressLines(user.billingAddress).some(imitatesInvoiceLabel) ? user.billingAddress : null,
});

const sellerOf = ({ name, address, stateCode, gstin, sac }: Seller) => ({ name, address, stateCode, gstin, sac });

/**
 * The invoice of a payment just recorded, in the same transaction. Answers its id, for the PDF job
 * queued once the transaction has committed.
 */
export async function issueInvoice(
  db: Db,
  seller: Seller,
  payment: { id: string; userId: string; amountPaise: number; paidAt: Date },
  periodEnd: Date,
  { planName = null, now = new Date() }: { planName?: string | null; now?: Date } = {},
): Promise<string> {
  const [buyer] = await db.select().from(users).where(eq(users.id, payment.userId));
  const lines = taxLines(seller, buyer!.billingState, payment.amountPaise);
  const { number } = await nextNumber(db, 'invoice', now);
  const [issued] = await db
    .insert(billingDocuments)
    .values({
      kind: 'invoice',
      number,
      paymentId: payment.id,
      userId: payment.userId,
      issuedAt: now,
      seller: sellerOf(seller),
      buyer: buyerOf(buyer!),
      // What is sold is the bundle, by the default plan's one name; another plan is named after it.
      description: `${messages.bundleTitle}, ${planName ? `${planName} plan, ` : ''}${formatIndiaDate(payment.paidAt)} to ${formatIndiaDate(periodEnd)}`,
      ...lines,
    })
    .returning({ id: billingDocuments.id });
  return issued!.id;
}

/**
 * The credit note of a refund, in the transaction that records it: it cancels the tax of the
 * refunded amount on the payment's invoice, with the invoice's place of supply and rate. A learner's
 * own cancellation has one per payment (two cancellations at once refund once); an administrator's
 * refunds have one each (`adminRefundId`, unique), however many partial refunds a payment has. None
 * for a payment that had no invoice (paid before invoices existed). Answers its id, or null when none
 * was issued now.
 */
export async function issueCreditNote(
  db: Db,
  paymentId: string,
  refundedPaise: number,
  now = new Date(),
  { adminRefundId = null }: { adminRefundId?: string | null } = {},
): Promise<string | null> {
  // Locks the payment: of two refunds recorded at once, the second sees the first one's note.
  await db.select({ id: payments.id }).from(payments).where(eq(payments.id, paymentId)).for('update');
  const documents = await db.select().from(billingDocuments).where(eq(billingDocuments.paymentId, paymentId));
  const invoice = documents.find((document) => document.kind === 'invoice');
  if (!invoice) return null;
  const issuedAlready = documents.some(
    (document) => document.kind === 'credit_note' && (adminRefundId ? document.adminRefundId === adminRefundId : document.adminRefundId === null),
  );
  if (issuedAlready) return null;
  const lines = taxLines({ ...invoice.seller, gstRate: invoice.taxRate }, invoice.placeOfSupply, refundedPaise);
  const { number } = await nextNumber(db, 'credit_note', now);
  const [issued] = await db
    .insert(billingDocuments)
    .values({
      kind: 'credit_note',
      number,
      paymentId,
      userId: invoice.userId,
      invoiceId: invoice.id,
      issuedAt: now,
      seller: invoice.seller,
      buyer: invoice.buyer,
      description: `Refund of ${invoice.number}: ${invoice.description}`,
      adminRefundId,
      ...lines,
    })
    .returning({ id: billingDocuments.id });
  return issued!.id;
}

/**
 * Queues the PDFs of documents just issued (after their transaction committed); the job id is the
 * document's, so a repeat queues nothing. The payment is recorded whatever happens here: a PDF the
 * queue did not take is queued again by the minute's sweep (queueStalledPdfs).
 */
export async function queueDocumentPdfs(ctx: Pick<Context, 'jobs'>, documentIds: (string | null | undefined)[]): Promise<void> {
  for (const documentId of documentIds) {
    if (documentId) await ctx.jobs.send('billing-pdf', { documentId }, { id: documentId }).catch(() => undefined);
  }
}

/** How long a document may wait for its PDF before the sweep queues it again (a process died between commit and queue). */
const PDF_STALL_MS = 60_000;

/** Queues again the PDFs of documents issued a while ago that still have none; every minute, on one instance. */
export async function queueStalledPdfs(ctx: Context): Promise<number> {
  const stalled = await ctx.db
    .select({ id: billingDocuments.id })
    .from(billingDocuments)
    .where(and(isNull(billingDocuments.pdfKey), lt(billingDocuments.createdAt, new Date(Date.now() - PDF_STALL_MS))))
    .limit(500);
  await queueDocumentPdfs(
    ctx,
    stalled.map((row) => row.id),
  );
  return stalled.length;
}

// ── The buyer's side ────────────────────────────────────────────────────────

export const billingDetailsOf = (user: UserRow): BillingDetails => ({
  businessName: user.billingName,
  gstin: user.billingGstin,
  stateCode: user.billingState,
  address: user.billingAddress,
});

/** What goes on the buyer's future invoices; documents already issued keep what they said. */
export async function setBillingDetails(ctx: Context, user: UserRow, details: BillingDetails): Promise<BillingDetails> {
  const [updated] = await ctx.db
    .update(users)
    .set({
      billingName: details.businessName,
      billingGstin: details.gstin,
      billingState: details.stateCode,
      billingAddress: details.address,
      updatedAt: new Date(),
    })
    .where(eq(users.id, user.id))
    .returning();
  return billingDetailsOf(updated!);
}

const documentJson = (row: DocumentRow | undefined): BillingDocument | null => (row ? { id: row.id, number: row.number, ready: row.pdfKey !== null } : null);

/** Paid, refunded in part (an administrator's partial refund), or refunded in full. */
export const paymentStatusOf = (payment: { status: string; refundedPaise: number }) =>
  payment.status === 'refunded' ? ('refunded' as const) : payment.refundedPaise > 0 ? ('partly_refunded' as const) : ('paid' as const);

/** Every payment of the buyer, newest first, with its invoice and credit note; and when the subscription renews or ends. */
export async function getBillingHistory(ctx: Context, user: UserRow): Promise<Omit<BillingHistory, 'success' | 'message'>> {
  const [paid, documents] = await Promise.all([
    ctx.db.select().from(payments).where(eq(payments.userId, user.id)).orderBy(desc(payments.paidAt), desc(payments.createdAt)),
    ctx.db.select().from(billingDocuments).where(eq(billingDocuments.userId, user.id)),
  ]);
  const entries = paid.map((payment) => {
    const own = documents.filter((document) => document.paymentId === payment.id);
    const invoice = own.find((document) => document.kind === 'invoice');
    return {
      paymentId: payment.id,
      date: payment.paidAt.toISOString(),
      description: invoice?.description ?? messages.bundleTitle,
      amount: payment.amountPaise / 100,
      status: paymentStatusOf(payment),
      refunded: payment.refundedPaise / 100,
      invoice: documentJson(invoice),
      creditNotes: own
        .filter((document) => document.kind === 'credit_note')
        .sort((a, b) => a.issuedAt.getTime() - b.issuedAt.getTime())
        .map((document) => documentJson(document)!),
    };
  });
  const active = hasActiveSubscription(user);
  const endsAt = user.subscriptionEndsAt?.toISOString() ?? null;
  const cancelled = user.subscriptionCancelledAt !== null;
  // The subscription that charges next: its plan, and what that charge takes.
  const [renewing] =
    active && !cancelled
      ? await ctx.db
          .select({ name: plans.name, interval: plans.interval, nextChargePaise: subscriptions.nextChargePaise })
          .from(subscriptions)
          .innerJoin(plans, eq(plans.id, subscriptions.planId))
          .where(
            and(eq(subscriptions.userId, user.id), inArray(subscriptions.status, ['active', 'pending', 'authenticated']), isNull(subscriptions.cancelledAt)),
          )
          .orderBy(desc(subscriptions.createdAt))
          .limit(1)
      : [];
  const inTrial = user.trialEndsAt !== null && user.trialEndsAt > new Date();
  return {
    entries,
    renewal: active
      ? {
          renewsOn: cancelled ? null : endsAt,
          cancelled,
          accessUntil: cancelled ? endsAt : null,
          plan: renewing ? { name: renewing.name, interval: renewing.interval as 'monthly' | 'yearly' } : null,
          nextAmount: renewing?.nextChargePaise != null ? renewing.nextChargePaise / 100 : null,
          trialEndsAt: inTrial ? user.trialEndsAt!.toISOString() : null,
        }
      : null,
  };
}

/** A document the user may download: their own, or anyone's for an admin. */
export async function documentFor(ctx: Context, user: UserRow, documentId: string): Promise<DocumentRow & { pdfKey: string }> {
  const [document] = await ctx.db.select().from(billingDocuments).where(eq(billingDocuments.id, documentId));
  if (!document) throw new AppError(404, answers.documentNotFound);
  if (document.userId !== user.id && user.role !== 'ADMIN') throw new AppError(403, answers.documentNotYours);
  if (!document.pdfKey) throw new AppError(409, answers.documentPreparing);
  return { ...document, pdfKey: document.pdfKey };
}

/** The file name a download is saved under: `LMS-26-27-000123.pdf`. */
export const documentFileName = (number: string) => `${number.replaceAll('/', '-')}.pdf`;

/** A document's PDF to download, for its buyer or an admin: the name it is saved under and its bytes. */
export async function documentDownload(ctx: Context, user: UserRow, documentId: string): Promise<{ fileName: string; body: Readable }> {
  const document = await documentFor(ctx, user, documentId);
  return { fileName: documentFileName(document.number), body: ctx.media.read(document.pdfKey) };
}
