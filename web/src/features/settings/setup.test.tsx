import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'react-hot-toast';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answers } from '@lms/contract/answers';
import { DEFAULT_PROTECTION } from '@lms/contract/protection';
import { messages } from '@lms/contract/messages';
import type { Settings, SettingsUpdate } from '@lms/contract/settings';
import { DEFAULT_SITE } from '@lms/contract/site';
import type { User } from '@lms/contract/users';
import { routes } from '../../app/router';
import { createStore } from '../../app/store';
import { setSite } from '../../lib/site';
import { memoryRouter, sampleUser, storeLogin, stubApi } from '../../test/render';
import { settingsTexts as texts } from './settings-texts';

// chart.js draws on a canvas, which jsdom lacks.
vi.mock('react-chartjs-2', () => ({ Pie: () => null, Bar: () => null }));

const admin: User = sampleUser({ fullName: 'LMS Admin', email: 'admin@lms.local', role: 'ADMIN' });
const lockedAdmin: User = { ...admin, mustChangePassword: true };
const me = (user: User) => ({ body: { success: true, message: answers.userDetailsFetched, user } });
const fresh: Settings = {
  site: DEFAULT_SITE,
  seller: { legalName: '', gstin: '', stateCode: '29' },
  fromEnvironment: { legalName: false, gstin: false, stateCode: false },
  templates: ['terms', 'privacy', 'refund-policy'],
  protection: { ...DEFAULT_PROTECTION, fromEnvironment: { maxStreams: false, maxDevices: false } },
};
const dashboardCalls = {
  'GET /api/v1/courses?limit=100': { body: { success: true, message: '', courses: [] } },
  'GET /api/v1/admin/status/users': { body: { success: true, message: '', allUsersCount: 0, subscribedUsersCount: 0 } },
  'GET /api/v1/payments?count=100': { body: { success: true, message: '', allPayments: [], finalMonths: {}, monthlySalesRecord: Array(12).fill(0) } },
  'GET /api/v1/contact': { body: { success: true, message: '', messages: [] } },
};

function renderApp(path: string, user: User) {
  storeLogin(user);
  const store = createStore();
  const { routed, router } = memoryRouter(routes, path);
  render(
    <Provider store={store}>
      {routed}
      <Toaster />
    </Provider>,
  );
  return { store, router, user: userEvent.setup() };
}

afterEach(() => setSite(DEFAULT_SITE));

