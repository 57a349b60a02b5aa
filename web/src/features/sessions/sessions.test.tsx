import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import type { SignedInSession } from '@lms/contract/protection';
import { findToast, renderPage, sampleUser, storeLogin, stubApi } from '../../test/render';
import { sessionsTexts } from './sessions-texts';
import { SignedInDevices } from '.';

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000).toISOString();

const laptop: SignedInSession = {
  id: '7a0c5a38-5a0e-4c47-9f5e-1d1f3c0c7a01',
  browser: 'Chrome 131',
  os: 'Windows 10',
  deviceType: 'desktop',
  place: '203.0.113.0/24',
  // Midday UTC: the same calendar day in India, where the dates are shown.
  firstSeenAt: '2026-11-20T06:30:00.000Z',
  lastSeenAt: new Date().toISOString(),
  current: true,
};
const phone: SignedInSession = {
  id: '7a0c5a38-5a0e-4c47-9f5e-1d1f3c0c7a02',
  browser: 'Safari 18',
  os: 'iOS 18.1',
  deviceType: 'mobile',
  place: '2001:db8:85a3::/48',
  firstSeenAt: '2026-11-02T06:30:00.000Z',
  lastSeenAt: hoursAgo(3),
  current: false,
};
const tablet: SignedInSession = {
  ...phone,
  id: '7a0c5a38-5a0e-4c47-9f5e-1d1f3c0c7a03',
  browser: 'Chrome 130',
  os: 'Android 14',
  deviceType: 'tablet',
  lastSeenAt: hoursAgo(50),
};

const listed = (sessions: SignedInSession[]) => ({ body: { success: true, message: answers.sessionsFetched, sessions } });

function renderDevices() {
  storeLogin(sampleUser());
  return renderPage(<SignedInDevices />, { path: '/user/profile' });
}

