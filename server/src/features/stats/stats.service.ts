import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { CANCEL_REASONS, CANCELLATION_DAYS, type CancellationReasons, type CancelReason } from '@lms/contract/payments';
import { MONTH_NAMES, type PaymentRecord } from '@lms/contract/stats';
import { ACTIVE_DAYS, CHURN_RISK_DAYS, type EngagementResponse } from '@lms/contract/progress';
import type { Context } from '../../context.ts';
import { cancellations, courseCompletionCounts, courseProgress, courses, lectures, paymentMonths, payments, subscriptions, users } from '../../db/schema.ts';

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
 *
 * A payment refunded in full was not a sale (decision 0007): it leaves Sales / Month and the
 * Subscription Count as its refund ends the buyer's access and leaves Subscribed Users. It is
 * taken off payment_months' count here; refunds are few, read by the index on refunded_at.
 */
export async function getPaymentRecords(ctx: Context, { count: latest, now = new Date() }: { count: number; now?: Date }): Promise<PaymentRecords> {
  // 1 January of this year and of the next, as dates in India.
  const yearStart = sql`date_trunc('year', ${now}::timestamptz at time zone ${SALES_TIME_ZONE})::date`;
  const nextYearStart = sql`(date_trunc('year', ${now}::timestamptz at time zone ${SALES_TIME_ZONE}) + interval '1 year')::date`;

  const [rows, monthly, [totals], refunded] = await Promise.all([
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
    ctx.db
      .execute(
        sql`
        select extract(month from p.paid_at at time zone ${SALES_TIME_ZONE})::int as month,
               date_trunc('year', p.paid_at at time zone ${SALES_TIME_ZONE}) = date_trunc('year', ${now}::timestamptz at time zone ${SALES_TIME_ZONE}) as this_year,
               count(*)::int as n
        from ${payments} p
        where p.refunded_at is not null and p.status = 'refunded'
        group by 1, 2`,
      )
      .then((result) => rowsOf<{ month: number; this_year: boolean; n: number }>(result)),
  ]);

  const refundedIn = (month: number) => refunded.reduce((sum, row) => sum + (row.this_year && Number(row.month) === month ? Number(row.n) : 0), 0);
  const monthlySalesRecord = MONTH_NAMES.map((_, index) => (monthly.find((row) => row.month === index + 1)?.n ?? 0) - refundedIn(index + 1));
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
    subscriptionCount: totals!.subscriptionCount - refunded.reduce((sum, row) => sum + Number(row.n), 0),
    totalRevenue: toRupees(totals!.netPaise),
  };
}

const toRupees = (paise: number) => paise / 100;

// ── Engagement (decision 0015): what learner progress tells the admin ──

/** How many at-risk subscribers the dashboard lists (their total is given beside). */
const CHURN_RISK_LISTED = 20;
/** Courses in the engagement table, newest first (the dashboard's courses overview shows as many). */
const ENGAGEMENT_COURSES_MAX = 500;

/** Admins watch to check their courses: their progress counts for no figure. */
const notAnAdmin = (userId: SQL) => sql`${userId} not in (select ${users.id} from ${users} where ${users.role} = 'ADMIN')`;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * Active learners in the last ACTIVE_DAYS days; active subscribers (renewing, not cancelled) with
 * no progress saved in CHURN_RISK_DAYS and subscribed for longer than that, soonest renewal first; each course's starters, finishers
 * and mean completion. Learner figures read course_progress (a row per learner and course), the
 * per-course ones its summary, course_completion_counts.
 */
