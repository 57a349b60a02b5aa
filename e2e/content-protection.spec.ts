import type { Browser, BrowserContext, Locator } from '@playwright/test';
import { adminCredentials, expect, logInAs, newPerson, signUp, test, type Page } from './fixtures.ts';
import { CARDS, courseIdByTitle, exclusively, lectureInList, payWithCard, play, releaseLocks, seriousViolations } from './journeys.ts';

test.afterEach(releaseLocks);
// axe is injected as an inline script, which the server's Content-Security-Policy would (rightly) refuse.
test.use({ bypassCSP: true });

/** A demo course no other journey plays; its second lecture is for subscribers (the first is a free preview). */
const COURSE = { title: 'Data Analysis with Python and pandas', lecture: 'Cleaning messy data' };
const WATERMARK = '[data-player-watermark]';
const HIDDEN_NOTICE = 'The watermark must stay visible to play this video';

/** A device of the learner's: its own browser context (cookies), its clock under the test's hand (the watermark moves every 15–30 s). */
async function device(browser: Browser, email: string, password: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  await context.clock.install();
  const page = await context.newPage();
  await logInAs(page, email, password);
  return { context, page };
}

/** Opens the course's lecture page and picks the subscribers' lecture, as a learner does. */
async function openLecture(page: Page, courseId: string) {
  await page.goto(`/course/lecture?id=${courseId}`);
  await lectureInList(page, COURSE.lecture).click();
}

const theVideo = (page: Page) => page.getByLabel(`Lecture 2: ${COURSE.lecture}`);
const timeOf = (video: Locator) => video.evaluate((element: HTMLVideoElement) => element.currentTime);
const pausedOf = (video: Locator) => video.evaluate((element: HTMLVideoElement) => element.paused);

/** Plays on: not paused, and its time moves. The demo video lasts 8 s, so it loops (the journey outlasts it). */
async function expectPlaying(page: Page) {
  const video = theVideo(page);
  await expect(video).toBeVisible();
  await video.evaluate((element: HTMLVideoElement) => (element.loop = true));
  const from = await timeOf(video);
  await expect.poll(async () => !(await pausedOf(video)) && (await timeOf(video)) !== from, { message: 'the lecture plays', timeout: 20_000 }).toBe(true);
}

/** The watermark's box, its frame's, and the fullscreen element's (if any), in the page's pixels. */
const boxes = (page: Page) =>
  page.evaluate((selector) => {
    const overlay = document.querySelector(selector)!;
    const box = (element: Element) => {
      const { left, top, right, bottom } = element.getBoundingClientRect();
      return { left, top, right, bottom };
    };
    return {
      overlay: box(overlay),
      frame: box(overlay.parentElement!),
      fullscreen: document.fullscreenElement ? box(document.fullscreenElement) : null,
      inFullscreen: document.fullscreenElement?.contains(overlay) ?? false,
    };
  }, WATERMARK);

type Box = { left: number; top: number; right: number; bottom: number };
function expectInsideAndOffCentre(overlay: Box, frame: Box) {
  expect(overlay.left).toBeGreaterThanOrEqual(frame.left - 1);
  expect(overlay.top).toBeGreaterThanOrEqual(frame.top - 1);
  expect(overlay.right).toBeLessThanOrEqual(frame.right + 1);
  expect(overlay.bottom).toBeLessThanOrEqual(frame.bottom + 1);
  const width = frame.right - frame.left;
  const height = frame.bottom - frame.top;
  const overlapsX = overlay.left < frame.left + 0.7 * width && overlay.right > frame.left + 0.3 * width;
  const overlapsY = overlay.top < frame.top + 0.7 * height && overlay.bottom > frame.top + 0.3 * height;
  expect(overlapsX && overlapsY, 'the watermark keeps out of the middle 40 %').toBe(false);
}

