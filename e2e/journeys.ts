import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Locator } from '@playwright/test';
import type { AxeResults } from 'axe-core';
import { dataDir, expect, openMenu, pngFile, type Page } from './fixtures.ts';

/** A course the first start seeds (server/src/cli/demo-courses.ts); no journey changes or deletes it. */
export const DEMO_COURSE = {
  title: 'Modern JavaScript from Scratch',
  lectures: ['Welcome and setting up', 'Values, variables and types', 'Functions and closures'],
};

/** The sandbox's test cards (server/src/features/sandbox): two that pay (one free trial per card), one declined. */
export const CARDS = { pays: '4111 1111 1111 1111', alsoPays: '5267 3181 8797 5449', declined: '4000 0000 0000 0002' };
/** A good expiry (MM/YY, December five years on) and CVC for the sandbox's Checkout, which checks both. */
export const CARD_EXPIRY = `12/${String((new Date().getFullYear() + 5) % 100).padStart(2, '0')}`;
export const CARD_CVC = '123';

/** The bundle's price (SUBSCRIPTION_PRICE's default), as the checkout page shows it. */
export const BUNDLE_PRICE = 99;

/** The lecture video the demo courses play, to upload as a new lecture. */
export const LECTURE_VIDEO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'server', 'assets', 'demo', 'lecture-intro.mp4');

/** The id of a course, found through the catalogue's search as the web app does. */
export async function courseIdByTitle(baseURL: string, title: string): Promise<string> {
  const response = await fetch(`${baseURL}/api/v1/courses?search=${encodeURIComponent(title)}`);
  expect(response.ok, `GET /courses?search=${title}`).toBe(true);
  const { courses } = (await response.json()) as { courses: { _id: string; title: string }[] };
  const course = courses.find((candidate) => candidate.title === title);
  expect(course, `a course titled ${title}`).toBeTruthy();
  return course!._id;
}

/** Publishes a course (it must hold a lecture) as the editor's Publish now does: visitors see it from then on. */
export async function publishCourse(request: APIRequestContext, courseId: string) {
  const published = await request.post(`/api/v1/courses/${courseId}/publish`, { data: {} });
  expect(published.ok(), await published.text()).toBe(true);
}

/**
 * A course of its own for a journey, made through the API as the admin whose session `request` carries:
 * a draft with `lectures` (each plays the demo video; none a free preview unless said), not yet published.
 */
export async function createCourseWithLectures(
  request: APIRequestContext,
  course: { title: string; category: string; createdBy: string; description: string },
  lectures: readonly { title: string; description: string; preview?: boolean }[],
): Promise<{ courseId: string }> {
  const created = await request.post('/api/v1/courses', { multipart: { ...course, thumbnail: pngFile('thumbnail.png', [20, 120, 200], 64) } });
  expect(created.ok(), await created.text()).toBe(true);
  const courseId = ((await created.json()) as { course: { _id: string } }).course._id;
  for (const lecture of lectures) {
    const added = await request.post(`/api/v1/courses/${courseId}`, {
      multipart: {
        title: lecture.title,
        description: lecture.description,
        preview: String(lecture.preview ?? false),
        lectures: { name: 'lecture.mp4', mimeType: 'video/mp4', buffer: fs.readFileSync(LECTURE_VIDEO) },
      },
    });
    expect(added.ok(), await added.text()).toBe(true);
  }
  return { courseId };
}

/** Locks this worker holds, so that a test stopped half-way (a time-out) still lets go of them. */
const held = new Set<string>();

/**
 * Runs `work` while no other test holds the lock `name` (a folder in the server's data folder, so it
 * holds across workers). Payments and cancellations take it, so the dashboard test can read its figures
 * before and after one payment of its own and see exactly that payment's effect.
 * A spec that takes it releases it in `test.afterEach(releaseLocks)`.
 */
export async function exclusively<T>(name: string, work: () => Promise<T>, waitMs = 90_000): Promise<T> {
  const lock = path.join(dataDir(), `${name}.lock`);
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      held.add(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (Date.now() > deadline) throw new Error(`Waited ${waitMs} ms for the ${name} lock`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await work();
  } finally {
    release(lock);
  }
}

function release(lock: string) {
  if (held.delete(lock)) fs.rmSync(lock, { recursive: true, force: true });
}

/** Lets go of every lock this worker still holds (a test that timed out inside `exclusively`). */
export function releaseLocks() {
  for (const lock of [...held]) release(lock);
}

/**
 * Starts `video` playing (muted; 0.3 s before its end with `nearEnd`) and waits for it to play, for
 * `timeoutMs` at most: a video that never starts fails here, saying what the element was doing,
 * where awaiting its `play()` would wait for the test's timeout.
 */
export async function play(video: Locator, { nearEnd = false, timeoutMs = 20_000 } = {}) {
  await video.evaluate(
    (element: HTMLVideoElement, { nearEnd, timeoutMs }) => {
      element.muted = true;
      if (nearEnd) element.currentTime = Math.max(0, element.duration - 0.3);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const { readyState, networkState, error, currentSrc, currentTime } = element;
          reject(
            new Error(
              `The video did not start in ${timeoutMs} ms: ${JSON.stringify({ readyState, networkState, error: error?.message, currentSrc, currentTime })}`,
            ),
          );
        }, timeoutMs);
      });
      return Promise.race([element.play(), late]).finally(() => clearTimeout(timer));
    },
    { nearEnd, timeoutMs },
  );
}

