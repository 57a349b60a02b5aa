import { and, count, desc, eq, gte, lt, sql } from 'drizzle-orm';
import { MONTH_NAMES, type PaymentRecord } from '@lms/contract/payments';
import type { Context } from '../../context.ts';
import { paymentMonths, payments, subscriptions, users } from '../../db/schema.ts';

/** The calendar year of the sales chart is India's, whatever the server's time zone (as the months of payment_months). */
const SALES_TIME_ZONE = 'Asia/Kolkata';

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
 * The months and totals come from payment_months, which triggers keep in step with
 * payments: a dozen rows a year to read, however many payments there are.
 */
export async function getPaymentRecords(ctx: Context, { count: latest, now = new Date() }: { count: number; now?: Date }): Promise<PaymentRecords> {
  // 1 January of this year and of the next, as dates in India.
  const yearStart = sql`date_trunc('year', ${now}::timestamptz at time zone ${SALES_TIME_ZONE})::date`;
  const nextYearStart = sql`(date_trunc('year', ${now}::timestamptz at time zone ${SALES_TIME_ZONE}) + interval '1 year')::date`;

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
      .select({ month: sql<number>`extract(month from ${paymentMonths.month})::int`, n: paymentMonths.payments })
      .from(paymentMonths)
      .where(and(gte(paymentMonths.month, yearStart), lt(paymentMonths.month, nextYearStart))),
    ctx.db
      .select({
        // Sums are bigint or numeric, which the drivers hand over as text.
        subscriptionCount: sql<number>`coalesce(sum(${paymentMonths.payments}), 0)`.mapWith(Number),
        netPaise: sql<number>`coalesce(sum(${paymentMonths.netPaise}), 0)`.mapWith(Number),
      })
      .from(paymentMonths),
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
