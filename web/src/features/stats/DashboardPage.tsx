import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { messages } from '@lms/contract/messages';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { getAllCourses } from '../course/course.api';
import { ContactInbox } from './ContactInbox';
import { CoursesOverview, type LoadStatus } from './CoursesOverview';
import { SalesChart } from './SalesChart';
import { getPaymentRecords, getStatsData } from './stat.api';
import { UsersPie } from './UsersPie';

/** The dashboard shows up to this many courses (the server's page limit). */
const COURSES_LIMIT = 100;

/** Ours: what a card or chart shows when its numbers could not be loaded. */
const texts = {
  statistics: 'Statistics',
  unavailable: 'Not available',
  loading: 'Loading',
};

const countFormat = new Intl.NumberFormat('en-IN');
const rupeeFormat = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 0, maximumFractionDigits: 2 });

interface Status {
  courses: LoadStatus;
  stats: LoadStatus;
  payments: LoadStatus;
}

/** Spec §2: the admin dashboard (ADMIN only; the router guards it). */
export default function DashboardPage() {
  const dispatch = useAppDispatch();
  const { allUsersCount, subscribedCount } = useAppSelector((state) => state.stat);
  const { monthlySalesRecord, subscriptionCount, totalRevenue } = useAppSelector((state) => state.razorpay);
  const courses = useAppSelector((state) => state.course.courseData);
  const [coursesTotal, setCoursesTotal] = useState(0);
  const [status, setStatus] = useState<Status>({ courses: 'loading', stats: 'loading', payments: 'loading' });

  const loadCourses = useCallback(async () => {
    const page = await dispatch(getAllCourses({ limit: COURSES_LIMIT }));
    setCoursesTotal(page.total);
  }, [dispatch]);

  // Spec §4: the course list, then user statistics, then payment records, one after the other.
  // A failure shows its toast (in the API client) and the next step still runs.
  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    const step = async (name: keyof Status, load: () => Promise<unknown>) => {
      if (signal.aborted) return;
      try {
        await load();
        if (!signal.aborted) setStatus((current) => ({ ...current, [name]: 'ready' }));
      } catch {
        if (!signal.aborted) setStatus((current) => ({ ...current, [name]: 'failed' }));
      }
    };
    (async () => {
      await step('courses', loadCourses);
      await step('stats', () => dispatch(getStatsData({ signal })));
      await step('payments', () => dispatch(getPaymentRecords({ signal })));
    })();
    return () => controller.abort();
  }, [dispatch, loadCourses]);

  const reloadCourses = useCallback(async () => {
    await loadCourses();
    setStatus((current) => ({ ...current, courses: 'ready' }));
  }, [loadCourses]);

  const show = (source: LoadStatus, value: string) =>
    source === 'ready' ? value : source === 'loading' ? (
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
      <h1 className="text-center text-3xl font-bold text-primary">{messages.adminDashboard}</h1>

      <section aria-label={texts.statistics} className="grid gap-6 lg:grid-cols-2">
        <div className="flex flex-col gap-4 rounded-box bg-base-100 p-4 shadow-md">
          {status.stats === 'failed' ? (
            <ChartUnavailable title={messages.userDetails} />
          ) : (
            <UsersPie allUsersCount={allUsersCount} subscribedCount={subscribedCount} />
          )}
          <dl className="grid grid-cols-1 gap-3 min-[26rem]:grid-cols-2">
            <StatCard label={messages.registeredUsers} value={show(status.stats, countFormat.format(allUsersCount))} />
            <StatCard label={messages.subscribedUsers} value={show(status.stats, countFormat.format(subscribedCount))} />
          </dl>
        </div>
        <div className="flex flex-col gap-4 rounded-box bg-base-100 p-4 shadow-md">
          {status.payments === 'failed' ? (
            <ChartUnavailable title={messages.salesPerMonth} />
          ) : (
            <SalesChart monthlySalesRecord={monthlySalesRecord} />
          )}
          <dl className="grid grid-cols-1 gap-3 min-[26rem]:grid-cols-2">
            <StatCard label={messages.subscriptionCount} value={show(status.payments, countFormat.format(subscriptionCount))} />
            {/* DESIGN §8: the real net revenue from the server, not the spec's count × 5. */}
            <StatCard label={messages.totalRevenue} value={show(status.payments, rupeeFormat.format(totalRevenue))} />
          </dl>
        </div>
      </section>

      <CoursesOverview courses={courses} total={coursesTotal} status={status.courses} reload={reloadCourses} />

      <ContactInbox />
    </div>
  );
}

function StatCard({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="flex flex-col gap-1 rounded-box bg-base-200 p-4">
      <dt className="text-sm font-medium text-base-content/80">{label}</dt>
      <dd className="text-2xl font-bold tabular-nums break-words">{value}</dd>
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
