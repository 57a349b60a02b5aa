import type { ReactNode } from 'react';
import { messages } from '@lms/contract/messages';
import { Link } from 'react-router';
import { paths } from '../../lib/paths';
import { useGetCoursesQuery } from '../courses';
import { SharingRiskCard } from '../protection';
import { useGetPaymentRecordsQuery } from './stats.api';
import { usePageTitle } from '../../lib/use-page-title';
import { ContactInbox } from './ContactInbox';
import { CoursesOverview, type LoadStatus } from './CoursesOverview';
import { SalesChart } from './SalesChart';
import { Engagement } from './Engagement';
import { CancellationReasons } from './CancellationReasons';
import { Revenue } from './Revenue';
import { PAYMENT_RECORDS_COUNT, useGetCancellationReasonsQuery, useGetEngagementQuery, useGetRevenueQuery, useGetUserStatsQuery } from './stats.api';
import { UsersPie } from './UsersPie';

/** The dashboard shows up to this many courses (the server's page limit). */
const COURSES_LIMIT = 100;

/** What a card or chart shows when its numbers could not be loaded. */
const texts = {
  statistics: 'Statistics',
  unavailable: 'Not available',
  loading: 'Loading',
  // What each card counts (decision 0007): a refund takes its buyer out of both subscription figures.
  registeredUsersHint: 'Learner accounts, not admins',
  subscribedUsersHint: 'With access now, free trials included',
  subscriptionCountHint: 'Months and years paid, less refunds',
  totalRevenueHint: 'Paid, less refunds',
  siteSettings: 'Site settings',
  leakTrace: 'Leak trace',
  certificates: 'Certificates',
  learners: 'Learners',
  activity: 'Activity',
};

const countFormat = new Intl.NumberFormat('en-IN');
const rupeeFormat = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 0, maximumFractionDigits: 2 });

const NO_SALES: number[] = Array<number>(12).fill(0);

/** A query's state as the cards show it. */
const statusOf = (query: { isError: boolean; currentData?: unknown }): LoadStatus => (query.isError ? 'failed' : query.currentData ? 'ready' : 'loading');
/** Answered, well or not: the next step may start. */
const settled = (query: { isSuccess: boolean; isError: boolean }) => query.isSuccess || query.isError;

