import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answers } from '@lms/contract/answers';
import type { LearnerDetail } from '@lms/contract/learners';
import { formatDate } from '../../lib/format';
import { renderPage, sampleUser, storeLogin, stubApi } from '../../test/render';
import LearnerPage from './LearnerPage';
import { learnersTexts as texts } from './learners-texts';

const id = '10000000-0000-4000-8000-000000000001';
const courseId = '30000000-0000-4000-8000-000000000001';
const day = (iso: string) => formatDate(iso)!.replace(/\u00a0/g, ' ');
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();

const detail = (overrides: Partial<LearnerDetail> = {}): LearnerDetail => ({
  profile: {
    _id: id,
    fullName: 'Asha Verma',
    email: 'asha@example.com',
    avatarUrl: '/media/avatars/asha.png',
    role: 'USER',
    signedUpAt: '2026-10-02T06:00:00.000Z',
    lastActiveAt: new Date(Date.now() - 2 * 86_400_000).toISOString(),
    pendingEmail: null,
    suspendedAt: null,
    suspensionReason: null,
    certificateName: null,
  },
  state: 'subscribed',
  access: { until: '2026-12-02T06:00:00.000Z', source: 'subscription' },
  grants: [],
  subscriptions: [
    {
      _id: '50000000-0000-4000-8000-000000000001',
      plan: 'Monthly',
      status: 'active',
      createdAt: '2026-10-02T06:00:00.000Z',
      currentEnd: '2026-12-02T06:00:00.000Z',
      cancelledAt: null,
      trialDays: 0,
      paidCount: 2,
      coupon: null,
    },
  ],
  payments: [
    {
      _id: '60000000-0000-4000-8000-000000000002',
      paidAt: '2026-11-02T06:00:00.000Z',
      description: 'Monthly plan, November',
      amount: 499,
      refunded: 200,
      status: 'partly_refunded',
      invoice: { id: '70000000-0000-4000-8000-000000000002', number: 'LMS/26-27/000002', ready: true },
      creditNotes: [{ id: '70000000-0000-4000-8000-000000000003', number: 'CN/26-27/000001', ready: true }],
      refunds: [
        {
          _id: '80000000-0000-4000-8000-000000000001',
          amount: 200,
          state: 'processed',
          failure: null,
          note: 'Goodwill for the outage',
          access: 'period_end',
          by: 'LMS Admin',
          createdAt: '2026-11-10T06:00:00.000Z',
        },
        {
          _id: '80000000-0000-4000-8000-000000000002',
          amount: 299,
          state: 'failed',
          failure: 'The refund amount exceeds what remains',
          note: 'Rest of it',
          access: 'now',
          by: 'LMS Admin',
          createdAt: '2026-11-11T06:00:00.000Z',
        },
      ],
    },
    {
      _id: '60000000-0000-4000-8000-000000000001',
      paidAt: '2026-10-02T06:00:00.000Z',
      description: 'Monthly plan, October',
      amount: 499,
      refunded: 0,
      status: 'paid',
      invoice: { id: '70000000-0000-4000-8000-000000000001', number: 'LMS/26-27/000001', ready: false },
      creditNotes: [],
      refunds: [],
    },
  ],
  progress: [
    {
      courseId,
      title: 'JavaScript',
      startedAt: '2026-10-03T06:00:00.000Z',
      lastWatchedAt: new Date(Date.now() - 3600_000).toISOString(),
      completedLectures: 3,
      lectureCount: 4,
      percent: 75,
      completed: false,
    },
    {
      courseId: '30000000-0000-4000-8000-000000000002',
      title: 'Python for everyone',
      startedAt: '2026-10-05T06:00:00.000Z',
      lastWatchedAt: '2026-11-01T06:00:00.000Z',
      completedLectures: 6,
      lectureCount: 6,
      percent: 100,
      completed: true,
    },
  ],
  sessions: [
    {
      id: '90000000-0000-4000-8000-000000000001',
      browser: 'Chrome 131',
      os: 'Windows 10',
      deviceType: 'desktop',
      place: '203.0.113.0/24',
      firstSeenAt: '2026-11-01T06:00:00.000Z',
      lastSeenAt: new Date(Date.now() - 600_000).toISOString(),
      current: false,
    },
  ],
  quizzes: [
    {
      quizId: 'a0000000-0000-4000-8000-000000000001',
      quizTitle: 'Closures',
      courseId,
      courseTitle: 'JavaScript',
      attempts: 3,
      bestScore: 80,
      passed: true,
    },
    {
      quizId: 'a0000000-0000-4000-8000-000000000002',
      quizTitle: 'Promises',
      courseId,
      courseTitle: 'JavaScript',
      attempts: 1,
      bestScore: null,
      passed: false,
    },
  ],
  certificates: [{ code: '7K2M9QXD4F8H2J1A', courseTitle: 'Python for everyone', issuedAt: '2026-11-01T07:00:00.000Z', revokedAt: null }],
  cancellations: [],
  activity: [
    {
      _id: '12',
      at: '2026-11-10T06:00:00.000Z',
      actor: { _id: '90000000-0000-4000-8000-000000000009', name: 'LMS Admin', email: 'admin@example.com' },
      action: 'learners.refund',
      area: 'money',
      target: { type: 'payment', _id: '60000000-0000-4000-8000-000000000002', label: 'Asha Verma' },
      reason: 'Goodwill for the outage',
      summary: '₹200 of ₹499, access to the period’s end',
    },
  ],
  ...overrides,
});

