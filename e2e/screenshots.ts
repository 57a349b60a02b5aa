/**
 * `npm run screenshots`: every page of the app as PNGs in screenshots/ (git-ignored), at 360 and
 * 1280 px wide, in the light and the dark theme (daisyUI follows prefers-color-scheme), full-page,
 * as each role that sees the page differently: `<page>-<role>-<width>-<theme>.png`.
 *
 * Roles: visitor (signed out), learner (subscribed), newcomer (signed in, not subscribed: the
 * checkout's bundle card, the Checkout dialog and the success page after paying), admin.
 * It starts its own server as the e2e tests do (fresh data folder, demo courses seeded) and signs
 * the roles in through the API. Console errors and warnings seen on load are listed at the end.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { pngFile } from './fixtures.ts';
import { CARD_CVC, CARD_EXPIRY, CARDS, DEMO_COURSE } from './journeys.ts';
import { chooseAdminPassword, startServer } from './server.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'screenshots');
const WIDTHS = [360, 1280] as const;
const THEMES = ['light', 'dark'] as const;
/** Pages taken at once: the server, Chromium and this share two cores. */
const PARALLEL = 3;

type Role = 'visitor' | 'learner' | 'newcomer' | 'admin';
type Theme = (typeof THEMES)[number];

interface Shot {
  name: string;
  roles: Role[];
  url: (ids: { course: string }) => string;
  /** What a person does on the page before it is taken. */
  act?: (page: Page) => Promise<void>;
}

const SHOTS: Shot[] = [
  { name: 'home', roles: ['visitor', 'learner', 'admin'], url: () => '/' },
  { name: 'about', roles: ['visitor'], url: () => '/about' },
  { name: 'contact', roles: ['visitor'], url: () => '/contact' },
  { name: 'courses', roles: ['visitor', 'admin'], url: () => '/courses' },
  { name: 'course-description', roles: ['visitor', 'learner', 'admin'], url: ({ course }) => `/course/description?id=${course}` },
  { name: 'lecture', roles: ['learner', 'admin'], url: ({ course }) => `/course/lecture?id=${course}` },
  {
    name: 'lecture-up-next',
    roles: ['learner'],
    url: ({ course }) => `/course/lecture?id=${course}`,
    act: async (page) => {
      // The end of the lecture, with the next one counting down.
      await page.locator('video').evaluate((video: HTMLVideoElement) => {
        video.muted = true;
        video.currentTime = Math.max(0, (video.duration || 8) - 0.2);
        return video.play();
      });
      await page.getByRole('region', { name: 'Up next' }).waitFor({ timeout: 10_000 });
    },
  },
  { name: 'login', roles: ['visitor'], url: () => '/login' },
  { name: 'signup', roles: ['visitor'], url: () => '/Signup' },
  { name: 'forgot-password', roles: ['visitor'], url: () => '/forgot-password' },
  { name: 'reset-password', roles: ['visitor'], url: () => '/reset-password/not-a-real-token' },
  { name: 'profile', roles: ['learner', 'newcomer', 'admin'], url: () => '/user/profile' },
  {
    name: 'profile-tax-details',
    roles: ['learner'],
    url: () => '/user/profile',
    act: async (page) => {
      await page.getByText('Tax details for your invoices').click();
      await page.getByLabel('Business name').fill('Verma Tutors LLP');
      await page.getByLabel('GSTIN').fill('27AAPFU0939F1ZV');
      await page.getByLabel('Billing address').fill('Baner, Pune 411045');
    },
  },
  { name: 'edit-profile', roles: ['learner'], url: () => '/user/editprofile' },
  { name: 'change-password', roles: ['learner'], url: () => '/changepassword' },
  { name: 'checkout', roles: ['newcomer', 'learner'], url: () => '/checkout' },
  {
    name: 'checkout-widget',
    roles: ['newcomer'],
    url: () => '/checkout',
    act: async (page) => {
      await page.getByRole('button', { name: 'Buy now' }).click({ timeout: 10_000 });
      const dialog = page.getByRole('dialog', { name: 'LMS' });
      await dialog.getByRole('button', { name: /^Pay ₹/ }).waitFor();
      // A number that fails the Luhn check, to show the inline message.
      await dialog.getByLabel('Card number').pressSequentially('4111111111111112');
    },
  },
  { name: 'checkout-fail', roles: ['newcomer'], url: () => '/checkout/fail' },
  { name: 'dashboard', roles: ['admin'], url: () => '/admin/dashboard' },
  { name: 'create-course', roles: ['admin'], url: () => '/course/create' },
  { name: 'add-lecture', roles: ['admin'], url: ({ course }) => `/course/addlecture?id=${course}` },
  { name: '404', roles: ['visitor'], url: () => '/no-such-page' },
  { name: 'denied', roles: ['learner'], url: () => '/denied' },
];