/** A lecture in the lecture page's list ('2. Values, variables and types', then its length once known), not its delete button. */
export const lectureInList = (page: Page, title: string) =>
  page
    .getByRole('complementary', { name: 'Lectures list' })
    // "2. Title 0:08", once started "2. Title Stopped at 0:03 0:08", once completed "Completed Title 0:08".
    .getByRole('button', {
      name: new RegExp(`^(\\d+\\.|Completed) ${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( Stopped at \\d+(:\\d{2}){1,2})?( \\d+(:\\d{2}){1,2})?$`),
    });

/** On /checkout: Buy now (or Resume subscription), then the sandbox's Checkout modal, paying with `card`. */
export async function payWithCard(page: Page, card: string, button: 'Buy now' | 'Resume subscription' | 'Start free trial' = 'Buy now') {
  const buy = page.getByRole('button', { name: button });
  // Enabled once the key and a subscription are there (the spec's checkout fetches both on load).
  await expect(buy).toBeEnabled();
  await buy.click();
  const modal = page.getByRole('dialog', { name: 'LMS' });
  await expect(modal).toBeVisible();
  await modal.getByLabel('Card number').fill(card);
  await modal.getByLabel('Expiry (MM/YY)').fill(CARD_EXPIRY);
  await modal.getByLabel('CVC').fill(CARD_CVC);
  // "Pay ₹99" once Checkout has read the subscription's amount.
  await modal.getByRole('button', { name: /^Pay\b/ }).click();
}

/** The bundle card of /checkout (which may carry the course it was reached from), as the spec's business constants describe it. */
export async function expectBundleCard(page: Page) {
  await expect(page).toHaveURL(/\/checkout(\?from=[^&#]+)?$/);
  const card = page.getByRole('article', { name: 'Subscription Bundle' });
  await expect(card).toBeVisible();
  await expect(card.getByText('1 month')).toBeVisible();
  await expect(card.getByText(`₹${BUNDLE_PRICE}`, { exact: true })).toBeVisible();
  await expect(card.getByText('All the Existing and new launched courses')).toBeVisible();
  await expect(card.getByText('100% refundale on cancellation')).toBeVisible();
}

/** The subscription badge on the profile (reached through the menu, as a user would). */
export async function subscriptionOnProfile(page: Page) {
  const menu = await openMenu(page);
  await menu.getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/user\/profile$/);
  const row = page
    .locator('dt')
    .filter({ hasText: /^Subscription$/ })
    .locator('xpath=following-sibling::dd[1]');
  await expect(row).toHaveText(/^(Active|Inactive)$/);
  return row;
}

/** A dashboard stat card's figure as a number, once it has loaded ('₹1,287' → 1287). */
export async function statFigure(page: Page, label: string): Promise<number> {
  const value = page
    .locator('dt')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd[1]');
  await expect(value).toHaveText(/^₹?[\d,.]+$/);
  return Number((await value.innerText()).replace(/[^\d.]/g, ''));
}

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe-core's serious and critical violations in the page, readably (as e2e/a11y.spec.ts does). Needs bypassCSP. */
export async function seriousViolations(page: Page) {
  // A theme switch starts colour transitions (daisyUI's buttons fade theirs); axe must read the colours they end on,
  // not one halfway. Only transitions are awaited (animations may loop or sit paused), and for a second at most.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation instanceof CSSTransition)
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 1000)),
    ]),
  );
  await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<AxeResults> } };
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}\n${violation.nodes.map((node) => `    ${node.target.join(' ')}: ${node.failureSummary?.replace(/\n/g, ' ')}`).join('\n')}`,
    );
}

/** Elements that stick out to the right of the viewport, if the page scrolls sideways. */
export async function horizontalOverflow(page: Page) {
  return page.evaluate(() => {
    const root = document.documentElement;
    if (root.scrollWidth <= root.clientWidth) return [];
    return [
      `scrollWidth ${root.scrollWidth} > clientWidth ${root.clientWidth}`,
      ...Array.from(document.querySelectorAll('body *'))
        .filter((element) => element.getBoundingClientRect().right > root.clientWidth + 1)
        .slice(0, 10)
        .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} right=${Math.round(element.getBoundingClientRect().right)}`),
    ];
  });
}
