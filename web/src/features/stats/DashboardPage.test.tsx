import { act, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Course } from '@lms/contract/courses';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { CANCEL_REASONS } from '@lms/contract/payments';
import { renderPage, stubApi } from '../../test/render';
import DashboardPage from './DashboardPage';
import { texts as cancellationTexts } from './CancellationReasons';
import { texts as revenueTexts } from './Revenue';
import { texts as engagementTexts } from './Engagement';
import { texts as mrrTexts } from './MrrByPlan';

// chart.js draws on a canvas, which jsdom lacks: the charts become their inputs as text, their colours as attributes.
vi.mock('react-chartjs-2', () => {
  type Props = {
    data: { labels: string[]; datasets: { label: string; data: number[]; backgroundColor?: unknown }[] };
    options?: { plugins?: { legend?: { display?: boolean; labels?: { color?: string } } }; scales?: Record<string, { ticks?: { color?: string } }> };
    role?: string;
    'aria-label'?: string;
  };
  const fake = (kind: string) =>
    function FakeChart({ data, options, role, 'aria-label': label }: Props) {
      const legend = options?.plugins?.legend;
      const texts = [legend?.display === false ? undefined : legend?.labels?.color, ...Object.values(options?.scales ?? {}).map((scale) => scale.ticks?.color)];
      return (
        <div
          data-testid={kind}
          role={role}
          aria-label={label}
          data-series-colours={JSON.stringify(data.datasets.map((set) => set.backgroundColor))}
          data-text-colours={JSON.stringify(texts.filter(Boolean))}
        >
          <p>labels: {data.labels.join(', ')}</p>
          {data.datasets.map((set) => (
            <p key={set.label}>
              {set.label}: {set.data.join(', ')}
            </p>
          ))}
        </div>
      );
    };
  return { Pie: fake('pie'), Bar: fake('bar') };
});

const course = (n: number, title: string): Course => ({
  _id: `00000000-0000-4000-8000-00000000000${n}`,
  title,
  description: `All about ${title}`,
  category: `Category ${n}`,
  createdBy: `Instructor ${n}`,
  thumbnail: { secure_url: `/media/${n}.png` },
  numbersOfLectures: n * 3,
  totalDuration: null,
  state: 'published',
  publishAt: null,
});
const react = course(1, 'React basics');
const sql = course(2, 'SQL in depth');
const sales = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8];

const COURSES = 'GET /api/v1/courses?limit=100';
const STATS = 'GET /api/v1/admin/status/users';
const PAYMENTS = 'GET /api/v1/payments?count=100';
const INBOX = 'GET /api/v1/contact?limit=20';
const ENGAGEMENT = 'GET /api/v1/admin/engagement';
const CANCELLATIONS = 'GET /api/v1/admin/cancellations';
const SHARING_RISK = 'GET /api/v1/admin/sharing-risk';
/** The spec's Sales / Month chart, among the dashboard's charts. */
const isSalesChart = (name: string) => name.startsWith(messages.salesPerMonth);
const REVENUE = 'GET /api/v1/admin/revenue';
const revenueMonths = Array.from({ length: 12 }, (_, index) => {
  const month = new Date(Date.UTC(2025, 11 + index, 1)).toISOString().slice(0, 7);
  return { month, newSubscribers: index === 11 ? 7 : index, cancellations: index === 11 ? 2 : 0 };
});
const failure = { status: 500, body: { success: false } };

const coursesAnswer = (courses: Course[]) => ({ body: { success: true, message: 'All courses', courses, total: courses.length, page: 1, limit: 100 } });
const inboxAnswer = (items: { _id: string; name: string; email: string; message: string; createdAt: string }[]) => ({
  body: { success: true, message: 'Contact messages', messages: items, total: items.length, page: 1, limit: 20 },
});

