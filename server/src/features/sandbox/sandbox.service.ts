import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { z } from 'zod';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { sandboxPayments, sandboxPlans, sandboxRefunds, sandboxSubscriptions } from '../../db/schema.ts';
import { addMonths, toUnix } from '../payments/provider.ts';
import { hmacHex, subscriptionPaymentMessage } from '../payments/signatures.ts';

/*
 * The offline imitation of Razorpay (DESIGN §6, reference/razorpay.md): Razorpay's
 * own records, kept in the sandbox_* tables, shaped as Razorpay's entities.
 */

/** Where the sandbox delivers its webhooks by default: the app's own receiver. */
export const SANDBOX_WEBHOOK_TARGET = '/api/v1/payments/webhook';
/**
 * Card numbers the sandbox Checkout accepts (DESIGN §6; Razorpay's own test cards); any other number
 * is invalid. Two cards succeed, so that "one free trial per card" can be tried with a second card.
 */
export const TEST_CARDS = { succeeds: '4111111111111111', alsoSucceeds: '5267318187975449', declined: '4000000000000002' } as const;
const SUCCEEDING_CARDS = new Set<string>([TEST_CARDS.succeeds, TEST_CARDS.alsoSucceeds]);

type PlanRow = typeof sandboxPlans.$inferSelect;
type SubscriptionRow = typeof sandboxSubscriptions.$inferSelect;
type PaymentRow = typeof sandboxPayments.$inferSelect;
type RefundRow = typeof sandboxRefunds.$inferSelect;

// ── Pure pieces ────────────────────────────────────────────────────────────

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Razorpay's id shape: a prefix and 14 base62 characters, e.g. `sub_ID6MOhgkcoHj9I`. */
export function newId(prefix: 'plan' | 'sub' | 'pay' | 'rfnd' | 'evt' | 'token'): string {
  let suffix = '';
  while (suffix.length < 14) {
    // 248 = 4 × 62: bytes above it are dropped so that every character is equally likely.
    for (const byte of randomBytes(16)) if (byte < 248 && suffix.length < 14) suffix += BASE62[byte % 62];
  }
  return `${prefix}_${suffix}`;
}

/** What Checkout hands the app for a subscription payment: HMAC of `payment_id|subscription_id` with the key secret. */
export const subscriptionPaymentSignature = (keySecret: string, paymentId: string, subscriptionId: string) =>
  hmacHex(keySecret, subscriptionPaymentMessage(paymentId, subscriptionId));

/**
 * The card network's reference for a card (Razorpay's card fingerprint): the same for the card
 * whichever token or account it comes with; 29 characters, a network prefix and a keyed hash.
 */
export function cardReferenceOf(keySecret: string, cardNumber: string): { network: 'Visa' | 'Mastercard'; reference: string } {
  const network = cardNumber.startsWith('5') ? 'Mastercard' : 'Visa';
  const digest = createHash('sha256').update(`${keySecret}:card:${cardNumber}`).digest();
  const body = Array.from(digest.subarray(0, 25), (byte) => BASE62[byte % 36]!.toUpperCase()).join('');
  return { network, reference: `${network === 'Visa' ? 'V001' : 'M001'}${body}` };
}

/** A stable Razorpay-like account id for the key, as webhooks carry one. */
export function accountIdOf(keyId: string): string {
  const digest = createHash('sha256').update(keyId).digest();
  return `acc_${Array.from(digest.subarray(0, 14), (byte) => BASE62[byte % 62]).join('')}`;
}

/** HTTP Basic with the key id and secret, compared in constant time. */
export function hasApiKeys(authorization: string | undefined, keyId: string, keySecret: string): boolean {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(authorization?.trim() ?? '');
  if (!match) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(Buffer.from(match[1]!, 'base64').toString('utf8')), digest(`${keyId}:${keySecret}`));
}

/** Now, to the second: what is stored is then exactly what the unix-seconds entities say. */
const wholeSecondNow = () => new Date(Math.floor(Date.now() / 1000) * 1000);

