import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answers } from '@lms/contract/answers';
import type { AuditEntry } from '@lms/contract/audit';
import { renderPage, sampleUser, storeLogin, stubApi } from '../../test/render';
import ActivityPage from './ActivityPage';
import { activityTexts as texts } from './activity-texts';

const asha = { _id: '10000000-0000-4000-8000-000000000001', name: 'Asha Admin', email: 'asha@example.com' };
const ravi = { _id: '10000000-0000-4000-8000-000000000002', name: 'Ravi Kumar', email: 'ravi@example.com' };
const learnerId = '20000000-0000-4000-8000-000000000001';

const entry = (n: number, overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  _id: String(n),
  at: '2026-11-20T10:00:00.000Z',
  actor: asha,
  action: 'courses.update',
  area: 'content',
  target: { type: 'course', _id: '30000000-0000-4000-8000-000000000001', label: 'Typography' },
  reason: null,
  summary: 'Edited course: Typography',
  ...overrides,
});

const grant = entry(12, {
  action: 'learners.grantAccess',
  area: 'people',
  target: { type: 'user', _id: learnerId, label: 'Neha Singh' },
  reason: 'Scholarship',
  summary: '30 days, until 20 Dec 2026',
});
const plan = entry(11, {
  actor: ravi,
  action: 'plans.create',
  area: 'money',
  target: { type: 'plan', _id: null, label: 'Yearly' },
  summary: 'Created plan: Yearly',
});
const expiry = entry(10, {
  actor: null,
  action: 'access.expire',
  area: 'people',
  target: { type: 'user', _id: learnerId, label: 'Neha Singh' },
  summary: 'Ended',
});
const older = entry(9);

const key = (query: string) => `GET /api/v1/admin/activity?${query}`;
const page = (entries: AuditEntry[], nextCursor: string | null = null) => ({
  body: { success: true, message: answers.activityFetched, entries, nextCursor, actors: [asha, ravi] },
});

function open() {
  storeLogin(sampleUser({ _id: asha._id, role: 'ADMIN', fullName: asha.name }));
  return renderPage(<ActivityPage />, { path: '/admin/activity' });
}

const table = () => screen.findByRole('table', { name: texts.listLabel });
const rowOf = async (action: string) => (await within(await table()).findAllByRole('rowheader', { name: new RegExp(action) }))[0]!.closest('tr')!;
const requested = (calls: { url: string }[]) => calls.map((call) => call.url).filter((url) => url.startsWith('/api/v1/admin/activity'));

afterEach(() => vi.restoreAllMocks());

