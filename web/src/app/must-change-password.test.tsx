import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'react-hot-toast';
import { Provider } from 'react-redux';
import { describe, expect, it, vi } from 'vitest';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import type { User } from '@lms/contract/users';
import { DEFAULT_SITE } from '@lms/contract/site';
import { findToast, memoryRouter, sampleUser, storeLogin, stubApi } from '../test/render';
import { routes } from './router';
import { createStore } from './store';

// chart.js draws on a canvas, which jsdom lacks.
vi.mock('react-chartjs-2', () => ({ Pie: () => null, Bar: () => null }));

const admin: User = sampleUser({ fullName: 'LMS Admin', email: 'admin@lms.local', role: 'ADMIN' });
const lockedAdmin: User = { ...admin, mustChangePassword: true };
const me = (user: User) => ({ body: { success: true, message: answers.userDetailsFetched, user } });
const refused = { status: 403, body: { success: false, message: messages.choosePasswordFirst } };

/** The whole app (layout, guards, lazy pages) at `path`, logged in as `user`. */
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

describe('a user who must choose a new password (the initial administrator)', () => {
  it.each(['/admin/dashboard', '/', '/courses', '/user/profile', '/course/create'])('is taken from %s to the change-password page', async (path) => {
    stubApi({ 'GET /api/v1/user/me': me(lockedAdmin) });
    const { router } = renderApp(path, lockedAdmin);
    expect(await screen.findByRole('heading', { level: 1, name: messages.choosePasswordTitle })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/changepassword');
    expect(screen.getByText(messages.choosePasswordIntro)).toBeInTheDocument();
    expect(screen.getByLabelText(messages.choosePasswordCurrent)).toHaveAttribute('type', 'password');
    expect(screen.getByLabelText('New password')).toHaveAttribute('autocomplete', 'new-password');
    expect(screen.queryByRole('link', { name: 'Back to profile' })).not.toBeInTheDocument();
  });

  it('has a menu that leads nowhere but Logout', async () => {
    stubApi({ 'GET /api/v1/user/me': me(lockedAdmin) });
    renderApp('/changepassword', lockedAdmin);
    await screen.findByRole('heading', { level: 1, name: messages.choosePasswordTitle });
    const menu = screen.getByRole('navigation', { name: 'Main' });
    expect(within(menu).queryAllByRole('link')).toEqual([]);
    expect(within(menu).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(within(menu).getByText(messages.choosePasswordToContinue)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'LMS' })).toHaveAttribute('href', '/changepassword');
  });

  it('learns it from `me` even when the stored login did not know it', async () => {
    stubApi({ 'GET /api/v1/user/me': me(lockedAdmin), 'GET /api/v1/courses?page=1&limit=12': { body: { success: true, message: '', courses: [], total: 0 } } });
    const { router } = renderApp('/courses', admin);
    await waitFor(() => expect(router.state.location.pathname).toBe('/changepassword'));
  });

  it('is taken there, without an error toast, when an API call answers "choose a new password first"', async () => {
    stubApi({
      // The stored login and `me` (failing here) say nothing; the dashboard's own call is refused.
      'GET /api/v1/user/me': { status: 500, body: {} },
      'GET /api/v1/courses?limit=100': refused,
    });
    const { router, store } = renderApp('/admin/dashboard', admin);
    await waitFor(() => expect(router.state.location.pathname).toBe('/changepassword'));
    expect(store.getState().auth.data?.mustChangePassword).toBe(true);
    expect(await screen.findByRole('heading', { level: 1, name: messages.choosePasswordTitle })).toBeInTheDocument();
    expect(screen.queryByText(messages.choosePasswordFirst)).not.toBeInTheDocument();
  });

  it('chooses a password, is reloaded by `me` and goes on to set up the site', async () => {
    let changed = false;
    const calls = stubApi({
      'GET /api/v1/user/me': () => me(changed ? admin : lockedAdmin),
      'POST /api/v1/user/change-password': () => {
        changed = true;
        return { body: { success: true, message: answers.passwordChanged } };
      },
      'GET /api/v1/courses?limit=100': { body: { success: true, message: '', courses: [] } },
      'GET /api/v1/admin/status/users': { body: { success: true, message: '', allUsersCount: 0, subscribedUsersCount: 0 } },
      'GET /api/v1/payments?count=100': { body: { success: true, message: '', allPayments: [], finalMonths: {}, monthlySalesRecord: Array(12).fill(0) } },
      'GET /api/v1/contact': { body: { success: true, message: '', messages: [] } },
      'GET /api/v1/settings': {
        body: {
          success: true,
          message: '',
          settings: {
            site: DEFAULT_SITE,
            seller: { legalName: '', gstin: '', stateCode: '29' },
            fromEnvironment: { legalName: false, gstin: false, stateCode: false },
            templates: [],
          },
        },
      },
    });
    const { router, store, user } = renderApp('/admin/dashboard', lockedAdmin);
    await user.type(await screen.findByLabelText(messages.choosePasswordCurrent), 'Handed#over12');
    await user.type(screen.getByLabelText('New password'), 'Mine#2026x');
    await user.click(screen.getByRole('button', { name: messages.choosePasswordSubmit }));

    // The first administrator's short setup (features/settings), each step skippable, before the dashboard.
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/setup'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Set up your site' })).toBeInTheDocument();
    expect(store.getState().auth.data?.mustChangePassword).toBeUndefined();
    const change = calls.find((call) => call.url === '/api/v1/user/change-password')!;
    expect(JSON.parse(change.init.body as string)).toEqual({ oldPassword: 'Handed#over12', newPassword: 'Mine#2026x' });
    expect(await findToast(answers.passwordChanged)).toBeInTheDocument();
  });

  it('may log out instead', async () => {
    stubApi({ 'GET /api/v1/user/me': me(lockedAdmin), 'GET /api/v1/user/logout': { body: { success: true, message: answers.loggedOut } } });
    const { router, store, user } = renderApp('/changepassword', lockedAdmin);
    await screen.findByRole('heading', { level: 1, name: messages.choosePasswordTitle });
    await user.click(within(screen.getByRole('region', { name: messages.choosePasswordTitle })).getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(store.getState().auth.isLoggedIn).toBe(false);
  });
});
