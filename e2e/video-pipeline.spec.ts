import { adminCredentials, expect, logInAs, newPerson, pngFile, signUp, test } from './fixtures.ts';
import { CARDS, LECTURE_VIDEO, exclusively, lectureInList, payWithCard, play, publishCourse, releaseLocks } from './journeys.ts';

test.afterEach(releaseLocks);

test('an uploaded lecture is processed while it plays as MP4, then a subscriber streams it through hls.js with a quality menu; a non-subscriber is refused', async ({
  browser,
  page,
}) => {
  test.setTimeout(180_000);
  const { email, password } = adminCredentials();
  await logInAs(page, email, password);
  const title = `Streaming ${newPerson('v').fullName}`;
  const created = await page.request.post('/api/v1/courses', {
    multipart: {
      title,
      category: 'Video',
      createdBy: 'Priya Sharma',
      description: 'A course whose lecture goes through the video pipeline.',
      thumbnail: pngFile('thumbnail.png', [20, 120, 200], 64),
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { course } = (await created.json()) as { course: { _id: string } };

  try {
    // The admin uploads the 8 s clip, and sees it processed: then ready, with its duration.
    await page.goto('/admin/dashboard');
    await page.getByRole('button', { name: `Manage lectures of ${title}` }).click();
    await page.getByRole('button', { name: 'Add new lecture' }).click();
    await expect(page).toHaveURL(/\/course\/addlecture\?id=/);
    await page.getByLabel('Title', { exact: true }).fill('Streamed lesson');
    await page.getByLabel('Description', { exact: true }).fill('Plays as uploaded at once, then adaptively.');
    await page.getByLabel('Video', { exact: true }).setInputFiles(LECTURE_VIDEO);
    await page.getByRole('button', { name: 'Add new lecture' }).click();
    await expect(page).toHaveURL(/\/course\/lecture\?id=/, { timeout: 30_000 });
    await expect(page.getByText('Ready for streaming')).toBeVisible({ timeout: 60_000 });
    await expect(lectureInList(page, 'Streamed lesson')).toHaveText(/0:08$/);
    await publishCourse(page.request, course._id);
    const lectures = (await (await page.request.get(`/api/v1/courses/${course._id}`)).json()) as { lectures: { hls_url: string; poster_url: string }[] };
    const adminsHls = lectures.lectures[0]!.hls_url;
    expect(adminsHls).toMatch(/^\/media\/hls\//);

    // A subscriber watches: hls.js plays it (a Media Source, not the MP4), with Auto and the 360p rendition on offer.
    const subscriberContext = await browser.newContext();
    const viewer = await subscriberContext.newPage();
    await signUp(viewer, newPerson('streamer'));
    await viewer.goto('/checkout');
    await exclusively('payments', async () => {
      await payWithCard(viewer, CARDS.pays);
      await expect(viewer).toHaveURL(/\/checkout\/success$/);
    });
    await viewer.goto(`/course/lecture?id=${course._id}`);
    const video = viewer.getByLabel('Lecture 1: Streamed lesson');
    // The poster the pipeline made: from this server (/media/posters/…) or, on S3, from the bucket.
    await expect(video).toHaveAttribute('poster', /\/posters\/[0-9a-f]{32}\.webp$/);
    const quality = viewer.getByRole('combobox', { name: 'Quality' });
    await expect(quality).toBeVisible({ timeout: 20_000 });
    await expect(quality.locator('option')).toHaveText([/^Auto/, '360p']);
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.src)).toMatch(/^blob:/);
    await play(video);
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 20_000 }).toBeGreaterThan(1);
    // The space bar pauses it, as the hint says.
    await video.focus();
    await viewer.keyboard.press('Space');
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(true);
    await subscriberContext.close();

    // Someone without a subscription: the page refuses, and so does the ladder, even with a real link.
    const otherContext = await browser.newContext();
    const other = await otherContext.newPage();
    await signUp(other, newPerson('nosub'));
    await other.goto(`/course/lecture?id=${course._id}`);
    await expect(other.getByRole('alert')).toContainText('Subscribe to watch the lectures of this course');
    expect((await other.request.get(adminsHls)).status()).toBe(403);
    expect((await other.request.get(adminsHls.replace('master.m3u8', '0_00000.ts'))).status()).toBe(403);
    await otherContext.close();
  } finally {
    await page.request.delete(`/api/v1/courses/${course._id}`);
  }
});
