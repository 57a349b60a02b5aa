import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Context } from '../../context.ts';
import { sandboxPayments, sandboxRefunds } from '../../db/schema.ts';
import { toPaymentEntity, toRefundEntity, type PaymentEntity, type RefundEntity } from './entities.ts';
import { idNotFound, inputError, stateError } from './errors.ts';
import { newId } from './ids.ts';
import { NotesInputSchema, wholeNumber } from './inputs.ts';

/** A payment as Checkout or a renewal left it, and the refunds taken from it. */

export const RefundPaymentSchema = z.object({
  amount: wholeNumber('amount').min(100, 'The amount must be at least INR 1.00.').optional(),
  speed: z.enum(['normal', 'optimum'], { error: 'The speed must be normal or optimum.' }).optional(),
  notes: NotesInputSchema.optional(),
  receipt: z.string().max(40, 'The receipt may have at most 40 characters.').optional(),
});
export type RefundPayment = z.infer<typeof RefundPaymentSchema>;

export async function fetchPayment(ctx: Context, id: string): Promise<PaymentEntity> {
  const [payment] = await ctx.db.select().from(sandboxPayments).where(eq(sandboxPayments.id, id));
  if (!payment) throw idNotFound();
  return toPaymentEntity(payment);
}

/** Every refund of a payment, oldest first, as Razorpay lists them (a collection). */
export async function fetchRefunds(ctx: Context, id: string) {
  const payment = await fetchPayment(ctx, id);
  const refunds = await ctx.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentId, id)).orderBy(asc(sandboxRefunds.createdAt));
  return { entity: 'collection' as const, count: refunds.length, items: refunds.map((refund) => toRefundEntity(refund, payment.currency)) };
}

/**
 * Refunds what is left of a captured payment, or `amount` of it; processed at once. Partial refunds add
 * up in `amount_refunded`; the payment is `refunded` only once the whole of it went back, and a
 * refund larger than what is left is refused, as Razorpay does.
 */
export async function refundPayment(ctx: Context, id: string, input: RefundPayment): Promise<RefundEntity> {
  return ctx.db.transaction(async (tx) => {
    const [payment] = await tx.select().from(sandboxPayments).where(eq(sandboxPayments.id, id)).for('update');
    if (!payment) throw idNotFound();
    if (payment.status === 'failed') throw stateError('The payment status should be captured for action to be taken');
    const left = payment.amount - payment.amountRefunded;
    if (left <= 0) throw stateError('The payment has been fully refunded already');
    const amount = input.amount ?? left;
    if (amount > payment.amount) throw inputError('The refund amount provided is greater than amount captured', 'amount');
    if (amount > left) throw inputError('The total refund amount is greater than the refund payment amount', 'amount');
    const refunded = payment.amountRefunded + amount;
    await tx
      .update(sandboxPayments)
      .set({ amountRefunded: refunded, status: refunded >= payment.amount ? 'refunded' : 'captured' })
      .where(eq(sandboxPayments.id, id));
    const [refund] = await tx
      .insert(sandboxRefunds)
      .values({
        id: newId('rfnd'),
        paymentId: id,
        amount,
        status: 'processed',
        notes: Object.fromEntries(Object.entries(input.notes ?? {}).map(([key, value]) => [key, String(value)])),
        receipt: input.receipt ?? null,
      })
      .returning();
    return toRefundEntity(refund!, payment.currency);
  });
}
