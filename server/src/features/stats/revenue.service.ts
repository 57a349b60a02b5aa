import { desc, eq, inArray, sql } from 'drizzle-orm';
import type { Revenue } from '@lms/contract/stats';
import type { Context } from '../../context.ts';
import { billingDocuments, payments, plans, users } from '../../db/schema.ts';

/**
 * The revenue figures of the admin dashboard (decision 0016 defines each), computed in SQL
 * over payments, subscriptions, users and cancellations. Months are India's (Asia/Kolkata), as the
 * spec's sales chart counts them. `now` is a parameter so that tests can fix the month.
 */

const LATEST_PAYMENTS = 20;
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const rupees = (paise: number | string) => Number(paise) / 100;

export async function getRevenue(ctx: Context, now = new Date()): Promise<Omit<Revenue, 'success' | 'message'>> {
  // The month's first instant in India, the next month's, and twelve months back, as timestamps.
  const nowAt = sql`${now.toISOString()}::timestamptz`;
  const month = sql`date_trunc('month', ${nowAt} at time zone 'Asia/Kolkata')`;
  const monthStart = sql`(${month} at time zone 'Asia/Kolkata')`;
  const nextMonth = sql`((${month} + interval '1 month') at time zone 'Asia/Kolkata')`;

  const [renewing, [subscribers], [thisMonth], monthly, latest, planRows] = await Promise.all([
    rowsOf<{ plan_id: string | null; renewing: number; mrr_paise: string }>(
      // Subscriptions that will charge again, with what their next charge takes a month (subscriptions_renewing, an index of just these).
      await ctx.db.execute(sql`
        select plan_id, count(*)::int as renewing, coalesce(sum(monthly_value_paise), 0)::bigint as mrr_paise from subscriptions
        where status in ('active', 'pending') and cancelled_at is null and current_end > ${nowAt}
        group by plan_id`),
    ),
    rowsOf<{ active: number }>(await ctx.db.execute(sql`select count(*)::int as active from users where role = 'USER' and subscription_ends_at > ${nowAt}`)),
    rowsOf<{ new_subscribers: number; cancellations: number; active_at_start: number; refund_count: number; refunded_paise: string; gross_paise: string }>(
      await ctx.db.execute(sql`
        select
          (select count(*) from users where first_paid_at >= ${monthStart} and first_paid_at < ${nextMonth})::int as new_subscribers,
          (select count(*) from cancellations where created_at >= ${monthStart} and created_at < ${nextMonth})::int as cancellations,
          -- A payment gives a month: whoever paid in the month before the start, and was not refunded by then, had access at the start.
          (select count(distinct user_id) from payments
            where paid_at > ${monthStart} - interval '1 month' and paid_at <= ${monthStart}
              and (refunded_at is null or refunded_at > ${monthStart}))::int as active_at_start,
          (select count(*) from payments where refunded_at >= ${monthStart} and refunded_at < ${nextMonth})::int as refund_count,
          (select coalesce(sum(refunded_paise), 0) from payments where refunded_at >= ${monthStart} and refunded_at < ${nextMonth})::bigint as refunded_paise,
          (select coalesce(sum(amount_paise), 0) from payments where paid_at >= ${monthStart} and paid_at < ${nextMonth})::bigint as gross_paise`),
    ),
    rowsOf<{ month: string; new_subscribers: number; cancellations: number }>(
      // A count per month over the two indexes (index-only scans), rather than grouping a year of rows.
      await ctx.db.execute(sql`
        select m.month,
               (select count(*) from users where first_paid_at >= m.start and first_paid_at < m.next)::int as new_subscribers,
               (select count(*) from cancellations where created_at >= m.start and created_at < m.next)::int as cancellations
        from (
          select to_char(g, 'YYYY-MM') as month, g at time zone 'Asia/Kolkata' as start, (g + interval '1 month') at time zone 'Asia/Kolkata' as next
          from generate_series(${month} - interval '11 months', ${month}, interval '1 month') as g
        ) m
        order by m.month`),
    ),
    ctx.db
      .select({ payment: payments, fullName: users.fullName, email: users.email })
      .from(payments)
      .innerJoin(users, eq(users.id, payments.userId))
      .orderBy(desc(payments.paidAt), desc(payments.id))
      .limit(LATEST_PAYMENTS),
    ctx.db.select().from(plans),
  ]);

  const documents = latest.length
    ? await ctx.db
        .select()
        .from(billingDocuments)
        .where(
          inArray(
            billingDocuments.paymentId,
            latest.map((row) => row.payment.id),
          ),
        )
    : [];
  const linkOf = (paymentId: string, kind: string) => {
    const document = documents.find((row) => row.paymentId === paymentId && row.kind === kind);
    return document ? { id: document.id, number: document.number, ready: document.pdfKey !== null } : null;
  };
  const planFigures = planRows
    .map((plan) => {
      const row = renewing.find((entry) => entry.plan_id === plan.id);
      return {
        id: plan.id,
        name: plan.name,
        interval: plan.interval as 'monthly' | 'yearly',
        archived: plan.archivedAt !== null,
        subscribers: row?.renewing ?? 0,
        mrr: rupees(row?.mrr_paise ?? 0),
      };
    })
    .filter((plan) => !plan.archived || plan.subscribers > 0)
    .sort((a, b) => b.mrr - a.mrr || a.name.localeCompare(b.name));
  const refundedPaise = Number(thisMonth!.refunded_paise);
  const grossPaise = Number(thisMonth!.gross_paise);
  return {
    month: monthly.at(-1)!.month,
    mrr: rupees(renewing.reduce((sum, row) => sum + Number(row.mrr_paise), 0)),
    plans: planFigures,
    activeSubscribers: subscribers!.active,
    renewingSubscribers: renewing.reduce((sum, row) => sum + row.renewing, 0),
    newSubscribers: thisMonth!.new_subscribers,
    cancellations: thisMonth!.cancellations,
    activeAtMonthStart: thisMonth!.active_at_start,
    churnRate: thisMonth!.active_at_start > 0 ? Math.round((thisMonth!.cancellations / thisMonth!.active_at_start) * 1000) / 10 : null,
    refunds: { count: thisMonth!.refund_count, amount: rupees(refundedPaise) },
    grossRevenue: rupees(grossPaise),
    netRevenue: rupees(grossPaise - refundedPaise),
    months: monthly.map((row) => ({ month: row.month, newSubscribers: row.new_subscribers, cancellations: row.cancellations })),
    payments: latest.map(({ payment, fullName, email }) => ({
      id: payment.id,
      date: payment.paidAt.toISOString(),
      fullName,
      email,
      amount: rupees(payment.amountPaise),
      status: payment.status === 'refunded' ? ('refunded' as const) : ('paid' as const),
      invoice: linkOf(payment.id, 'invoice'),
      creditNote: linkOf(payment.id, 'credit_note'),
    })),
  };
}
