import { request as playwrightRequest } from '@playwright/test';
import { adminCredentials, expect, logInAs, newPerson, pngFile, test } from './fixtures.ts';
import { LECTURE_VIDEO, lectureInList, publishCourse } from './journeys.ts';

/** contract/src/courses.ts's TITLE_MAX, as the user reads it under the field (the specs do not import the workspace). */
const TITLE_MAX = 120;

/**
 * The admin's side of free previews, all through the screens: create a course (the title's counter and
 * the thumbnail's refusal on the way), add a lecture marked "Free preview", see it badged in the lecture
 * list, switch it off and on again. A visitor (no cookie at all) reads the public curriculum after each step.
 * e2e/course-page.spec.ts plays the preview as a visitor; this is the admin's journey to it.
 */
test('the admin creates a course, adds a free preview lecture, and switches it off and on; a visitor sees each change', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const { email, password } = adminCredentials();
  const visitor = await playwrightRequest.newContext({ baseURL });
  const title = `Preview journey ${newPerson('preview').fullName.split(' ').at(-1)}`;
  const lectureTitle = 'Welcome and what you will build';
  let courseId: string | undefined;
  const visitorSees = async () => {
    const answer = await visitor.get(`/api/v1/courses/${courseId}/curriculum`);
    expect(answer.ok(), await answer.text()).toBe(true);
    const { lectures } = (await answer.json()) as { lectures: { title: string; preview: boolean }[] };
    return lectures.map(({ title: name, preview }) => ({ title: name, preview }));
  };

  try {
    await logInAs(page, email, password);
    await page.goto('/course/create');
    await expect(page.getByRole('heading', { level: 1, name: 'Create new course' })).toBeVisible();

    // A title past the limit is kept as typed, counted, and said to be too long.
    const courseTitle = page.getByLabel('Course title');
    const tooLong = `${title} ${'x'.repeat(TITLE_MAX)}`;
    await courseTitle.fill(tooLong);
    await expect(courseTitle).toHaveValue(tooLong);
    await expect(page.getByText(`${tooLong.length}/${TITLE_MAX}`)).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'Title should be at most 120 characters' })).toBeVisible();
    await courseTitle.fill(title);
    await expect(page.getByText(`${title.length}/${TITLE_MAX}`)).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'Title should be at most 120 characters' })).toHaveCount(0);

    // A PDF picked as the thumbnail is refused at once; a real PNG is taken.
    const thumbnail = page.getByLabel('Course thumbnail');
    await thumbnail.setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%âãÏÓ\n') });
    await expect(page.getByRole('alert').filter({ hasText: '“notes.pdf” was not used: Thumbnail must be a jpg, jpeg or png image' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Preview of the thumbnail' })).toHaveCount(0);
    await thumbnail.setInputFiles(pngFile('cover.png', [40, 120, 200], 64));
    await expect(page.getByRole('img', { name: 'Preview of the thumbnail' })).toBeVisible();
    await expect(page.getByText('was not used')).toHaveCount(0);

    await page.getByLabel('Course instructor').fill('Ada Tester');
    await page.getByLabel('Course category').fill('Testing');
    await page.getByLabel('Course description').fill('A course made in the end-to-end tests, removed when they end.');
    await page.getByRole('button', { name: 'Create course' }).click();
    // The new course is a draft, opened in its editor: visitors cannot see it.
    await expect(page).toHaveURL(/\/course\/edit\?id=/);
    courseId = new URL(page.url()).searchParams.get('id')!;
    expect((await visitor.get(`/api/v1/courses/${courseId}/curriculum`)).status()).toBe(404);

    // A lecture, ticked as a free preview, with the hint saying what that means, added from the course's lecture page.
    await page.getByRole('link', { name: 'Open lectures' }).click();
    const list = page.getByRole('complementary', { name: 'Lectures list' });
    await list.getByRole('button', { name: 'Add new lecture' }).click();
    await expect(page).toHaveURL(/\/course\/addlecture\?id=/);
    await page.getByLabel('Title', { exact: true }).fill(lectureTitle);
    await page.getByLabel('Description', { exact: true }).fill('What the course covers; anyone may watch it.');
    await page.getByLabel('Video', { exact: true }).setInputFiles(LECTURE_VIDEO);
    const tick = page.getByRole('checkbox', { name: 'Free preview' });
    await expect(tick).toHaveAccessibleDescription('Anyone can watch it from the course page, no subscription needed.');
    await tick.check();
    await page.getByRole('button', { name: 'Add new lecture' }).click();
    await expect(page).toHaveURL(/\/course\/lecture\?id=/, { timeout: 30_000 });

    // The list shows it, badged, with its switch on; published, visitors see it.
    await expect(lectureInList(page, lectureTitle)).toBeVisible();
    await publishCourse(page.request, courseId);
    const row = list.getByRole('listitem').filter({ hasText: lectureTitle });
    const toggle = row.getByRole('checkbox', { name: `Free preview: ${lectureTitle}` });
    await expect(toggle).toBeChecked();
    await expect(row.locator('.badge', { hasText: 'Free preview' })).toBeVisible();
    expect(await visitorSees()).toEqual([{ title: lectureTitle, preview: true }]);

    // Off: the server says so, the badge goes, and the visitor no longer sees a preview.
    await toggle.uncheck();
    await expect(page.getByText('The lecture is no longer a free preview')).toBeVisible();
    await expect(toggle).not.toBeChecked();
    await expect(row.locator('.badge', { hasText: 'Free preview' })).toHaveCount(0);
    await expect.poll(visitorSees).toEqual([{ title: lectureTitle, preview: false }]);
    await page.reload();
    await expect(list.getByRole('checkbox', { name: `Free preview: ${lectureTitle}` })).not.toBeChecked();

    // And on again.
    await list.getByRole('checkbox', { name: `Free preview: ${lectureTitle}` }).check();
    await expect(page.getByText('The lecture is now a free preview')).toBeVisible();
    await expect(row.locator('.badge', { hasText: 'Free preview' })).toBeVisible();
    await expect.poll(visitorSees).toEqual([{ title: lectureTitle, preview: true }]);
  } finally {
    if (courseId) await page.request.delete(`/api/v1/courses/${courseId}`);
    await visitor.dispose();
  }
});