/** The admin dashboard (ADMIN only; the router guards it). */
export default function DashboardPage() {
  usePageTitle(messages.adminDashboard);
  // The course list, then user statistics, then payment records, each once the one before
  // has answered. A failure shows its toast (in the API client) and the next step still runs.
  // After a deletion the course list is reloaded (the mutation invalidates it).
  const courses = useGetCoursesQuery({ limit: COURSES_LIMIT });
  const stats = useGetUserStatsQuery(undefined, { skip: !settled(courses) });
  const payments = useGetPaymentRecordsQuery(PAYMENT_RECORDS_COUNT, { skip: !settled(stats) });
  // The figures beyond the spec's three, each after the one before.
  const revenue = useGetRevenueQuery(undefined, { skip: !settled(payments) });
  const engagement = useGetEngagementQuery(undefined, { skip: !settled(revenue) });
  const cancellations = useGetCancellationReasonsQuery(undefined, { skip: !settled(engagement) });
  const status = { courses: statusOf(courses), stats: statusOf(stats), payments: statusOf(payments) };
  const { allUsersCount = 0, subscribedUsersCount: subscribedCount = 0 } = stats.currentData ?? {};
  const { monthlySalesRecord = NO_SALES, subscriptionCount = 0, totalRevenue = 0 } = payments.currentData ?? {};

  const show = (source: LoadStatus, value: string) =>
    source === 'ready' ? (
      value
    ) : source === 'loading' ? (
      <>
        <span className="loading loading-dots loading-sm" aria-hidden="true" />
        <span className="sr-only">{texts.loading}</span>
      </>
    ) : (
      <>
        <span aria-hidden="true">—</span>
        <span className="sr-only">{texts.unavailable}</span>
      </>
    );

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-10 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold">{messages.adminDashboard}</h1>
        <div className="flex flex-wrap gap-1">
          {/* The learners first: support work starts there. */}
          <Link to={paths.learners} className="btn btn-outline btn-sm">
            <svg
              viewBox="0 0 24 24"
              width="16"
              height="16"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
              aria-hidden="true"
            >
              <circle cx="9" cy="8" r="4" />
              <path d="M2 21a7 7 0 0 1 14 0M16 4a4 4 0 0 1 0 8M22 21a7 7 0 0 0-4-6.3" />
            </svg>
            {texts.learners}
          </Link>
          <Link to={paths.trace} className="btn btn-ghost btn-sm">
            <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
              <circle cx="11" cy="11" r="7" />
              <path d="m20 20-3.5-3.5" />
            </svg>
            {texts.leakTrace}
          </Link>
          <Link to={paths.certificates} className="btn btn-ghost btn-sm">
            <svg
              viewBox="0 0 24 24"
              width="16"
              height="16"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
              aria-hidden="true"
            >
              <circle cx="12" cy="9" r="6" />
              <path d="M8.5 14 7 22l5-3 5 3-1.5-8" />
            </svg>
            {texts.certificates}
          </Link>
          <Link to={paths.activity} className="btn btn-ghost btn-sm">
            <svg
              viewBox="0 0 24 24"
              width="16"
              height="16"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
              aria-hidden="true"
            >
              <path d="M9 6h11M9 12h11M9 18h11M4 6h.01M4 12h.01M4 18h.01" />
            </svg>
            {texts.activity}
          </Link>
          <Link to={paths.settings} className="btn btn-ghost btn-sm">
            <svg
              viewBox="0 0 24 24"
              width="16"
              height="16"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
              aria-hidden="true"
            >
              <circle cx="12" cy="12" r="3" />
              <path d="M12 2v3M12 19v3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M2 12h3M19 12h3M4.9 19.1 7 17M17 7l2.1-2.1" />
            </svg>
            {texts.siteSettings}
          </Link>
        </div>
      </div>

      <section aria-label={texts.statistics} className="grid gap-6 lg:grid-cols-2">
        <div className="flex min-w-0 flex-col gap-4 rounded-box border border-base-300 bg-base-100 p-4 shadow-sm">
          {status.stats === 'failed' ? (
            <ChartUnavailable title={messages.userDetails} />
          ) : (
            <UsersPie allUsersCount={allUsersCount} subscribedCount={subscribedCount} loading={status.stats === 'loading'} />
          )}
          <dl className="grid grid-cols-1 gap-3 min-[26rem]:grid-cols-2">
            <StatCard label={messages.registeredUsers} value={show(status.stats, countFormat.format(allUsersCount))} hint={texts.registeredUsersHint} />
            <StatCard label={messages.subscribedUsers} value={show(status.stats, countFormat.format(subscribedCount))} hint={texts.subscribedUsersHint} />
          </dl>
        </div>
        <div className="flex min-w-0 flex-col gap-4 rounded-box border border-base-300 bg-base-100 p-4 shadow-sm">
          {status.payments === 'failed' ? (
            <ChartUnavailable title={messages.salesPerMonth} />
          ) : (
            <SalesChart monthlySalesRecord={monthlySalesRecord} loading={status.payments === 'loading'} />
          )}
          <dl className="grid grid-cols-1 gap-3 min-[26rem]:grid-cols-2">
            <StatCard
              label={messages.subscriptionCount}
              value={show(status.payments, countFormat.format(subscriptionCount))}
              hint={texts.subscriptionCountHint}
            />
            {/* The real net revenue from the server (refunds taken off), not the spec's count × 5. */}
            <StatCard label={messages.totalRevenue} value={show(status.payments, rupeeFormat.format(totalRevenue))} hint={texts.totalRevenueHint} />
          </dl>
        </div>
      </section>

      <Revenue data={revenue.currentData} status={statusOf(revenue)} />

      <SharingRiskCard wait={!settled(cancellations)} />

      <CoursesOverview courses={courses.data?.courses ?? []} total={courses.data?.total ?? 0} status={status.courses} />

      <Engagement data={engagement.currentData} status={statusOf(engagement)} />

      <CancellationReasons data={cancellations.currentData} status={statusOf(cancellations)} />

      <ContactInbox />
    </div>
  );
}

/** A figure under its label; the hint, a second `dd`, says what exactly is counted. */
function StatCard({ label, value, hint }: { label: string; value: ReactNode; hint?: string }) {
  return (
    <div className="flex flex-col gap-1 rounded-box bg-base-200 p-4">
      <dt className="text-sm font-medium text-base-content/80">{label}</dt>
      <dd className="text-2xl font-bold tabular-nums break-words">{value}</dd>
      {hint && <dd className="text-xs text-base-content/70">{hint}</dd>}
    </div>
  );
}

function ChartUnavailable({ title }: { title: string }) {
  return (
    <figure className="flex flex-col gap-2">
      <figcaption className="text-lg font-semibold">{title}</figcaption>
      <p className="text-base-content/70">{texts.unavailable}</p>
    </figure>
  );
}
