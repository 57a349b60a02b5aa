import { and, count, desc, eq, gte, lt, sql } from 'drizzle-orm';
import { MONTH_NAMES, type PaymentRecord } from '@lms/contract/payments';
import type { Context } from '../../context.ts';
import { payments, subscriptions, users } from '../../db/schema.ts';

/**
 * Months and the calendar year of the sales chart are India's, whatever the server's time zone.
 * A constant written into the SQL rather than a parameter, so the month expression of the
 * select list and of GROUP BY are the same text, as PostgreSQL requires.
 */
const SALES_TIME_ZONE = sql.raw(`'Asia/Kolkata'`);

/**
 * Accounts with role USER, and those of them with access now: the condition of
 * hasActiveSubscription, in SQL. One pass over the (role, subscription_ends_at) index.
 */
export async function getUserStats(ctx: Context): Promise<{ allUsersCount: number; subscribedUsersCount: number }> {
  const [row] = await ctx.db
    .select({
      allUsersCount: count(),
      subscribedUsersCount: sql<number>`count(*) filter (where ${users.subscriptionEndsAt} > now())`.mapWith(Number),
    })
    .from(users)
    .where(eq(users.role, 'USER'));
  return row!;
}

export interface PaymentRecords {
  allPayments: PaymentRecord[];
  finalMonths: Record<(typeof MONTH_NAMES)[number], number>;
  monthlySalesRecord: number[];
  subscriptionCount: number;
  totalRevenue: number;
}

/**
 * The admin dashboard's figures: the latest `count` payments with their payer, the
 * payments of each month of this calendar year, and the totals over all time.
 * Everything is counted and summed by the database.
 */
export async function getPaymentRecords(ctx: Context, { count: latest, now = new Date() }: { count: number; now?: Date }): Promise<PaymentRecords> {
  // The year is bounded by two instants, so the paid_at index finds its payments:
  // midnight of 1 January in India, of this year and of the next.
  const yearStart = sql`(date_trunc('year', ${now}::timestamptz at time zone ${SALES_TIME_ZONE}) at time zone ${SALES_TIME_ZONE})`;
  const nextYearStart = sql`((date_trunc('year', ${now}::timestamptz at time zone ${SALES_TIME_ZONE}) + interval '1 year') at time zone ${SALES_TIME_ZONE})`;
  const month = sql<number>`extract(month from ${payments.paidAt} at time zone ${SALES_TIME_ZONE})::int`;

  const [rows, monthly, [totals]] = await Promise.all([
    ctx.db
      .select({
        id: payments.id,
        providerPaymentId: payments.providerPaymentId,
        providerSubscriptionId: subscriptions.providerSubscriptionId,
        fullName: users.fullName,
        email: users.email,
        amountPaise: payments.amountPaise,
        currency: payments.currency,
        status: payments.status,
        paidAt: payments.paidAt,
      })
      .from(payments)
      .innerJoin(users, eq(users.id, payments.userId))
      .innerJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId))
      .orderBy(desc(payments.paidAt), desc(payments.id))
      .limit(latest),
    ctx.db
      .select({ month, n: count() })
      .from(payments)
      .where(and(gte(payments.paidAt, yearStart), lt(payments.paidAt, nextYearStart)))
      .groupBy(month),
    ctx.db
      .select({
        subscriptionCount: count(),
        // Sums of integers are bigint, which the drivers hand over as text.
        netPaise: sql<number>`coalesce(sum(${payments.amountPaise}) - sum(${payments.refundedPaise}), 0)`.mapWith(Number),
      })
      .from(payments),
  ]);

  const monthlySalesRecord = MONTH_NAMES.map((_, index) => monthly.find((row) => row.month === index + 1)?.n ?? 0);
  return {
    allPayments: rows.map((row) => ({
      _id: row.id,
      payment_id: row.providerPaymentId,
      subscription_id: row.providerSubscriptionId,
      payer: { fullName: row.fullName, email: row.email },
      amount: toRupees(row.amountPaise),
      currency: row.currency,
      status: row.status,
      date: row.paidAt.toISOString(),
    })),
    finalMonths: Object.fromEntries(MONTH_NAMES.map((name, index) => [name, monthlySalesRecord[index]!])) as PaymentRecords['finalMonths'],
    monthlySalesRecord,
    subscriptionCount: totals!.subscriptionCount,
    totalRevenue: toRupees(totals!.netPaise),
  };
}

const toRupees = (paise: number) => paise / 100;
