import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answers } from '@lms/contract/answers';
import type { AccountSummary, TracedPlayback } from '@lms/contract/protection';
import { findToast, renderPage, sampleUser, stubApi, storeLogin } from '../../test/render';
import TracePage from './TracePage';
import { protectionTexts as texts } from './protection-texts';

const asha: AccountSummary = {
  _id: '10000000-0000-4000-8000-000000000001',
  fullName: 'Asha Verma',
  email: 'asha@example.com',
  role: 'USER',
  suspended: false,
  activeSessions: 2,
};
const ravi: AccountSummary = { ...asha, _id: '10000000-0000-4000-8000-000000000002', fullName: 'Ravi Kumar', email: 'ravi@example.com', activeSessions: 0 };

const playback = (overrides: Partial<TracedPlayback> = {}): TracedPlayback => ({
  code: '7K2M9QXD',
  account: asha,
  lecture: { _id: '20000000-0000-4000-8000-000000000001', title: 'Closures', courseId: '30000000-0000-4000-8000-000000000001', courseTitle: 'JavaScript' },
  startedAt: '2026-11-27T10:00:00.000Z',
  lastSeenAt: '2026-11-27T10:42:00.000Z',
  place: '203.0.113.0/24',
  device: 'Chrome on Windows',
  ...overrides,
});

const traceKey = (code: string) => `GET /api/v1/admin/trace?code=${code}`;
const found = (playbacks: TracedPlayback[]) => ({ body: { success: true, message: answers.traceFound(playbacks.length), playbacks } });

function open() {
  storeLogin(sampleUser({ _id: '90000000-0000-4000-8000-000000000009', role: 'ADMIN', fullName: 'Admin' }));
  return renderPage(<TracePage />, { path: '/admin/trace' });
}

afterEach(() => vi.restoreAllMocks());

