// Long by nature: one list of every screen, each with the steps that reach it; read a screen at a time.
/**
 * `npm run screenshots [-- --only=learners,activity]`: every page of the app (or those named) as PNGs in screenshots/ (git-ignored), at 360 and
 * 1280 px wide, in the light and the dark theme (daisyUI follows prefers-color-scheme), full-page,
 * as each role that sees the page differently: `<page>-<role>-<width>-<theme>.png`.
 *
 * Roles: visitor (signed out), learner (subscribed), newcomer (signed in, not subscribed: the
 * checkout's bundle card, the Checkout dialog and the success page after paying), admin,
 * trialist (in a free trial: the success page after starting it, the profile during it) and shopper
 * (signed in, not subscribed: the checkout's plans, coupon and trial; an account of its own, as each
 * of those shots subscribes a few times and an account may only start so many checkouts in 15 minutes).
 * Shots of `phase: 2` are taken after the admin has put a yearly plan, a plan with a free trial, a
 * coupon and a save offer on sale; those before show the bundle alone, as a first start does.
 * Shots of `phase: 3` after that, once the admin has made more plans, with buyers, and coupons in
 * every state (the checkout of phase 2 shows the first few plans only).
 * It starts its own server as the e2e tests do (fresh data folder, demo courses seeded), on
 * `--port <n>` (or PORT) when given, any free port otherwise, signs each role in once through the
 * API and gives every page of that role its session (storageState). One browser takes the pages
 * PARALLEL at a time, each in the context of its role's account; each page is loaded once per width
 * and taken in both themes. Console errors and warnings seen on load are listed at the end.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM_ARGS } from '../scripts/chromium.mjs';
import { ensureDebianPackages } from '../scripts/debian-packages.mjs';
import { pngFile } from './fixtures.ts';
import { CARD_CVC, CARD_EXPIRY, CARDS, DEMO_COURSE } from './journeys.ts';
import { chooseAdminPassword, freePort, startServer } from './server.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'screenshots');
const WIDTHS = [360, 1280] as const;
const THEMES = ['light', 'dark'] as const;
/**
 * Pages open at once. Each spends most of its time waiting (for the network to go quiet, for a
 * capture), so more than the two cores; the server, Chromium and this share them.
 */
const PARALLEL = 5;

type Role = 'visitor' | 'learner' | 'newcomer' | 'admin' | 'trialist' | 'shopper';
type Theme = (typeof THEMES)[number];

interface Shot {
  name: string;
  roles: Role[];
  url: (ids: { course: string; trialPlan: string }) => string;
  /** What a person does on the page before it is taken. */
  act?: (page: Page) => Promise<void>;
  /** 2: once the plans, the coupon and the save offer are on sale; 3: once more plans and coupons are made (afterPlansSeeded). */
  phase?: 2 | 3;
  /**
   * Its sizes one at a time: each starts a checkout for the role's account, and two at once would
   * replace each other's. A shopper's shots each have an account of their own, so that different
   * ones still run side by side.
   */
  serial?: true;
}

/** From the learners list filtered to subscribers, the first one's page, once its payments show. */
async function openSubscriber(page: Page) {
  // The table's row on a desktop, the card on a phone: one of them shows.
  await page.locator('main a[href*="/admin/learner?id="]:visible').first().click();
  await page.getByRole('region', { name: 'Payments' }).waitFor({ timeout: 10_000 });
  await page.waitForLoadState('networkidle');
}