/** The end of `count` billing cycles of a plan starting at `date`. */
export function addCycles(date: Date, plan: Pick<PlanRow, 'period' | 'interval'>, count = 1): Date {
  const n = plan.interval * count;
  const days = (d: number) => new Date(date.getTime() + d * 24 * 3600 * 1000);
  if (plan.period === 'daily') return days(n);
  if (plan.period === 'weekly') return days(7 * n);
  return addMonths(date, plan.period === 'yearly' ? 12 * n : n);
}

/**
 * A form body as Razorpay reads one, with its bracket notation for nested fields:
 * `item[name]=Gold&item[amount]=9900` → `{ item: { name: 'Gold', amount: '9900' } }`.
 */
export function parseFormBody(text: string): Record<string, unknown> {
  const result: Record<string, unknown> = Object.create(null);
  for (const [key, value] of new URLSearchParams(text)) {
    const [, group, field] = /^([^[\]]+)\[([^[\]]+)\]$/.exec(key) ?? [];
    if (group && field) {
      const nested = result[group];
      const target = typeof nested === 'object' && nested !== null ? (nested as Record<string, unknown>) : Object.create(null);
      target[field] = value;
      result[group] = target;
    } else {
      result[key] = value;
    }
  }
  return result;
}

// ── Errors ─────────────────────────────────────────────────────────────────

export interface RazorpayErrorBody {
  code: 'BAD_REQUEST_ERROR' | 'SERVER_ERROR';
  description: string;
  source: string;
  step: string;
  reason: string;
  metadata: Record<string, unknown>;
  field?: string;
}

/**
 * An error as Razorpay answers it. Not the app's AppError: the sandbox speaks
 * Razorpay's protocol, whose error body the app's Razorpay client reads.
 */
export class SandboxError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: RazorpayErrorBody,
  ) {
    super(body.description);
    this.name = 'SandboxError';
  }
}

/** Bad input, as Razorpay describes it; `field` names the input at fault. */
export const inputError = (description: string, field?: string) =>
  new SandboxError(400, {
    code: 'BAD_REQUEST_ERROR',
    description,
    source: 'business',
    step: 'payment_initiation',
    reason: 'input_validation_failed',
    metadata: {},
    ...(field && { field }),
  });

/** A request the entity's state does not allow (cancel a cancelled subscription, refund a refunded payment). */
const stateError = (description: string) =>
  new SandboxError(400, { code: 'BAD_REQUEST_ERROR', description, source: 'NA', step: 'NA', reason: 'NA', metadata: {} });

export const authenticationFailed = () =>
  new SandboxError(401, { code: 'BAD_REQUEST_ERROR', description: 'Authentication failed', source: 'NA', step: 'NA', reason: 'NA', metadata: {} });

const idNotFound = () => inputError('The id provided does not exist');

export const INVALID_CARD = 'Your card number is invalid';
export const DECLINED = 'Your payment has been declined by your bank. Try another card, or contact your bank.';

// ── Entities ───────────────────────────────────────────────────────────────

/** Razorpay sends empty notes as `[]` (a PHP quirk); the sandbox does too, so the app copes with both. */
const NotesSchema = z.union([z.record(z.string(), z.string()), z.array(z.never())]);
const toNotes = (notes: unknown) => {
  const record = (notes ?? {}) as Record<string, string>;
  return Object.keys(record).length === 0 ? [] : record;
};

export const PlanEntitySchema = z.object({
  id: z.string(),
  entity: z.literal('plan'),
  interval: z.number(),
  period: z.string(),
  item: z.object({
    id: z.string(),
    active: z.boolean(),
    name: z.string(),
    description: z.null(),
    amount: z.number(),
    unit_amount: z.number(),
    currency: z.string(),
    type: z.literal('plan'),
    created_at: z.number(),
    updated_at: z.number(),
  }),
  notes: NotesSchema,
  created_at: z.number(),
});
export type PlanEntity = z.infer<typeof PlanEntitySchema>;