type Storage = Awaited<ReturnType<BrowserContext['storageState']>>;

/** Signs in through the API and gives back what a browser that had done so keeps: the cookie and the spec's stored login. */
async function signedIn(browser: Browser, baseURL: string, signIn: (context: BrowserContext) => Promise<void>): Promise<Storage> {
  const context = await browser.newContext({ baseURL });
  try {
    await signIn(context);
    const me = await context.request.get('/api/v1/user/me');
    if (!me.ok()) throw new Error(`GET /user/me answered ${me.status()}: ${await me.text()}`);
    const { user } = (await me.json()) as { user: { role: string } };
    const state = await context.storageState();
    const localStorage = [
      { name: 'isLoggedIn', value: 'true' },
      { name: 'role', value: user.role },
      { name: 'data', value: JSON.stringify(user) },
    ];
    return { ...state, origins: [{ origin: new URL(baseURL).origin, localStorage }] };
  } finally {
    await context.close();
  }
}

async function ok(what: string, answer: Promise<import('@playwright/test').APIResponse>) {
  const response = await answer;
  if (!response.ok()) throw new Error(`${what} answered ${response.status()}: ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
}

const register = (label: string) => async (context: BrowserContext) => {
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  await ok(
    'register',
    context.request.post('/api/v1/user/register', {
      multipart: { fullName: `Asha ${label}`, email: `shots-${label}-${id}@example.com`, password: 'Learn#2024', avatar: pngFile('avatar.png', [66, 42, 213], 64) },
    }),
  );
};

const subscribed = async (context: BrowserContext) => {
  await register('learner')(context);
  const { subscription_id: subscriptionId } = await ok('subscribe', context.request.post('/api/v1/payments/subscribe'));
  const paid = await ok('sandbox pay', context.request.post(`/sandbox/v1/subscriptions/${String(subscriptionId)}/pay`, { data: { card_number: CARDS.pays } }));
  await ok('verify', context.request.post('/api/v1/payments/verify', { data: paid }));
  // Some progress (issue 14): the first lecture of the demo course completed, the second started.
  const { courses } = await ok('course', context.request.get(`/api/v1/courses?search=${encodeURIComponent(DEMO_COURSE.title)}`));
  const { lectures } = await ok('lectures', context.request.get(`/api/v1/courses/${(courses as { _id: string }[])[0]!._id}`));
  const [first, second] = lectures as { _id: string; duration: number | null }[];
  const save = (lecture: { _id: string; duration: number | null }, position: number) =>
    ok('progress', context.request.post(`/api/v1/progress/lectures/${lecture._id}`, { data: { position, duration: lecture.duration ?? 8, at: Date.now() } }));
  await save(first!, first!.duration ?? 8);
  await save(second!, 3);
};

/** Waits for the page to settle: network quiet, fonts in, no skeleton or spinner left (each as far as it will). */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle', { timeout: 8_000 }).catch(() => undefined);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page
    .locator('.skeleton, .loading')
    .first()
    .waitFor({ state: 'detached', timeout: 4_000 })
    .catch(() => undefined);
}

const file = (name: string, role: Role, width: number, theme: Theme) => path.join(outDir, `${name}-${role}-${width}-${theme}.png`);

/**
 * Headless Chromium now and then captures a full page as tiles of its top corner (seen on the
 * sign-up and profile pages, a different one each run). Such a capture holds far less detail, so of
 * two captures the larger file is the page.
 */
async function take(page: Page, name: string, role: Role, width: number, theme: Theme) {
  const capture = () => page.screenshot({ fullPage: true, animations: 'disabled', caret: 'hide' });
  const first = await capture();
  const second = await capture();
  fs.writeFileSync(file(name, role, width, theme), second.length > first.length ? second : first);
}

async function main() {
  const started = Date.now();
  fs.mkdirSync(outDir, { recursive: true });
  for (const old of fs.readdirSync(outDir)) if (old.endsWith('.png')) fs.rmSync(path.join(outDir, old));

  console.log('Starting a server (it builds the web app and the server first if their sources changed)…');
  const server = await startServer();
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  /** What went wrong, and on which pages (page-role), so one warning on every page is one line. */
  const problems = new Map<string, Set<string>>();
  const note = (where: string, what: string) => problems.set(what, (problems.get(what) ?? new Set()).add(where));
  try {
    const baseURL = server.baseUrl;
    console.log(`Server at ${baseURL} (${((Date.now() - started) / 1000).toFixed(0)} s). Signing in the roles…`);
    const admin = await chooseAdminPassword(baseURL, server.dataDir, 'Shots#Admin2026');
    const storage: Record<Role, Storage | undefined> = {
      visitor: undefined,
      learner: await signedIn(browser, baseURL, subscribed),
      newcomer: await signedIn(browser, baseURL, register('newcomer')),
      admin: await signedIn(browser, baseURL, async (context) => {
        await ok('admin login', context.request.post('/api/v1/user/login', { data: admin }));
      }),
    };
    const catalogue = (await (await fetch(`${baseURL}/api/v1/courses?search=${encodeURIComponent(DEMO_COURSE.title)}`)).json()) as { courses: { _id: string; title: string }[] };
    const course = catalogue.courses.find((found) => found.title === DEMO_COURSE.title)!._id;

    const contexts = new Map<string, BrowserContext>();
    const contextFor = async (role: Role, theme: Theme) => {
      const key = `${role}-${theme}`;
      if (!contexts.has(key)) contexts.set(key, await browser.newContext({ baseURL, storageState: storage[role], colorScheme: theme, reducedMotion: 'reduce' }));
      return contexts.get(key)!;
    };

    const tasks = SHOTS.flatMap((shot) => shot.roles.flatMap((role) => WIDTHS.flatMap((width) => THEMES.map((theme) => ({ shot, role, width, theme })))));
    console.log(`Taking ${tasks.length + WIDTHS.length * THEMES.length} screenshots…`);
    let next = 0;
    const worker = async () => {
      while (next < tasks.length) {
        const { shot, role, width, theme } = tasks[next++]!;
        const page = await (await contextFor(role, theme)).newPage();
        await page.setViewportSize({ width, height: 800 });
        const label = `${shot.name}-${role}`;
        page.on('console', (message) => {
          // A failed request is noted with its URL below.
          if (message.text().startsWith('Failed to load resource')) return;
          if (message.type() === 'error' || message.type() === 'warning') note(label, `console ${message.type()}: ${message.text()}`);
        });
        page.on('response', (response) => {
          if (response.status() >= 400) note(label, `HTTP ${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
        });
        page.on('pageerror', (error) => note(label, `page error: ${error.message}`));
        try {
          await page.goto(shot.url({ course }));
          await settle(page);
          if (shot.act) await shot.act(page);
          await take(page, shot.name, role, width, theme);
        } catch (error) {
          note(`${label}-${width}-${theme}`, `not taken: ${(error as Error).message.split('\n')[0]}`);
        } finally {
          await page.close();
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));

    // Last, as it subscribes the newcomer: pay through Checkout once, then the success page at each size and theme.
    const context = await browser.newContext({ baseURL, storageState: storage.newcomer, reducedMotion: 'reduce' });
    const page = await context.newPage();
    try {
      await page.goto('/checkout');
      await page.getByRole('button', { name: 'Buy now' }).click({ timeout: 10_000 });
      const dialog = page.getByRole('dialog', { name: 'LMS' });
      await dialog.getByLabel('Card number').fill(CARDS.pays);
      await dialog.getByLabel('Expiry (MM/YY)').fill(CARD_EXPIRY);
      await dialog.getByLabel('CVC').fill(CARD_CVC);
      await dialog.getByRole('button', { name: /^Pay\b/ }).click();
      await page.waitForURL(/\/checkout\/success$/);
      await settle(page);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        for (const theme of THEMES) {
          await page.emulateMedia({ colorScheme: theme });
          await take(page, 'checkout-success', 'newcomer', width, theme);
        }
      }
    } catch (error) {
      note('checkout-success-newcomer', `not taken: ${(error as Error).message.split('\n')[0]}`);
    }
  } finally {
    await browser.close();
    await server.stop();
  }

  const taken = fs.readdirSync(outDir).filter((name) => name.endsWith('.png')).length;
  console.log(`${taken} PNGs in ${path.relative(root, outDir)}/ in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  if (problems.size) {
    console.log('\nSeen while taking them:');
    for (const [what, where] of problems) console.log(`- ${what}\n    on ${[...where].join(', ')}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