/** What the admin puts on sale before the shots of phase 2. */
const COUPON = 'HALF2';

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
    serial: true,
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
  // Plans: the plans side by side, a coupon applied and one dropped, a free trial, the cancel dialog's save offer.
  { name: 'checkout-plans', roles: ['shopper'], url: () => '/checkout', phase: 2, serial: true },
  {
    name: 'checkout-coupon',
    roles: ['shopper'],
    serial: true,
    url: () => '/checkout',
    phase: 2,
    act: async (page) => {
      await applyCoupon(page, COUPON);
      await page.getByText('for the first 2 months').waitFor({ timeout: 10_000 });
    },
  },
  {
    name: 'checkout-coupon-dropped',
    roles: ['shopper'],
    serial: true,
    url: () => '/checkout',
    phase: 2,
    act: async (page) => {
      await applyCoupon(page, COUPON);
      await page.getByText('for the first 2 months').waitFor({ timeout: 10_000 });
      await page.getByRole('radio', { name: 'Yearly', exact: true }).check();
      await page.getByRole('alert').waitFor({ timeout: 10_000 });
      await page.getByRole('button', { name: 'Buy now' }).and(page.locator(':enabled')).waitFor({ timeout: 10_000 });
    },
  },
  {
    name: 'checkout-trial',
    roles: ['shopper'],
    serial: true,
    url: ({ trialPlan }) => `/checkout?plan=${trialPlan}`,
    phase: 2,
    act: async (page) => {
      await page.getByText('A card check, refunded at once').waitFor({ timeout: 10_000 });
    },
  },
  {
    name: 'profile-cancel-offer',
    roles: ['learner'],
    url: () => '/user/profile',
    phase: 2,
    act: async (page) => {
      await page.getByRole('button', { name: 'Cancel Subscription' }).click();
      await page.getByRole('button', { name: 'Take the offer' }).waitFor({ timeout: 10_000 });
    },
  },
  { name: 'dashboard', roles: ['admin'], url: () => '/admin/dashboard' },
  { name: 'create-course', roles: ['admin'], url: () => '/course/create' },
  // The leak trace with a code nobody was shown: the form and the empty answer.
  { name: 'trace', roles: ['admin'], url: () => '/admin/trace?code=ZZZZ' },
  // Learner management: the list, a subscriber's page (the learner role's: paid, with an invoice), its dialogs, the trail.
  { name: 'learners', roles: ['admin'], url: () => '/admin/learners' },
  { name: 'learner', roles: ['admin'], url: () => '/admin/learners?state=subscribed', act: openSubscriber },
  {
    name: 'learner-grant',
    roles: ['admin'],
    url: () => '/admin/learners?state=subscribed',
    act: async (page) => {
      await openSubscriber(page);
      await page.getByRole('button', { name: 'Grant access' }).click();
      await page.getByRole('dialog').waitFor({ timeout: 10_000 });
    },
  },
  {
    name: 'learner-refund',
    roles: ['admin'],
    url: () => '/admin/learners?state=subscribed',
    act: async (page) => {
      await openSubscriber(page);
      await page
        .getByRole('region', { name: 'Payments' })
        .getByRole('button', { name: /^Refund / })
        .first()
        .click();
      await page.getByRole('dialog').waitFor({ timeout: 10_000 });
    },
  },
  // Once the admin has made plans and coupons (phase 3), the trail has their entries.
  { name: 'activity', roles: ['admin'], url: () => '/admin/activity', phase: 3 },
  { name: 'add-lecture', roles: ['admin'], url: ({ course }) => `/course/addlecture?id=${course}` },
  { name: '404', roles: ['visitor'], url: () => '/no-such-page' },
  { name: 'denied', roles: ['learner'], url: () => '/denied' },
  // Plans: the admin's plans and coupons, and the dashboard's MRR by plan, once a few more are made
  // (phase 3: the checkout's shots of phase 2 are taken before these add plans).
  { name: 'plans', roles: ['admin'], url: () => '/admin/plans', phase: 3, act: afterPlansSeeded },
  {
    name: 'plans-edit',
    roles: ['admin'],
    url: () => '/admin/plans',
    phase: 3,
    act: async (page) => {
      await afterPlansSeeded(page);
      await page
        .getByRole('button', { name: /^Edit Yearly, two months free/ })
        .first()
        .click({ timeout: 10_000 });
    },
  },
  { name: 'coupons', roles: ['admin'], url: () => '/admin/coupons', phase: 3, act: afterPlansSeeded },
  {
    name: 'coupons-new',
    roles: ['admin'],
    url: () => '/admin/coupons',
    phase: 3,
    act: async (page) => {
      await afterPlansSeeded(page);
      await page.getByRole('button', { name: 'New coupon' }).click();
      await page.getByLabel('Code').fill('monsoon-30');
      await page.getByLabel('Percent off').fill('30');
    },
  },
  { name: 'dashboard-plans', roles: ['admin'], url: () => '/admin/dashboard', phase: 3, act: afterPlansSeeded },
];

let plansSeeded: Promise<void> | undefined;
/**
 * Once, whichever shot comes first: plans (one re-priced, one archived) with subscribers on them, and coupons in each
 * state. No save offer: phase 2's (STAY50) stays the one the profile's cancel dialog offers.
 */
async function afterPlansSeeded(page: Page) {
  plansSeeded ??= seedPlansAndCoupons(page.context().browser()!, page.context().request, new URL(page.url()).origin);
  await plansSeeded;
  await page.reload();
  await settle(page);
}