export const SubscriptionEntitySchema = z.object({
  id: z.string(),
  entity: z.literal('subscription'),
  plan_id: z.string(),
  status: z.string(),
  current_start: z.number().nullable(),
  current_end: z.number().nullable(),
  ended_at: z.number().nullable(),
  quantity: z.number(),
  notes: NotesSchema,
  charge_at: z.number().nullable(),
  start_at: z.number(),
  end_at: z.number(),
  paid_count: z.number(),
  remaining_count: z.number(),
  total_count: z.number(),
  short_url: z.string(),
  has_scheduled_changes: z.boolean(),
  change_scheduled_at: z.number().nullable(),
  created_at: z.number(),
});
export type SubscriptionEntity = z.infer<typeof SubscriptionEntitySchema>;

export const PaymentEntitySchema = z.object({
  id: z.string(),
  entity: z.literal('payment'),
  amount: z.number(),
  currency: z.string(),
  status: z.enum(['captured', 'failed', 'refunded']),
  method: z.literal('card'),
  captured: z.boolean(),
  amount_refunded: z.number(),
  refund_status: z.enum(['full', 'partial']).nullable(),
  description: z.string().nullable(),
  notes: NotesSchema,
  error_code: z.string().nullable(),
  error_description: z.string().nullable(),
  error_source: z.string().nullable(),
  error_step: z.string().nullable(),
  error_reason: z.string().nullable(),
  token_id: z.string().nullable(),
  created_at: z.number(),
});
export type PaymentEntity = z.infer<typeof PaymentEntitySchema>;

export const RefundEntitySchema = z.object({
  id: z.string(),
  entity: z.literal('refund'),
  amount: z.number(),
  currency: z.string(),
  payment_id: z.string(),
  notes: NotesSchema,
  receipt: z.null(),
  status: z.enum(['processed', 'pending', 'failed']),
  created_at: z.number(),
});
export type RefundEntity = z.infer<typeof RefundEntitySchema>;

export function toPlanEntity(plan: PlanRow): PlanEntity {
  const createdAt = toUnix(plan.createdAt);
  return {
    id: plan.id,
    entity: 'plan',
    interval: plan.interval,
    period: plan.period,
    item: {
      // A plan has exactly one item here, so its id follows from the plan's.
      id: `item_${plan.id.slice('plan_'.length)}`,
      active: true,
      name: plan.itemName,
      description: null,
      amount: plan.amount,
      unit_amount: plan.amount,
      currency: plan.currency,
      type: 'plan',
      created_at: createdAt,
      updated_at: createdAt,
    },
    notes: [],
    created_at: createdAt,
  };
}

const ENDED_STATUSES = new Set(['cancelled', 'completed', 'expired']);
const CHARGING_STATUSES = new Set(['active', 'pending']);
/** What Razorpay takes from a card to authorise a subscription that starts later: ₹5, refunded at once. */
export const AUTHORISATION_PAISE = 500;

/**
 * A subscription starts at its first payment, or at its `start_at` when it was created with
 * one (the card is authorised first, then charged at that time). The cycles run from there.
 */
export function toSubscriptionEntity(subscription: SubscriptionRow, plan: PlanRow, publicUrl: string): SubscriptionEntity {
  const remaining = subscription.totalCount - subscription.paidCount;
  const startAt = subscription.startAt ?? subscription.createdAt;
  const endAt = subscription.currentEnd
    ? addCycles(subscription.currentEnd, plan, remaining)
    : addCycles(startAt, plan, subscription.totalCount);
  const chargeAt =
    subscription.status === 'created' || subscription.status === 'authenticated'
      ? startAt
      : CHARGING_STATUSES.has(subscription.status) && remaining > 0 && !subscription.cancelAtCycleEnd
        ? subscription.currentEnd
        : null;
  return {
    id: subscription.id,
    entity: 'subscription',
    plan_id: subscription.planId,
    status: subscription.status,
    current_start: subscription.currentStart && toUnix(subscription.currentStart),
    current_end: subscription.currentEnd && toUnix(subscription.currentEnd),
    // An ended subscription never changes again, so its last update is when it ended.
    ended_at: ENDED_STATUSES.has(subscription.status) ? toUnix(subscription.updatedAt) : null,
    quantity: 1,
    notes: toNotes(subscription.notes),
    charge_at: chargeAt && toUnix(chargeAt),
    start_at: toUnix(startAt),
    end_at: toUnix(endAt),
    paid_count: subscription.paidCount,
    remaining_count: remaining,
    total_count: subscription.totalCount,
    short_url: `${publicUrl}/sandbox/pay/${subscription.id}`,
    has_scheduled_changes: subscription.scheduledPlanId !== null,
    // A scheduled change applies when the cycle ends: the first charge's time for one not yet charged.
    change_scheduled_at: subscription.scheduledPlanId ? toUnix(subscription.currentEnd ?? startAt) : null,
    created_at: toUnix(subscription.createdAt),
  };
}

