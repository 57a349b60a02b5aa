import fs from 'node:fs';
import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { adminCredentials, expect, logInAs, newPerson, pngFile, test, type Page } from './fixtures.ts';
import { BUNDLE_PRICE, LECTURE_VIDEO, horizontalOverflow, lectureInList, publishCourse, seriousViolations } from './journeys.ts';

// axe is injected as an inline script, which the server's Content-Security-Policy would (rightly) refuse.
test.use({ bypassCSP: true });

const LECTURES = [
  { title: 'A free first look', description: 'What the course covers, free for anyone.', preview: true },
  { title: 'The members-only deep dive', description: 'For subscribers.', preview: false },
];

/** The administrator, signed in through the API (its own cookie jar), for setting up what a journey needs. */
async function adminApi(baseURL: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL });
  const { email, password } = adminCredentials();
  const login = await api.post('/api/v1/user/login', { data: { email, password } });
  expect(login.ok(), await login.text()).toBe(true);
  return api;
}

/** A new course of the admin's with a free preview lecture and a private one (the demo video), made through the API. */
async function courseWithPreview(
  api: APIRequestContext,
  label: string,
  description = 'Checking software end to end.\nSecond paragraph: what you will be able to do.',
) {
  // Unique, so that tests running side by side never meet.
  const title = `Course page ${newPerson(label).fullName.split(' ').at(-1)}`;
  const created = await api.post('/api/v1/courses', {
    multipart: {
      title,
      category: 'Testing',
      createdBy: 'Ada Tester',
      description,
      thumbnail: pngFile('thumbnail.png', [60, 90, 200], 64),
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { course } = (await created.json()) as { course: { _id: string } };
  const video = { name: 'lecture.mp4', mimeType: 'video/mp4', buffer: fs.readFileSync(LECTURE_VIDEO) };
  const ids: string[] = [];
  for (const lecture of LECTURES) {
    const added = await api.post(`/api/v1/courses/${course._id}`, {
      multipart: { title: lecture.title, description: lecture.description, preview: String(lecture.preview), lectures: video },
    });
    expect(added.ok(), await added.text()).toBe(true);
    const { course: withLectures } = (await added.json()) as { course: { lectures: { _id: string; title: string }[] } };
    ids.push(withLectures.lectures.find((item) => item.title === lecture.title)!._id);
  }
  await publishCourse(api, course._id);
  return { id: course._id, title, lectureIds: ids };
}

/** Whether the page scrolls sideways (what a phone's user notices), with what sticks out if it does. */
async function expectNoSidewaysScroll(page: Page, where: string) {
  const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(fits ? [] : await horizontalOverflow(page), `sideways scroll on ${where}`).toEqual([]);
  // Nor is anything cut off by a box that hides its overflow: every element of the page ends inside the window.
  const outside = await page.evaluate(() =>
    Array.from(document.querySelectorAll('main *, dialog *'))
      .filter((element) => element.getClientRects().length > 0 && element.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} right=${Math.round(element.getBoundingClientRect().right)}`),
  );
  expect(outside, `elements past the right edge on ${where}`).toEqual([]);
}

test('a visitor opens a shared course link, sees the curriculum, plays a free preview, cannot play the rest, and Subscribe leads to login or signup', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const api = await adminApi(baseURL!);
  const course = await courseWithPreview(api, 'visitor');
  try {
    // Opened directly, as a shared link is: nothing passed along by the catalogue.
    await page.goto(`/course/description?id=${course.id}`);
    await expect(page.getByRole('heading', { level: 1, name: course.title })).toBeVisible();
    await expect(page).toHaveTitle(`${course.title} · LMS`);
    const main = page.getByRole('main');
    await expect(main.getByText('Ada Tester').first()).toBeVisible();
    await expect(main.getByRole('link', { name: 'Testing' })).toBeVisible();

    const content = page.getByRole('region', { name: 'Course content' });
    await expect(content.getByText(/^2 lectures/)).toBeVisible();
    await expect(content.getByRole('listitem')).toHaveCount(2);
    await expect(content.getByRole('listitem').nth(0)).toContainText(LECTURES[0]!.title);
    await expect(content.getByRole('listitem').nth(0)).toContainText('Preview');
    await expect(content.getByRole('listitem').nth(1)).toContainText(LECTURES[1]!.title);

    // The price card: the server's price per month, and the refund rule in words.
    const card = page.getByRole('region', { name: 'Subscription Bundle' });
    await expect(card.getByText(`₹${BUNDLE_PRICE}`, { exact: true })).toBeVisible();
    await expect(card.getByText('per month')).toBeVisible();
    await expect(card.getByText(/we refund it in full/)).toBeVisible();

    expect(await seriousViolations(page), 'axe on the course page (light, desktop)').toEqual([]);

    // The free preview plays: its time moves on.
    await content.getByRole('button', { name: `Play the free preview: ${LECTURES[0]!.title}` }).click();
    const dialog = page.getByRole('dialog', { name: course.title });
    await expect(dialog).toBeVisible();
    const video = dialog.getByLabel(`Free preview of ${LECTURES[0]!.title}`);
    await expect
      .poll(
        () => video.evaluate((element: HTMLVideoElement) => ({ error: element.error?.message ?? null, playing: element.currentTime > 0.5 && !element.paused })),
        {
          message: 'the preview plays',
          timeout: 15_000,
        },
      )
      .toEqual({ error: null, playing: true });
    expect(await seriousViolations(page), 'axe with the preview open').toEqual([]);
    // Escape closes it, and the video goes with it (no sound plays on).
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.locator('video')).toHaveCount(0);

    // The other lecture offers nothing to play, and the server gives a visitor no way to it.
    await expect(content.getByRole('button', { name: new RegExp(LECTURES[1]!.title) })).toHaveCount(0);
    await expect(content.getByRole('listitem').nth(1)).toContainText('for subscribers');
    const curriculum = (await (await page.request.get(`/api/v1/courses/${course.id}/curriculum`)).json()) as {
      lectures: { title: string; secure_url?: string }[];
    };
    expect(curriculum.lectures.map((lecture) => [lecture.title, Boolean(lecture.secure_url)])).toEqual([
      [LECTURES[0]!.title, true],
      [LECTURES[1]!.title, false],
    ]);
    expect((await page.request.get(`/api/v1/courses/${course.id}`)).status()).toBe(401);

    // A phone in the dark theme: the card follows the header, nothing scrolls sideways, axe is still clean.
    await page.setViewportSize({ width: 360, height: 740 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await expect(content.getByRole('listitem')).toHaveCount(2);
    await page.waitForLoadState('networkidle');
    const [header, price, list] = await Promise.all([page.getByRole('heading', { level: 1 }).boundingBox(), card.boundingBox(), content.boundingBox()]);
    expect(header!.y).toBeLessThan(price!.y);
    expect(price!.y).toBeLessThan(list!.y);
    await expectNoSidewaysScroll(page, 'the course page at 360 px');
    expect(await seriousViolations(page), 'axe on the course page (dark, 360 px)').toEqual([]);

    // Subscribe: to the checkout, which asks a visitor to log in or sign up first and brings them back.
    await page.setViewportSize({ width: 1280, height: 800 });
    await card.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page).toHaveURL(
      new RegExp(`/login\\?next=${encodeURIComponent(`/checkout?from=${encodeURIComponent(`/course/description?id=${course.id}`)}`)}$`),
    );
    await expect(page.getByRole('link', { name: 'Create account' })).toBeVisible();
  } finally {
    await api.delete(`/api/v1/courses/${course.id}`);
    await api.dispose();
  }
});

test('on a desktop the price card stays in view while the curriculum and description scroll by', async ({ page, baseURL }) => {
  const api = await adminApi(baseURL!);
  // A description long enough to scroll by: thirty short paragraphs.
  const course = await courseWithPreview(api, 'sticky', Array.from({ length: 30 }, (_, i) => `Paragraph ${i + 1} of what the course teaches.`).join('\n\n'));
  try {
    await page.setViewportSize({ width: 1280, height: 700 });
    await page.goto(`/course/description?id=${course.id}`);
    const card = page.getByRole('region', { name: 'Subscription Bundle' });
    const subscribe = card.getByRole('button', { name: 'Subscribe' });
    await expect(subscribe).toBeInViewport();
    const heading = page.getByRole('heading', { level: 1 });
    const before = (await card.boundingBox())!;
    expect(before.x).toBeGreaterThan((await heading.boundingBox())!.x + 400);
    await page.getByRole('heading', { name: 'Instructor' }).scrollIntoViewIfNeeded();
    await expect(heading).not.toBeInViewport();
    await expect(page.getByRole('region', { name: 'Course content' })).not.toBeInViewport();
    await expect(subscribe).toBeInViewport();
    // Still in its column, beside the text.
    expect((await card.boundingBox())!.x).toBe(before.x);
  } finally {
    await api.delete(`/api/v1/courses/${course.id}`);
    await api.dispose();
  }
});

test('an unknown course id says the course is not there, with the way to the catalogue', async ({ page }) => {
  await page.goto('/course/description?id=00000000-0000-4000-8000-00000000dead');
  await expect(page.getByRole('heading', { level: 1, name: 'Course not found' })).toBeVisible();
  await expect(page).toHaveTitle('Course not found · LMS');
  await page.getByRole('link', { name: 'Browse the courses' }).click();
  await expect(page).toHaveURL(/\/courses$/);
});

test('the admin marks a lecture as a free preview in the add-lecture form, and switches it in the lecture list', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const { email, password } = adminCredentials();
  const api = await adminApi(baseURL!);
  const course = await courseWithPreview(api, 'admin');
  try {
    await logInAs(page, email, password);
    await page.goto(`/course/lecture?id=${course.id}`);
    await expect(page.getByRole('heading', { level: 1, name: `Course: ${course.title}` })).toBeVisible();
    const list = page.getByRole('complementary', { name: 'Lectures list' });
    await expect(list.getByRole('checkbox', { name: `Free preview: ${LECTURES[0]!.title}` })).toBeChecked();
    await expect(list.getByRole('checkbox', { name: `Free preview: ${LECTURES[1]!.title}` })).not.toBeChecked();

    // A new lecture, as a free preview.
    const title = 'Preview made in the form';
    await list.getByRole('button', { name: 'Add new lecture' }).click();
    await expect(page).toHaveURL(/\/course\/addlecture\?id=/);
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page.getByLabel('Description', { exact: true }).fill('Free for everyone.');
    await page.getByLabel('Video', { exact: true }).setInputFiles(LECTURE_VIDEO);
    await page.getByRole('checkbox', { name: 'Free preview' }).check();
    await page.getByRole('button', { name: 'Add new lecture' }).click();
    await expect(page).toHaveURL(/\/course\/lecture\?id=/, { timeout: 30_000 });
    await expect(lectureInList(page, title)).toBeVisible();
    const made = list.getByRole('checkbox', { name: `Free preview: ${title}` });
    await expect(made).toBeChecked();

    // The course page plays it for anyone.
    const visitorView = async () =>
      ((await (await page.request.get(`/api/v1/courses/${course.id}/curriculum`)).json()) as { lectures: { title: string; preview: boolean }[] }).lectures.find(
        (lecture) => lecture.title === title,
      )?.preview;
    expect(await visitorView()).toBe(true);

    // Switched off in the list: the server says so, the switch stays off after a reload, and the course page stops offering it.
    await made.uncheck();
    await expect(page.getByText('The lecture is no longer a free preview')).toBeVisible();
    await expect.poll(visitorView).toBe(false);
    await page.reload();
    await expect(list.getByRole('checkbox', { name: `Free preview: ${title}` })).not.toBeChecked();
    await page.goto(`/course/description?id=${course.id}`);
    const content = page.getByRole('region', { name: 'Course content' });
    await expect(content.getByRole('listitem')).toHaveCount(3);
    await expect(content.getByRole('button', { name: new RegExp(title) })).toHaveCount(0);

    // And on again.
    await page.goto(`/course/lecture?id=${course.id}`);
    await list.getByRole('checkbox', { name: `Free preview: ${title}` }).check();
    await expect(page.getByText('The lecture is now a free preview')).toBeVisible();
    await page.goto(`/course/description?id=${course.id}`);
    await expect(content.getByRole('button', { name: `Play the free preview: ${title}` })).toBeVisible();
  } finally {
    await api.delete(`/api/v1/courses/${course.id}`);
    await api.dispose();
  }
});

test('leaving the add-lecture page while the video uploads asks first; leaving stops the upload', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const { email, password } = adminCredentials();
  const api = await adminApi(baseURL!);
  const course = await courseWithPreview(api, 'leave');
  try {
    await logInAs(page, email, password);
    await page.goto(`/course/lecture?id=${course.id}`);
    await page.getByRole('button', { name: 'Add new lecture' }).click();
    await page.getByLabel('Title', { exact: true }).fill('Never finished');
    await page.getByLabel('Description', { exact: true }).fill('Left half-way.');
    await page.getByLabel('Video', { exact: true }).setInputFiles(LECTURE_VIDEO);
    // A slow line, so that the upload is still going when the admin tries to leave.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 8 * 1024 });
    await page.getByRole('button', { name: 'Add new lecture' }).click();
    await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();

    // Reloading the tab: the browser's own question; dismissed, the page stays.
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.type());
        void dialog.dismiss();
      }),
    );
    await page.reload({ timeout: 3_000 }).catch(() => undefined);
    expect(await asked).toBe('beforeunload');
    await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();

    // In the app: the page's own question. Stay, then leave.
    await page.getByRole('button', { name: 'Go back' }).click();
    const question = page.getByRole('dialog', { name: 'Leave and cancel the upload?' });
    await expect(question).toBeVisible();
    await question.getByRole('button', { name: 'Stay' }).click();
    await expect(question).toBeHidden();
    await expect(page).toHaveURL(/\/course\/addlecture\?id=/);
    await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();

    await page.getByRole('button', { name: 'Go back' }).click();
    await question.getByRole('button', { name: 'Leave and cancel the upload' }).click();
    await expect(page).toHaveURL(/\/course\/lecture\?id=/);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await expect(lectureInList(page, LECTURES[0]!.title)).toBeVisible();
    await expect(lectureInList(page, 'Never finished')).toHaveCount(0);
    // Nothing was added behind the admin's back.
    const { lectures } = (await (await api.get(`/api/v1/courses/${course.id}/curriculum`)).json()) as { lectures: unknown[] };
    expect(lectures).toHaveLength(2);
  } finally {
    await api.delete(`/api/v1/courses/${course.id}`);
    await api.dispose();
  }
});