async function seedPlansAndCoupons(browser: Browser, admin: BrowserContext['request'], baseURL: string) {
  type Made = { plan: { id: string } };
  const plan = async (data: object) => ((await ok('plan', admin.post('/api/v1/admin/plans', { data }))) as unknown as Made).plan.id;
  const yearly = await plan({ name: 'Yearly, two months free', interval: 'yearly', price: 899 });
  const trial = await plan({ name: 'Monthly with a 7-day free trial', interval: 'monthly', price: 149, trialDays: 7 });
  const team = await plan({ name: 'Team of five: every course, one invoice', interval: 'monthly', price: 449 });
  const founders = await plan({ name: 'Founders’ early price', interval: 'monthly', price: 49 });
  // Buyers on the plans: one yearly at the first price, one after the new price, two on the team plan.
  const buyer = async (planId: string, label: string) => {
    const context = await browser.newContext({ baseURL });
    try {
      await register(label)(context);
      const { subscription_id: id } = await ok('subscribe', context.request.post('/api/v1/payments/subscribe', { data: { plan: planId, trial: false } }));
      const paid = await ok('sandbox pay', context.request.post(`/sandbox/v1/subscriptions/${String(id)}/pay`, { data: { card_number: CARDS.pays } }));
      await ok('verify', context.request.post('/api/v1/payments/verify', { data: paid }));
    } finally {
      await context.close();
    }
  };
  await buyer(yearly, 'yearly');
  await ok('re-price', admin.patch(`/api/v1/admin/plans/${yearly}`, { data: { price: 990 } }));
  await buyer(yearly, 'yearly2');
  await buyer(team, 'team');
  await buyer(team, 'team2');
  await buyer(founders, 'founder');
  await ok('archive', admin.patch(`/api/v1/admin/plans/${founders}`, { data: { archived: true } }));
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString();
  const coupons = [
    { code: 'WELCOME50', kind: 'percent', amount: 50, charges: 2, maxRedemptions: 100, plans: [trial] },
    { code: 'FLAT20', kind: 'amount', amount: 20, validFrom: day(-1), validUntil: day(30) },
    { code: 'SPRING15', kind: 'percent', amount: 15, charges: 3 },
    { code: 'NEWYEAR2027', kind: 'percent', amount: 25, validFrom: day(40), validUntil: day(60), plans: [yearly, team] },
    { code: 'DIWALI', kind: 'amount', amount: 100, validFrom: day(-60), validUntil: day(-30) },
    { code: 'OLDPROMO', kind: 'percent', amount: 10 },
  ];
  for (const data of coupons) await ok('coupon', admin.post('/api/v1/admin/coupons', { data }));
  const { coupons: made } = (await ok('coupons', admin.get('/api/v1/admin/coupons'))) as { coupons: { id: string; code: string }[] };
  await ok('archive coupon', admin.patch(`/api/v1/admin/coupons/${made.find((coupon) => coupon.code === 'OLDPROMO')!.id}`, { data: { archived: true } }));
}

type Storage = Awaited<ReturnType<BrowserContext['storageState']>>;

/** On /checkout: "Have a coupon?", the code, Apply. */
async function applyCoupon(page: Page, code: string) {
  await page.getByRole('button', { name: 'Have a coupon?' }).click({ timeout: 10_000 });
  await page.getByLabel('Coupon code').fill(code);
  await page.getByRole('button', { name: 'Apply' }).click();
}

/** As the admin: a yearly plan, a monthly one with a 7-day free trial, a coupon for the bundle and a save offer. Answers the trial plan's id. */
async function putPlansOnSale(admin: BrowserContext): Promise<string> {
  const { plans } = (await ok('plans', admin.request.get('/api/v1/payments/plans'))) as { plans: { id: string; default: boolean }[] };
  const bundle = plans.find((plan) => plan.default)!.id;
  await ok('yearly plan', admin.request.post('/api/v1/admin/plans', { data: { name: 'Yearly', interval: 'yearly', price: 999, trialDays: 0 } }));
  const { plan } = (await ok(
    'trial plan',
    admin.request.post('/api/v1/admin/plans', { data: { name: 'Starter', interval: 'monthly', price: 149, trialDays: 7 } }),
  )) as { plan: { id: string } };
  await ok('coupon', admin.request.post('/api/v1/admin/coupons', { data: { code: COUPON, kind: 'percent', amount: 50, charges: 2, plans: [bundle] } }));
  await ok('save offer', admin.request.post('/api/v1/admin/coupons', { data: { code: 'STAY50', kind: 'percent', amount: 50, charges: 2, saveOffer: true } }));
  return plan.id;
}

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
      multipart: {
        fullName: `Asha ${label}`,
        email: `shots-${label}-${id}@example.com`,
        password: 'Learn#2024',
        avatar: pngFile('avatar.png', [66, 42, 213], 64),
      },
    }),
  );
};

