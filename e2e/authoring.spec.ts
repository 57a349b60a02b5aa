import fs from 'node:fs';
import { request as playwrightRequest } from '@playwright/test';
import { adminCredentials, expect, logInAs, newPerson, pngFile, signUp, test, type Page } from './fixtures.ts';
import { CARDS, LECTURE_VIDEO, exclusively, lectureInList, payWithCard, releaseLocks } from './journeys.ts';

test.afterEach(releaseLocks);

/** A real (tiny) PDF: the server takes a file by its content, not its name. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

/** The titles of the curriculum editor's lectures, in the order shown, each with the group it is in. */
async function editorOrder(page: Page) {
  const curriculum = page.getByRole('region', { name: 'Curriculum' });
  return curriculum.locator('li').evaluateAll((items) =>
    items
      .map((item) => ({
        title: item
          .querySelector('p.font-medium')
          ?.textContent?.replace(/^\d+\.\s*/, '')
          .trim(),
        group: item.closest('section')?.querySelector('h3')?.textContent?.trim(),
      }))
      .filter((row) => row.title),
  );
}

test('the admin builds a course in its editor: sections, three lectures in one drop, keyboard moves, a title edited, a PDF, publish; a subscriber sees it and downloads the PDF, a visitor cannot', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const { email, password } = adminCredentials();
  const title = `Authoring ${newPerson('a').fullName.split(' ').at(-1)}`;
  const visitor = await playwrightRequest.newContext({ baseURL });
  let courseId: string | undefined;
  try {
    await logInAs(page, email, password);
    await page.goto('/course/create');
    await page.getByLabel('Course thumbnail').setInputFiles(pngFile('cover.png', [30, 140, 90], 64));
    await page.getByLabel('Course title').fill(title);
    await page.getByLabel('Course instructor').fill('Asha Verma');
    await page.getByLabel('Course category').fill('Business');
    await page.getByLabel('Course description').fill('Ledgers, invoices and closing the books, made in the end-to-end tests.');
    await page.getByRole('button', { name: 'Create course' }).click();

    // The editor of a draft nobody else can see.
    await expect(page).toHaveURL(/\/course\/edit\?id=[0-9a-f-]{36}$/);
    courseId = new URL(page.url()).searchParams.get('id')!;
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole('main').getByText('Draft', { exact: true })).toBeVisible();
    expect((await visitor.get(`/api/v1/courses/${courseId}/curriculum`)).status()).toBe(404);

    // Two sections.
    for (const section of ['Basics', 'Practice']) {
      await page.getByLabel('New section').fill(section);
      await page.getByRole('button', { name: 'Add section' }).click();
      await expect(page.getByRole('heading', { level: 3, name: section })).toBeVisible();
    }

    // Three videos in one go, titled from their names, uploaded in the order of those names.
    const video = fs.readFileSync(LECTURE_VIDEO);
    await page
      .getByLabel('Choose videos')
      .setInputFiles(['3-closing.mp4', '1-welcome.mp4', '2-ledgers.mp4'].map((name) => ({ name, mimeType: 'video/mp4', buffer: video })));
    await expect(page.getByText('3 of 3 uploaded')).toBeVisible({ timeout: 60_000 });
    await expect
      .poll(() => editorOrder(page))
      .toEqual([
        { title: '1 welcome', group: 'Not in a section' },
        { title: '2 ledgers', group: 'Not in a section' },
        { title: '3 closing', group: 'Not in a section' },
      ]);

    // With the keyboard: out of the bottom of a group into the next section, and down within one.
    const step = async (button: string, lecture: string) => {
      const control = page.getByRole('button', { name: `${button}: ${lecture}` });
      await control.focus();
      await page.keyboard.press('Enter');
    };
    await step('Move down', '3 closing');
    await expect.poll(() => editorOrder(page)).toContainEqual({ title: '3 closing', group: 'Basics' });
    await step('Move down', '2 ledgers');
    await expect.poll(() => editorOrder(page)).toContainEqual({ title: '2 ledgers', group: 'Basics' });
    await step('Move down', '2 ledgers');
    await step('Move down', '2 ledgers');
    await expect
      .poll(() => editorOrder(page))
      .toEqual([
        { title: '1 welcome', group: 'Not in a section' },
        { title: '3 closing', group: 'Basics' },
        { title: '2 ledgers', group: 'Practice' },
      ]);

    // A title edited in place.
    await page.getByRole('button', { name: 'Edit: 3 closing' }).click();
    const form = page.getByRole('form', { name: 'Edit lecture 3 closing' });
    await form.getByLabel('Title').fill('Closing the books');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => editorOrder(page)).toContainEqual({ title: 'Closing the books', group: 'Basics' });

    // A PDF attached to the first lecture.
    await page.getByRole('button', { name: 'Files of “1 welcome”' }).click();
    // As a person can: once the lecture's files are read, the button is enabled (a file handed to the
    // picker before that, which no person can do, is not kept).
    await expect(page.getByRole('button', { name: 'Attach file' })).toBeEnabled();
    await page.getByLabel('Attach file').setInputFiles({ name: 'welcome-notes.pdf', mimeType: 'application/pdf', buffer: PDF });
    await expect(page.getByRole('link', { name: 'Download welcome-notes.pdf' })).toBeVisible();

    // Published: visitors see it.
    await page.getByRole('button', { name: 'Publish now' }).click();
    await expect(page.getByText('Visitors see it in the catalogue, and subscribers can watch it.')).toBeVisible();
    expect((await visitor.get(`/api/v1/courses/${courseId}/curriculum`)).status()).toBe(200);

    // A subscriber sees the sections, the order and the new title, and downloads the PDF.
    const learnerContext = await browser.newContext();
    const learner = await learnerContext.newPage();
    try {
      await signUp(learner, newPerson('authoring'));
      await learner.goto('/checkout');
      await exclusively('payments', async () => {
        await payWithCard(learner, CARDS.pays);
        await expect(learner).toHaveURL(/\/checkout\/success$/);
      });
      await learner.goto(`/course/lecture?id=${courseId}`);
      const list = learner.getByRole('complementary', { name: 'Lectures list' });
      await expect(list.getByRole('heading', { level: 3, name: 'Basics' })).toBeVisible();
      await expect(list.getByRole('heading', { level: 3, name: 'Practice' })).toBeVisible();
      const titles = ['1 welcome', 'Closing the books', '2 ledgers'];
      for (const lecture of titles) await expect(lectureInList(learner, lecture)).toBeVisible();
      const shown = await list.getByRole('button').evaluateAll((buttons) => buttons.map((button) => button.textContent ?? ''));
      expect(titles.map((lecture) => shown.findIndex((text) => text.includes(lecture)))).toEqual(
        [...titles.map((lecture) => shown.findIndex((text) => text.includes(lecture)))].sort((a, b) => a - b),
      );

      const link = learner.getByRole('link', { name: 'Download welcome-notes.pdf' });
      const downloading = learner.waitForEvent('download');
      await link.click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe('welcome-notes.pdf');
      expect(fs.readFileSync((await download.path())!)).toEqual(PDF);

      // A visitor cannot: not the list of files, nor the subscriber's own link.
      const lectureId = new URL(learner.url()).searchParams.get('lecture') ?? (await firstLectureId(visitor, courseId));
      expect((await visitor.get(`/api/v1/courses/${courseId}/lectures/${lectureId}/resources`)).status()).toBe(401);
      const href = await link.getAttribute('href');
      expect((await visitor.get(href!)).status()).toBe(403);
    } finally {
      await learnerContext.close();
    }
  } finally {
    if (courseId) await page.request.delete(`/api/v1/courses/${courseId}`);
    await visitor.dispose();
  }
});

/** The first lecture's id, from the public curriculum. */
async function firstLectureId(visitor: Awaited<ReturnType<typeof playwrightRequest.newContext>>, courseId: string): Promise<string> {
  const { lectures } = (await (await visitor.get(`/api/v1/courses/${courseId}/curriculum`)).json()) as { lectures: { _id: string }[] };
  return lectures[0]!._id;
}