export async function getEngagement(ctx: Context): Promise<Omit<EngagementResponse, 'success' | 'message'>> {
  const [active, atRisk, perCourse] = await Promise.all([
    ctx.db.execute(sql`
      select count(distinct ${courseProgress.userId})::int as n from ${courseProgress}
      where ${courseProgress.lastWatchedAt} >= now() - make_interval(days => ${ACTIVE_DAYS}) and ${notAnAdmin(sql`${courseProgress.userId}`)}`),
    // Who is at risk is found from indexes alone (users_renewing, course_progress by learner); names
    // and last watch are read for the few listed.
    ctx.db.execute(sql`
      with at_risk as (
        select u.id, u.subscription_ends_at from ${users} u
        where u.role = 'USER' and u.subscription_ends_at > now() and u.subscription_cancelled_at is null
          and not exists (select 1 from ${courseProgress} cp where cp.user_id = u.id and cp.last_watched_at >= now() - make_interval(days => ${CHURN_RISK_DAYS}))
          -- A new subscriber has as long as the window to start watching: not at risk while a subscription
          -- of theirs began (its trial, else its first payment) within it. A resumed one (start_at without a
          -- trial) continues the subscription before it, so it does not start the grace again.
          and not exists (
            select 1 from ${subscriptions} s
            where s.user_id = u.id and not (s.start_at is not null and s.trial_days = 0)
              and coalesce(s.trial_started_at, (select min(p.paid_at) from ${payments} p where p.subscription_id = s.id))
                  >= now() - make_interval(days => ${CHURN_RISK_DAYS}))
      ), listed as (
        select id, subscription_ends_at, count(*) over ()::int as total from at_risk
        order by subscription_ends_at, id
        limit ${CHURN_RISK_LISTED}
      )
      select u.id, u.full_name, u.email, u.subscription_ends_at as renews_at,
             (select max(cp.last_watched_at) from ${courseProgress} cp where cp.user_id = u.id) as last_watched_at,
             l.total
      from listed l join ${users} u on u.id = l.id
      order by l.subscription_ends_at, l.id`),
    // Per course, from course_completion_counts (a row per course and number of lectures completed,
    // kept by triggers), less the admins' own rows, which are few.
    ctx.db.execute(sql`
      with shown as (
        select id, title, created_at from ${courses} order by created_at desc, id desc limit ${ENGAGEMENT_COURSES_MAX}
      ), counts as (
        select k.course_id, k.completed_lectures, k.learners from ${courseCompletionCounts} k where k.course_id in (select id from shown)
        union all
        select cp.course_id, cp.completed_lectures, -1 from ${courseProgress} cp
        where cp.user_id in (select ${users.id} from ${users} where ${users.role} = 'ADMIN') and cp.course_id in (select id from shown)
      )
      select s.id, s.title, lc.n::int as lecture_count,
             coalesce(sum(k.learners), 0)::int as started,
             coalesce(sum(k.learners) filter (where lc.n > 0 and k.completed_lectures >= lc.n), 0)::int as completed,
             coalesce(sum(least(k.completed_lectures, lc.n)::float8 * k.learners) / nullif(sum(k.learners), 0) / nullif(lc.n, 0), 0) * 100 as average
      from shown s
      cross join lateral (select count(*) as n from ${lectures} l where l.course_id = s.id) lc
      left join counts k on k.course_id = s.id
      group by s.id, s.title, s.created_at, lc.n
      order by s.created_at desc, s.id desc`),
  ]);
  const riskRows = rowsOf<{ id: string; full_name: string; email: string; renews_at: Date | string; last_watched_at: Date | string | null; total: number }>(
    atRisk,
  );
  const iso = (value: Date | string) => new Date(value).toISOString();
  return {
    activeLearnersThisWeek: Number(rowsOf<{ n: number }>(active)[0]!.n),
    churnRisk: {
      total: Number(riskRows[0]?.total ?? 0),
      learners: riskRows.map((row) => ({
        _id: row.id,
        fullName: row.full_name,
        email: row.email,
        renewsAt: iso(row.renews_at),
        lastWatchedAt: row.last_watched_at === null ? null : iso(row.last_watched_at),
      })),
    },
    courses: rowsOf<{ id: string; title: string; lecture_count: number; started: number; completed: number; average: number | string }>(perCourse).map(
      (row) => ({
        courseId: row.id,
        title: row.title,
        lectureCount: Number(row.lecture_count),
        started: Number(row.started),
        completed: Number(row.completed),
        averageCompletion: Math.round(Number(row.average) * 10) / 10,
      }),
    ),
  };
}

/** Why subscribers cancelled in the last CANCELLATION_DAYS days (skipped counted apart), and the latest 20 in their words. */
export async function getCancellationReasons(ctx: Context): Promise<Omit<CancellationReasons, 'success' | 'message'>> {
  const since = sql`now() - make_interval(days => ${CANCELLATION_DAYS})`;
  const [counted, latest] = await Promise.all([
    ctx.db
      .select({ reason: cancellations.reason, count: sql<number>`count(*)::int` })
      .from(cancellations)
      .where(gte(cancellations.createdAt, since))
      .groupBy(cancellations.reason)
      .orderBy(sql`count(*) desc`, cancellations.reason),
    ctx.db
      .select({ cancellation: cancellations, fullName: users.fullName, email: users.email })
      .from(cancellations)
      .innerJoin(users, eq(users.id, cancellations.userId))
      .where(gte(cancellations.createdAt, since))
      .orderBy(desc(cancellations.createdAt))
      .limit(20),
  ]);
  const known = (reason: string | null) => (reason !== null && Object.hasOwn(CANCEL_REASONS, reason) ? (reason as CancelReason) : null);
  return {
    total: counted.reduce((sum, row) => sum + row.count, 0),
    reasons: counted.map((row) => ({ reason: known(row.reason), count: row.count })),
    latest: latest.map(({ cancellation, fullName, email }) => ({
      date: cancellation.createdAt.toISOString(),
      fullName,
      email,
      reason: known(cancellation.reason),
      note: cancellation.note,
      refunded: cancellation.refunded,
    })),
  };
}
