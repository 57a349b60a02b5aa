import { adminCredentials, expect, logInAs, newPerson, pngFile, signUp, test } from './fixtures.ts';
import { BUNDLE_PRICE, CARDS, LECTURE_VIDEO, exclusively, lectureInList, payWithCard, releaseLocks, statFigure } from './journeys.ts';

test.afterEach(releaseLocks);

test('the admin creates a course, uploads a lecture watching its progress, deletes the lecture, then the course', async ({ page }) => {
  test.setTimeout(120_000);
  const { email, password } = adminCredentials();
  // Unique, so that tests running side by side never meet.
  const title = newPerson('course').fullName;
  const lecture = { title: 'Getting started', description: 'A first look at what this course covers.' };
  await logInAs(page, email, password);

  // Create the course with a thumbnail: a draft, the admin lands on its editor; the catalogue shows it to them alone, marked as a draft.
  await page.goto('/course/create');
  await page.getByLabel('Course thumbnail').setInputFiles(pngFile('thumbnail.png', [240, 140, 20], 64));
  await expect(page.getByRole('img', { name: 'Preview of the thumbnail' })).toBeVisible();
  await page.getByLabel('Course title').fill(title);
  await page.getByLabel('Course instructor').fill('Priya Sharma');
  await page.getByLabel('Course category').fill('Testing');
  await page.getByLabel('Course description').fill('Everything about checking that software works, end to end.');
  await page.getByRole('button', { name: 'Create course' }).click();
  await expect(page).toHaveURL(/\/course\/edit\?id=[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole('main').getByText('Draft', { exact: true })).toBeVisible();
  await expect(page.getByText('No lectures yet. Add the first one, then arrange them here.')).toBeVisible();
  await page.goto('/courses');
  const card = page.getByRole('button', { name: title, exact: true });
  await expect(card).toBeVisible();
  await expect(page.getByRole('listitem').filter({ has: card }).getByText('Draft', { exact: true })).toBeVisible();
  // The thumbnail the server stored, served back (decorative on the card: the title names it).
  const thumbnail = page.getByRole('listitem').filter({ has: card }).locator('img');
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);

  // From the dashboard to its lectures: none yet.
  await page.goto('/admin/dashboard');
  await page.getByRole('button', { name: `Manage lectures of ${title}` }).click();
  await expect(page).toHaveURL(/\/course\/lecture\?id=/);
  await expect(page.getByRole('heading', { level: 1, name: `Course: ${title}` })).toBeVisible();
  await expect(page.getByText('This course has no lectures yet.')).toBeVisible();

  // Upload a lecture over a slow line, so that its progress shows.
  await page.getByRole('button', { name: 'Add new lecture' }).click();
  await expect(page).toHaveURL(/\/course\/addlecture\?id=/);
  await page.getByLabel('Title', { exact: true }).fill(lecture.title);
  await page.getByLabel('Description', { exact: true }).fill(lecture.description);
  await page.getByLabel('Video', { exact: true }).setInputFiles(LECTURE_VIDEO);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 64 * 1024 });
  await page.getByRole('button', { name: 'Add new lecture' }).click();
  const progress = page.getByRole('progressbar', { name: 'Upload progress' });
  await expect(progress).toBeVisible();
  await expect(page.getByText(/^Uploading… \d{1,3}%$/)).toBeVisible();
  // The bar moves while the file goes up.
  await expect.poll(() => progress.evaluate((bar: HTMLProgressElement) => bar.value)).toBeGreaterThan(0);
  await expect(page.getByRole('button', { name: 'Cancel upload' })).toBeVisible();

  // Done: back on the lecture page, which lists and shows the new lecture.
  await expect(page).toHaveURL(/\/course\/lecture\?id=/, { timeout: 30_000 });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  const list = page.getByRole('complementary', { name: 'Lectures list' });
  await expect(lectureInList(page, lecture.title)).toBeVisible();
  const video = page.getByLabel(`Lecture 1: ${lecture.title}`);
  await expect(video).toBeVisible();
  await expect(page.getByText(lecture.description)).toBeVisible();
  // The stored file is the uploaded video: the browser reads its 8 seconds.
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => Math.round(element.duration || 0))).toBe(8);

  // Delete it.
  page.once('dialog', (dialog) => void dialog.accept());
  await list.getByRole('button', { name: `Delete lecture: ${lecture.title}` }).click();
  await expect(lectureInList(page, lecture.title)).toHaveCount(0);
  await expect(page.getByText('This course has no lectures yet.')).toBeVisible();

  // Delete the course from the dashboard, after saying yes.
  await page.goto('/admin/dashboard');
  const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${title} `) }) });
  await expect(row).toBeVisible();
  const asked = new Promise<string>((resolve) =>
    page.once('dialog', (dialog) => {
      resolve(dialog.message());
      void dialog.accept();
    }),
  );
  await row.getByRole('button', { name: `Delete ${title}` }).click();
  expect(await asked).toBe('Are you sure you want to delete the course?');
  await expect(row).toHaveCount(0);

  await page.goto('/courses');
  await expect(page.getByRole('button', { name: 'UI Design Fundamentals', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: title, exact: true })).toHaveCount(0);
  await page.goto(`/courses?search=${encodeURIComponent(title)}`);
  await expect(page.getByText('No courses match your search.')).toBeVisible();
});

test("the dashboard's subscription figures move after a new user pays", async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  const { email, password } = adminCredentials();
  await logInAs(page, email, password);
  await page.goto('/admin/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();

  // No other journey pays or cancels between the two readings.
  await exclusively('payments', async () => {
    const read = async () => ({
      subscribedUsers: await statFigure(page, 'Subscribed Users'),
      subscriptionCount: await statFigure(page, 'Subscription Count'),
      totalRevenue: await statFigure(page, 'Total Revenue'),
    });
    const before = await read();

    const buyer = await browser.newContext({ baseURL });
    try {
      const buyerPage = await buyer.newPage();
      await signUp(buyerPage, newPerson('buyer'));
      await buyerPage.goto('/checkout');
      await payWithCard(buyerPage, CARDS.pays);
      await expect(buyerPage).toHaveURL(/\/checkout\/success$/);
    } finally {
      await buyer.close();
    }

    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
    expect(await read()).toEqual({
      subscribedUsers: before.subscribedUsers + 1,
      subscriptionCount: before.subscriptionCount + 1,
      totalRevenue: before.totalRevenue + BUNDLE_PRICE,
    });
  });
});
