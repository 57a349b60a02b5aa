import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answers } from '@lms/contract/answers';
import type { LearnerRow } from '@lms/contract/learners';
import { formatDate } from '../../lib/format';
import { renderPage, sampleUser, storeLogin, stubApi } from '../../test/render';
import LearnersPage from './LearnersPage';
import { learnersTexts as texts } from './learners-texts';

const row = (n: number, overrides: Partial<LearnerRow> = {}): LearnerRow => ({
  _id: `10000000-0000-4000-8000-00000000000${n}`,
  fullName: `Learner ${n}`,
  email: `learner${n}@example.com`,
  avatarUrl: '',
  role: 'USER',
  state: 'never_paid',
  plan: null,
  suspended: false,
  signedUpAt: '2026-11-01T10:00:00.000Z',
  lastActiveAt: null,
  lifetimePaid: 0,
  ...overrides,
});

const asha = row(1, {
  fullName: 'Asha Verma',
  email: 'asha@example.com',
  state: 'subscribed',
  plan: 'Monthly',
  lifetimePaid: 1499,
  signedUpAt: '2026-10-02T06:00:00.000Z',
  lastActiveAt: new Date(Date.now() - 3 * 3600_000).toISOString(),
});
const ravi = row(2, { fullName: 'Ravi Kumar', email: 'ravi@example.com', state: 'complimentary', suspended: true });
const sunil = row(3, { fullName: 'Sunil Rao', email: 'sunil@example.com', state: 'lapsed', plan: 'Yearly', lifetimePaid: 99.5 });

const listKey = (query: string) => `GET /api/v1/admin/learners?${query}`;
const listed = (learners: LearnerRow[], nextCursor: string | null = null) => ({
  body: { success: true, message: answers.learnersFetched, learners, nextCursor },
});

const admin = () => storeLogin(sampleUser({ _id: '90000000-0000-4000-8000-000000000009', role: 'ADMIN', fullName: 'LMS Admin' }));

function open() {
  admin();
  return renderPage(<LearnersPage />, { path: '/admin/learners' });
}

/** Arriving at the list by a link that carries a search (a reload, Back). */
async function openAt(address: string) {
  admin();
  const view = renderPage(<p>Elsewhere</p>, { path: '/', routes: [{ path: '/admin/learners', element: <LearnersPage /> }] });
  await act(() => view.router.navigate(address));
  return view;
}

const table = () => screen.findByRole('table', { name: texts.listLabel });
const rowOf = async (name: string) => (await within(await table()).findByRole('rowheader', { name: new RegExp(name) })).closest('tr')!;
const listCalls = (calls: { url: string }[]) => calls.filter((call) => call.url.startsWith('/api/v1/admin/learners')).map((call) => call.url);
const day = (iso: string) => formatDate(iso)!.replace(/\u00a0/g, ' ');

afterEach(() => vi.restoreAllMocks());

