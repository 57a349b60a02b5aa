import type { Request } from '@playwright/test';
import { adminCredentials, expect, logInAs, newPerson, registerByApi, test, type Page } from './fixtures.ts';
import { DEMO_COURSE, courseIdByTitle } from './journeys.ts';

/*
 * Every page loads cleanly: no console warning or error (React's, React Router's, the browser's:
 * CSP, a missing file), no uncaught error and no request that fails, in the light and the dark theme.
 * Deliberate failures are listed in DELIBERATE with why; nothing else is forgiven.
 */

/**
 * Failures a page causes on purpose, as [what the line says, why it is expected]. A visitor's pages
 * ask nothing that needs a session.
 */
const DELIBERATE: [line: RegExp, reason: string][] = [
  [/^HTTP 404 GET \/no-such-page$/, "the app's 404 page is sent with the status 404, for search engines and uptime checks"],
  [
    /^console error: Failed to load resource: the server responded with a status of 404 \(Not Found\) at \/no-such-page$/,
    'what Chromium says of any document sent with 404, the 404 page too',
  ],
];

/** Collects, from now on, everything the page says went wrong, one line each. */
function watch(page: Page) {
  const lines: string[] = [];
  const path = (url: string) => {
    const parsed = new URL(url);
    // Between pages the test shows about:blank: what loads then is the next page's, of its origin.
    const current = page.url();
    const origin = current.startsWith('http') ? new URL(current).origin : parsed.origin;
    return parsed.origin === origin ? `${parsed.pathname}${parsed.search}` : url;
  };
  page.on('console', (message) => {
    if (message.type() !== 'warning' && message.type() !== 'error') return;
    const where = message.location().url;
    lines.push(`console ${message.type()}: ${message.text()}${where ? ` at ${path(where)}` : ''}`);
  });
  page.on('pageerror', (error) => lines.push(`uncaught: ${error.message}`));
  // A request the test's own navigation cut off (the page it belonged to was left) is not the page's
  // failure: each request is stamped with the page it started on, counted by `leave`, not read off
  // the URL (a single-page app's own navigation changes the URL before its requests start); and one
  // cut off while `leave` goes to the blank page (a page's own poll, a section loading late) was the
  // page being left.
  let pageNumber = 0;
  let leaving = false;
  const startedOn = new WeakMap<Request, number>();
  page.on('request', (request) => startedOn.set(request, pageNumber));
  page.on('requestfailed', (request) => {
    const error = request.failure()?.errorText;
    if (error === 'net::ERR_ABORTED' && (leaving || startedOn.get(request) !== pageNumber)) return;
    lines.push(`failed: ${request.method()} ${path(request.url())} (${error})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) lines.push(`HTTP ${response.status()} ${response.request().method()} ${path(response.url())}`);
  });
  return {
    /**
     * The test is about to leave the page: what it still loads is cut off by the test, not failing.
     * The page is left for a blank one first, so that nothing it starts while the next is asked for
     * is counted as the next page's.
     */
    async leave() {
      leaving = true;
      try {
        await page.goto('about:blank');
      } finally {
        leaving = false;
      }
      pageNumber++;
    },
    /** What went wrong, less the deliberate; then starts afresh. */
    take() {
      const unexpected = lines.filter((line) => !DELIBERATE.some(([pattern]) => pattern.test(line)));
      lines.length = 0;
      return unexpected;
    },
  };
}

/** Opens `url` and waits until the page has settled: its heading shown, its chunks, data and images loaded. */
async function open(page: Page, url: string) {
  await page.goto(url);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
}

/** Each page in the light theme, then reloaded in the dark one; every problem of every page is listed. */
async function expectClean(page: Page, problems: ReturnType<typeof watch>, urls: string[]) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const url of urls) {
      await problems.leave();
      await open(page, url);
      expect.soft(problems.take(), `console and network on ${url} (${scheme})`).toEqual([]);
    }
  }
}

test('every public page loads without a console warning or error and without a failed request', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const courseId = await courseIdByTitle(baseURL!, DEMO_COURSE.title);
  const problems = watch(page);
  await expectClean(page, problems, [
    '/',
    '/courses',
    `/course/description?id=${courseId}`,
    '/about',
    '/contact',
    '/login',
    '/Signup',
    '/forgot-password',
    '/reset-password/not-a-real-token',
    '/checkout/fail',
    '/denied',
    '/no-such-page',
  ]);
});

test('a learner: logging in, then the profile, edit profile and change password load cleanly', async ({ page, request }) => {
  test.setTimeout(90_000);
  const person = newPerson('console');
  await registerByApi(request, person);
  const problems = watch(page);
  await logInAs(page, person.email, person.password);
  await page.waitForLoadState('networkidle');
  expect.soft(problems.take(), 'console and network while logging in').toEqual([]);
  await expectClean(page, problems, ['/user/profile', '/user/editprofile', '/changepassword']);
});

test('an administrator: the dashboard loads cleanly', async ({ page }) => {
  test.setTimeout(90_000);
  const { email, password } = adminCredentials();
  const problems = watch(page);
  await logInAs(page, email, password);
  await page.waitForLoadState('networkidle');
  expect.soft(problems.take(), 'console and network while logging in').toEqual([]);
  await expectClean(page, problems, ['/admin/dashboard']);
  await expect(page.getByRole('rowheader', { name: `${DEMO_COURSE.title} Published` })).toBeVisible();
});