describe('signed-in devices', () => {
  it('lists each device with its type, browser and system, place, sign-in date and last activity, this one marked', async () => {
    stubApi({ 'GET /api/v1/user/sessions': listed([laptop, phone, tablet]) });
    renderDevices();
    expect(screen.getByRole('heading', { level: 2, name: sessionsTexts.title })).toBeInTheDocument();
    const rows = await screen.findAllByRole('listitem');
    expect(rows).toHaveLength(3);
    const [here, there, tab] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(here).getByText('Chrome 131 on Windows 10')).toBeInTheDocument();
    expect(within(here).getByText(sessionsTexts.thisDevice)).toBeInTheDocument();
    expect(within(here).getByText('Computer')).toBeInTheDocument();
    expect(here).toHaveTextContent('203.0.113.0/24');
    expect(here).toHaveTextContent('Signed in 20 Nov 2026 · Active now');
    expect(within(here).queryByRole('button')).not.toBeInTheDocument();

    expect(within(there).getByText('Safari 18 on iOS 18.1')).toBeInTheDocument();
    expect(within(there).getByText('Phone')).toBeInTheDocument();
    expect(there).toHaveTextContent('2001:db8:85a3::/48');
    expect(there).toHaveTextContent('Active 3 hours ago');
    expect(within(there).queryByText(sessionsTexts.thisDevice)).not.toBeInTheDocument();
    expect(within(there).getByRole('button', { name: 'Sign out Safari 18 on iOS 18.1' })).toBeInTheDocument();

    expect(within(tab).getByText('Tablet')).toBeInTheDocument();
    expect(tab).toHaveTextContent('Active 2 days ago');
    expect(screen.getByRole('button', { name: sessionsTexts.signOutOthers })).toBeInTheDocument();
  });

  it('signs out one other device once confirmed, says so, and lists the devices again', async () => {
    let sessions = [laptop, phone, tablet];
    const calls = stubApi({
      'GET /api/v1/user/sessions': () => listed(sessions),
      [`DELETE /api/v1/user/sessions/${phone.id}`]: () => {
        sessions = [laptop, tablet];
        return { body: { success: true, message: answers.sessionSignedOut } };
      },
    });
    const { user } = renderDevices();
    await user.click(await screen.findByRole('button', { name: 'Sign out Safari 18 on iOS 18.1' }));
    const dialog = screen.getByRole('dialog', { name: sessionsTexts.confirmOneTitle });
    expect(dialog).toHaveTextContent('Safari 18 on iOS 18.1 (2001:db8:85a3::/48) will be signed out.');
    expect(calls.some((call) => call.init.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: sessionsTexts.signOut }));
    expect(await findToast(answers.sessionSignedOut)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Safari 18 on iOS 18.1')).not.toBeInTheDocument());
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.filter((call) => call.init.method === 'DELETE').map((call) => call.url)).toEqual([`/api/v1/user/sessions/${phone.id}`]);
  });

  it('asks nothing of the server when the confirmation is cancelled', async () => {
    const calls = stubApi({ 'GET /api/v1/user/sessions': listed([laptop, phone]) });
    const { user } = renderDevices();
    await user.click(await screen.findByRole('button', { name: 'Sign out Safari 18 on iOS 18.1' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: sessionsTexts.cancel }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.every((call) => (call.init.method ?? 'GET') === 'GET')).toBe(true);
    expect(screen.getByText('Safari 18 on iOS 18.1')).toBeInTheDocument();
  });

  it('signs out everywhere else once confirmed, with the server’s count in a toast, keeping this device', async () => {
    let sessions = [laptop, phone, tablet];
    const calls = stubApi({
      'GET /api/v1/user/sessions': () => listed(sessions),
      'POST /api/v1/user/sessions/sign-out-others': () => {
        sessions = [laptop];
        return { body: { success: true, message: answers.otherSessionsSignedOut(2), ended: 2 } };
      },
    });
    const { user } = renderDevices();
    await user.click(await screen.findByRole('button', { name: sessionsTexts.signOutOthers }));
    const dialog = screen.getByRole('dialog', { name: sessionsTexts.confirmOthersTitle });
    expect(dialog).toHaveTextContent(sessionsTexts.confirmOthers(2));
    await user.click(within(dialog).getByRole('button', { name: sessionsTexts.signOutOthers }));
    expect(await findToast(answers.otherSessionsSignedOut(2))).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1));
    expect(screen.getByText(sessionsTexts.onlyThis)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: sessionsTexts.signOutOthers })).not.toBeInTheDocument();
    expect(calls.filter((call) => call.init.method === 'POST').map((call) => call.url)).toEqual(['/api/v1/user/sessions/sign-out-others']);
  });

  it('shows the server’s refusal, and lists the devices again (one already signed out leaves the list)', async () => {
    let sessions = [laptop, phone];
    stubApi({
      'GET /api/v1/user/sessions': () => listed(sessions),
      [`DELETE /api/v1/user/sessions/${phone.id}`]: () => {
        sessions = [laptop];
        return { status: 404, body: { success: false, message: answers.notFound } };
      },
    });
    const { user } = renderDevices();
    await user.click(await screen.findByRole('button', { name: 'Sign out Safari 18 on iOS 18.1' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: sessionsTexts.signOut }));
    expect(await screen.findByText(answers.notFound)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Safari 18 on iOS 18.1')).not.toBeInTheDocument());
  });

  it('says when the devices cannot be loaded, and tries again', async () => {
    let fail = true;
    stubApi({ 'GET /api/v1/user/sessions': () => (fail ? { status: 500, body: { success: false, message: 'Internal error' } } : listed([laptop])) });
    const { user } = renderDevices();
    expect(await screen.findByRole('alert')).toHaveTextContent(sessionsTexts.loadFailed);
    fail = false;
    await user.click(screen.getByRole('button', { name: sessionsTexts.retry }));
    expect(await screen.findByText('Chrome 131 on Windows 10')).toBeInTheDocument();
  });
});
