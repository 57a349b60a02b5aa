import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { describe, expect, it } from 'vitest';
import { DEFAULT_AVATAR_URL } from '@lms/contract/media';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import type { User } from '@lms/contract/users';
import { memoryRouter, sampleUser, storeLogin, stubApi } from '../test/render';
import { routes } from './router';
import { createStore } from './store';

const learner = sampleUser();
const admin = sampleUser({ fullName: 'LMS Admin', role: 'ADMIN' });
const me = (user: User) => ({ body: { success: true, message: answers.userDetailsFetched, user } });

/** The whole app at `path` (the layout around a lazy page), as a visitor or as `user`. */
async function renderApp(path: string, user?: User) {
  if (user) storeLogin(user);
  stubApi(user ? { 'GET /api/v1/user/me': me(user) } : {});
  const { routed, router } = memoryRouter(routes, path);
  render(<Provider store={createStore()}>{routed}</Provider>);
  await screen.findByRole('heading', { level: 1 });
  return { router, user: userEvent.setup() };
}

/** The desktop bar (shown from 1024 px; jsdom applies no CSS, so it is always in the document here). */
const siteNav = () => screen.getByRole('navigation', { name: 'Site' });
const names = (nav: HTMLElement) =>
  within(nav)
    .getAllByRole('link')
    .map((link) => link.textContent);

describe('the desktop bar', () => {
  it("shows a visitor the spec's items, marks the current page, and offers Login and Signup that come back here", async () => {
    await renderApp('/about');
    expect(names(siteNav())).toEqual(['Home', 'All Courses', 'Contact us', 'About']);
    expect(within(siteNav()).getByRole('link', { name: 'About' })).toHaveAttribute('aria-current', 'page');
    expect(within(siteNav()).getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
    const banner = screen.getByRole('banner');
    expect(within(banner).getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login?next=%2Fabout');
    expect(within(banner).getByRole('link', { name: 'Signup' })).toHaveAttribute('href', '/Signup?next=%2Fabout');
    expect(within(banner).queryByRole('button', { name: /account menu/i })).not.toBeInTheDocument();
  });

  it("on the login page, the bar's Signup carries on to where the login leads", async () => {
    await renderApp('/login?next=%2Fcheckout');
    const banner = screen.getByRole('banner');
    expect(within(banner).getByRole('link', { name: 'Signup' })).toHaveAttribute('href', '/Signup?next=%2Fcheckout');
    expect(within(siteNav()).queryByRole('link', { current: 'page' })).not.toBeInTheDocument();
  });

  it('shows an admin Admin Dashboard, Create Course and (ours) Site settings and Leak trace, in the side menu’s order', async () => {
    await renderApp('/about', admin);
    expect(names(siteNav())).toEqual(['Home', 'Admin Dashboard', 'Create Course', 'Site settings', 'Leak trace', 'All Courses', 'Contact us', 'About']);
    expect(names(screen.getByRole('navigation', { name: 'Main' })).slice(0, 8)).toEqual(names(siteNav()));
  });

  it("gives a learner the avatar's menu: Profile and Logout, opened and left with the keyboard", async () => {
    const { user, router } = await renderApp('/about', learner);
    const banner = screen.getByRole('banner');
    expect(within(banner).queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
    // The menu's code arrives after the bar (only signed-in users download it).
    const button = await within(banner).findByRole('button', { name: `${messages.accountMenu}: ${learner.fullName}` });
    expect(button).toHaveAttribute('aria-expanded', 'false');

    button.focus();
    await user.keyboard('{Enter}');
    const menu = screen.getByRole('menu', { name: messages.accountMenu });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const [profile, logout] = within(menu).getAllByRole('menuitem');
    expect(profile).toHaveTextContent('Profile');
    expect(logout).toHaveTextContent('Logout');
    expect(profile).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(logout).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(profile).toHaveFocus();
    await user.keyboard('{Escape}');
    // The menu closes on the next render (CI under load once looked before it).
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    expect(button).toHaveFocus();

    await user.click(button);
    await user.click(screen.getByRole('menuitem', { name: 'Profile' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/profile'));
    // Closed by the render after the navigation, as after Escape.
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
  });

  it("shows the learner's own picture in the avatar's button", async () => {
    await renderApp('/about', learner);
    const own = await within(screen.getByRole('banner')).findByRole('button', { name: new RegExp(messages.accountMenu) });
    expect(own.querySelector('img')).toHaveAttribute('src', learner.avatar.secure_url);
    expect(own.querySelector('svg')).toBeNull();
  });

  it('draws the default avatar inline for an account without a picture of its own', async () => {
    await renderApp('/about', { ...admin, avatar: { secure_url: DEFAULT_AVATAR_URL } });
    const button = await within(screen.getByRole('banner')).findByRole('button', { name: new RegExp(messages.accountMenu) });
    expect(button.querySelector('img')).toBeNull();
    expect(button.querySelector('svg rect')).toHaveAttribute('fill', '#cbd5e1');
  });

  it('closes the avatar menu on a click elsewhere', async () => {
    const { user } = await renderApp('/about', learner);
    await user.click(await screen.findByRole('button', { name: new RegExp(messages.accountMenu) }));
    expect(screen.getByRole('menu')).toBeInTheDocument();
    await user.click(screen.getByRole('heading', { level: 1 }));
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
  });

  it('offers a user who must choose a new password only Logout', async () => {
    await renderApp('/changepassword', { ...admin, mustChangePassword: true });
    expect(screen.queryByRole('navigation', { name: 'Site' })).not.toBeInTheDocument();
    const banner = screen.getByRole('banner');
    expect(within(banner).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(within(banner).queryByRole('button', { name: new RegExp(messages.accountMenu) })).not.toBeInTheDocument();
    expect(
      within(banner)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['/changepassword']);
  });
});

describe('the side menu of phones and tablets', () => {
  it('closes when one of its items is chosen, not when a page asked for before it opened arrives', async () => {
    const { router, user } = await renderApp('/about');
    const toggle = screen.getByRole('checkbox', { name: 'Open the menu' });
    await user.click(screen.getByText('Open the menu'));
    expect(toggle).toBeChecked();
    // A page whose address changed before the menu was opened comes in: the menu stays open.
    await act(() => router.navigate('/contact'));
    expect(await screen.findByRole('heading', { level: 1, name: /contact/i })).toBeInTheDocument();
    expect(toggle).toBeChecked();
    await user.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'All Courses' }));
    expect(toggle).not.toBeChecked();
  });
});
