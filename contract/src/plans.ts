import { z } from 'zod';
import { ReplySchema as Reply } from './envelope.ts';
import { messages } from './messages.ts';
import { answers } from './answers.ts';
import { isPlainLine } from './plain-text.ts';

/**
 * Plans, free trials and coupons (decision 0017). A plan is what is sold: a name, a
 * period and a price; changing the price makes a new price version, and each subscriber keeps
 * the version they bought. A coupon takes a percentage or an amount off the first payment or the
 * first few. The spec's bundle is the default plan: monthly, created on first start.
 */

export const PLAN_INTERVALS = ['monthly', 'yearly'] as const;
export type PlanInterval = (typeof PLAN_INTERVALS)[number];
/** Months one charge of the interval pays for. */
export const MONTHS_PER_CHARGE: Record<PlanInterval, number> = { monthly: 1, yearly: 12 };

/** Razorpay's smallest charge, ₹1 (Razorpay refuses a plan amount under 100 paise). */
export const MIN_PRICE = 1;
/**
 * The largest price a plan may have: a recurring card or UPI debit above ₹15,000 needs the
 * customer's extra approval every time (RBI's e-mandate rules, which Razorpay applies), so a
 * subscription above it would not renew by itself.
 */
export const MAX_PRICE = 15_000;
export const MAX_TRIAL_DAYS = 90;
export const MAX_DISCOUNTED_CHARGES = 24;
export const COUPON_CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{2,19}$/;

/** Rupees with at most two decimals (whole paise). */
const isWholePaise = (rupees: number) => Math.abs(rupees * 100 - Math.round(rupees * 100)) < 1e-6;
const rupees = (invalid: string) => z.coerce.number({ error: invalid }).refine((value) => Number.isFinite(value) && isWholePaise(value), invalid);
const price = () =>
  rupees(answers.planPriceInvalid)
    .refine((value) => value >= MIN_PRICE, answers.planPriceTooLow)
    .refine((value) => value <= MAX_PRICE, answers.planPriceTooHigh);

const trialDays = () =>
  z.coerce
    .number({ error: answers.planTrialDaysInvalid })
    .int(answers.planTrialDaysInvalid)
    .min(0, answers.planTrialDaysInvalid)
    .max(MAX_TRIAL_DAYS, answers.planTrialDaysInvalid);
const maxRedemptions = () =>
  z.coerce.number({ error: answers.couponMaxInvalid }).int(answers.couponMaxInvalid).min(1, answers.couponMaxInvalid).max(1_000_000, answers.couponMaxInvalid);

// ── Plans ───────────────────────────────────────────────────────────────────

/** A plan as the checkout and the storefront show it; `price` is what the buyer pays per charge, in rupees. */
export const PlanSchema = z.object({
  id: z.string(),
  name: z.string(),
  interval: z.enum(PLAN_INTERVALS),
  price: z.number(),
  /** Days of free access before the first charge; 0 for none. */
  trialDays: z.number().int(),
  /** The spec's bundle: monthly, never archived, what `POST /payments/subscribe` with no body buys. */
  default: z.boolean(),
});
export type Plan = z.infer<typeof PlanSchema>;

/** GET /payments/plans (public): the plans on sale, the default first, then monthly before yearly. */
export const PlansResponseSchema = Reply.extend({
  plans: z.array(PlanSchema),
  /** For a signed-in learner: whether a plan's free trial would be theirs (one per account). */
  trialAvailable: z.boolean(),
  /** Days after a payment within which a first cancellation in 12 months refunds it in full: every plan's cards say it. */
  refundWindowDays: z.number().int(),
});

/** The admin's view: every plan, archived ones too, with its price versions and who pays each. */
export const AdminPlanSchema = PlanSchema.extend({
  archived: z.boolean(),
  /** The price as entered: before GST when prices exclude it (PRICES_INCLUDE_TAX=no). */
  listPrice: z.number(),
  /** Subscriptions that will charge again, plus those in a trial. */
  subscribers: z.number().int(),
  prices: z.array(z.object({ price: z.number(), listPrice: z.number(), since: z.string(), subscribers: z.number().int(), current: z.boolean() })),
  createdAt: z.string(),
});
export type AdminPlan = z.infer<typeof AdminPlanSchema>;
export const AdminPlansResponseSchema = Reply.extend({
  plans: z.array(AdminPlanSchema),
  /** How prices are entered: before GST, which is added to what is charged (PRICES_INCLUDE_TAX=no with a GSTIN), at this rate. */
  tax: z.object({ pricesAddTax: z.boolean(), gstRate: z.number() }),
});
export const AdminPlanResponseSchema = Reply.extend({ plan: AdminPlanSchema });

export const PlanInputSchema = z.object({
  // Printed in the description of every invoice of the plan.
  name: z
    .string({ error: answers.planNameInvalid })
    .trim()
    .min(1, answers.planNameInvalid)
    .max(40, answers.planNameInvalid)
    .refine(isPlainLine, answers.planNameNotPlain),
  interval: z.enum(PLAN_INTERVALS, { error: answers.planIntervalInvalid }),
  /** Rupees, as the seller sets prices: including GST unless PRICES_INCLUDE_TAX=no. */
  price: price(),
  trialDays: trialDays().default(0),
});
export type PlanInput = z.infer<typeof PlanInputSchema>;

