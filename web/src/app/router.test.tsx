import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import userEvent from '@testing-library/user-event';
import { matchRoutes, MemoryRouter, Route, Routes, type RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { isPagePath, pagePaths } from '@lms/contract/pages';
import type { User } from '@lms/contract/users';
import { memoryRouter, sampleUser, storeLogin, stubApi } from '../test/render';
import { RouteErrorBoundary } from './ErrorPage';
import { AppRoutes, preloadPage, routes } from './router';
import { createStore } from './store';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the first page of a visit', () => {
  it("paints the layout at once, holds the page's place while its chunk loads, then shows it, without React Router's warning", async () => {
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');
    // As main.tsx renders the app, with a memory router in place of the browser's.
    render(
      <Provider store={createStore()}>
        <MemoryRouter initialEntries={['/denied']}>
          <AppRoutes />
        </MemoryRouter>
      </Provider>,
    );

    // Before the lazy page has arrived: the navigation bar and the footer are there, the page's place is busy.
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    expect(within(screen.getByRole('main')).queryByRole('heading')).not.toBeInTheDocument();
    expect(screen.getByRole('main').querySelector('[aria-busy="true"]')).not.toBeNull();

    expect(await screen.findByRole('heading', { level: 1, name: messages.accessDenied })).toBeInTheDocument();
    expect(screen.getByRole('main').querySelector('[aria-busy="true"]')).toBeNull();
    const said = [...warn.mock.calls, ...error.mock.calls].map((args) => args.map(String).join(' '));
    expect(said.filter((line) => /React Router|HydrateFallback/.test(line))).toEqual([]);
  });

  it('shows a page whose chunk was loaded before the first render in that render, with no fallback before it', async () => {
    await preloadPage('/no-such-page');
    render(
      <Provider store={createStore()}>
        <MemoryRouter initialEntries={['/no-such-page']}>
          <AppRoutes />
        </MemoryRouter>
      </Provider>,
    );
    // Not awaited: the first render has the page.
    expect(screen.getByRole('heading', { level: 1, name: messages.pageNotFound })).toBeInTheDocument();
    expect(screen.getByRole('main').querySelector('[aria-busy="true"]')).toBeNull();
  });
});

describe('a page that fails to render', () => {
  function Broken(): never {
    throw new Error('The page broke');
  }

  it('shows the error screen with what went wrong, and the pages again once the user goes home', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <MemoryRouter initialEntries={['/broken']}>
        <RouteErrorBoundary>
          <Routes>
            <Route path="/broken" element={<Broken />} />
            <Route path="/" element={<h1>Home</h1>} />
          </Routes>
        </RouteErrorBoundary>
      </MemoryRouter>,
    );
    expect(await screen.findByRole('heading', { level: 1, name: messages.unexpectedError })).toBeInTheDocument();
    expect(screen.getByText('The page broke')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('link', { name: messages.goHome }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Home' })).toBeInTheDocument();
    expect(screen.queryByText('The page broke')).not.toBeInTheDocument();
  });
});

describe('the plans and coupons pages', () => {
  const admin = sampleUser({ fullName: 'LMS Admin', email: 'admin@lms.local', role: 'ADMIN' });
  const me = (user: User) => ({ body: { success: true, message: answers.userDetailsFetched, user } });
  const renderAt = (path: string, user?: User) => {
    if (user) storeLogin(user);
    const { routed, router } = memoryRouter(routes, path);
    render(<Provider store={createStore()}>{routed}</Provider>);
    return router;
  };

  it.each([
    ['/admin/plans', 'Plans'],
    ['/admin/coupons', 'Coupons'],
  ])('%s opens for the admin, with its own title, and is not in the menu', async (path, title) => {
    stubApi({
      'GET /api/v1/user/me': me(admin),
      'GET /api/v1/admin/plans': { body: { success: true, message: answers.plansFetched, plans: [] } },
      'GET /api/v1/admin/coupons': { body: { success: true, message: answers.couponsFetched, coupons: [] } },
    });
    renderAt(path, admin);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`${title} · LMS`));
    const menu = screen.getByRole('navigation', { name: 'Main' });
    expect(within(menu).queryByRole('link', { name: title })).not.toBeInTheDocument();
  });

  it('/admin/trace opens the leak trace for the admin, from the menu', async () => {
    stubApi({ 'GET /api/v1/user/me': me(admin) });
    renderAt('/admin/trace', admin);
    expect(await screen.findByRole('heading', { level: 1, name: 'Leak trace' })).toBeInTheDocument();
    expect(screen.getByLabelText('Code')).toBeInTheDocument();
    const menu = screen.getByRole('navigation', { name: 'Main' });
    expect(within(menu).getByRole('link', { name: 'Leak trace' })).toHaveAttribute('href', '/admin/trace');
  });

  it('/admin/certificates opens the certificates issued for the admin, with its own title', async () => {
    stubApi({
      'GET /api/v1/user/me': me(admin),
      'GET /api/v1/admin/certificates?page=1&limit=50': { body: { success: true, message: answers.certificatesFetched, certificates: [], total: 0 } },
      'GET /api/v1/courses?limit=100': { body: { success: true, message: 'All courses', courses: [], total: 0, page: 1, limit: 100 } },
    });
    renderAt('/admin/certificates', admin);
    expect(await screen.findByRole('heading', { level: 1, name: 'Certificates' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Certificates · LMS'));
    expect(await screen.findByRole('heading', { name: 'No certificates yet' })).toBeInTheDocument();
  });

  it.each(['/admin/plans', '/admin/coupons', '/admin/trace', '/admin/certificates'])(
    '%s sends a learner to the denied page and a visitor to log in',
    async (path) => {
      stubApi({ 'GET /api/v1/user/me': me(sampleUser()) });
      const learner = renderAt(path, sampleUser());
      expect(await screen.findByRole('heading', { level: 1, name: messages.accessDenied })).toBeInTheDocument();
      expect(learner.state.location.pathname).toBe('/denied');
      cleanup();
      localStorage.clear();

      const visitor = renderAt(path);
      await waitFor(() => expect(visitor.state.location.pathname).toBe('/login'));
    },
  );
});

describe("the server's list of pages (contract/src/pages.ts)", () => {
  /** Every path the router gives a page of its own, walking the nested routes. */
  const routed = (list: RouteObject[]): string[] => list.flatMap((route) => [...(route.path ? [route.path] : []), ...routed(route.children ?? [])]);

  it('is the list the router is made from: every page path and nothing else, besides the 404 page', () => {
    expect(
      routed(routes)
        .filter((path) => path !== '*')
        .sort(),
    ).toEqual(Object.values(pagePaths).sort());
  });

  it.each([
    '/',
    '/about',
    '/ABOUT',
    '/about/',
    '/about//',
    '/%61bout',
    '/Signup',
    '/signup',
    '/reset-password/abc',
    '/reset-password/abc/',
    '/course/description',
    '/course/Description',
    '/admin/dashboard',
    '/checkout/success',
    '/nowhere',
    '/about/team',
    '/reset-password',
    '/reset-password/',
    '/reset-password/a/b',
    '//about',
    '/courses/x',
    '/user',
    '/admin',
  ])('agrees with the router on %s: a page of its own, or the 404 page', (path) => {
    const matched = matchRoutes(routes, path) ?? [];
    const page = matched.at(-1)?.route.path;
    expect(page, path).toBeDefined();
    expect(isPagePath(path), path).toBe(page !== '*');
  });
});