function dashboardAnswers(overrides: Parameters<typeof stubApi>[0] = {}) {
  return {
    [COURSES]: coursesAnswer([react, sql]),
    [STATS]: { body: { success: true, message: 'User statistics', allUsersCount: 42, subscribedUsersCount: 17 } },
    [PAYMENTS]: {
      body: {
        success: true,
        message: 'Payment records',
        allPayments: [],
        finalMonths: {},
        monthlySalesRecord: sales,
        subscriptionCount: 52,
        totalRevenue: 123456,
      },
    },
    [ENGAGEMENT]: {
      body: {
        success: true,
        message: 'Engagement fetched',
        activeLearnersThisWeek: 1234,
        churnRisk: {
          total: 31,
          learners: [
            {
              _id: '00000000-0000-4000-8000-000000000031',
              fullName: 'Ravi Idle',
              email: 'ravi@example.com',
              renewsAt: '2026-12-23T06:00:00.000Z',
              lastWatchedAt: null,
            },
          ],
        },
        courses: [
          { courseId: react._id, title: react.title, lectureCount: 8, started: 40, completed: 10, averageCompletion: 37.5 },
          { courseId: sql._id, title: sql.title, lectureCount: 3, started: 0, completed: 0, averageCompletion: 0 },
        ],
      },
    },
    [REVENUE]: {
      body: {
        success: true,
        message: 'Revenue fetched',
        month: '2026-11',
        mrr: 29700,
        plans: [
          { id: '50000000-0000-4000-8000-000000000002', name: 'Yearly, two months free', interval: 'yearly', archived: false, subscribers: 100, mrr: 19800 },
          { id: '50000000-0000-4000-8000-000000000001', name: 'Monthly', interval: 'monthly', archived: false, subscribers: 99, mrr: 9801 },
          { id: '50000000-0000-4000-8000-000000000003', name: 'Founders’ price', interval: 'monthly', archived: true, subscribers: 1, mrr: 99 },
          { id: '50000000-0000-4000-8000-000000000004', name: 'Quarterly test', interval: 'monthly', archived: false, subscribers: 0, mrr: 0 },
        ],
        activeSubscribers: 320,
        renewingSubscribers: 300,
        newSubscribers: 7,
        cancellations: 2,
        activeAtMonthStart: 250,
        churnRate: 0.8,
        refunds: { count: 1, amount: 99 },
        grossRevenue: 31680,
        netRevenue: 31581,
        months: revenueMonths,
        payments: [
          {
            id: 'p1',
            date: '2026-11-20T06:00:00.000Z',
            fullName: 'Asha Paid',
            email: 'asha@example.com',
            amount: 99,
            status: 'refunded',
            invoice: { id: '40000000-0000-4000-8000-000000000001', number: 'LMS/26-27/000042', ready: true },
            creditNote: { id: '40000000-0000-4000-8000-000000000002', number: 'CN/26-27/000003', ready: false },
          },
        ],
      },
    },
    [CANCELLATIONS]: {
      body: {
        success: true,
        message: 'Cancellation reasons fetched',
        total: 5,
        reasons: [
          { reason: 'too_expensive', count: 3 },
          { reason: null, count: 2 },
        ],
        latest: [
          {
            date: '2026-11-20T06:00:00.000Z',
            fullName: 'Meera Quit',
            email: 'meera@example.com',
            reason: 'too_expensive',
            note: 'Half the price and I would stay.',
            refunded: false,
          },
        ],
      },
    },
    [SHARING_RISK]: { body: { success: true, message: 'Sharing risk', windowHours: 24, addressBlocks: 4, refusals: 10, accounts: [] } },
    [INBOX]: inboxAnswer([
      { _id: 'm1', name: 'Asha Rao', email: 'asha@example.com', message: 'When is the next batch?', createdAt: '2025-03-04T05:06:07.000Z' },
    ]),
    ...overrides,
  };
}

const key = (call: { url: string; init: RequestInit }) => `${call.init.method ?? 'GET'} ${call.url}`;
/** The value shown on the stat card named `label`. */
const card = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling as HTMLElement;
const renderDashboard = () => renderPage(<DashboardPage />, { path: '/admin/dashboard' });

afterEach(() => {
  vi.restoreAllMocks();
  document.documentElement.removeAttribute('style');
  document.documentElement.removeAttribute('data-theme');
});

/** The daisyUI theme's variables on the page, as its stylesheet would set them. */
function setTheme(colours: Record<string, string>) {
  for (const [name, value] of Object.entries(colours)) document.documentElement.style.setProperty(name, value);
}
const colours = (chart: HTMLElement, kind: 'series' | 'text') => JSON.parse(chart.getAttribute(`data-${kind}-colours`)!) as unknown;