export function toPaymentEntity(payment: PaymentRow): PaymentEntity {
  const failed = payment.status === 'failed';
  return {
    id: payment.id,
    entity: 'payment',
    amount: payment.amount,
    currency: payment.currency,
    status: payment.status as PaymentEntity['status'],
    method: 'card',
    captured: !failed,
    amount_refunded: payment.amountRefunded,
    refund_status: payment.amountRefunded === 0 ? null : payment.amountRefunded >= payment.amount ? 'full' : 'partial',
    description: null,
    notes: [],
    error_code: payment.errorCode,
    error_description: payment.errorDescription,
    // Declines are the only failure the sandbox makes.
    error_source: failed ? 'bank' : null,
    error_step: failed ? 'payment_authorization' : null,
    error_reason: failed ? 'payment_declined' : null,
    token_id: payment.tokenId,
    created_at: toUnix(payment.createdAt),
  };
}

export function toRefundEntity(refund: RefundRow, currency: string): RefundEntity {
  return {
    id: refund.id,
    entity: 'refund',
    amount: refund.amount,
    currency,
    payment_id: refund.paymentId,
    notes: [],
    receipt: null,
    status: refund.status as RefundEntity['status'],
    created_at: toUnix(refund.createdAt),
  };
}

// ── Inputs ─────────────────────────────────────────────────────────────────

const required = (field: string) => ({ error: `The ${field} field is required.` });
/** Numbers may come as JSON numbers or as form strings. */
const wholeNumber = (field: string) =>
  z.coerce.number(required(field)).int(`The ${field} must be an integer.`);

export const CreatePlanSchema = z.object({
  period: z.enum(['daily', 'weekly', 'monthly', 'yearly'], { error: 'The period must be one of daily, weekly, monthly or yearly.' }),
  interval: wholeNumber('interval').min(1, 'The interval must be at least 1.'),
  item: z.object(
    {
      name: z.string(required('name')).trim().min(1, 'The name field is required.').max(255),
      amount: wholeNumber('amount').min(100, 'The amount must be at least INR 1.00.'),
      currency: z.literal('INR', { error: 'The sandbox accepts INR only.' }),
    },
    required('item'),
  ),
});
export type CreatePlan = z.infer<typeof CreatePlanSchema>;

const NotesInputSchema = z
  .record(z.string().max(256), z.union([z.string().max(256), z.number()]), { error: 'The notes field must be an object.' })
  .refine((notes) => Object.keys(notes).length <= 15, 'The notes field may have at most 15 keys.');

export const CreateSubscriptionSchema = z.object({
  plan_id: z.string(required('plan id')).min(1, 'The plan id field is required.'),
  total_count: wholeNumber('total count').min(1, 'The total count must be at least 1.').max(1200, 'The total count may be at most 1200.'),
  // Only a quantity of one: the sandbox charges the plan's amount.
  quantity: z.coerce.number().pipe(z.literal(1, { error: 'The sandbox supports a quantity of 1 only.' })).optional(),
  customer_notify: z.union([z.boolean(), z.coerce.number().pipe(z.union([z.literal(0), z.literal(1)]))]).optional(),
  /** A later start (unix seconds): Checkout then only authorises the card, and the first charge comes at that time. */
  start_at: wholeNumber('start at').positive().optional(),
  expire_by: wholeNumber('expire by').positive().optional(),
  notes: NotesInputSchema.optional(),
});
export type CreateSubscription = z.infer<typeof CreateSubscriptionSchema>;

export const CancelSubscriptionSchema = z.object({
  cancel_at_cycle_end: z
    .union([z.boolean(), z.coerce.number()])
    .pipe(z.union([z.literal(0), z.literal(1), z.literal(false), z.literal(true)], { error: 'The cancel_at_cycle_end must be 0 or 1.' }))
    .optional(),
});
export type CancelSubscription = z.infer<typeof CancelSubscriptionSchema>;

