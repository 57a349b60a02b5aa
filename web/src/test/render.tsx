import { act, getByLabelText, render, screen, waitFor } from '@testing-library/react';
import type { User } from '@lms/contract/users';
import userEvent from '@testing-library/user-event';
import { useLayoutEffect, type ReactElement } from 'react';
import { Provider } from 'react-redux';
import {
  MemoryRouter,
  useLocation,
  useNavigate,
  useNavigationType,
  useRoutes,
  type Location,
  type NavigateOptions,
  type NavigationType,
  type RouteObject,
  type To,
} from 'react-router';
import { createStore } from '../app/store';
import { Toasts } from '../lib/components/ToastLimit';

/** Where the router is (a memory router does not move window.location). */
function Location() {
  return <p data-testid="location">{useLocation().pathname}</p>;
}

/** Where a test's router is, and a way to move it as the app would (through `useNavigate`). */
export interface TestRouter {
  state: { location: Location; historyAction: NavigationType };
  navigate(to: To | number, options?: NavigateOptions): Promise<void>;
}

/** Keeps `router` up to date with the memory router it is rendered in. */
function RouterProbe({ router, routes }: { router: { current?: TestRouter }; routes: RouteObject[] }) {
  const location = useLocation();
  const historyAction = useNavigationType();
  const navigate = useNavigate();
  useLayoutEffect(() => {
    router.current = {
      state: { location, historyAction },
      navigate: async (to, options) => {
        await act(async () => {
          if (typeof to === 'number') await navigate(to);
          else await navigate(to, options);
        });
      },
    };
  });
  return useRoutes(routes);
}

/**
 * `routes` at `path` in a memory router of the kind the app runs in (main.tsx's `BrowserRouter`,
 * no data router): the element to render, and the router to follow and move.
 */
export function memoryRouter(routes: RouteObject[], path: string): { routed: ReactElement; router: TestRouter } {
  const probe: { current?: TestRouter } = {};
  const routed = (
    <MemoryRouter initialEntries={[path]} useTransitions={false}>
      <RouterProbe router={probe} routes={routes} />
    </MemoryRouter>
  );
  const router: TestRouter = {
    get state() {
      return probe.current!.state;
    },
    navigate: (to, options) => probe.current!.navigate(to, options),
  };
  return { routed, router };
}

/**
 * Renders `element` at `path` inside the real store and a memory router of the kind the app runs
 * in (no data router: main.tsx's `BrowserRouter`); other paths render their name, so a test can
 * see where a page navigated to.
 */
export function renderPage(element: ReactElement, { path = '/', routes = [] as RouteObject[] } = {}) {
  const store = createStore();
  const { routed, router } = memoryRouter([{ path, element }, ...routes, { path: '*', Component: Location }], path);
  const user = userEvent.setup();
  const view = render(
    <Provider store={store}>
      {routed}
      <Toasts />
    </Provider>,
  );
  return { ...view, store, router, user };
}

/** Replaces fetch with answers by path; records the calls. */
export function stubApi(answers: Record<string, { status?: number; body: object } | ((init: RequestInit) => { status?: number; body: object })>) {
  const calls: { url: string; init: RequestInit }[] = [];
  globalThis.fetch = (async (url: string, init: RequestInit = {}) => {
    calls.push({ url, init });
    const key = `${init.method ?? 'GET'} ${url}`;
    const answer = answers[key];
    if (!answer) return new Response(JSON.stringify({ success: false, message: `no stub for ${key}` }), { status: 500 });
    const { status = 200, body } = typeof answer === 'function' ? answer(init) : answer;
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return calls;
}

/**
 * The video labelled `name`, once it has its source: the player sets it in an effect, and the page's
 * own effects (progress tracking's listeners) run in the same flush. Events dispatched before then
 * would reach nobody.
 */
export async function findPlayer(name: string, within: HTMLElement = document.body): Promise<HTMLVideoElement> {
  return waitFor(() => {
    const video = getByLabelText(within, name) as HTMLVideoElement;
    if (!video.getAttribute('src')) throw new Error(`${name} has no source yet`);
    return video;
  });
}

/** A toast's text: react-hot-toast gives its message role=status. */
export const findToast = (text: string) => screen.findByText(text, { selector: '[role="status"]' });

/** A logged-in user as the API answers one; override what a test is about. */
export const sampleUser = (overrides: Partial<User> = {}): User => ({
  _id: '0b7f6b0e-3f1e-4d6a-9a57-3c1f2b8f7d11',
  fullName: 'Asha Verma',
  email: 'asha@example.com',
  avatar: { secure_url: '/media/avatars/asha.png' },
  role: 'USER',
  subscription: { status: 'inactive' },
  ...overrides,
});

/** Logged in as `user`, the way the app keeps it (local storage). */
export function storeLogin(user: User) {
  localStorage.setItem('isLoggedIn', 'true');
  localStorage.setItem('role', user.role);
  localStorage.setItem('data', JSON.stringify(user));
}