describe('the Activity page', () => {
  it('lists who did what, when, to what and why, newest first, in a table and a stacked list', async () => {
    stubApi({ [key('limit=50')]: page([grant, plan, expiry]) });
    open();
    expect(screen.getByRole('heading', { level: 1, name: texts.title })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Activity · LMS'));

    const granted = await rowOf('Granted complimentary access');
    expect(granted).toHaveTextContent('Asha Admin');
    expect(granted).toHaveTextContent('asha@example.com');
    expect(granted).toHaveTextContent('People');
    expect(granted).toHaveTextContent('Neha Singh');
    expect(granted).toHaveTextContent('Scholarship');
    expect(granted).toHaveTextContent('30 days, until 20 Dec 2026');
    expect(granted).toHaveTextContent('20 Nov 2026, 15:30');
    expect(await rowOf('Created plan')).toHaveTextContent('Money');
    expect(await rowOf('Complimentary access ended')).toHaveTextContent(texts.queue);

    const cards = within(screen.getByRole('list', { name: texts.listLabel })).getAllByRole('listitem');
    expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual([
      'Granted complimentary access',
      'Created plan',
      'Complimentary access ended',
    ]);
    expect(screen.queryByRole('button', { name: texts.loadMore })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: texts.exportCsv })).toHaveAttribute('href', '/api/v1/admin/activity/export');
  });

  it('asks for what the filters say, keeps them in the address, and exports the same', async () => {
    const calls = stubApi({
      [key('limit=50')]: page([grant, plan, expiry]),
      [key('area=money&limit=50')]: page([plan]),
      [key('area=money&action=plans.create&limit=50')]: page([plan]),
      [key(`area=money&action=plans.create&actorId=${ravi._id}&limit=50`)]: page([plan]),
      [key(`area=money&action=plans.create&actorId=${ravi._id}&from=2026-11-01&limit=50`)]: page([]),
    });
    const { user, router } = open();
    await rowOf('Granted complimentary access');

    await user.selectOptions(screen.getByLabelText(texts.area), 'Money');
    await waitFor(() => expect(within(screen.getByRole('table', { name: texts.listLabel })).queryByText('Neha Singh')).not.toBeInTheDocument());
    // The actions offered are the area's, under its name.
    const actions = screen.getByLabelText(texts.action);
    expect(
      within(actions)
        .getAllByRole('group')
        .map((group) => group.getAttribute('label')),
    ).toEqual(['Money']);
    expect(within(actions).queryByRole('option', { name: 'Created course' })).not.toBeInTheDocument();

    await user.selectOptions(actions, 'Created plan');
    await user.selectOptions(screen.getByLabelText(texts.administrator), 'Ravi Kumar (ravi@example.com)');
    await user.type(screen.getByLabelText(texts.from), '2026-11-01');

    expect(await screen.findByRole('heading', { name: texts.emptyFiltered })).toBeInTheDocument();
    expect(requested(calls)).toEqual([
      '/api/v1/admin/activity?limit=50',
      '/api/v1/admin/activity?area=money&limit=50',
      '/api/v1/admin/activity?area=money&action=plans.create&limit=50',
      `/api/v1/admin/activity?area=money&action=plans.create&actorId=${ravi._id}&limit=50`,
      `/api/v1/admin/activity?area=money&action=plans.create&actorId=${ravi._id}&from=2026-11-01&limit=50`,
    ]);
    expect(router.state.location.search).toBe(`?area=money&action=plans.create&actorId=${ravi._id}&from=2026-11-01`);
    expect(screen.getByRole('link', { name: texts.exportCsv })).toHaveAttribute(
      'href',
      `/api/v1/admin/activity/export?area=money&action=plans.create&actorId=${ravi._id}&from=2026-11-01`,
    );

    // Clearing the filters asks for everything again.
    await user.click(screen.getByRole('button', { name: texts.clear }));
    await rowOf('Granted complimentary access');
    expect(router.state.location.search).toBe('');
  });

  it('shows one target’s activity when a link names it', async () => {
    const calls = stubApi({ [key(`targetId=${learnerId}&limit=50`)]: page([grant, expiry]), [key('limit=50')]: page([grant, plan, expiry]) });
    const { user, router } = open();
    await rowOf('Created plan');
    // As the learner's page links here.
    await act(() => router.navigate(`/admin/activity?targetId=${learnerId}`));
    await waitFor(() => expect(within(screen.getByRole('table', { name: texts.listLabel })).queryByText('Created plan')).not.toBeInTheDocument());
    expect(screen.getByText(texts.targetOnly)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: texts.exportCsv })).toHaveAttribute('href', `/api/v1/admin/activity/export?targetId=${learnerId}`);
    await user.click(screen.getByRole('button', { name: texts.clearTarget }));
    await rowOf('Created plan');
    expect(requested(calls)).toEqual(['/api/v1/admin/activity?limit=50', `/api/v1/admin/activity?targetId=${learnerId}&limit=50`]);
  });

  it('loads the entries before the last shown, and stops when there are no more', async () => {
    const calls = stubApi({ [key('limit=50')]: page([grant, plan, expiry], '10'), [key('cursor=10&limit=50')]: page([older]) });
    const { user } = open();
    await rowOf('Granted complimentary access');
    expect(screen.getByText(texts.shown(3))).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: texts.loadMore }));
    expect(await screen.findByText(texts.shown(4))).toBeInTheDocument();
    expect(within(await table()).getAllByRole('row')).toHaveLength(5);
    expect(screen.queryByRole('button', { name: texts.loadMore })).not.toBeInTheDocument();
    expect(requested(calls)).toEqual(['/api/v1/admin/activity?limit=50', '/api/v1/admin/activity?cursor=10&limit=50']);
  });

  it('says so when nothing has been done yet', async () => {
    stubApi({ [key('limit=50')]: page([]) });
    open();
    expect(await screen.findByRole('heading', { name: texts.empty })).toBeInTheDocument();
    expect(screen.getByText(texts.emptyHint)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