/**
 * PATCH /subscriptions/:id: another plan, from the next cycle. Razorpay refuses an immediate change
 * when a card mandate applies (razorpay-node #409), which every sandbox subscription has.
 */
export const UpdateSubscriptionSchema = z.object({
  plan_id: z.string(required('plan id')).min(1, 'The plan id field is required.'),
  schedule_change_at: z.enum(['now', 'cycle_end'], { error: 'The schedule change at must be now or cycle_end.' }).optional(),
  customer_notify: z.union([z.boolean(), z.coerce.number().pipe(z.union([z.literal(0), z.literal(1)]))]).optional(),
});
export type UpdateSubscription = z.infer<typeof UpdateSubscriptionSchema>;

/** POST /cards/fingerprints: a saved card's token, or a card number. */
export const CardFingerprintSchema = z.union([
  z.object({ token: z.string().min(1).max(40) }),
  z.object({ number: z.string().regex(/^\d{12,19}$/, 'The number must be a card number.') }),
], { error: 'The token or number field is required.' });
export type CardFingerprint = z.infer<typeof CardFingerprintSchema>;

export const CardReferenceEntitySchema = z.object({
  network: z.string(),
  payment_account_reference: z.string().nullable(),
  network_reference_id: z.string().nullable(),
});

export const RefundPaymentSchema = z.object({
  amount: wholeNumber('amount').min(100, 'The amount must be at least INR 1.00.').optional(),
  speed: z.enum(['normal', 'optimum'], { error: 'The speed must be normal or optimum.' }).optional(),
  notes: NotesInputSchema.optional(),
});
export type RefundPayment = z.infer<typeof RefundPaymentSchema>;

export const PayWithCardSchema = z.object({ card_number: z.string({ error: INVALID_CARD }).max(40, INVALID_CARD) });

// ── Plans and subscriptions ────────────────────────────────────────────────

export async function createPlan(ctx: Context, input: CreatePlan): Promise<PlanEntity> {
  const [plan] = await ctx.db
    .insert(sandboxPlans)
    .values({
      id: newId('plan'),
      period: input.period,
      interval: input.interval,
      itemName: input.item.name,
      amount: input.item.amount,
      currency: input.item.currency,
    })
    .returning();
  return toPlanEntity(plan!);
}

export async function createSubscription(ctx: Context, input: CreateSubscription): Promise<SubscriptionEntity> {
  const [plan] = await ctx.db.select().from(sandboxPlans).where(eq(sandboxPlans.id, input.plan_id));
  if (!plan) throw inputError('The id provided does not exist', 'plan_id');
  if (input.start_at !== undefined && input.start_at <= toUnix(new Date())) {
    throw inputError('The start time should be in the future.', 'start_at');
  }
  const notes = Object.fromEntries(Object.entries(input.notes ?? {}).map(([key, value]) => [key, String(value)]));
  const [subscription] = await ctx.db
    .insert(sandboxSubscriptions)
    .values({
      id: newId('sub'),
      planId: plan.id,
      status: 'created',
      totalCount: input.total_count,
      startAt: input.start_at === undefined ? null : new Date(input.start_at * 1000),
      notes,
    })
    .returning();
  return toSubscriptionEntity(subscription!, plan, ctx.config.publicUrl);
}

/** The subscription and its plan; with `forUpdate`, locked until the transaction ends. */
async function loadSubscription(db: Db, id: string, { forUpdate = false } = {}) {
  const query = db
    .select({ subscription: sandboxSubscriptions, plan: sandboxPlans })
    .from(sandboxSubscriptions)
    .innerJoin(sandboxPlans, eq(sandboxPlans.id, sandboxSubscriptions.planId))
    .where(eq(sandboxSubscriptions.id, id));
  const [found] = forUpdate ? await query.for('update', { of: sandboxSubscriptions }) : await query;
  if (!found) throw idNotFound();
  return found;
}

export async function fetchSubscription(ctx: Context, id: string): Promise<SubscriptionEntity> {
  const { subscription, plan } = await loadSubscription(ctx.db, id);
  return toSubscriptionEntity(subscription, plan, ctx.config.publicUrl);
}