test('one subscriber on three devices: two play, the third is refused and names them, stops one and plays; its watermark shows, moves, goes full screen, and pauses the video when removed; the admin traces its code to the learner', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const person = newPerson('protect');
  const courseId = await courseIdByTitle(baseURL!, COURSE.title);

  // The learner subscribes on their first device.
  const first = await browser.newContext();
  await first.clock.install();
  const a = await first.newPage();
  await signUp(a, person);
  await a.goto('/checkout');
  await exclusively('payments', async () => {
    await payWithCard(a, CARDS.pays);
    await expect(a).toHaveURL(/\/checkout\/success$/);
  });
  const second = await device(browser, person.email, person.password);
  const third = await device(browser, person.email, person.password);
  const [b, c] = [second.page, third.page];

  // Two devices play.
  await openLecture(a, courseId);
  await expectPlaying(a);
  await openLecture(b, courseId);
  await expectPlaying(b);

  // The third is refused, and the refusal names the two playing: what they watch, and when they were last seen.
  await openLecture(c, courseId);
  const refusal = c.getByRole('region', { name: 'Playing on other devices' });
  await expect(refusal).toBeVisible();
  await expect(theVideo(c)).toHaveCount(0);
  await expect(refusal.getByRole('alert')).toContainText('already playing on 2 devices');
  const others = refusal.getByRole('listitem');
  await expect(others).toHaveCount(2);
  for (const other of await others.all()) {
    await expect(other).toContainText(`Watching “${COURSE.lecture}”`);
    await expect(other).toContainText(/last seen (just now|\d+ min ago)/);
  }
  expect.soft(await seriousViolations(c), 'axe on the refusal').toEqual([]);

  // "Stop playback there" on the first one listed: the third device plays.
  await others
    .first()
    .getByRole('button', { name: /^Stop playback there/ })
    .click();
  await expect(refusal).toHaveCount(0);
  await expectPlaying(c);

  // The device stopped learns it at its next heartbeat (within 30 s): paused, with the server's words.
  // Its "Play here" is refused now: the two others play.
  for (const page of [a, b]) await page.clock.fastForward(31_000);
  const stoppedNotice = (page: Page) => page.getByRole('alert').filter({ hasText: 'Playback was stopped on this device' });
  await expect.poll(async () => (await stoppedNotice(a).count()) + (await stoppedNotice(b).count()), { timeout: 15_000 }).toBe(1);
  const stopped = (await stoppedNotice(a).count()) === 1 ? a : b;
  const still = stopped === a ? b : a;
  expect(await pausedOf(theVideo(stopped))).toBe(true);
  await expectPlaying(still);
  await stopped.getByRole('button', { name: 'Play here' }).click();
  await expect(stopped.getByRole('region', { name: 'Playing on other devices' })).toBeVisible();

  // The watermark: over the playing video, the masked email and the playback's code, out of the middle.
  const overlay = c.locator(WATERMARK);
  await expect(overlay).toHaveCount(1);
  await expect(overlay).toBeVisible();
  const [shownEmail, shownCode] = await overlay.evaluate((element) => [...element.shadowRoot!.children].map((line) => line.textContent ?? ''));
  expect(shownEmail).toMatch(/•+@example\.com$/);
  expect(shownEmail).not.toContain(person.email);
  expect(shownCode).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  const before = await boxes(c);
  expectInsideAndOffCentre(before.overlay, before.frame);

  // It moves within 30 s, still inside and out of the middle.
  await c.clock.fastForward(31_000);
  await expect.poll(async () => (await boxes(c)).overlay, { message: 'the watermark moved' }).not.toEqual(before.overlay);
  const moved = await boxes(c);
  expectInsideAndOffCentre(moved.overlay, moved.frame);

  // Full screen is the player's frame, the watermark inside it.
  await c.getByRole('button', { name: 'Full screen' }).click();
  await expect.poll(async () => (await boxes(c)).inFullscreen, { message: 'the watermark is inside the fullscreen element' }).toBe(true);
  const full = await boxes(c);
  expectInsideAndOffCentre(full.overlay, full.fullscreen!);
  expect(await pausedOf(theVideo(c))).toBe(false);
  await c.evaluate(() => document.exitFullscreen());
  await expect.poll(async () => (await boxes(c)).fullscreen).toBeNull();

  // Removed by a script: the video pauses and says why; the watermark is back, and play plays again.
  await expectPlaying(c);
  await c.evaluate((selector) => document.querySelector(selector)!.remove(), WATERMARK);
  await expect(c.getByRole('alert').filter({ hasText: HIDDEN_NOTICE })).toBeVisible();
  expect(await pausedOf(theVideo(c))).toBe(true);
  await expect(overlay).toHaveCount(1);
  await play(theVideo(c));
  await expect(c.getByRole('alert').filter({ hasText: HIDDEN_NOTICE })).toHaveCount(0);
  await expectPlaying(c);

  // Hidden by a stylesheet: its inline styles win, so it stays visible and the video plays on.
  await c.addStyleTag({ content: `${WATERMARK} { display: none !important; opacity: 0 !important; }` });
  await c.clock.fastForward(1500);
  await expect(overlay).toBeVisible();
  expect(await pausedOf(theVideo(c))).toBe(false);

  // The admin pastes the code seen on the video into the leak trace, and finds the learner.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  const { email, password } = adminCredentials();
  await logInAs(admin, email, password);
  await admin.goto('/admin/trace');
  await admin.getByLabel('Code').fill(shownCode!);
  await admin.getByRole('button', { name: 'Trace' }).click();
  await expect(admin.getByText(person.email).first()).toBeVisible();

  for (const context of [first, second.context, third.context, adminContext]) await context.close();
});
