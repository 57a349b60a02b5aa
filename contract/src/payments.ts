import { z } from 'zod';
import { ReplySchema as Reply } from './envelope.ts';
import { answers } from './answers.ts';
import { messages } from './messages.ts';
import { DiscountSchema, PLAN_INTERVALS, PlanSchema } from './plans.ts';

// ── Checkout ────────────────────────────────────────────────────────────────

/**
 * POST /payments/subscribe's optional body; the spec's client sends none (the default plan).
 * `trial` left out takes the plan's free trial when the account may have one; `true` insists
 * (400 when it may not), `false` pays now.
 */
export const SubscribeSchema = z.object({
  plan: z.uuid(messages.planNotFound).optional(),
  coupon: z
    .string({ error: messages.couponUnknown })
    .trim()
    .toUpperCase()
    .max(40, messages.couponUnknown)
    .transform((code) => code || undefined)
    .optional(),
  trial: z.boolean({ error: answers.trialChoiceInvalid }).optional(),
});
export type Subscribe = z.infer<typeof SubscribeSchema>;

/** What the checkout shows before paying: what Checkout takes now, the first charge and the ones after it. */
export const CheckoutQuoteSchema = z.object({
  plan: PlanSchema,
  coupon: DiscountSchema.nullable(),
  /** Rupees Checkout takes now: the first charge, or a small authorisation (refunded) when the first charge comes later. */
  dueNow: z.number(),
  authorisationOnly: z.boolean(),
  /** The first charge, discounted, and when it is taken (now, or when a trial or the paid period ends). */
  firstCharge: z.object({ amount: z.number(), date: z.string() }),
  /** Charges at the discounted price, counted from the first; 0 without a coupon. */
  discountedCharges: z.number().int(),
  /** Each charge after the discounted ones. */
  regularPrice: z.number(),
  trialDays: z.number().int(),
  /** The plan has a free trial that this account has already had. */
  trialUnavailable: z.boolean(),
});
export type CheckoutQuote = z.infer<typeof CheckoutQuoteSchema>;

// ── The save offer ──────────────────────────────────────────────────────────

/** GET /payments/save-offer: the discount the cancellation dialog may offer this subscriber instead, if any. */
export const SaveOfferResponseSchema = Reply.extend({
  offer: z
    .object({
      discount: DiscountSchema,
      /** Each of the next `discount.charges` charges, discounted, and the price after them. */
      discountedPrice: z.number(),
      regularPrice: z.number(),
      interval: z.enum(PLAN_INTERVALS),
    })
    .nullable(),
});
export type SaveOffer = z.infer<typeof SaveOfferResponseSchema>['offer'];

// ── Verifying and cancelling ────────────────────────────────────────────────

/** What Checkout hands to `options.handler`, sent on to the server to verify. */
export const VerifyPaymentSchema = z.object({
  razorpay_payment_id: z.string({ error: answers.paymentDetailsInvalid }).regex(/^pay_[A-Za-z0-9]{1,40}$/, answers.paymentDetailsInvalid),
  razorpay_subscription_id: z.string({ error: answers.paymentDetailsInvalid }).regex(/^sub_[A-Za-z0-9]{1,40}$/, answers.paymentDetailsInvalid),
  razorpay_signature: z.string({ error: answers.paymentDetailsInvalid }).regex(/^[0-9a-f]{64}$/, answers.paymentDetailsInvalid),
});
export type VerifyPayment = z.infer<typeof VerifyPaymentSchema>;

export const RazorpayKeyResponseSchema = Reply.extend({
  key: z.string(),
  /** The Checkout script to load: Razorpay's, or the sandbox's imitation. */
  checkoutScript: z.string(),
  /** The bundle's price in rupees, for the checkout card. */
  price: z.number(),
});
/** Ours, public: the bundle as the storefront sells it to anyone, signed in or not. */
export const PlanResponseSchema = Reply.extend({
  /** Rupees per month. */
  price: z.number(),
  currency: z.literal('INR'),
  /** Days after a payment within which a first cancellation (in any 12 months) refunds it in full and ends access at once. */
  refundWindowDays: z.number().int(),
});
export type BundlePrice = z.infer<typeof PlanResponseSchema>;
export const SubscribeResponseSchema = Reply.extend({
  subscription_id: z.string(),
  /** What the checkout shows before paying: the plan, the coupon, what is taken now and later. */
  checkout: CheckoutQuoteSchema,
});
export const UnsubscribeResponseSchema = Reply.extend({ refunded: z.boolean() });

