import type { Locator } from '@playwright/test';
import { adminCredentials, expect, logInAs, newPerson, signUp, test, type Page } from './fixtures.ts';
import { CARDS, createCourseWithLectures, exclusively, lectureInList, payWithCard, publishCourse, releaseLocks } from './journeys.ts';

test.afterEach(releaseLocks);

/** Three English cues over the 8 s demo video; the middle one holds the phrase searched for. */
const ENGLISH = [
  'WEBVTT',
  '',
  '00:00:01.000 --> 00:00:03.000',
  'Welcome to the caption journey.',
  '',
  '00:00:03.500 --> 00:00:05.500',
  'The quokka counts every row.',
  '',
  '00:00:06.000 --> 00:00:07.800',
  'That is all for today.',
  '',
].join('\n');
/** The same in Hindi, as SRT (numbered cues, commas before the milliseconds, CRLF): stored as WebVTT. */
const HINDI = ['1', '00:00:01,000 --> 00:00:03,000', 'कैप्शन की यात्रा में स्वागत है।', '', '2', '00:00:03,500 --> 00:00:05,500', 'क्वोक्का हर पंक्ति गिनता है।', ''].join(
  '\r\n',
);

const LECTURE = 'Counting rows';
const theVideo = (page: Page) => page.getByLabel(`Lecture 1: ${LECTURE}`);

/** The text of the cues the browser shows now: the active cues of the track that is showing, and its language. */
const shownCaptions = (video: Locator) =>
  video.evaluate((element: HTMLVideoElement) => {
    const showing = [...element.textTracks].filter((track) => track.mode === 'showing');
    return showing.map((track) => ({ language: track.language, cues: [...(track.activeCues ?? [])].map((cue) => (cue as VTTCue).text) }));
  });
const timeOf = (video: Locator) => video.evaluate((element: HTMLVideoElement) => element.currentTime);

/** Pauses the video at `seconds` and waits for the browser to get there. */
async function pauseAt(video: Locator, seconds: number) {
  await video.evaluate(async (element: HTMLVideoElement, at) => {
    element.pause();
    element.currentTime = at;
    await new Promise((resolve) => element.addEventListener('seeked', resolve, { once: true }));
  }, seconds);
}