const subscribed = async (context: BrowserContext) => {
  await register('learner')(context);
  const { subscription_id: subscriptionId } = await ok('subscribe', context.request.post('/api/v1/payments/subscribe'));
  const paid = await ok('sandbox pay', context.request.post(`/sandbox/v1/subscriptions/${String(subscriptionId)}/pay`, { data: { card_number: CARDS.pays } }));
  await ok('verify', context.request.post('/api/v1/payments/verify', { data: paid }));
  // Some progress: the first lecture of the demo course completed, the second started.
  const { courses } = await ok('course', context.request.get(`/api/v1/courses?search=${encodeURIComponent(DEMO_COURSE.title)}`));
  const { lectures } = await ok('lectures', context.request.get(`/api/v1/courses/${(courses as { _id: string }[])[0]!._id}`));
  const [first, second] = lectures as { _id: string; duration: number | null }[];
  const save = (lecture: { _id: string; duration: number | null }, position: number) =>
    ok('progress', context.request.post(`/api/v1/progress/lectures/${lecture._id}`, { data: { position, duration: lecture.duration ?? 8, at: Date.now() } }));
  await save(first!, first!.duration ?? 8);
  await save(second!, 3);
};

/**
 * Waits for the page to settle: network quiet, fonts in, no skeleton or spinner left in sight (each
 * as far as it will). Only those in sight: the profile keeps a skeleton inside its closed tax-details
 * disclosure, which waiting for would cost every profile shot the whole timeout.
 */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle', { timeout: 8_000 }).catch(() => undefined);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page
    .waitForFunction(() => ![...document.querySelectorAll('.skeleton, .loading')].some((element) => element.checkVisibility()), undefined, { timeout: 4_000 })
    .catch(() => undefined);
  await chartsStill(page);
}

/** Until every chart has stopped moving: chart.js animates a chart as it is drawn and as its colours change. */
async function chartsStill(page: Page) {
  await page
    .waitForFunction(
      () => {
        const charts = [...document.querySelectorAll('canvas')].map((canvas) => canvas.toDataURL()).join();
        const state = window as unknown as { lastCharts?: string };
        const still = charts === '' || charts === state.lastCharts;
        state.lastCharts = charts;
        return still;
      },
      undefined,
      { polling: 100, timeout: 4_000 },
    )
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

/** The page at every width and theme, as it stands. */
async function takeEverySize(page: Page, name: string, role: Role) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await takeEveryTheme(page, name, role, width);
  }
}

/**
 * The page in each theme, as it stands: the theme follows prefers-color-scheme (daisyUI's CSS, and
 * the charts' palette listens for it), so switching it on a loaded page is what a person whose
 * system turns dark sees, without loading the page again.
 */
async function takeEveryTheme(page: Page, name: string, role: Role, width: number) {
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    // Two frames: React re-renders what listens for the change, then it is painted.
    await page.evaluate(() => new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted))));
    await chartsStill(page);
    await take(page, name, role, width, theme);
  }
}

/** On /checkout: `button`, then the sandbox's Checkout modal paid with the test card, up to the success page. */
async function payInCheckout(page: Page, button: string) {
  await page.getByRole('button', { name: button }).click({ timeout: 10_000 });
  const dialog = page.getByRole('dialog', { name: 'LMS' });
  await dialog.getByLabel('Card number').fill(CARDS.pays);
  await dialog.getByLabel('Expiry (MM/YY)').fill(CARD_EXPIRY);
  await dialog.getByLabel('CVC').fill(CARD_CVC);
  await dialog.getByRole('button', { name: /^Pay\b/ }).click();
  await page.waitForURL(/\/checkout\/success$/);
  await settle(page);
}

/** `--only=learners,learner`: those shots alone (the names of SHOTS), to look again at a page just changed. */
const only = process.argv
  .slice(2)
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');