/** Changes a subscription under a row lock: `change` checks the status and answers the new values. */
async function changeSubscription(
  ctx: Context,
  id: string,
  change: (found: { subscription: SubscriptionRow; plan: PlanRow }, tx: Db) => Promise<Partial<SubscriptionRow>>,
) {
  return ctx.db.transaction(async (tx) => {
    const found = await loadSubscription(tx, id, { forUpdate: true });
    const values = await change(found, tx);
    const [updated] = await tx
      .update(sandboxSubscriptions)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(sandboxSubscriptions.id, id))
      .returning();
    const [plan] = updated!.planId === found.plan.id ? [found.plan] : await tx.select().from(sandboxPlans).where(eq(sandboxPlans.id, updated!.planId));
    return toSubscriptionEntity(updated!, plan!, ctx.config.publicUrl);
  });
}

/**
 * Cancels at once (`cancel_at_cycle_end: 0`), or when the paid cycle ends (`1`): until then
 * it stays as it is and charges no more; the sandbox's "charge" then ends it instead.
 * A subscription with no paid cycle running has nothing to wait for and ends at once.
 */
export function cancelSubscription(ctx: Context, id: string, input: CancelSubscription = {}): Promise<SubscriptionEntity> {
  const atCycleEnd = input.cancel_at_cycle_end === 1 || input.cancel_at_cycle_end === true;
  return changeSubscription(ctx, id, async ({ subscription }) => {
    if (ENDED_STATUSES.has(subscription.status)) throw stateError(`Subscription is not cancellable in ${subscription.status} status.`);
    if (atCycleEnd && CHARGING_STATUSES.has(subscription.status)) return { cancelAtCycleEnd: true };
    return { status: 'cancelled' };
  });
}

/**
 * A renewal whose charge failed, as at Razorpay: a failed payment, and the subscription `pending`
 * (Razorpay retries daily; four failures halt it, which `haltSubscription` plays).
 */
export function failRenewal(ctx: Context, id: string): Promise<SubscriptionEntity> {
  return changeSubscription(ctx, id, async ({ subscription, plan }, tx) => {
    if (subscription.status !== 'active' && subscription.status !== 'pending') throw stateError(`Subscription cannot be charged in ${subscription.status} status.`);
    await insertPayment(tx, subscription, plan, wholeSecondNow(), { status: 'failed', errorCode: 'BAD_REQUEST_ERROR', errorDescription: DECLINED });
    return { status: 'pending' };
  });
}

/** Halts, as four failed renewals would at Razorpay. */
export function haltSubscription(ctx: Context, id: string): Promise<SubscriptionEntity> {
  return changeSubscription(ctx, id, async ({ subscription }) => {
    if (!CHARGING_STATUSES.has(subscription.status)) throw stateError(`Subscription cannot be halted in ${subscription.status} status.`);
    return { status: 'halted' };
  });
}

/**
 * Moves the subscription to another plan from its next cycle: the next charge takes the new
 * plan's amount (`chargeSubscription` applies it). Only authenticated and active subscriptions
 * may be updated, and never at once: every sandbox subscription has a card mandate.
 */
export function updateSubscription(ctx: Context, id: string, input: UpdateSubscription): Promise<SubscriptionEntity> {
  return changeSubscription(ctx, id, async ({ subscription }, tx) => {
    if (subscription.status !== 'authenticated' && subscription.status !== 'active') {
      throw stateError(`Subscription cannot be updated in ${subscription.status} status.`);
    }
    if (input.schedule_change_at !== 'cycle_end') throw inputError("Can't update subscription immediately when card mandate is applicable", 'schedule_change_at');
    const [plan] = await tx.select().from(sandboxPlans).where(eq(sandboxPlans.id, input.plan_id));
    if (!plan) throw inputError('The id provided does not exist', 'plan_id');
    return { scheduledPlanId: plan.id === subscription.planId ? null : plan.id };
  });
}