describe('the learners page', () => {
  it('lists each learner with state, plan, sign-up, last active and lifetime paid, linked to their page', async () => {
    const calls = stubApi({ [listKey('sort=signed_up&limit=50')]: listed([asha, ravi, sunil]) });
    open();
    expect(screen.getByRole('heading', { level: 1, name: texts.title })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Learners · LMS'));

    const first = await rowOf('Asha Verma');
    expect(first).toHaveTextContent('asha@example.com');
    expect(first).toHaveTextContent('Subscribed');
    expect(first).toHaveTextContent('Monthly');
    expect(first).toHaveTextContent(day(asha.signedUpAt));
    expect(first).toHaveTextContent('3 hours ago');
    expect(within(first).getByText('3 hours ago')).toHaveAttribute('title', formatDate(asha.lastActiveAt!));
    expect(first).toHaveTextContent('₹1,499');
    expect(within(first).getByRole('link', { name: texts.open('Asha Verma') })).toHaveAttribute('href', `/admin/learner?id=${asha._id}`);

    const second = await rowOf('Ravi Kumar');
    expect(second).toHaveTextContent('Complimentary');
    expect(second).toHaveTextContent(texts.suspended);
    expect(second).toHaveTextContent(texts.never);
    expect(await rowOf('Sunil Rao')).toHaveTextContent('₹99.50');

    // The phone's cards: the same learners, each card a link.
    const cards = within(screen.getByRole('list', { name: texts.listLabel })).getAllByRole('listitem');
    expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual(['Asha Verma', 'Ravi Kumar', 'Sunil Rao']);
    expect(within(cards[1]!).getByRole('link')).toHaveAttribute('href', `/admin/learner?id=${ravi._id}`);

    expect(screen.getByText(texts.shown(3))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: texts.loadMore })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: texts.exportCsv })).toHaveAttribute('href', '/api/v1/admin/learners/export');
    expect(listCalls(calls)).toEqual(['/api/v1/admin/learners?sort=signed_up&limit=50']);
  });

  it('sends the search once typing pauses, with the state and order, keeps them in the address, and exports the same', async () => {
    const calls = stubApi({
      [listKey('sort=signed_up&limit=50')]: listed([asha, ravi, sunil]),
      [listKey('q=ravi&sort=signed_up&limit=50')]: listed([ravi]),
      [listKey('q=ravi&state=complimentary&sort=signed_up&limit=50')]: listed([ravi]),
      [listKey('q=ravi&state=complimentary&sort=last_active&limit=50')]: listed([ravi]),
    });
    const { user, router } = open();
    await rowOf('Asha Verma');

    const search = screen.getByRole('searchbox', { name: texts.search });
    await user.type(search, 'ravi');
    await waitFor(() => expect(router.state.location.search).toBe('?q=ravi'));
    await waitFor(() => expect(screen.queryByRole('rowheader', { name: /Asha Verma/ })).not.toBeInTheDocument());
    // One request for the word, none for each letter.
    expect(listCalls(calls)).toEqual(['/api/v1/admin/learners?sort=signed_up&limit=50', '/api/v1/admin/learners?q=ravi&sort=signed_up&limit=50']);

    await user.selectOptions(screen.getByLabelText(texts.state), 'Complimentary');
    await waitFor(() => expect(router.state.location.search).toBe('?q=ravi&state=complimentary'));
    await user.selectOptions(screen.getByLabelText(texts.sort), texts.sorts.last_active);
    await waitFor(() => expect(router.state.location.search).toBe('?q=ravi&state=complimentary&sort=last_active'));
    await waitFor(() => expect(listCalls(calls).at(-1)).toBe('/api/v1/admin/learners?q=ravi&state=complimentary&sort=last_active&limit=50'));
    expect(await rowOf('Ravi Kumar')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: texts.exportCsv })).toHaveAttribute('href', '/api/v1/admin/learners/export?q=ravi&state=complimentary');
  });

  it('reads the search and filters from the address on arrival', async () => {
    const calls = stubApi({ [listKey('q=sunil&state=lapsed&sort=last_active&limit=50')]: listed([sunil]) });
    await openAt('/admin/learners?q=sunil&state=lapsed&sort=last_active');
    expect(await rowOf('Sunil Rao')).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: texts.search })).toHaveValue('sunil');
    expect(screen.getByLabelText(texts.state)).toHaveValue('lapsed');
    expect(screen.getByLabelText(texts.sort)).toHaveValue('last_active');
    expect(listCalls(calls)).toEqual(['/api/v1/admin/learners?q=sunil&state=lapsed&sort=last_active&limit=50']);
  });

  it('loads the next page by its cursor below the first, until there is none', async () => {
    const calls = stubApi({
      [listKey('sort=signed_up&limit=50')]: listed([asha, ravi], 'c2'),
      [listKey('sort=signed_up&cursor=c2&limit=50')]: listed([sunil]),
    });
    const { user } = open();
    await rowOf('Ravi Kumar');
    expect(screen.queryByRole('rowheader', { name: /Sunil Rao/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: texts.loadMore }));
    expect(await rowOf('Sunil Rao')).toBeInTheDocument();
    const links = within(await table()).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('aria-label'))).toEqual(['Asha Verma', 'Ravi Kumar', 'Sunil Rao'].map(texts.open));
    expect(screen.getByText(texts.shown(3))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: texts.loadMore })).not.toBeInTheDocument();
    expect(listCalls(calls)).toEqual(['/api/v1/admin/learners?sort=signed_up&limit=50', '/api/v1/admin/learners?sort=signed_up&cursor=c2&limit=50']);
  });

  it('says when there are no learners yet, and when none match', async () => {
    stubApi({ [listKey('sort=signed_up&limit=50')]: listed([]), [listKey('q=zzz&sort=signed_up&limit=50')]: listed([]) });
    const { user, router } = open();
    expect(await screen.findByRole('heading', { name: texts.empty })).toBeInTheDocument();

    await user.type(screen.getByRole('searchbox', { name: texts.search }), 'zzz');
    expect(await screen.findByRole('heading', { name: texts.noMatch })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: texts.clearFilters }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByRole('heading', { name: texts.empty })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: texts.search })).toHaveValue('');
  });
});
