import { adminCredentials, expect, logInAs, newPerson, signUp, test, type Page } from './fixtures.ts';
import { CARDS, exclusively, lectureInList, payWithCard, play, releaseLocks, seriousViolations } from './journeys.ts';

test.afterEach(releaseLocks);
// axe is injected as an inline script, which the server's Content-Security-Policy would (rightly) refuse.
test.use({ bypassCSP: true });

/** A demo course no other journey watches, so its "started" count moves only with this one. */
const COURSE = { title: 'UI Design Fundamentals', lectures: ['Hierarchy and layout', 'Colour and contrast'] };

/** How many learners the admin's engagement figures say started COURSE. */
async function startedCount(admin: Page): Promise<number> {
  const response = await admin.request.get('/api/v1/admin/engagement');
  expect(response.ok()).toBe(true);
  const { courses } = (await response.json()) as { courses: { title: string; started: number }[] };
  return courses.find((course) => course.title === COURSE.title)!.started;
}

const currentTime = (video: ReturnType<Page['getByLabel']>) => video.evaluate((element: HTMLVideoElement) => element.currentTime);

test("a subscriber's place is kept: resumed after leaving, completed at the end with the next lecture counting down, shown on the cards and the home page; the admin counts them", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  const { email, password } = adminCredentials();
  await logInAs(admin, email, password);
  const startedBefore = await startedCount(admin);

  await signUp(page, newPerson('progress'));
  await page.goto('/checkout');
  await exclusively('payments', async () => {
    await payWithCard(page, CARDS.pays);
    await expect(page).toHaveURL(/\/checkout\/success$/);
  });

  // Lecture 1 plays for a few seconds, and is paused: the place is saved.
  await page.goto('/courses');
  await page.getByRole('button', { name: COURSE.title, exact: true }).click();
  await page.getByRole('button', { name: 'watch lectures' }).click();
  await lectureInList(page, COURSE.lectures[0]!).click();
  const first = page.getByLabel(`Lecture 1: ${COURSE.lectures[0]}`);
  await expect.poll(() => currentTime(first), { message: 'lecture 1 plays', timeout: 15_000 }).toBeGreaterThan(3);
  const saved = page.waitForResponse((response) => response.url().includes('/api/v1/progress/lectures/') && response.request().method() === 'POST');
  await first.evaluate((element: HTMLVideoElement) => element.pause());
  expect((await saved).status()).toBe(200);
  const stoppedAt = await currentTime(first);

  // Leaving and coming back through the course page: the lecture opens where it stopped, and says so.
  await page.goto('/courses');
  const card = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: COURSE.title, exact: true }) });
  await expect(card.getByRole('progressbar', { name: '0 of 2 lectures · 0 %' })).toBeVisible();
  await card.getByRole('button', { name: COURSE.title, exact: true }).click();
  await page.getByRole('button', { name: 'watch lectures' }).click();
  await expect(page).toHaveURL(/[?&]lecture=/);
  await expect(page.getByRole('status').filter({ hasText: /^Resumed at 0:0\d/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start over' })).toBeVisible();
  await expect(lectureInList(page, COURSE.lectures[0]!)).toHaveAccessibleName(/Stopped at 0:0\d/);
  const resumed = page.getByLabel(`Lecture 1: ${COURSE.lectures[0]}`);
  await expect.poll(() => currentTime(resumed), { message: 'the video starts where it stopped', timeout: 15_000 }).toBeGreaterThan(stoppedAt - 1);
  expect(await currentTime(resumed)).toBeLessThan(stoppedAt + 3);
  expect.soft(await seriousViolations(page), 'axe on a resumed lecture').toEqual([]);

  // To the end: the check in the list, the course at 50 %, and the next lecture counting down, then playing.
  await play(resumed, { nearEnd: true });
  const upNext = page.getByRole('region', { name: 'Up next' });
  await expect(upNext).toBeVisible({ timeout: 15_000 });
  await expect(upNext.getByText(/^Next lecture in [1-5] s$/)).toBeVisible();
  await expect(upNext.getByText(COURSE.lectures[1]!)).toBeVisible();
  await expect(lectureInList(page, COURSE.lectures[0]!)).toHaveAccessibleName(/^Completed /);
  await expect(page.getByRole('progressbar', { name: '1 of 2 lectures · 50 %' })).toBeVisible();
  expect.soft(await seriousViolations(page), 'axe with the next-lecture countdown').toEqual([]);
  await expect(page.getByLabel(`Lecture 2: ${COURSE.lectures[1]}`)).toBeVisible({ timeout: 10_000 });
  await expect(upNext).toHaveCount(0);

  // The home page continues where the learner is; the catalogue's card shows the course's progress.
  await page.goto('/');
  const continuing = page.getByRole('region', { name: 'Continue watching' });
  await expect(continuing.getByRole('link', { name: new RegExp(COURSE.title) })).toBeVisible();
  await expect(continuing.getByRole('progressbar', { name: '1 of 2 lectures · 50 %' })).toBeVisible();
  expect.soft(await seriousViolations(page), 'axe on the home page with Continue watching').toEqual([]);
  await continuing.getByRole('link', { name: new RegExp(COURSE.title) }).click();
  await expect(page).toHaveURL(new RegExp(`/course/lecture\\?id=[^&]+&lecture=`));
  await expect(page.getByLabel(/^Lecture 2: /)).toBeVisible();
  await page.goto('/courses');
  await expect(page.getByRole('progressbar', { name: '1 of 2 lectures · 50 %' })).toBeVisible();

  // The admin sees one more learner who started the course.
  await admin.goto('/admin/dashboard');
  const engagement = admin.getByRole('region', { name: 'Learner engagement' });
  await expect(engagement.getByRole('listitem').filter({ hasText: COURSE.title })).toContainText(`${startedBefore + 1} started`);
  expect.soft(await seriousViolations(admin), 'axe on the dashboard with engagement').toEqual([]);
  await adminContext.close();
});