/** The card reference for a saved card's token (the one a subscription's Checkout made), or for a card number. */
export async function cardFingerprint(ctx: Context, input: CardFingerprint) {
  if ('number' in input) {
    const { network, reference } = cardReferenceOf(ctx.config.payments.keySecret, input.number);
    return { network, payment_account_reference: reference, network_reference_id: null };
  }
  const [subscription] = await ctx.db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.tokenId, input.token));
  if (!subscription?.cardReference) throw idNotFound();
  return { network: subscription.cardReference.startsWith('M') ? 'Mastercard' : 'Visa', payment_account_reference: subscription.cardReference, network_reference_id: null };
}

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
  if (declined) {
    throw new SandboxError(400, {
      code: 'BAD_REQUEST_ERROR',
      description: DECLINED,
      source: 'bank',
      step: 'payment_authorization',
      reason: 'payment_declined',
      metadata: { payment_id: declined.id },
    });
  }
  const payment = toPaymentEntity(paid!);
  return { subscription, payment, signature: subscriptionPaymentSignature(ctx.config.payments.keySecret, payment.id, subscription.id) };
}

/**
 * The next cycle boundary, now ("charge now"): a renewal, paid for the cycle that starts where the
 * last one ended; the first charge of an authenticated subscription, for the cycle from its start;
 * or, for one cancelled at the cycle's end, its end (no payment).
 */
export async function chargeSubscription(
  ctx: Context,
  id: string,
): Promise<{ subscription: SubscriptionEntity; payment?: PaymentEntity; first: boolean; updated: boolean }> {
  let paid: PaymentRow | undefined;
  let first = false;
  let updated = false;
  const subscription = await changeSubscription(ctx, id, async ({ subscription, plan: current }, tx) => {
    first = subscription.status === 'authenticated';
    if (!first && !CHARGING_STATUSES.has(subscription.status)) throw stateError(`Subscription cannot be charged in ${subscription.status} status.`);
    if (subscription.cancelAtCycleEnd) return { status: 'cancelled' };
    if (subscription.paidCount >= subscription.totalCount) throw stateError('Subscription has no charges left.');
    // A change scheduled for the cycle's end takes effect now: the new cycle is charged at the new plan's amount.
    const [scheduled] = subscription.scheduledPlanId ? await tx.select().from(sandboxPlans).where(eq(sandboxPlans.id, subscription.scheduledPlanId)) : [];
    const plan = scheduled ?? current;
    updated = scheduled !== undefined;
    paid = await insertPayment(tx, subscription, plan, wholeSecondNow(), { status: 'captured' });
    const currentStart = (first ? subscription.startAt : subscription.currentEnd) ?? paid.createdAt;
    return {
      status: 'active',
      currentStart,
      currentEnd: addCycles(currentStart, plan),
      paidCount: subscription.paidCount + 1,
      ...(scheduled && { planId: scheduled.id, scheduledPlanId: null }),
    };
  });
  return { subscription, payment: paid && toPaymentEntity(paid), first, updated };
}

async function insertPayment(
  db: Db,
  subscription: SubscriptionRow,
  plan: PlanRow,
  createdAt: Date,
  outcome:
    | { status: 'captured' }
    | { status: 'refunded'; amount: number; amountRefunded: number }
    | { status: 'failed'; errorCode: string; errorDescription: string },
): Promise<PaymentRow> {
  const [payment] = await db
    .insert(sandboxPayments)
    .values({ id: newId('pay'), subscriptionId: subscription.id, amount: plan.amount, currency: plan.currency, tokenId: subscription.tokenId, createdAt, ...outcome })
    .returning();
  return payment!;
}

// ── Payments and refunds ───────────────────────────────────────────────────

export async function fetchPayment(ctx: Context, id: string): Promise<PaymentEntity> {
  const [payment] = await ctx.db.select().from(sandboxPayments).where(eq(sandboxPayments.id, id));
  if (!payment) throw idNotFound();
  return toPaymentEntity(payment);
}

/** Refunds what is left of a captured payment, or `amount` of it; processed at once. */
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
    const [refund] = await tx.insert(sandboxRefunds).values({ id: newId('rfnd'), paymentId: id, amount, status: 'processed' }).returning();
    return toRefundEntity(refund!, payment.currency);
  });
}

// ── Webhooks ───────────────────────────────────────────────────────────────

