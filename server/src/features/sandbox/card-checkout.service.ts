import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Context } from '../../context.ts';
import { sandboxSubscriptions } from '../../db/schema.ts';
import { toUnix } from '../payments/provider.ts';
import { addCycles, AUTHORISATION_PAISE, toPaymentEntity, wholeSecondNow, type PaymentEntity, type PaymentRow, type SubscriptionEntity } from './entities.ts';
import { DECLINED, declinedError, idNotFound, INVALID_CARD, inputError, stateError } from './errors.ts';
import { cardReferenceOf, newId } from './ids.ts';
import { subscriptionPaymentSignature } from './signing.ts';
import { changeSubscription, insertPayment, loadSubscription } from './store.ts';

/**
 * Checkout's side: what it shows before a card is entered, the card's payment (which saves the
 * card as the subscription's mandate), and the reference of a saved card.
 */

/**
 * Card numbers the sandbox Checkout accepts (Razorpay's own test cards); any other number is
 * invalid. Two cards succeed, so that "one free trial per card" can be tried with a second card.
 */
export const TEST_CARDS = { succeeds: '4111111111111111', alsoSucceeds: '5267318187975449', declined: '4000000000000002' } as const;
const SUCCEEDING_CARDS = new Set<string>([TEST_CARDS.succeeds, TEST_CARDS.alsoSucceeds]);

export const PayWithCardSchema = z.object({ card_number: z.string({ error: INVALID_CARD }).max(40, INVALID_CARD) });

/** What Checkout shows before a card is entered (its own call, as `/pay` is). */
export const CheckoutSummarySchema = z.object({
  id: z.string(),
  status: z.string(),
  /** What this payment takes now, in paise: the plan's amount, or the ₹5 authorisation of one that starts later. */
  amount: z.number(),
  currency: z.string(),
  authorisation: z.boolean(),
  plan_amount: z.number(),
  /** When the first charge comes, for an authorisation; otherwise null. */
  start_at: z.number().nullable(),
});
export type CheckoutSummary = z.infer<typeof CheckoutSummarySchema>;

export async function checkoutSummary(ctx: Context, id: string): Promise<CheckoutSummary> {
  const { subscription, plan } = await loadSubscription(ctx.db, id);
  // The same test as payWithCard's, so the amount shown is the amount taken.
  const startAt = subscription.startAt && subscription.startAt > wholeSecondNow() ? subscription.startAt : null;
  return {
    id: subscription.id,
    status: subscription.status,
    amount: startAt ? AUTHORISATION_PAISE : plan.amount,
    currency: plan.currency,
    authorisation: Boolean(startAt),
    plan_amount: plan.amount,
    start_at: startAt && toUnix(startAt),
  };
}

export interface Charge {
  subscription: SubscriptionEntity;
  payment: PaymentEntity;
}

/**
 * Checkout's payment: the first charge, which activates the subscription for its first cycle;
 * or, for a subscription that starts later, a ₹5 authorisation refunded at once, which only
 * authenticates it (the first charge comes at its start).
 */
export async function payWithCard(ctx: Context, id: string, cardNumber: string): Promise<Charge & { signature: string }> {
  const card = cardNumber.replace(/\s+/g, '');
  let paid: PaymentRow | undefined;
  let declined: PaymentRow | undefined;
  const subscription = await changeSubscription(ctx, id, async ({ subscription, plan }, tx) => {
    if (subscription.status !== 'created' && subscription.status !== 'authenticated') {
      throw stateError(`Subscription cannot be paid for in ${subscription.status} status.`);
    }
    if (!SUCCEEDING_CARDS.has(card) && card !== TEST_CARDS.declined) throw inputError(INVALID_CARD, 'card_number');
    const now = wholeSecondNow();
    if (card === TEST_CARDS.declined) {
      declined = await insertPayment(tx, subscription, plan, now, { status: 'failed', errorCode: 'BAD_REQUEST_ERROR', errorDescription: DECLINED });
      return {};
    }
    // The card is saved as the subscription's mandate: its token goes with every payment from now on.
    const mandate = { tokenId: newId('token'), cardReference: cardReferenceOf(ctx.config.payments.keySecret, card).reference };
    const withMandate = { ...subscription, ...mandate };
    if (subscription.startAt && subscription.startAt > now) {
      paid = await insertPayment(tx, withMandate, plan, now, { status: 'refunded', amount: AUTHORISATION_PAISE, amountRefunded: AUTHORISATION_PAISE });
      return { status: 'authenticated', ...mandate };
    }
    paid = await insertPayment(tx, withMandate, plan, now, { status: 'captured' });
    return { status: 'active', currentStart: now, currentEnd: addCycles(now, plan), paidCount: subscription.paidCount + 1, ...mandate };
  });
  // Recorded above, and kept: the decline is answered once the failed payment is stored.
  if (declined) throw declinedError(declined.id);
  const payment = toPaymentEntity(paid!);
  return { subscription, payment, signature: subscriptionPaymentSignature(ctx.config.payments.keySecret, payment.id, subscription.id) };
}

/** POST /cards/fingerprints: a saved card's token, or a card number. */
export const CardFingerprintSchema = z.union(
  [z.object({ token: z.string().min(1).max(40) }), z.object({ number: z.string().regex(/^\d{12,19}$/, 'The number must be a card number.') })],
  { error: 'The token or number field is required.' },
);
export type CardFingerprint = z.infer<typeof CardFingerprintSchema>;

export const CardReferenceEntitySchema = z.object({
  network: z.string(),
  payment_account_reference: z.string().nullable(),
  network_reference_id: z.string().nullable(),
});

/** The card reference for a saved card's token (the one a subscription's Checkout made), or for a card number. */
export async function cardFingerprint(ctx: Context, input: CardFingerprint) {
  if ('number' in input) {
    const { network, reference } = cardReferenceOf(ctx.config.payments.keySecret, input.number);
    return { network, payment_account_reference: reference, network_reference_id: null };
  }
  const [subscription] = await ctx.db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.tokenId, input.token));
  if (!subscription?.cardReference) throw idNotFound();
  return {
    network: subscription.cardReference.startsWith('M') ? 'Mastercard' : 'Visa',
    payment_account_reference: subscription.cardReference,
    network_reference_id: null,
  };
}