/** `--port 3500`, `--port=3500` or PORT: where the server listens; otherwise any free port. */
function portWanted(): number | undefined {
  const args = process.argv.slice(2);
  const at = args.findIndex((arg) => arg === '--port' || arg.startsWith('--port='));
  const text = at < 0 ? process.env.PORT : args[at]!.startsWith('--port=') ? args[at]!.slice('--port='.length) : args[at + 1];
  if (text === undefined || text === '') return undefined;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`--port wants a port number from 1 to 65535, not "${text}".`);
  return port;
}

/** Runs `jobs` PARALLEL at a time, in their order. */
async function inParallel(jobs: (() => Promise<void>)[]) {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) await jobs[next++]!();
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
}

/** A shot as one role at one width: loaded once, taken in each theme. */
interface ShotTask {
  shot: Shot;
  role: Role;
  width: number;
}

/** One job per task, except that a serial shot's tasks of one role are one job, taken one after another; those first, being longest. */
function jobsOf(tasks: ShotTask[], shoot: (task: ShotTask) => Promise<void>): (() => Promise<void>)[] {
  const serial = new Map<string, ShotTask[]>();
  const single: (() => Promise<void>)[] = [];
  for (const task of tasks) {
    if (!task.shot.serial) {
      single.push(() => shoot(task));
      continue;
    }
    const lane = `${task.shot.name}-${task.role}`;
    serial.set(lane, [...(serial.get(lane) ?? []), task]);
  }
  const chains = [...serial.values()].map((lane) => async () => {
    for (const task of lane) await shoot(task);
  });
  return [...chains, ...single];
}