describe('the leak trace', () => {
  it('traces a code as typed to the account, lecture, course, times, place and device, the part asked for marked', async () => {
    const calls = stubApi({
      [traceKey('9QXD')]: found([
        playback(),
        playback({ code: 'AB9QXD12', lecture: null, startedAt: '2026-11-26T08:00:00.000Z', lastSeenAt: '2026-11-26T08:30:00.000Z', device: 'Safari on iOS' }),
        playback({ code: 'ZZ9QXDZZ', account: ravi, place: 'Local network' }),
      ]),
    });
    const { user } = open();
    expect(screen.getByRole('heading', { level: 1, name: texts.traceTitle })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Leak trace · LMS'));

    // Lower case, sent as the server reads it.
    await user.type(screen.getByLabelText('Code'), '9qxd');
    await user.click(screen.getByRole('button', { name: 'Trace' }));

    expect(await screen.findByText(texts.found(3, 2))).toBeInTheDocument();
    expect(calls.map((call) => call.url)).toEqual(['/api/v1/admin/trace?code=9QXD']);

    const cards = screen.getAllByRole('article');
    expect(cards).toHaveLength(2);
    const first = cards[0]!;
    expect(within(first).getByRole('heading', { name: 'Asha Verma' })).toBeInTheDocument();
    expect(within(first).getByText('asha@example.com')).toBeInTheDocument();
    expect(within(first).getByText(texts.sessions(2))).toBeInTheDocument();
    const played = within(within(first).getByRole('list', { name: texts.playbacksOf('Asha Verma') })).getAllByRole('listitem');
    expect(played).toHaveLength(2);
    expect(within(played[0]!).getByRole('link', { name: 'Closures · JavaScript' })).toHaveAttribute(
      'href',
      '/course/lecture?id=30000000-0000-4000-8000-000000000001&lecture=20000000-0000-4000-8000-000000000001',
    );
    expect(played[0]).toHaveTextContent('7K2M-9QXD');
    expect(within(played[0]!).getByText('9QXD', { selector: 'mark' })).toBeInTheDocument();
    expect(played[0]).toHaveTextContent('27 Nov 2026');
    expect(played[0]).toHaveTextContent('4:12 pm');
    expect(played[0]).toHaveTextContent('203.0.113.0/24');
    expect(played[0]).toHaveTextContent('Chrome on Windows');
    expect(played[1]).toHaveTextContent(texts.lectureDeleted);
    expect(played[1]).toHaveTextContent('Safari on iOS');
    // Across the dash, as the video shows it.
    expect(within(played[1]!).getByText('9Q-XD', { selector: 'mark' })).toBeInTheDocument();

    const second = cards[1]!;
    expect(within(second).getByRole('heading', { name: 'Ravi Kumar' })).toBeInTheDocument();
    expect(second).toHaveTextContent('Local network');
    // Signed in nowhere: no session to end.
    expect(within(second).getByRole('button', { name: texts.endSessions })).toBeDisabled();
  });

  it('reads O as 0 and I or L as 1, and keeps the code in the address', async () => {
    const calls = stubApi({ [traceKey('7K2M9Q1D')]: found([playback({ code: '7K2M9Q1D' })]) });
    const { user, router } = open();
    await user.type(screen.getByLabelText('Code'), '7k2m-9qld');
    await user.click(screen.getByRole('button', { name: 'Trace' }));
    expect(await screen.findByText(texts.found(1, 1))).toBeInTheDocument();
    expect(calls[0]!.url).toBe('/api/v1/admin/trace?code=7K2M9Q1D');
    expect(router.state.location.search).toBe('?code=7K2M9Q1D');
  });

  it('says so when no playback has the code', async () => {
    stubApi({ [traceKey('ZZZZ')]: found([]) });
    const { user } = open();
    await user.type(screen.getByLabelText('Code'), 'zzzz');
    await user.click(screen.getByRole('button', { name: 'Trace' }));
    expect(await screen.findByText(texts.noPlayback('ZZZZ'))).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });

  it('asks for at least 4 characters before asking the server', async () => {
    const calls = stubApi({});
    const { user } = open();
    await user.type(screen.getByLabelText('Code'), '7k-2');
    await user.click(screen.getByRole('button', { name: 'Trace' }));
    expect(await findToast(answers.traceCodeShort)).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('ends an account’s sessions, and suspends and restores it, each once confirmed (a suspension with its reason), reading the trace again', async () => {
    let suspended = false;
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValue(true);
    const calls = stubApi({
      [traceKey('7K2M')]: () => found([playback({ account: { ...asha, suspended, activeSessions: suspended ? 0 : 2 } })]),
      [`DELETE /api/v1/admin/users/${asha._id}/sessions`]: { body: { success: true, message: answers.accountSessionsEnded(2), ended: 2 } },
      [`PUT /api/v1/admin/users/${asha._id}/suspension`]: (init) => {
        suspended = (JSON.parse(init.body as string) as { suspended: boolean }).suspended;
        return { body: { success: true, message: answers.suspensionSaved(suspended), account: { ...asha, suspended, activeSessions: 0 } } };
      },
    });
    const { user } = open();
    await user.type(screen.getByLabelText('Code'), '7K2M');
    await user.click(screen.getByRole('button', { name: 'Trace' }));
    const card = await screen.findByRole('article');

    // Cancelled: nothing is sent.
    await user.click(within(card).getByRole('button', { name: texts.endSessions }));
    expect(confirm).toHaveBeenLastCalledWith(texts.confirmEndSessions('Asha Verma', 'asha@example.com'));
    expect(calls.filter((call) => call.init.method === 'DELETE')).toEqual([]);

    await user.click(within(card).getByRole('button', { name: texts.endSessions }));
    expect(await findToast(answers.accountSessionsEnded(2))).toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: texts.suspend }));
    const asking = screen.getByRole('dialog', { name: texts.suspendTitle('Asha Verma') });
    expect(asking).toHaveTextContent(texts.confirmSuspend('Asha Verma', 'asha@example.com'));
    // The learner is mailed why: no reason, nothing sent.
    await user.click(within(asking).getByRole('button', { name: texts.suspend }));
    expect(within(asking).getByRole('alert')).toHaveTextContent(answers.suspensionReasonNeeded);
    expect(calls.filter((call) => call.init.method === 'PUT')).toEqual([]);
    await user.type(within(asking).getByLabelText(texts.reason), 'Sharing the account');
    await user.click(within(asking).getByRole('button', { name: texts.suspend }));
    expect(await findToast(answers.suspensionSaved(true))).toBeInTheDocument();
    expect(await within(card).findByText(texts.suspended)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: texts.restore }));
    const restoring = screen.getByRole('dialog', { name: texts.restoreTitle('Asha Verma') });
    expect(restoring).toHaveTextContent(texts.confirmRestore('Asha Verma', 'asha@example.com'));
    expect(within(restoring).queryByLabelText(texts.reason)).not.toBeInTheDocument();
    await user.click(within(restoring).getByRole('button', { name: texts.restore }));
    expect(await within(card).findByRole('button', { name: texts.suspend })).toBeInTheDocument();
    expect(within(card).queryByText(texts.suspended)).not.toBeInTheDocument();
    const bodies = calls.filter((call) => call.init.method === 'PUT').map((call) => JSON.parse(call.init.body as string) as unknown);
    expect(bodies).toEqual([{ suspended: true, reason: 'Sharing the account' }, { suspended: false }]);
    // Each action read the trace again.
    expect(calls.filter((call) => call.url.startsWith('/api/v1/admin/trace'))).toHaveLength(4);
  });

  it('offers no suspension of one’s own account', async () => {
    const me = { ...asha, _id: '90000000-0000-4000-8000-000000000009', role: 'ADMIN' as const };
    stubApi({ [traceKey('7K2M')]: found([playback({ account: me })]) });
    const { user } = open();
    await user.type(screen.getByLabelText('Code'), '7K2M');
    await user.click(screen.getByRole('button', { name: 'Trace' }));
    const card = await screen.findByRole('article');
    expect(within(card).getByText(texts.administrator)).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: texts.endSessions })).toBeEnabled();
    expect(within(card).queryByRole('button', { name: texts.suspend })).not.toBeInTheDocument();
  });
});