test('captions: the admin adds English WebVTT and Hindi SRT; a subscriber turns English on and reads a cue at its time, in full screen too; a transcript line seeks; a phrase searched opens the lecture there; a visitor cannot fetch them', async ({
  browser,
  page,
}) => {
  test.setTimeout(240_000);
  const { email, password } = adminCredentials();
  await logInAs(page, email, password);
  const title = `Captioned ${newPerson('c').fullName}`;
  // One lecture for subscribers (not a free preview), streamed as HLS once its ladder is made.
  const { courseId } = await createCourseWithLectures(
    page.request,
    { title, category: 'Data', createdBy: 'Priya Sharma', description: 'A course whose lecture has captions.' },
    [{ title: LECTURE, description: 'Rows, counted out loud.' }],
  );
  const lectureOf = async () =>
    ((await (await page.request.get(`/api/v1/courses/${courseId}`)).json()) as { lectures: { _id: string; hls_url: string | null }[] }).lectures[0]!;
  await expect.poll(async () => (await lectureOf()).hls_url, { message: 'the ladder is made', timeout: 90_000 }).toMatch(/^\/media\/hls\//);
  const lectureId = (await lectureOf())._id;

  // The admin adds English (WebVTT) and Hindi (SRT) on the lecture page.
  await page.goto(`/course/lecture?id=${courseId}`);
  const captions = page.getByRole('region', { name: 'Captions', exact: true });
  for (const [file, language, label] of [
    [{ name: 'english.vtt', mimeType: 'text/vtt', buffer: Buffer.from(ENGLISH) }, 'en', 'English'],
    [{ name: 'hindi.srt', mimeType: 'application/x-subrip', buffer: Buffer.from(HINDI) }, 'hi', 'हिन्दी'],
  ] as const) {
    await captions.getByRole('button', { name: 'Add captions' }).click();
    await page.getByLabel('Captions file').setInputFiles(file);
    await page.getByLabel('Language', { exact: true }).selectOption(language);
    await expect(page.getByLabel('Label', { exact: true })).toHaveValue(label);
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect(captions.getByText(label, { exact: true })).toBeVisible({ timeout: 20_000 });
  }
  // The first is the default; the SRT was stored as WebVTT.
  const listed = (await (await page.request.get(`/api/v1/courses/${courseId}/lectures/${lectureId}/captions`)).json()) as {
    captions: { language: string; isDefault: boolean; cueCount: number; url: string }[];
  };
  expect(listed.captions.map(({ language, isDefault, cueCount }) => ({ language, isDefault, cueCount }))).toEqual([
    { language: 'en', isDefault: true, cueCount: 3 },
    { language: 'hi', isDefault: false, cueCount: 2 },
  ]);
  const hindiFile = await (await page.request.get(listed.captions[1]!.url)).text();
  expect(hindiFile).toMatch(/^WEBVTT\n/);
  expect(hindiFile).toContain('00:00:03.500 --> 00:00:05.500\nक्वोक्का हर पंक्ति गिनता है।');
  await publishCourse(page.request, courseId);

  // A subscriber plays the lecture and turns English on: the middle cue shows at 4 s, and in full screen.
  const learnerContext = await browser.newContext();
  const learner = await learnerContext.newPage();
  await signUp(learner, newPerson('captions'));
  await learner.goto('/checkout');
  await exclusively('payments', async () => {
    await payWithCard(learner, CARDS.pays);
    await expect(learner).toHaveURL(/\/checkout\/success$/);
  });
  await learner.goto(`/course/lecture?id=${courseId}`);
  await lectureInList(learner, LECTURE).click();
  const video = theVideo(learner);
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.src), { message: 'hls.js plays it' }).toMatch(/^blob:/);
  const cc = learner.getByRole('button', { name: 'Captions', exact: true });
  await cc.click();
  await learner.getByRole('menuitemradio', { name: 'English' }).click();
  await expect(cc).toHaveAttribute('aria-pressed', 'true');
  await pauseAt(video, 4);
  await expect
    .poll(() => shownCaptions(video), { message: 'the cue at 4 s shows', timeout: 20_000 })
    .toEqual([{ language: 'en', cues: ['The quokka counts every row.'] }]);

  await learner.getByRole('button', { name: 'Full screen' }).click();
  await expect
    .poll(() => learner.evaluate(() => document.fullscreenElement?.querySelector('video') !== null && document.fullscreenElement !== null))
    .toBe(true);
  await pauseAt(video, 2);
  await expect
    .poll(() => shownCaptions(video), { message: 'captions stay on in full screen' })
    .toEqual([{ language: 'en', cues: ['Welcome to the caption journey.'] }]);
  await learner.evaluate(() => document.exitFullscreen());

  // C turns them off, and on again in the language chosen.
  await learner.locator('body').press('c');
  await expect(cc).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(() => shownCaptions(video)).toEqual([]);
  await learner.locator('body').press('c');
  await expect(cc).toHaveAttribute('aria-pressed', 'true');

  // The transcript lists the cues; a line clicked takes the video there.
  const transcript = learner.getByRole('region', { name: 'Transcript' });
  await expect(transcript.getByRole('button')).toContainText(['Welcome to the caption journey.', 'The quokka counts every row.', 'That is all for today.']);
  await transcript.getByRole('button', { name: /That is all for today\./ }).click();
  await expect.poll(() => timeOf(video), { message: 'the video is at the line' }).toBeGreaterThanOrEqual(6);
  expect(await timeOf(video)).toBeLessThan(7);
  await expect(transcript.getByRole('button', { name: /That is all for today\./ })).toHaveAttribute('aria-current', 'true');

  // The phrase, searched from the catalogue, opens the lecture where it is said.
  await learner.goto('/courses');
  await learner.getByLabel('Search courses').fill('quokka counts every row');
  await learner.getByRole('button', { name: 'Search', exact: true }).click();
  const said = learner.locator('section', { has: learner.getByRole('heading', { name: 'Said in lectures' }) });
  await expect(said.getByText(LECTURE)).toBeVisible();
  await expect(said.locator('mark').first()).toHaveText(/quokka/i);
  await said.getByRole('link', { name: `${LECTURE}, from 0:03` }).click();
  await expect(learner).toHaveURL(new RegExp(`/course/lecture\\?id=${courseId}&lecture=${lectureId}&t=3$`));
  await expect.poll(() => timeOf(theVideo(learner)), { message: 'the lecture opens at 0:03', timeout: 20_000 }).toBeGreaterThanOrEqual(3);
  expect(await timeOf(theVideo(learner))).toBeLessThan(4);

  // A visitor gets neither the list nor a subscriber's file link.
  const visitor = await browser.newContext();
  const refusedList = await visitor.request.get(`/api/v1/courses/${courseId}/lectures/${lectureId}/captions`);
  expect(refusedList.status()).toBe(401);
  const learnersList = (await (await learner.request.get(`/api/v1/courses/${courseId}/lectures/${lectureId}/captions`)).json()) as {
    captions: { url: string }[];
  };
  const copied = await visitor.request.get(learnersList.captions[0]!.url);
  expect(copied.status()).toBe(403);
  expect(await copied.text()).not.toContain('quokka');

  await visitor.close();
  await learnerContext.close();
  await page.request.delete(`/api/v1/courses/${courseId}`);
});