/** PATCH: the period stays (a yearly plan turned monthly would surprise its subscribers; make another plan). */
export const PlanUpdateSchema = z
  .object({
    name: PlanInputSchema.shape.name.optional(),
    price: price().optional(),
    trialDays: trialDays().optional(),
    archived: z.boolean({ error: answers.planArchivedInvalid }).optional(),
  })
  .refine((update) => Object.values(update).some((value) => value !== undefined), answers.nothingToUpdate);
export type PlanUpdate = z.infer<typeof PlanUpdateSchema>;

export const PlanIdParamsSchema = z.object({ id: z.uuid(messages.planNotFound) });

// ── Coupons ─────────────────────────────────────────────────────────────────

export const COUPON_KINDS = ['percent', 'amount'] as const;
export type CouponKind = (typeof COUPON_KINDS)[number];

const isoTime = z.iso.datetime({ offset: true, error: messages.couponDatesInvalid });

export const CouponInputSchema = z
  .object({
    code: z.string({ error: answers.couponCodeInvalid }).trim().toUpperCase().regex(COUPON_CODE_PATTERN, answers.couponCodeInvalid),
    kind: z.enum(COUPON_KINDS, { error: answers.couponKindInvalid }),
    /** A percentage (1–99) or rupees off each discounted charge. */
    amount: rupees(answers.couponAmountInvalid).refine((value) => value > 0, answers.couponAmountInvalid),
    /** How many charges the discount applies to, from the first: 1 is the first payment only. */
    charges: z.coerce
      .number({ error: answers.couponChargesInvalid })
      .int(answers.couponChargesInvalid)
      .min(1, answers.couponChargesInvalid)
      .max(MAX_DISCOUNTED_CHARGES, answers.couponChargesInvalid)
      .default(1),
    validFrom: isoTime.nullable().optional(),
    validUntil: isoTime.nullable().optional(),
    /** Redemptions allowed in all; none for no limit. Each account redeems a coupon once. */
    maxRedemptions: maxRedemptions().nullable().optional(),
    /** The plans it is for; empty for every plan. */
    plans: z.array(z.uuid(messages.planNotFound)).max(50, messages.planNotFound).default([]),
    /** Offered in the cancellation dialog instead of cancelling (at most one coupon is). Not redeemable at checkout. */
    saveOffer: z.boolean({ error: answers.couponSaveOfferInvalid }).default(false),
  })
  .refine((coupon) => coupon.kind !== 'percent' || (Number.isInteger(coupon.amount) && coupon.amount <= 99), {
    message: answers.couponPercentInvalid,
    path: ['amount'],
  })
  .refine((coupon) => coupon.kind !== 'amount' || coupon.amount <= MAX_PRICE, { message: answers.couponAmountInvalid, path: ['amount'] })
  .refine((coupon) => !coupon.validFrom || !coupon.validUntil || Date.parse(coupon.validFrom) < Date.parse(coupon.validUntil), {
    message: messages.couponDatesInvalid,
    path: ['validUntil'],
  });
export type CouponInput = z.infer<typeof CouponInputSchema>;

/** PATCH: when and how often it may be redeemed, and for which plans; its code and discount stay what buyers were given. */
export const CouponUpdateSchema = z
  .object({
    validFrom: isoTime.nullable().optional(),
    validUntil: isoTime.nullable().optional(),
    maxRedemptions: maxRedemptions().nullable().optional(),
    plans: z.array(z.uuid(messages.planNotFound)).max(50, messages.planNotFound).optional(),
    saveOffer: z.boolean({ error: answers.couponSaveOfferInvalid }).optional(),
    archived: z.boolean({ error: answers.couponArchivedInvalid }).optional(),
  })
  .refine((update) => Object.values(update).some((value) => value !== undefined), answers.nothingToUpdate);
export type CouponUpdate = z.infer<typeof CouponUpdateSchema>;

export const CouponSchema = z.object({
  id: z.string(),
  code: z.string(),
  kind: z.enum(COUPON_KINDS),
  amount: z.number(),
  charges: z.number().int(),
  validFrom: z.string().nullable(),
  validUntil: z.string().nullable(),
  maxRedemptions: z.number().int().nullable(),
  /** Uses taken: paid for, or held by a checkout not yet paid (released when it is dropped). */
  redemptions: z.number().int(),
  plans: z.array(z.string()),
  saveOffer: z.boolean(),
  archived: z.boolean(),
  createdAt: z.string(),
});
export type Coupon = z.infer<typeof CouponSchema>;
export const CouponsResponseSchema = Reply.extend({ coupons: z.array(CouponSchema) });
export const CouponResponseSchema = Reply.extend({ coupon: CouponSchema });
export const CouponIdParamsSchema = z.object({ id: z.uuid(answers.couponNotFound) });

/** A coupon as a buyer sees it: what it takes off, and for how many charges. */
export const DiscountSchema = z.object({
  code: z.string(),
  kind: z.enum(COUPON_KINDS),
  amount: z.number(),
  charges: z.number().int(),
});
export type Discount = z.infer<typeof DiscountSchema>;