const getKey = `GET /api/v1/admin/learners/${id}`;
const answered = (learner: LearnerDetail) => ({ body: { success: true, message: answers.learnerFetched, learner } });

async function openAt(address: string) {
  storeLogin(sampleUser({ _id: '90000000-0000-4000-8000-000000000009', role: 'ADMIN', fullName: 'LMS Admin' }));
  const view = renderPage(<p>Elsewhere</p>, { path: '/', routes: [{ path: '/admin/learner', element: <LearnerPage /> }] });
  await act(() => view.router.navigate(address));
  return view;
}
const open = () => openAt(`/admin/learner?id=${id}`);
const section = (name: string) => screen.getByRole('region', { name });

afterEach(() => vi.restoreAllMocks());

describe('a learner’s page', () => {
  it('shows who they are, their state and paid access, with their name as the title', async () => {
    stubApi({ [getKey]: answered(detail()) });
    await open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Asha Verma' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Asha Verma · LMS'));
    const header = screen.getByRole('banner');
    expect(header).toHaveTextContent('asha@example.com');
    expect(header).toHaveTextContent('Subscribed');
    expect(header).toHaveTextContent(`Subscribed until ${day('2026-12-02T06:00:00.000Z')}`);
    expect(header).toHaveTextContent(day('2026-10-02T06:00:00.000Z'));
    expect(header).toHaveTextContent('2 days ago');
    expect(header).not.toHaveTextContent(texts.suspended);
  });

  it('says complimentary access, no access, a suspension with its reason and an email waiting for confirmation', async () => {
    const complimentary = detail({ state: 'complimentary', access: { until: inDays(30), source: 'complimentary' }, subscriptions: [], payments: [] });
    stubApi({ [getKey]: answered(complimentary) });
    const view = await open();
    expect(await screen.findByText(`Complimentary until ${day(inDays(30))}`)).toBeInTheDocument();
    view.unmount();

    const suspended = detail({
      state: 'lapsed',
      access: null,
      profile: {
        ...detail().profile,
        suspendedAt: '2026-11-20T06:00:00.000Z',
        suspensionReason: 'Shared the account with a class',
        pendingEmail: 'asha.verma@example.org',
      },
    });
    stubApi({ [getKey]: answered(suspended) });
    await open();
    expect(await screen.findByText(texts.noAccess)).toBeInTheDocument();
    const header = screen.getByRole('banner');
    expect(header).toHaveTextContent('Lapsed');
    expect(header).toHaveTextContent(texts.suspended);
    expect(header).toHaveTextContent(texts.suspendedSince(day('2026-11-20T06:00:00.000Z')));
    expect(header).toHaveTextContent('Why: Shared the account with a class');
    expect(header).toHaveTextContent(texts.pendingEmail('asha.verma@example.org'));
  });

  it('lists payments with what was refunded, their invoice and credit notes to download, and the refunds under them', async () => {
    stubApi({ [getKey]: answered(detail()) });
    await open();
    const payments = await screen.findByRole('table', { name: texts.payments });
    const november = within(payments).getByText('Monthly plan, November').closest('tbody')!;
    expect(november).toHaveTextContent('₹499');
    expect(november).toHaveTextContent('₹200');
    expect(november).toHaveTextContent('Partly refunded');
    expect(within(november).getByRole('link', { name: 'Download invoice LMS/26-27/000002' })).toHaveAttribute(
      'href',
      '/api/v1/billing/documents/70000000-0000-4000-8000-000000000002/pdf',
    );
    expect(within(november).getByRole('link', { name: 'Download credit note CN/26-27/000001' })).toHaveAttribute(
      'href',
      '/api/v1/billing/documents/70000000-0000-4000-8000-000000000003/pdf',
    );
    expect(november).toHaveTextContent(`₹200 on ${day('2026-11-10T06:00:00.000Z')} by LMS Admin`);
    expect(november).toHaveTextContent('Goodwill for the outage');
    expect(november).toHaveTextContent('Refused');
    expect(november).toHaveTextContent('Provider said: The refund amount exceeds what remains');

    // The October invoice is still being made: no link yet.
    const october = within(payments).getByText('Monthly plan, October').closest('tbody')!;
    expect(october).toHaveTextContent('Paid');
    expect(october).toHaveTextContent('LMS/26-27/000001 · being made');
    expect(within(october).queryByRole('link')).not.toBeInTheDocument();
  });

  it('shows progress bars per course, quiz results, certificates, sessions, subscriptions and the activity', async () => {
    stubApi({ [getKey]: answered(detail()) });
    await open();
    await screen.findByRole('heading', { level: 1, name: 'Asha Verma' });

    const javascript = screen.getByRole('progressbar', { name: texts.progressOf('JavaScript') });
    expect(javascript).toHaveAttribute('value', '75');
    const progress = section(texts.progress);
    expect(progress).toHaveTextContent('75%');
    expect(progress).toHaveTextContent('3 of 4 lectures');
    expect(progress).toHaveTextContent(`Started ${day('2026-10-03T06:00:00.000Z')}`);
    expect(screen.getByRole('progressbar', { name: texts.progressOf('Python for everyone') })).toHaveAttribute('value', '100');
    expect(within(progress).getByText('Python for everyone').closest('li')).toHaveTextContent(texts.completed);
    expect(within(progress).getByText('JavaScript').closest('li')).not.toHaveTextContent(texts.completed);

    const quizzes = section(texts.quizzes);
    const closures = within(quizzes).getByText('Closures').closest('li')!;
    expect(closures).toHaveTextContent('3');
    expect(closures).toHaveTextContent('80%');
    expect(closures).toHaveTextContent(texts.passed);
    expect(within(quizzes).getByText('Promises').closest('li')).toHaveTextContent(texts.notPassed);

    expect(within(section(texts.certificates)).getByRole('link', { name: '7K2M-9QXD-4F8H-2J1A' })).toHaveAttribute('href', '/certificates/7K2M9QXD4F8H2J1A');
    expect(section(texts.sessions)).toHaveTextContent('Chrome 131 on Windows 10');
    expect(section(texts.sessions)).toHaveTextContent('203.0.113.0/24');
    expect(section(texts.subscriptions)).toHaveTextContent('Monthly');
    expect(section(texts.subscriptions)).toHaveTextContent('2 payments');

    const activity = section(texts.activity);
    expect(activity).toHaveTextContent('Refunded payment');
    expect(activity).toHaveTextContent('₹200 of ₹499');
    expect(activity).toHaveTextContent('LMS Admin');
    expect(within(activity).getByRole('link', { name: texts.allActivity })).toHaveAttribute('href', `/admin/activity?targetId=${id}`);

    // Nothing there: a short line, not a missing section.
    expect(section(texts.access)).toHaveTextContent(texts.noGrants);
    expect(section(texts.cancellations)).toHaveTextContent(texts.noCancellations);
  });

  it('shows complimentary grants and cancellations with their reasons', async () => {
    stubApi({
      [getKey]: answered(
        detail({
          grants: [
            {
              _id: 'b0000000-0000-4000-8000-000000000001',
              startsAt: '2026-11-01T06:00:00.000Z',
              endsAt: '2026-12-01T06:00:00.000Z',
              note: 'Scholarship',
              grantedBy: 'LMS Admin',
              revokedAt: '2026-11-05T06:00:00.000Z',
              revokedBy: 'Meera Iyer',
              state: 'revoked',
            },
          ],
          cancellations: [
            { at: '2026-09-01T06:00:00.000Z', reason: 'too_expensive', note: 'Student budget', refunded: true, accessUntil: '2026-09-01T06:00:00.000Z' },
          ],
        }),
      ),
    });
    await open();
    await screen.findByRole('heading', { level: 1, name: 'Asha Verma' });
    const access = section(texts.access);
    expect(access).toHaveTextContent('Scholarship');
    expect(access).toHaveTextContent('Granted by LMS Admin');
    expect(access).toHaveTextContent(`Revoked ${day('2026-11-05T06:00:00.000Z')} by Meera Iyer`);
    const cancellations = section(texts.cancellations);
    expect(cancellations).toHaveTextContent('It costs too much');
    expect(cancellations).toHaveTextContent('Student budget');
    expect(cancellations).toHaveTextContent(texts.withRefund);
  });

  it('says there is no such learner for an unknown id, and for an address without one', async () => {
    stubApi({ [getKey]: { status: 404, body: { success: false, message: answers.notFound } } });
    const view = await open();
    expect(await screen.findByRole('heading', { level: 1, name: texts.notFound })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`${texts.notFound} · LMS`));
    expect(screen.getByRole('link', { name: texts.backToLearners })).toHaveAttribute('href', '/admin/learners');
    view.unmount();

    const calls = stubApi({});
    await openAt('/admin/learner?id=nonsense');
    expect(await screen.findByRole('heading', { level: 1, name: texts.notFound })).toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});