describe('the first administrator’s setup', () => {
  it('follows the forced password change: steps saved or skipped, then Finish lands on the dashboard', async () => {
    let changed = false;
    let current = fresh;
    const patches: SettingsUpdate[] = [];
    stubApi({
      'GET /api/v1/user/me': () => me(changed ? admin : lockedAdmin),
      'POST /api/v1/user/change-password': () => {
        changed = true;
        return { body: { success: true, message: answers.passwordChanged } };
      },
      'GET /api/v1/settings': () => ({ body: { success: true, message: '', settings: current } }),
      'PATCH /api/v1/settings': (init) => {
        const change = JSON.parse(init.body as string) as SettingsUpdate;
        patches.push(change);
        current = { ...current, site: { ...current.site, ...(change as Partial<Settings['site']>) } };
        return { body: { success: true, message: answers.settingsSaved, settings: current } };
      },
      ...dashboardCalls,
    });
    const { router, user } = renderApp('/changepassword', lockedAdmin);
    await user.type(await screen.findByLabelText(messages.choosePasswordCurrent), 'Handed#over12');
    await user.type(screen.getByLabelText('New password'), 'Mine#2026x');
    await user.click(screen.getByRole('button', { name: messages.choosePasswordSubmit }));

    expect(await screen.findByRole('heading', { level: 1, name: texts.setupTitle })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/setup');
    const steps = screen.getByRole('navigation', { name: texts.setupTitle });
    expect(within(steps).getByText('Name')).toHaveAttribute('aria-current', 'step');

    // 1. Name, saved.
    const name = await screen.findByLabelText(texts.name);
    await user.clear(name);
    await user.type(name, 'Asha Academy');
    await user.click(screen.getByRole('button', { name: texts.saveAndContinue }));
    // 2. Logo, skipped.
    expect(await screen.findByRole('heading', { level: 2, name: texts.logoTitle })).toBeInTheDocument();
    expect(within(steps).getByText('Logo')).toHaveAttribute('aria-current', 'step');
    expect(screen.getByText(texts.stepOf(2, 4), { selector: 'span' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: texts.skip }));
    // 3. Colour, skipped.
    expect(await screen.findByRole('heading', { level: 2, name: texts.brandTitle })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: texts.skip }));
    // 4. Contact, saved with Finish.
    expect(await screen.findByRole('heading', { level: 2, name: texts.contactTitle })).toBeInTheDocument();
    await user.type(screen.getByLabelText(texts.email), 'hello@asha.in');
    await user.click(screen.getByRole('button', { name: texts.finish }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/dashboard'));
    expect(await screen.findByRole('heading', { level: 1, name: messages.adminDashboard })).toBeInTheDocument();
    expect(patches).toEqual([{ name: 'Asha Academy', shortName: 'LMS' }, { contact: { email: 'hello@asha.in', phone: '', address: '' } }]);
  });

  it('may be skipped to the end without saving anything', async () => {
    const calls = stubApi({
      'GET /api/v1/user/me': me(admin),
      'GET /api/v1/settings': { body: { success: true, message: '', settings: fresh } },
      ...dashboardCalls,
    });
    const { router, user } = renderApp('/admin/setup', admin);
    await screen.findByLabelText(texts.name);
    for (const step of [texts.logoTitle, texts.brandTitle, texts.contactTitle]) {
      await user.click(screen.getByRole('button', { name: texts.skip }));
      expect(await screen.findByRole('heading', { level: 2, name: step })).toBeInTheDocument();
    }
    await user.click(screen.getByRole('button', { name: texts.back }));
    expect(await screen.findByRole('heading', { level: 2, name: texts.brandTitle })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: texts.skip }));
    await user.click(await screen.findByRole('button', { name: texts.skipAndFinish }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/dashboard'));
    expect(calls.filter((call) => call.init.method === 'PATCH')).toEqual([]);
  });

  it('is not where a normal password change leads', async () => {
    stubApi({
      'GET /api/v1/user/me': me(admin),
      'POST /api/v1/user/change-password': { body: { success: true, message: answers.passwordChanged } },
      'GET /api/v1/user/me/progress': { body: { success: true, message: '', courses: [] } },
    });
    const { router, user } = renderApp('/changepassword', admin);
    await user.type(await screen.findByLabelText('Old password'), 'Old#pass1234');
    await user.type(screen.getByLabelText('New password'), 'Mine#2026x');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/profile'));
  });
});

describe('the settings pages’ guard', () => {
  it.each(['/admin/settings', '/admin/setup'])('sends a learner from %s to /denied', async (path) => {
    const calls = stubApi({ 'GET /api/v1/user/me': me(sampleUser()) });
    const { router } = renderApp(path, sampleUser());
    await waitFor(() => expect(router.state.location.pathname).toBe('/denied'));
    expect(calls.some((call) => call.url.startsWith('/api/v1/settings'))).toBe(false);
  });

  it('sends a visitor to login', async () => {
    stubApi({});
    const { routed, router } = memoryRouter(routes, '/admin/settings');
    render(<Provider store={createStore()}>{routed}</Provider>);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('shows Site settings in an admin’s menu', async () => {
    stubApi({ 'GET /api/v1/user/me': me(admin), 'GET /api/v1/settings': { body: { success: true, message: '', settings: fresh } } });
    const { router, user } = renderApp('/admin/setup', admin);
    const menu = screen.getByRole('navigation', { name: 'Main' });
    await user.click(within(menu).getByRole('link', { name: 'Site settings' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/settings'));
    expect(await screen.findByRole('heading', { level: 1, name: texts.title })).toBeInTheDocument();
  });
});