async function main() {
  const started = Date.now();
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
  const port = portWanted();
  if (port !== undefined && (await freePort(port)) !== port) throw new Error(`Port ${port} is in use: give another with --port <n>.`);
  // The full browser, as a person sees the pages (the journeys use the headless build): installed when missing.
  ensureDebianPackages({ '/usr/bin/chromium': 'chromium' });
  fs.mkdirSync(outDir, { recursive: true });
  for (const old of fs.readdirSync(outDir)) if (old.endsWith('.png')) fs.rmSync(path.join(outDir, old));

  console.log('Starting a server (it builds the web app and the server first if their sources changed)…');
  const server = await startServer({ preferredPort: port ?? 0 });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS],
  });
  /** What went wrong, and on which pages (page-role), so one warning on every page is one line. */
  const problems = new Map<string, Set<string>>();
  const note = (where: string, what: string) => problems.set(what, (problems.get(what) ?? new Set()).add(where));
  try {
    const baseURL = server.baseUrl;
    console.log(`Server at ${baseURL} (${elapsed()}). Signing in the roles…`);
    const admin = await chooseAdminPassword(baseURL, server.dataDir, 'Shots#Admin2026');
    // Each role signs in once, all at once; every page of a role then opens with that session.
    const [learner, newcomer, trialist, administrator] = await Promise.all([
      signedIn(browser, baseURL, subscribed),
      signedIn(browser, baseURL, register('newcomer')),
      signedIn(browser, baseURL, register('trialist')),
      signedIn(browser, baseURL, async (context) => {
        await ok('admin login', context.request.post('/api/v1/user/login', { data: admin }));
      }),
    ]);
    const storage: Record<Exclude<Role, 'shopper'>, Storage | undefined> = { visitor: undefined, learner, newcomer, trialist, admin: administrator };
    // A shopper for each of its shots (Shot.serial), signed up when the shot's first page opens.
    const shoppers = new Map<string, Promise<Storage>>();
    const storageOf = (role: Role, shot: string): Promise<Storage | undefined> => {
      if (role !== 'shopper') return Promise.resolve(storage[role]);
      if (!shoppers.has(shot)) shoppers.set(shot, signedIn(browser, baseURL, register('shopper')));
      return shoppers.get(shot)!;
    };
    const catalogue = (await (await fetch(`${baseURL}/api/v1/courses?search=${encodeURIComponent(DEMO_COURSE.title)}`)).json()) as {
      courses: { _id: string; title: string }[];
    };
    const course = catalogue.courses.find((found) => found.title === DEMO_COURSE.title)!._id;

    // One context per account, made once (pages taken at once ask for it together).
    const contexts = new Map<string, Promise<BrowserContext>>();
    const contextFor = (role: Role, shot: string) => {
      const key = role === 'shopper' ? `shopper-${shot}` : role;
      if (!contexts.has(key))
        contexts.set(
          key,
          storageOf(role, shot).then((storageState) => browser.newContext({ baseURL, storageState, reducedMotion: 'reduce' })),
        );
      return contexts.get(key)!;
    };

    let trialPlan = '';
    const shoot = async ({ shot, role, width }: ShotTask) => {
      const label = `${shot.name}-${role}`;
      let page: Page | undefined;
      try {
        page = await (await contextFor(role, shot.name)).newPage();
        await page.emulateMedia({ colorScheme: THEMES[0] });
        await page.setViewportSize({ width, height: 800 });
        page.on('console', (message) => {
          // A failed request is noted with its URL below.
          if (message.text().startsWith('Failed to load resource')) return;
          if (message.type() === 'error' || message.type() === 'warning') note(label, `console ${message.type()}: ${message.text()}`);
        });
        page.on('response', (response) => {
          if (response.status() >= 400) note(label, `HTTP ${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
        });
        page.on('pageerror', (error) => note(label, `page error: ${error.message}`));
        await page.goto(shot.url({ course, trialPlan }));
        await settle(page);
        if (shot.act) await shot.act(page);
        await takeEveryTheme(page, shot.name, role, width);
      } catch (error) {
        note(`${label}-${width}`, `not taken: ${(error as Error).message.split('\n')[0]}`);
      } finally {
        await page?.close();
      }
    };
    const tasksOf = (phase: 1 | 2 | 3) =>
      SHOTS.filter((shot) => (shot.phase ?? 1) === phase && (!only || only.includes(shot.name))).flatMap((shot) =>
        shot.roles.flatMap((role) => WIDTHS.map((width) => ({ shot, role, width }))),
      );
    const [first, second, third] = [tasksOf(1), tasksOf(2), tasksOf(3)];
    const shots = (tasks: ShotTask[]) => tasks.length * THEMES.length;
    /** The success page twice (newcomer, trialist) and the trialist's profile, at every size. */
    const afterPaying = 3 * WIDTHS.length * THEMES.length;
    console.log(`Taking ${shots(first) + shots(second) + shots(third) + afterPaying} screenshots, ${PARALLEL} pages at a time…`);

    await inParallel(jobsOf(first, shoot));
    console.log(`  ${shots(first)} of a first start (${elapsed()})`);

    // Phase 2: the plans, the coupon and the save offer on sale.
    trialPlan = await putPlansOnSale(await contextFor('admin', ''));
    await inParallel(jobsOf(second, shoot));
    console.log(`  ${shots(second)} with plans and a coupon on sale (${elapsed()})`);

    // Phase 3: the admin's pages once more plans and coupons are made; beside them, Checkout paid once
    // by the newcomer (which subscribes it) and a free trial started by the trialist, then the success
    // page and the trialist's profile at each size and theme.
    const newcomerPays = async () => {
      const context = await browser.newContext({ baseURL, storageState: storage.newcomer, reducedMotion: 'reduce' });
      const page = await context.newPage();
      try {
        await page.goto('/checkout');
        await payInCheckout(page, 'Buy now');
        await takeEverySize(page, 'checkout-success', 'newcomer');
      } catch (error) {
        note('checkout-success-newcomer', `not taken: ${(error as Error).message.split('\n')[0]}`);
      } finally {
        await context.close();
      }
    };
    const trialistStarts = async () => {
      const context = await browser.newContext({ baseURL, storageState: storage.trialist, reducedMotion: 'reduce' });
      const page = await context.newPage();
      try {
        await page.goto(`/checkout?plan=${trialPlan}`);
        await payInCheckout(page, 'Start free trial');
        await takeEverySize(page, 'checkout-success', 'trialist');
        await page.goto('/user/profile');
        await settle(page);
        await takeEverySize(page, 'profile', 'trialist');
      } catch (error) {
        note('checkout-success-trialist', `not taken: ${(error as Error).message.split('\n')[0]}`);
      } finally {
        await context.close();
      }
    };
    await inParallel([trialistStarts, newcomerPays, ...jobsOf(third, shoot)]);
    console.log(`  ${shots(third) + afterPaying} with more plans and coupons, and after paying (${elapsed()})`);
  } finally {
    await browser.close();
    await server.stop();
  }

  const taken = fs.readdirSync(outDir).filter((name) => name.endsWith('.png')).length;
  console.log(`${taken} PNGs in ${path.relative(root, outDir)}/ in ${elapsed()}.`);
  if (problems.size) {
    console.log('\nSeen while taking them:');
    for (const [what, where] of problems) console.log(`- ${what}\n    on ${[...where].join(', ')}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