/**
 * Ours: what cancelling now would do for this subscriber, by the refund rule (the first
 * cancellation in 12 months inside the window refunds) that POST /payments/unsubscribe applies, so
 * that the cancel dialog says the one case that applies.
 * - `refund`: the last payment (`payment`) is refunded in full and access ends now;
 * - `window_passed`: its refund window ended (`refundWindowEndsAt`), access lasts to `accessUntil`;
 * - `refund_used`: a refund was given on `lastRefundAt`, within 12 months; access lasts to `accessUntil`;
 * - `trial`: nothing was paid for this access; it lasts to the trial's end (`accessUntil`).
 */
export const CANCELLATION_OUTCOMES = ['refund', 'window_passed', 'refund_used', 'trial'] as const;
export type CancellationOutcome = (typeof CANCELLATION_OUTCOMES)[number];
export const CancellationTermsSchema = z.object({
  outcome: z.enum(CANCELLATION_OUTCOMES),
  /** The payment the rule looks at (the last one): rupees and when, ISO. */
  payment: z.object({ amount: z.number(), paidAt: z.string() }).nullable(),
  /** When that payment's refund window closes (or closed), ISO. */
  refundWindowEndsAt: z.string().nullable(),
  refundWindowDays: z.number().int(),
  /** The refund within the last 12 months that uses up the one refund, ISO; and when the next may be given. */
  lastRefundAt: z.string().nullable(),
  nextRefundFrom: z.string().nullable(),
  /** Access after cancelling now: now with a refund, the end of the paid period (or trial) without. ISO. */
  accessUntil: z.string(),
});
export type CancellationTerms = z.infer<typeof CancellationTermsSchema>;
export const CancellationTermsResponseSchema = Reply.extend({ cancellation: CancellationTermsSchema });

/** Why a subscriber cancels, asked by the cancel dialog (skippable), read by admins. */
export const CANCEL_REASONS = {
  too_expensive: 'It costs too much',
  not_using: 'I don’t use it enough',
  finished: 'I finished what I came for',
  missing_content: 'The courses I want are missing',
  technical: 'Technical problems',
  other: 'Something else',
} as const;
export type CancelReason = keyof typeof CANCEL_REASONS;
export const CANCEL_NOTE_MAX = 500;
/** POST /payments/unsubscribe's optional body: the spec's client sends none. */
export const CancellationSchema = z.object({
  reason: z.enum(Object.keys(CANCEL_REASONS) as [CancelReason, ...CancelReason[]], { error: answers.cancelReasonInvalid }).optional(),
  note: z.string({ error: answers.cancelNoteTooLong }).trim().max(CANCEL_NOTE_MAX, answers.cancelNoteTooLong).optional(),
});
export type Cancellation = z.infer<typeof CancellationSchema>;

/** How far back the admin's reasons look. */
export const CANCELLATION_DAYS = 90;
/** GET /admin/cancellations: why subscribers cancelled in the last CANCELLATION_DAYS days, and the latest in their words. */
export const CancellationReasonsResponseSchema = Reply.extend({
  total: z.number().int(),
  /** Most given first; `reason: null` counts those who skipped the question. */
  reasons: z.array(z.object({ reason: z.enum(Object.keys(CANCEL_REASONS) as [CancelReason, ...CancelReason[]]).nullable(), count: z.number().int() })),
  latest: z.array(
    z.object({
      date: z.string(),
      fullName: z.string(),
      email: z.string(),
      reason: z.enum(Object.keys(CANCEL_REASONS) as [CancelReason, ...CancelReason[]]).nullable(),
      note: z.string().nullable(),
      refunded: z.boolean(),
    }),
  ),
});
export type CancellationReasons = z.infer<typeof CancellationReasonsResponseSchema>;

/** POST /payments/webhook: received, and whether this event had been received before. */
export const WebhookResponseSchema = Reply.extend({ duplicate: z.boolean() });
