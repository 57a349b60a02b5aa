import { z } from 'zod';
import { ReplySchema } from './envelope.ts';
import { answers } from './answers.ts';

export const UserStatsResponseSchema = ReplySchema.extend({
  /** Accounts with role USER. */
  allUsersCount: z.number(),
  /** Of those, the ones with access now: paid for, or in a free trial (decision 0007). */
  subscribedUsersCount: z.number(),
});

/** Ours: an invoice or credit note as the admin's payments table links it. */
const DocumentLinkSchema = z.object({ id: z.string(), number: z.string(), ready: z.boolean() }).nullable();

/**
 * GET /admin/revenue (ours): the subscription business this month (India's calendar) and over
 * the last 12 months. Decision 0016 defines each figure. Money in rupees.
 */
export const RevenueResponseSchema = ReplySchema.extend({
  /** `2026-11`: the month the figures are for. */
  month: z.string(),
  /** Monthly recurring revenue: what the renewing subscribers' next charges come to a month (a yearly one counts 1/12; a coupon while it lasts). */
  mrr: z.number(),
  /** Ours: each plan's renewing subscribers and their part of the MRR; archived plans that still have some, too. */
  plans: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      interval: z.enum(['monthly', 'yearly']),
      archived: z.boolean(),
      subscribers: z.number().int(),
      mrr: z.number(),
    }),
  ),
  /** Users with access now (as the spec's subscribed count). */
  activeSubscribers: z.number().int(),
  /** Of those, the ones whose subscription renews (not cancelled). */
  renewingSubscribers: z.number().int(),
  newSubscribers: z.number().int(),
  cancellations: z.number().int(),
  activeAtMonthStart: z.number().int(),
  /** Cancellations this month ÷ subscribers active at its start, in percent (one decimal); null with nobody active then. */
  churnRate: z.number().nullable(),
  refunds: z.object({ count: z.number().int(), amount: z.number() }),
  /** Paid this month. */
  grossRevenue: z.number(),
  /** Paid this month minus refunded this month. */
  netRevenue: z.number(),
  /** The last 12 months, oldest first, this month last. */
  months: z.array(z.object({ month: z.string(), newSubscribers: z.number().int(), cancellations: z.number().int() })),
  /** The latest payments, newest first, with their documents. */
  payments: z.array(
    z.object({
      id: z.string(),
      date: z.string(),
      fullName: z.string(),
      email: z.string(),
      amount: z.number(),
      status: z.enum(['paid', 'refunded']),
      invoice: DocumentLinkSchema,
      creditNote: DocumentLinkSchema,
    }),
  ),
});
export type Revenue = z.infer<typeof RevenueResponseSchema>;

/** The longest range one export may cover: a financial year and a bit. */
export const EXPORT_MAX_DAYS = 400;
/** A calendar day that exists: `2026-02-30` is refused, not rolled over into March. */
const day = (message: string) =>
  z
    .string({ error: message })
    .regex(/^\d{4}-\d{2}-\d{2}$/, message)
    .refine((value) => {
      const date = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
    }, message);
/** GET /admin/revenue/export: payments or documents issued from `from` to `to` (inclusive days, India's calendar), as CSV. */
export const RevenueExportQuerySchema = z
  .object({
    kind: z.enum(['payments', 'documents'], { error: answers.exportKindInvalid }),
    from: day(answers.exportDateInvalid),
    to: day(answers.exportDateInvalid),
  })
  .refine((range) => range.from <= range.to, { message: answers.exportRangeInvalid, path: ['to'] })
  .refine((range) => (Date.parse(range.to) - Date.parse(range.from)) / 86_400_000 < EXPORT_MAX_DAYS, { message: answers.exportRangeTooLong, path: ['to'] });
export type RevenueExportQuery = z.infer<typeof RevenueExportQuerySchema>;

/** GET /payments: the admin dashboard's payments table and sales chart (the spec's path). */
export const PaymentRecordsQuerySchema = z.object({
  count: z.coerce.number({ error: answers.countInvalid }).int(answers.countInvalid).min(1, answers.countInvalid).max(500, answers.countInvalid).default(100),
});

export const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;

export const PaymentRecordSchema = z.object({
  _id: z.string(),
  payment_id: z.string(),
  subscription_id: z.string(),
  payer: z.object({ fullName: z.string(), email: z.string() }),
  /** Rupees. */
  amount: z.number(),
  currency: z.string(),
  /** captured or refunded */
  status: z.string(),
  /** ISO time of the payment. */
  date: z.string(),
});
export type PaymentRecord = z.infer<typeof PaymentRecordSchema>;

export const PaymentRecordsResponseSchema = ReplySchema.extend({
  allPayments: z.array(PaymentRecordSchema),
  /** Payments of this calendar year (Asia/Kolkata) by month name, refunded ones left out (decision 0007). */
  finalMonths: z.record(z.enum(MONTH_NAMES), z.number()),
  /** The same, January to December. */
  monthlySalesRecord: z.array(z.number()).length(12),
  /** Subscription payments that stand: every one captured, less those refunded in full (each a month or a year sold and kept). */
  subscriptionCount: z.number(),
  /** Rupees captured minus rupees refunded. */
  totalRevenue: z.number(),
});