export type SandboxEvent =
  | 'subscription.authenticated'
  | 'subscription.activated'
  | 'subscription.charged'
  | 'subscription.pending'
  | 'subscription.halted'
  | 'subscription.cancelled'
  | 'subscription.completed'
  | 'subscription.updated';

export interface SandboxWebhook {
  event: SandboxEvent;
  subscription: SubscriptionEntity;
  payment?: PaymentEntity;
  /** Sent as x-razorpay-event-id; give the same one twice to imitate a redelivery. */
  eventId?: string;
}

/** Razorpay's webhook envelope; the event id travels in a header, not here. */
export function webhookEnvelope(accountId: string, { event, subscription, payment }: SandboxWebhook) {
  return {
    entity: 'event' as const,
    account_id: accountId,
    event,
    contains: payment ? ['subscription', 'payment'] : ['subscription'],
    payload: { subscription: { entity: subscription }, ...(payment && { payment: { entity: payment } }) },
    created_at: toUnix(new Date()),
  };
}

/**
 * Delivers one webhook the way Razorpay does, signed with the webhook secret over the
 * exact body bytes, but in-process through `app.inject`: no port, no network.
 * Answers the receiver's response.
 */
export async function deliverSandboxWebhook(
  app: FastifyInstance,
  webhook: SandboxWebhook,
  target: string = SANDBOX_WEBHOOK_TARGET,
): Promise<LightMyRequestResponse> {
  const { keyId, webhookSecret } = app.ctx.config.payments;
  const body = JSON.stringify(webhookEnvelope(accountIdOf(keyId), webhook));
  return app.inject({
    method: 'POST',
    url: target,
    headers: {
      'content-type': 'application/json',
      'x-razorpay-signature': hmacHex(webhookSecret, body),
      'x-razorpay-event-id': webhook.eventId ?? newId('evt'),
    },
    payload: body,
  });
}

/** Delivers webhooks one after the other, as a background job: failures are logged, never thrown. */
export async function deliverInBackground(app: FastifyInstance, webhooks: SandboxWebhook[]): Promise<void> {
  for (const webhook of webhooks) {
    try {
      const response = await deliverSandboxWebhook(app, webhook);
      if (response.statusCode >= 300) {
        app.log.warn({ event: webhook.event, status: response.statusCode }, 'sandbox webhook was not accepted');
      }
    } catch (error) {
      app.log.warn({ err: error, event: webhook.event }, 'sandbox webhook delivery failed');
    }
  }
}

// ── The hosted page a subscription's short_url opens ──────────────────────

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const CYCLE_UNITS: Record<string, string> = { daily: 'day', weekly: 'week', monthly: 'month', yearly: 'year' };

/** The page a subscription's short_url opens: the sandbox Checkout on a page of its own; undefined for an unknown id. */
export async function hostedPaymentPage(ctx: Context, id: string): Promise<string | undefined> {
  const found = await loadSubscription(ctx.db, id).catch((error: unknown) => {
    if (error instanceof SandboxError) return undefined;
    throw error;
  });
  if (!found) return undefined;
  const { subscription, plan } = found;
  const price = `${plan.currency} ${(plan.amount / 100).toFixed(2)}`;
  const unit = CYCLE_UNITS[plan.period] ?? plan.period;
  const every = plan.interval === 1 ? unit : `${plan.interval} ${unit}s`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox payment</title>
</head>
<body style="font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#0f172a">
<main>
<h1>Sandbox payment</h1>
<p>This page stands in for Razorpay's hosted payment page in offline development.</p>
<p>Subscription <code>${escapeHtml(subscription.id)}</code> to <strong>${escapeHtml(plan.itemName)}</strong>,
${escapeHtml(price)} every ${escapeHtml(every)}.
Status: <strong>${escapeHtml(subscription.status)}</strong>.</p>
<button type="button" id="sandbox-pay">Pay with a test card</button>
<p id="sandbox-status" role="status"></p>
</main>
<script src="/sandbox/checkout.js" data-subscription-id="${escapeHtml(subscription.id)}" data-key="${escapeHtml(ctx.config.payments.keyId)}"></script>
</body>
</html>
`;
}