describe('admin dashboard', () => {
  it('shows the title (its tab too) and the four cards with the numbers from the server, revenue in rupees', async () => {
    document.title = '';
    stubApi(dashboardAnswers());
    renderDashboard();
    expect(screen.getByRole('heading', { level: 1, name: messages.adminDashboard })).toBeInTheDocument();
    expect(document.title).toBe('Admin Dashboard · LMS');
    await waitFor(() => expect(card(messages.totalRevenue)).toHaveTextContent('₹1,23,456'));
    expect(card(messages.registeredUsers)).toHaveTextContent(/^42$/);
    expect(card(messages.subscribedUsers)).toHaveTextContent(/^17$/);
    expect(card(messages.subscriptionCount)).toHaveTextContent(/^52$/);
    // What the two subscription figures count, so that they are read together (a refund leaves both).
    expect(card(messages.subscribedUsers).nextElementSibling).toHaveTextContent('With access now, free trials included');
    expect(card(messages.subscriptionCount).nextElementSibling).toHaveTextContent('Months and years paid, less refunds');
  });

  it('feeds the pie with the registered and enrolled users, and says so in words', async () => {
    stubApi(dashboardAnswers());
    renderDashboard();
    await waitFor(() => expect(card(messages.registeredUsers)).toHaveTextContent('42'));
    const pie = screen.getByTestId('pie');
    expect(pie).toHaveTextContent(`labels: ${messages.registeredUser}, ${messages.enrolledUser}`);
    expect(pie).toHaveTextContent(`${messages.userDetails}: 42, 17`);
    expect(screen.getByRole('img', { name: `${messages.userDetails}: ${messages.registeredUser} 42, ${messages.enrolledUser} 17` })).toBe(pie);
  });

  it('feeds the bar chart with Jan to Dec and the monthly sales, with a table of the same numbers', async () => {
    stubApi(dashboardAnswers());
    renderDashboard();
    await waitFor(() => expect(card(messages.subscriptionCount)).toHaveTextContent('52'));
    const bar = screen.getByRole('img', { name: isSalesChart });
    expect(bar).toHaveTextContent('labels: Jan, Feb, Mar, Apr, May, Jun, Jul, Aug, Sep, Oct, Nov, Dec');
    expect(bar).toHaveTextContent(`${messages.salesPerMonth}: ${sales.join(', ')}`);
    expect(bar).toHaveAccessibleName(`${messages.salesPerMonth}, Jan to Dec: 52 in all, most in Jun (9)`);
    const table = screen.getByRole('table', { name: messages.salesPerMonth });
    expect(within(table).getByRole('row', { name: 'Jun 9' })).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(13);
  });

  it("draws both charts in the theme's brand colours with labels in its text colour, and redraws them when the colour scheme changes", async () => {
    // The system's dark preference, which daisyUI follows, as a query that can change.
    const scheme = Object.assign(new EventTarget(), { matches: false, media: '(prefers-color-scheme: dark)' });
    vi.spyOn(window, 'matchMedia').mockImplementation(() => scheme as unknown as MediaQueryList);
    setTheme({
      '--color-primary': 'oklch(45% 0.24 277.023)',
      '--color-secondary': 'oklch(62.8% 0.2577 29.23)',
      '--color-base-100': '#ffffff',
      '--color-base-content': 'oklch(0% 0 0)',
    });
    stubApi(dashboardAnswers());
    renderDashboard();
    await waitFor(() => expect(card(messages.subscriptionCount)).toHaveTextContent('52'));
    const pie = screen.getByTestId('pie');
    const bar = screen.getByRole('img', { name: isSalesChart });
    expect(colours(pie, 'series')).toEqual([['rgba(66, 42, 213, 1)', 'rgba(255, 0, 0, 1)']]);
    expect(colours(pie, 'text')).toEqual(['rgba(0, 0, 0, 1)']);
    expect(colours(bar, 'series')).toEqual(['rgba(66, 42, 213, 1)']);
    expect(colours(bar, 'text')).toEqual(['rgba(0, 0, 0, 0.8)', 'rgba(0, 0, 0, 0.8)']);

    // Dark: a lighter primary, light text.
    setTheme({ '--color-primary': 'oklch(100% 0 0)', '--color-base-content': 'oklch(100% 0 0)' });
    act(() => {
      scheme.matches = true;
      scheme.dispatchEvent(new Event('change'));
    });
    expect(colours(screen.getByTestId('pie'), 'series')).toEqual([['rgba(255, 255, 255, 1)', 'rgba(255, 0, 0, 1)']]);
    expect(colours(screen.getByTestId('pie'), 'text')).toEqual(['rgba(255, 255, 255, 1)']);
    expect(colours(screen.getByRole('img', { name: isSalesChart }), 'text')).toEqual(['rgba(255, 255, 255, 0.8)', 'rgba(255, 255, 255, 0.8)']);

    // A theme set on the page itself counts too.
    setTheme({ '--color-primary': 'oklch(0% 0 0)' });
    document.documentElement.setAttribute('data-theme', 'light');
    await waitFor(() => expect(colours(screen.getByRole('img', { name: isSalesChart }), 'series')).toEqual(['rgba(0, 0, 0, 1)']));
  });

  it("holds the charts' places while their numbers load, then draws them", async () => {
    stubApi(dashboardAnswers());
    const stubbed = globalThis.fetch;
    let releaseStats!: () => void;
    const statsHeld = new Promise<void>((resolve) => (releaseStats = resolve));
    globalThis.fetch = (async (url: string, init: RequestInit = {}) => {
      if (url.endsWith('/admin/status/users')) await statsHeld;
      return stubbed(url, init);
    }) as typeof fetch;
    renderDashboard();
    expect(await screen.findAllByRole('status', { name: messages.chartLoading })).toHaveLength(2);
    expect(screen.queryByTestId('pie')).not.toBeInTheDocument();
    expect(screen.queryByRole('table', { name: messages.salesPerMonth })).not.toBeInTheDocument();
    releaseStats();
    expect(await screen.findByTestId('bar')).toBeInTheDocument();
    expect(screen.getByTestId('pie')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: messages.chartLoading })).not.toBeInTheDocument();
  });

  it('says there are no users yet where the pie of two zeros would draw nothing', async () => {
    stubApi(dashboardAnswers({ [STATS]: { body: { success: true, message: 'User statistics', allUsersCount: 0, subscribedUsersCount: 0 } } }));
    renderDashboard();
    expect(await screen.findByText(messages.noUsersYet)).toBeInTheDocument();
    expect(screen.queryByTestId('pie')).not.toBeInTheDocument();
    expect(card(messages.registeredUsers)).toHaveTextContent(/^0$/);
  });

  it('keeps the row actions quiet: only Delete is red', async () => {
    stubApi(dashboardAnswers());
    renderDashboard();
    const row = (await screen.findByRole('rowheader', { name: /^React basics/ })).closest('tr')!;
    const actions = within(row).getAllByRole('button');
    expect(actions.map((button) => button.getAttribute('aria-label'))).toEqual(['Manage lectures of React basics', 'Edit React basics', 'Delete React basics']);
    expect(actions.map((button) => /\bbtn-(error|success|warning|primary|secondary|accent|info)\b/.exec(button.className)?.[1] ?? 'quiet')).toEqual([
      'quiet',
      'quiet',
      'error',
    ]);
  });

  it('marks each course as published, a draft or scheduled, with the subscribers watching it', async () => {
    const draft = { ...course(3, 'Draft ideas'), state: 'draft' as const };
    const scheduled = { ...course(4, 'Coming soon'), state: 'scheduled' as const, publishAt: '2026-12-01T04:30:00.000Z' };
    const watched = { ...react, subscribersWatching: 2 };
    stubApi(dashboardAnswers({ [COURSES]: coursesAnswer([draft, scheduled, watched]) }));
    renderDashboard();
    const table = screen.getByRole('table', { name: messages.coursesOverview });
    expect(await within(table).findByRole('rowheader', { name: 'Draft ideas Draft' })).toBeInTheDocument();
    expect(within(table).getByRole('rowheader', { name: /^Coming soon Scheduled · 1 Dec 2026/ })).toBeInTheDocument();
    expect(within(table).getByRole('rowheader', { name: 'React basics Published 2 subscribers watching' })).toBeInTheDocument();
  });

  it('lists the courses under seven columns, four of them hidden on small screens', async () => {
    stubApi(dashboardAnswers());
    renderDashboard();
    expect(screen.getByRole('heading', { name: messages.coursesOverview })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: messages.createNewCourse })).toHaveAttribute('href', '/course/create');
    const table = screen.getByRole('table', { name: messages.coursesOverview });
    await within(table).findByRole('rowheader', { name: /^React basics/ });
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual([
      'S No',
      'Course Title',
      'Course Category',
      'Instructor',
      'Total Lectures',
      'Description',
      'Actions',
    ]);
    expect(headers.filter((header) => header.classList.contains('hidden')).map((header) => header.textContent)).toEqual([
      'Course Category',
      'Instructor',
      'Total Lectures',
      'Description',
    ]);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['2', 'Category 2', 'Instructor 2', '6', 'All about SQL in depth', '']);
  });

  it('loads courses, then user statistics, then payment records, each after the one before has answered', async () => {
    const calls = stubApi(dashboardAnswers());
    const stubbed = globalThis.fetch;
    let releaseStats!: () => void;
    const statsHeld = new Promise<void>((resolve) => (releaseStats = resolve));
    const started: string[] = [];
    globalThis.fetch = (async (url: string, init: RequestInit = {}) => {
      started.push(key({ url, init }));
      if (url.endsWith('/admin/status/users')) await statsHeld;
      return stubbed(url, init);
    }) as typeof fetch;

    renderDashboard();
    await waitFor(() => expect(started).toContain(STATS));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(started).not.toContain(PAYMENTS);
    releaseStats();
    await waitFor(() => expect(card(messages.subscriptionCount)).toHaveTextContent('52'));
    await waitFor(() =>
      expect(calls.map(key).filter((call) => call !== INBOX)).toEqual([COURSES, STATS, PAYMENTS, REVENUE, ENGAGEMENT, CANCELLATIONS, SHARING_RISK]),
    );
  });

  it('shows learner engagement after the payment records: active learners, each started course as a bar, and who stopped watching', async () => {
    stubApi(dashboardAnswers());
    renderDashboard();
    const section = await screen.findByRole('region', { name: 'Learner engagement' });
    await waitFor(() => expect(within(section).getByText(engagementTexts.activeLearnersThisWeek).nextElementSibling).toHaveTextContent('1,234'));
    expect(within(section).getByText(engagementTexts.churnRisk, { selector: 'dt' }).nextElementSibling).toHaveTextContent('31');
    expect(within(section).getByRole('progressbar', { name: `${react.title}: ${engagementTexts.averageCompletion} 37.5 %` })).toHaveAttribute('value', '37.5');
    expect(within(section).getByText('40 started · 10 completed')).toBeInTheDocument();
    // A course nobody started has no bar.
    expect(within(section).queryByRole('progressbar', { name: new RegExp(sql.title) })).not.toBeInTheDocument();
    const table = within(section).getByRole('table', { name: engagementTexts.churnRisk });
    expect(within(table).getByText('Ravi Idle')).toBeInTheDocument();
    expect(within(table).getByText('23 Dec 2026')).toBeInTheDocument();
    expect(within(table).getByText(engagementTexts.neverWatched)).toBeInTheDocument();
    expect(within(section).getByText(engagementTexts.churnRiskMore(1, 31))).toBeInTheDocument();
  });

  it('shows the revenue figures after the payment records: MRR, churn, refunds, net; new vs cancelled by month; the latest payments with their documents', async () => {
    stubApi(dashboardAnswers());
    renderDashboard();
    const section = await screen.findByRole('region', { name: revenueTexts.heading });
    const figure = (label: string) => within(section).getByText(label, { selector: 'dt' }).nextElementSibling;
    await waitFor(() => expect(figure(revenueTexts.mrr)).toHaveTextContent('₹29,700'));
    expect(within(section).getByText(revenueTexts.mrrHint(300))).toBeInTheDocument();
    expect(figure(revenueTexts.active)).toHaveTextContent('320');
    expect(figure(revenueTexts.newThisMonth)).toHaveTextContent('7');
    expect(figure(revenueTexts.cancelledThisMonth)).toHaveTextContent('2');
    expect(figure(revenueTexts.churn)).toHaveTextContent('0.8 %');
    expect(figure(revenueTexts.refunds)).toHaveTextContent('₹99');
    expect(figure(revenueTexts.net)).toHaveTextContent('₹31,581');
    expect(within(section).getByText(revenueTexts.netHint('₹31,680'))).toBeInTheDocument();

    const chart = within(section).getByRole('img', { name: `${revenueTexts.chart}: 62 new, 2 cancelled` });
    expect(chart).toBeInTheDocument();
    const table = within(section).getByRole('table', { name: revenueTexts.chart });
    expect(within(table).getAllByRole('row')).toHaveLength(13);
    expect(within(table).getByRole('rowheader', { name: 'Nov ’26' }).parentElement).toHaveTextContent('Nov ’2672');

    const latest = within(section).getByRole('table', { name: revenueTexts.payments });
    expect(within(latest).getByText('Asha Paid')).toBeInTheDocument();
    expect(within(latest).getByRole('link', { name: 'LMS/26-27/000042' })).toHaveAttribute(
      'href',
      '/api/v1/billing/documents/40000000-0000-4000-8000-000000000001/pdf',
    );
    expect(within(latest).getByText(`CN/26-27/000003 · ${revenueTexts.preparing}`)).toBeInTheDocument();
    expect(within(latest).getByText(revenueTexts.refunded)).toBeInTheDocument();
  });

  it('shows each plan’s part of the MRR as a bar with its amount and subscribers, largest first, and leads to the plans and coupons', async () => {
    stubApi(dashboardAnswers());
    const { user, router } = renderDashboard();
    const section = await screen.findByRole('region', { name: revenueTexts.heading });
    const figure = await within(section).findByRole('figure', { name: mrrTexts.heading });
    const bars = within(figure).getAllByRole('progressbar');
    expect(bars.map((bar) => bar.getAttribute('aria-label'))).toEqual([
      'Yearly, two months free: ₹19,800 a month from 100 subscribers, 67 % of MRR',
      'Monthly: ₹9,801 a month from 99 subscribers, 33 % of MRR',
      'Founders’ price: ₹99 a month from 1 subscriber, 0 % of MRR',
      'Quarterly test: ₹0 a month from 0 subscribers, 0 % of MRR',
    ]);
    expect(bars[0]).toHaveAttribute('value', '19800');
    expect(bars[0]).toHaveAttribute('max', '29700');
    const yearly = bars[0]!.closest('li')!;
    expect(within(yearly).getByText('Yearly, two months free')).toBeInTheDocument();
    expect(within(yearly).getByText(mrrTexts.yearly)).toBeInTheDocument();
    expect(yearly).toHaveTextContent('₹19,800');
    expect(yearly).toHaveTextContent('100 subscribers');
    expect(within(bars[2]!.closest('li')!).getByText(`${mrrTexts.monthly} · ${mrrTexts.archived}`)).toBeInTheDocument();
    expect(within(figure).queryByText(mrrTexts.none)).not.toBeInTheDocument();

    const links = within(section).getByRole('navigation', { name: revenueTexts.manage });
    expect(within(links).getByRole('link', { name: revenueTexts.coupons })).toHaveAttribute('href', '/admin/coupons');
    await user.click(within(links).getByRole('link', { name: revenueTexts.plans }));
    expect(router.state.location.pathname).toBe('/admin/plans');
  });

  it('says so when no plan has a renewing subscriber', async () => {
    const base = dashboardAnswers()[REVENUE] as { body: Record<string, unknown> };
    stubApi(
      dashboardAnswers({
        [REVENUE]: {
          body: {
            ...base.body,
            mrr: 0,
            plans: [{ id: '50000000-0000-4000-8000-000000000001', name: 'Monthly', interval: 'monthly', archived: false, subscribers: 0, mrr: 0 }],
          },
        },
      }),
    );
    renderDashboard();
    const section = await screen.findByRole('region', { name: revenueTexts.heading });
    expect(await within(section).findByText(mrrTexts.none)).toBeInTheDocument();
    expect(within(section).getByRole('progressbar', { name: 'Monthly: ₹0 a month from 0 subscribers, 0 % of MRR' })).toHaveAttribute('value', '0');
  });

  it('offers the accountant’s CSVs for a range of days, the financial year so far to begin with', async () => {
    stubApi(dashboardAnswers());
    const { user } = renderDashboard();
    const section = await screen.findByRole('region', { name: revenueTexts.heading });
    const payments = await within(section).findByRole('link', { name: revenueTexts.exportPayments });
    const from = within(section).getByLabelText(revenueTexts.from) as HTMLInputElement;
    const to = within(section).getByLabelText(revenueTexts.to) as HTMLInputElement;
    expect(from.value).toMatch(/^\d{4}-04-01$/);
    expect(payments).toHaveAttribute('href', `/api/v1/admin/revenue/export?kind=payments&from=${from.value}&to=${to.value}`);
    await user.clear(from);
    await user.type(from, '2026-11-01');
    await user.clear(to);
    await user.type(to, '2026-11-30');
    expect(within(section).getByRole('link', { name: revenueTexts.exportDocuments })).toHaveAttribute(
      'href',
      '/api/v1/admin/revenue/export?kind=documents&from=2026-11-01&to=2026-11-30',
    );
  });

  it('shows why subscribers cancel after engagement: each reason as a bar, most given first, and the latest in their words', async () => {
    stubApi(dashboardAnswers());
    renderDashboard();
    const section = await screen.findByRole('region', { name: cancellationTexts.heading });
    const bar = await within(section).findByRole('progressbar', { name: `${CANCEL_REASONS.too_expensive}: 3 of 5` });
    expect(bar).toHaveAttribute('value', '3');
    expect(bar).toHaveAttribute('max', '5');
    expect(within(section).getByRole('progressbar', { name: `${cancellationTexts.skipped}: 2 of 5` })).toBeInTheDocument();
    const latest = within(section).getByRole('list', { name: cancellationTexts.latest });
    expect(within(latest).getByText('Meera Quit')).toBeInTheDocument();
    expect(within(latest).getByText('Half the price and I would stay.')).toBeInTheDocument();
    expect(within(latest).getByText(cancellationTexts.keptAccess)).toBeInTheDocument();
    expect(within(latest).getByText('20 Nov 2026')).toBeInTheDocument();
  });

  it('says so when nobody cancelled lately', async () => {
    stubApi(dashboardAnswers({ [CANCELLATIONS]: { body: { success: true, message: 'ok', total: 0, reasons: [], latest: [] } } }));
    renderDashboard();
    expect(await screen.findByText(cancellationTexts.none)).toBeInTheDocument();
  });

  it('deletes a course after confirmation, then reloads the list', async () => {
    let courseLists = 0;
    const calls = stubApi(
      dashboardAnswers({
        [COURSES]: () => coursesAnswer(++courseLists === 1 ? [react, sql] : [sql]),
        [`DELETE /api/v1/courses/${react._id}`]: { body: { success: true, message: answers.courseDeleted } },
      }),
    );
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { user } = renderDashboard();
    await waitFor(() => expect(card(messages.subscriptionCount)).toHaveTextContent('52'));
    // Our sections load one after the other after the spec's: all of them, before counting what follows.
    await waitFor(() => expect(calls.map(key)).toContain(SHARING_RISK));
    const before = calls.length;

    await user.click(screen.getByRole('button', { name: 'Delete React basics' }));
    expect(confirm).toHaveBeenCalledWith(messages.confirmDeleteCourse);
    await waitFor(() => expect(screen.queryByRole('rowheader', { name: /^React basics/ })).not.toBeInTheDocument());
    expect(calls.slice(before).map(key)).toEqual([`DELETE /api/v1/courses/${react._id}`, COURSES]);
    expect(screen.getByRole('rowheader', { name: /^SQL in depth/ })).toBeInTheDocument();
    expect(await screen.findByText(answers.courseDeleted)).toBeInTheDocument();
  });

  it('sends nothing when the deletion is not confirmed', async () => {
    const calls = stubApi(dashboardAnswers());
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { user } = renderDashboard();
    await waitFor(() => expect(card(messages.subscriptionCount)).toHaveTextContent('52'));
    // Our sections load one after the other after the spec's: all of them, before counting what follows.
    await waitFor(() => expect(calls.map(key)).toContain(SHARING_RISK));
    const before = calls.length;

    await user.click(screen.getByRole('button', { name: 'Delete React basics' }));
    expect(confirm).toHaveBeenCalledWith(messages.confirmDeleteCourse);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toHaveLength(before);
    expect(screen.getByRole('rowheader', { name: /^React basics/ })).toBeInTheDocument();
  });

  it('shows the spec fallback when a deletion fails, and keeps the list', async () => {
    const calls = stubApi(dashboardAnswers({ [`DELETE /api/v1/courses/${react._id}`]: failure }));
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { user } = renderDashboard();
    await waitFor(() => expect(card(messages.subscriptionCount)).toHaveTextContent('52'));
    // Our sections load one after the other after the spec's: all of them, before counting what follows.
    await waitFor(() => expect(calls.map(key)).toContain(SHARING_RISK));
    const before = calls.length;

    await user.click(screen.getByRole('button', { name: 'Delete React basics' }));
    expect(await screen.findByText(messages.failedDeleteCourses)).toBeInTheDocument();
    expect(calls.slice(before).map(key)).toEqual([`DELETE /api/v1/courses/${react._id}`]);
    expect(screen.getByRole('rowheader', { name: /^React basics/ })).toBeInTheDocument();
  });

  it.each([
    ['Manage lectures of SQL in depth', '/course/lecture'],
    ['Edit SQL in depth', '/course/edit'],
  ])('"%s" goes to %s with the course', async (name, pathname) => {
    stubApi(dashboardAnswers());
    const { user, router } = renderDashboard();
    await user.click(await screen.findByRole('button', { name }));
    expect(await screen.findByTestId('location')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(pathname);
    expect(router.state.location.search).toBe(`?id=${sql._id}`);
    expect(router.state.location.state).toEqual(sql);
  });

  it('shows the sharing-risk card once the rest has loaded, and links to the leak trace', async () => {
    stubApi(dashboardAnswers());
    renderDashboard();
    const risk = screen.getByRole('region', { name: 'Sharing risk' });
    expect(await within(risk).findByText('Nothing looks shared in the last 24 hours.')).toBeInTheDocument();
    const traces = screen.getAllByRole('link', { name: /Leak trace|Trace a leaked clip/ });
    expect(traces.map((link) => link.getAttribute('href'))).toEqual(['/admin/trace', '/admin/trace']);
  });

  it('links to the certificates issued', async () => {
    stubApi(dashboardAnswers());
    renderDashboard();
    expect(screen.getByRole('link', { name: 'Certificates' })).toHaveAttribute('href', '/admin/certificates');
  });

  it('lists the newest contact messages with a mail link', async () => {
    stubApi(dashboardAnswers());
    renderDashboard();
    const inbox = screen.getByRole('region', { name: 'Messages' });
    const item = (await within(inbox).findByRole('heading', { name: 'Asha Rao' })).closest('article')!;
    expect(within(item).getByRole('link', { name: 'asha@example.com' })).toHaveAttribute('href', 'mailto:asha@example.com');
    expect(item).toHaveTextContent('When is the next batch?');
    expect(item.querySelector('time')).toHaveAttribute('datetime', '2025-03-04T05:06:07.000Z');
    expect(item.querySelector('time')).toHaveTextContent('2025');
  });

  it('says so when the inbox is empty', async () => {
    stubApi(dashboardAnswers({ [INBOX]: inboxAnswer([]) }));
    renderDashboard();
    expect(await screen.findByText(/No messages yet/)).toBeInTheDocument();
  });

  it('shows the spec fallbacks when the statistics and payment records fail, and still loads each in turn', async () => {
    const calls = stubApi(dashboardAnswers({ [STATS]: failure, [PAYMENTS]: failure }));
    const shown = vi.spyOn(toast, 'error');
    renderDashboard();
    // Each failure is said as it comes; the newer takes the older's place (one error toast at a time).
    expect(await screen.findByText(messages.failedPaymentRecord)).toBeInTheDocument();
    expect(shown.mock.calls.map(([text]) => text)).toEqual([messages.failedLoadStats, messages.failedPaymentRecord]);
    await waitFor(() =>
      expect(calls.map(key).filter((call) => call !== INBOX)).toEqual([COURSES, STATS, PAYMENTS, REVENUE, ENGAGEMENT, CANCELLATIONS, SHARING_RISK]),
    );
    // The toast comes from the API client as the answer arrives; the cards follow once the cache has it.
    await waitFor(() => expect(card(messages.totalRevenue)).toHaveTextContent('—'));
    expect(card(messages.registeredUsers)).toHaveTextContent('—');
    expect(screen.queryByTestId('pie')).not.toBeInTheDocument();
    expect(screen.queryByRole('img', { name: isSalesChart })).not.toBeInTheDocument();
  });

  it('shows the spec fallback when the courses fail, then goes on to the statistics', async () => {
    const calls = stubApi(dashboardAnswers({ [COURSES]: failure }));
    renderDashboard();
    expect(await screen.findByText(messages.failedGetCourses)).toBeInTheDocument();
    await waitFor(() => expect(card(messages.subscriptionCount)).toHaveTextContent('52'));
    await waitFor(() =>
      expect(calls.map(key).filter((call) => call !== INBOX)).toEqual([COURSES, STATS, PAYMENTS, REVENUE, ENGAGEMENT, CANCELLATIONS, SHARING_RISK]),
    );
    expect(screen.getByText('The courses could not be loaded.')).toBeInTheDocument();
  });
});
