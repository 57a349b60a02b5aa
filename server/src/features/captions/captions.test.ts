import { and, asc, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { CAPTION_MAX_BYTES } from '@lms/contract/captions';
import { parseCaptions, toWebVtt } from '@lms/contract/webvtt';
import { captionCues, lectureCaptions, lectures, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { publishCourseDirectly } from '../../test/courses.ts';
import { mediaFiles, rowCount } from '../../test/db.ts';
import { mp4Video, multipart, pngImage, signUp, signUpAdmin } from '../../test/http.ts';
import { ANY_VIEWER } from '../media/signed-urls.ts';
import { captionFileUrl } from './caption-urls.ts';
import { SEARCH_CONFIGS } from './search-config.ts';

let t: TestApp;
let admin: { id: string; cookie: string };
/** Logged in, no subscription. */
let learner: { id: string; cookie: string };
let subscriber: { id: string; cookie: string };

const account = (signup: { user: { _id: string }; cookie: string }) => ({ id: signup.user._id, cookie: signup.cookie });

beforeAll(async () => {
  t = await createTestApp();
  admin = account(await signUpAdmin(t.app));
  learner = account(await signUp(t.app));
  subscriber = account(await signUp(t.app));
  await subscribe(subscriber.id, true);
});
afterAll(() => t?.close());

async function subscribe(userId: string, active: boolean) {
  const subscriptionEndsAt = new Date(Date.now() + (active ? 1 : -1) * 30 * 24 * 3600 * 1000);
  await t.app.ctx.db.update(users).set({ subscriptionEndsAt }).where(eq(users.id, userId));
}

async function newCourse({ publish = true } = {}): Promise<string> {
  const form = await multipart({
    title: 'Spoken accounting',
    description: 'Ledgers, read aloud.',
    category: 'Business',
    createdBy: 'Asha Verma',
    thumbnail: { bytes: await pngImage(), filename: 'cover.png', type: 'image/png' },
  });
  const response = await t.app.inject({ method: 'POST', url: '/api/v1/courses', ...form, headers: { ...form.headers, cookie: admin.cookie } });
  expect(response.statusCode, response.body).toBe(201);
  if (publish) await publishCourseDirectly(t.app.ctx, response.json().course._id);
  return response.json().course._id;
}

async function newLecture(courseId: string, preview = false): Promise<string> {
  const form = await multipart({ title: 'Ledgers', description: 'd', preview: String(preview), lectures: { bytes: mp4Video(4000), filename: 'l.mp4' } });
  const response = await t.app.inject({ method: 'POST', url: `/api/v1/courses/${courseId}`, ...form, headers: { ...form.headers, cookie: admin.cookie } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().course.lectures.at(-1)._id;
}

const captionsUrl = (courseId: string, lectureId: string) => `/api/v1/courses/${courseId}/lectures/${lectureId}/captions`;

const ENGLISH = `WEBVTT

1
00:00:01.000 --> 00:00:04.000
Every entry has <b>two</b> sides.

2
00:00:04.500 --> 00:00:07.250
Debits on the left, credits on the right.
`;
/** Hindi captions as SRT: a comma before the milliseconds, no header. */
const HINDI_SRT = `1
00:00:01,000 --> 00:00:04,000
हर प्रविष्टि के दो पक्ष होते हैं।

2
00:00:04,500 --> 00:00:07,250
बाईं ओर डेबिट, दाईं ओर क्रेडिट।
`;

type Fields = { language?: string; label?: string; default?: string };
async function add(courseId: string, lectureId: string, file: string | Buffer | null, fields: Fields, cookie = admin.cookie) {
  const form = await multipart({ ...fields, ...(file !== null && { captions: { bytes: file, filename: 'captions.vtt', type: 'text/vtt' } }) } as Record<
    string,
    string | { bytes: string | Buffer; filename: string; type: string }
  >);
  return t.app.inject({ method: 'POST', url: captionsUrl(courseId, lectureId), ...form, headers: { ...form.headers, cookie } });
}
async function replace(courseId: string, lectureId: string, captionId: string, file: string | Buffer, fields: { label?: string } = {}) {
  const form = await multipart({ ...fields, captions: { bytes: file, filename: 'captions.srt' } });
  return t.app.inject({
    method: 'PUT',
    url: `${captionsUrl(courseId, lectureId)}/${captionId}`,
    ...form,
    headers: { ...form.headers, cookie: admin.cookie },
  });
}
const update = (courseId: string, lectureId: string, captionId: string, payload: object) =>
  t.app.inject({ method: 'PATCH', url: `${captionsUrl(courseId, lectureId)}/${captionId}`, payload, headers: { cookie: admin.cookie } });
const saveCues = (courseId: string, lectureId: string, captionId: string, payload: object) =>
  t.app.inject({ method: 'PUT', url: `${captionsUrl(courseId, lectureId)}/${captionId}/cues`, payload, headers: { cookie: admin.cookie } });
const remove = (courseId: string, lectureId: string, captionId: string, cookie = admin.cookie) =>
  t.app.inject({ method: 'DELETE', url: `${captionsUrl(courseId, lectureId)}/${captionId}`, headers: { cookie } });
const list = (courseId: string, lectureId: string, cookie?: string) =>
  t.app.inject({ url: captionsUrl(courseId, lectureId), headers: cookie ? { cookie } : {} });
const get = (url: string, cookie?: string) => t.app.inject({ url, headers: cookie ? { cookie } : {} });

const storedFiles = async () => (await mediaFiles(t.dataDir, 'captions')).sort();
const snapshot = async () => ({ rows: await rowCount(t.database, lectureCaptions), cues: await rowCount(t.database, captionCues), files: await storedFiles() });

/** A refusal that leaves no row, no cue and no file behind. */
async function expectRefusedAndNothingStored(response: LightMyRequestResponse, status: number, message: string, before: Awaited<ReturnType<typeof snapshot>>) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json()).toEqual({ success: false, message });
  expect(await snapshot()).toEqual(before);
}

function expectRefused(response: LightMyRequestResponse, status: number, message: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json()).toEqual({ success: false, message });
}

const cueRows = (captionId: string) =>
  t.app.ctx.db
    .select({
      position: captionCues.position,
      startMs: captionCues.startMs,
      endMs: captionCues.endMs,
      text: captionCues.text,
      config: sql<string>`${captionCues.searchConfig}::text`,
    })
    .from(captionCues)
    .where(eq(captionCues.captionId, captionId))
    .orderBy(asc(captionCues.position));

describe('adding captions to a lecture', () => {
  let courseId: string;
  let lectureId: string;
  beforeAll(async () => {
    courseId = await newCourse();
    lectureId = await newLecture(courseId);
  });

  it('stores an English WebVTT file, makes the lecture’s first captions its default, and indexes each cue as English', async () => {
    const added = await add(courseId, lectureId, ENGLISH, { language: 'EN', label: ' English ' });
    expect(added.statusCode, added.body).toBe(201);
    const { caption } = added.json();
    expect(added.json().message).toBe(answers.captionAdded);
    expect(caption).toMatchObject({ language: 'en', label: 'English', isDefault: true, cueCount: 2, version: 1 });
    expect(caption.url).toMatch(new RegExp(`^/media/captions/${admin.id}\\.\\d+\\.[\\w-]{43}/${caption._id}/1\\.vtt$`));

    const file = await get(caption.url, admin.cookie);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(file.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    const read = parseCaptions(ENGLISH);
    expect(read.ok).toBe(true);
    expect(file.body).toBe(toWebVtt(read.ok ? read.cues : []));

    expect(await cueRows(caption._id)).toEqual([
      { position: 0, startMs: 1000, endMs: 4000, text: 'Every entry has two sides.', config: 'english' },
      { position: 1, startMs: 4500, endMs: 7250, text: 'Debits on the left, credits on the right.', config: 'english' },
    ]);
    // The words are indexed with English stemming: "sides" is found as "side".
    const [found] = await t.app.ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(captionCues)
      .where(and(eq(captionCues.captionId, caption._id), sql`words @@ to_tsquery('english', 'side')`));
    expect(found!.n).toBe(1);

    const listed = await list(courseId, lectureId, admin.cookie);
    expect(listed.json()).toMatchObject({ success: true, message: answers.captionsFetched, maxBytes: CAPTION_MAX_BYTES, maxCaptions: 20 });
    // The same captions, with a link made afresh: its expiry is the second the list was answered in.
    const linkOf = (url: string) => url.replace(/^(\/media\/captions\/[^.]+)\.\d+\.[\w-]{43}\//, '$1/');
    const withoutGrant = (listedCaption: { url: string }) => ({ ...listedCaption, url: linkOf(listedCaption.url) });
    expect(listed.json().captions.map(withoutGrant)).toEqual([withoutGrant(caption)]);
  });

  it('converts Hindi SRT to WebVTT and indexes it with the simple configuration; the default stays', async () => {
    const added = await add(courseId, lectureId, HINDI_SRT, { language: 'hi', label: 'हिन्दी' });
    expect(added.statusCode, added.body).toBe(201);
    const { caption } = added.json();
    expect(caption).toMatchObject({ language: 'hi', label: 'हिन्दी', isDefault: false, cueCount: 2, version: 1 });
    const file = await get(caption.url, admin.cookie);
    expect(file.body).toBe(
      'WEBVTT\n\n1\n00:00:01.000 --> 00:00:04.000\nहर प्रविष्टि के दो पक्ष होते हैं।\n\n2\n00:00:04.500 --> 00:00:07.250\nबाईं ओर डेबिट, दाईं ओर क्रेडिट।\n',
    );
    expect((await cueRows(caption._id)).map((row) => row.config)).toEqual(['simple', 'simple']);
  });

  it('takes more languages, lists the default first and then by label, and moves the default when asked', async () => {
    const lecture = await newLecture(courseId);
    const labels = { fr: 'Français', de: 'Deutsch', 'pt-BR': 'Português (Brasil)' };
    for (const [language, label] of Object.entries(labels)) expect((await add(courseId, lecture, ENGLISH, { language, label })).statusCode).toBe(201);
    const shown = async () =>
      (await list(courseId, lecture, admin.cookie)).json().captions.map((c: { label: string; isDefault: boolean }) => [c.label, c.isDefault]);
    expect(await shown()).toEqual([
      ['Français', true],
      ['Deutsch', false],
      ['Português (Brasil)', false],
    ]);
    const esp = await add(courseId, lecture, ENGLISH, { language: 'es', label: 'Español', default: 'true' });
    expect(esp.json().caption.isDefault).toBe(true);
    expect(await shown()).toEqual([
      ['Español', true],
      ['Deutsch', false],
      ['Français', false],
      ['Português (Brasil)', false],
    ]);
    const ids = Object.fromEntries((await list(courseId, lecture, admin.cookie)).json().captions.map((c: { label: string; _id: string }) => [c.label, c._id]));
    const configs = await t.app.ctx.db
      .selectDistinct({ language: lectureCaptions.language, config: sql<string>`${captionCues.searchConfig}::text` })
      .from(captionCues)
      .innerJoin(lectureCaptions, eq(lectureCaptions.id, captionCues.captionId))
      .where(eq(lectureCaptions.lectureId, lecture));
    expect(Object.fromEntries(configs.map((row) => [row.language, row.config]))).toEqual({ fr: 'french', de: 'german', 'pt-BR': 'portuguese', es: 'spanish' });

    const moved = await update(courseId, lecture, ids['Deutsch'], { isDefault: true });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ message: answers.captionUpdated, caption: { label: 'Deutsch', isDefault: true, version: 1 } });
    expect(await shown()).toEqual([
      ['Deutsch', true],
      ['Español', false],
      ['Français', false],
      ['Português (Brasil)', false],
    ]);
    // Deleting the default makes the first of the rest by label the default.
    expect((await remove(courseId, lecture, ids['Deutsch'])).json()).toEqual({ success: true, message: answers.captionDeleted });
    expect(await shown()).toEqual([
      ['Español', true],
      ['Français', false],
      ['Português (Brasil)', false],
    ]);
  });

  it('drops a script tag and any other foreign markup from the cues: the stored file has none', async () => {
    const lecture = await newLecture(courseId);
    const hostile = `WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<script>alert(1)</script><i>Hello</i> <img src=x onerror=alert(2)>world\n`;
    const added = await add(courseId, lecture, hostile, { language: 'en', label: 'English' });
    expect(added.statusCode, added.body).toBe(201);
    const file = (await get(added.json().caption.url, admin.cookie)).body;
    expect(file).not.toMatch(/<script|<img|onerror/);
    expect(file).toContain('alert(1)<i>Hello</i> world');
    expect((await cueRows(added.json().caption._id))[0]!.text).toBe('alert(1)Hello world');
  });

  it('refuses a broken file with 400 naming its line, and stores nothing', async () => {
    const lecture = await newLecture(courseId);
    const before = await snapshot();
    const backwards = `WEBVTT\n\n1\n00:00:01.000 --> 00:00:04.000\nFine.\n\n2\n00:00:05.000 --> 00:00:03.000\nBackwards.\n`;
    await expectRefusedAndNothingStored(
      await add(courseId, lecture, backwards, { language: 'en', label: 'English' }),
      400,
      'Line 8: the cue ends before it starts',
      before,
    );
    await expectRefusedAndNothingStored(
      await add(courseId, lecture, `1\n00:00:01,000 -> 00:00:04,000\nText\n`, { language: 'en', label: 'English' }),
      400,
      answers.captionBroken(answers.captionLine(2), answers.captionProblems.timing),
      before,
    );
    await expectRefusedAndNothingStored(
      await add(courseId, lecture, 'Just some notes.\n', { language: 'en', label: 'English' }),
      400,
      answers.captionNotCaptions,
      before,
    );
    await expectRefusedAndNothingStored(await add(courseId, lecture, '', { language: 'en', label: 'English' }), 400, answers.captionEmpty, before);
    await expectRefusedAndNothingStored(await add(courseId, lecture, null, { language: 'en', label: 'English' }), 400, answers.captionMissing, before);
  });

  it('refuses a file that is not UTF-8, or too large, and stores nothing', async () => {
    const lecture = await newLecture(courseId);
    const before = await snapshot();
    const latin1 = Buffer.from('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nCafé crème\n', 'latin1');
    await expectRefusedAndNothingStored(await add(courseId, lecture, latin1, { language: 'fr', label: 'Français' }), 400, answers.captionNotUtf8, before);
    const huge = `WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n${'a'.repeat(CAPTION_MAX_BYTES)}\n`;
    await expectRefusedAndNothingStored(await add(courseId, lecture, huge, { language: 'en', label: 'English' }), 413, answers.captionTooLarge('2 MB'), before);
  });

  it('checks the form: a language tag, a label; nothing is stored for a bad one', async () => {
    const lecture = await newLecture(courseId);
    const before = await snapshot();
    await expectRefusedAndNothingStored(await add(courseId, lecture, ENGLISH, { label: 'English' }), 400, answers.captionLanguageMissing, before);
    await expectRefusedAndNothingStored(
      await add(courseId, lecture, ENGLISH, { language: 'english!', label: 'English' }),
      400,
      answers.captionLanguageInvalid,
      before,
    );
    await expectRefusedAndNothingStored(await add(courseId, lecture, ENGLISH, { language: 'en' }), 400, answers.captionLabelMissing, before);
    await expectRefusedAndNothingStored(
      await add(courseId, lecture, ENGLISH, { language: 'en', label: 'English', default: 'yes' }),
      400,
      answers.captionDefaultInvalid,
      before,
    );
  });

  it('refuses a language the lecture already has (409), and a 21st language', async () => {
    const lecture = await newLecture(courseId);
    // Its own administrator: these twenty uploads stay clear of the others' rate limit.
    const busy = account(await signUpAdmin(t.app));
    expect((await add(courseId, lecture, ENGLISH, { language: 'en', label: 'English' }, busy.cookie)).statusCode).toBe(201);
    let before = await snapshot();
    await expectRefusedAndNothingStored(
      await add(courseId, lecture, ENGLISH, { language: 'en', label: 'Also English' }, busy.cookie),
      409,
      answers.captionLanguageTaken('en'),
      before,
    );
    const languages = ['fr', 'de', 'es', 'it', 'pt', 'nl', 'ru', 'sv', 'da', 'fi', 'nb', 'tr', 'ar', 'id', 'hu', 'ro', 'ta', 'ne', 'el'];
    for (const language of languages) expect((await add(courseId, lecture, ENGLISH, { language, label: language }, busy.cookie)).statusCode).toBe(201);
    before = await snapshot();
    await expectRefusedAndNothingStored(
      await add(courseId, lecture, ENGLISH, { language: 'ga', label: 'Gaeilge' }, busy.cookie),
      409,
      answers.captionLimit(20),
      before,
    );
    expect((await list(courseId, lecture, admin.cookie)).json().captions).toHaveLength(20);
  });

  it('refuses a lecture of another course, or none (404), learners (403), visitors (401) and an administrator past the rate limit (429)', async () => {
    const other = await newCourse();
    const before = await snapshot();
    await expectRefusedAndNothingStored(await add(other, lectureId, ENGLISH, { language: 'ru', label: 'Русский' }), 404, answers.lectureNotFound, before);
    await expectRefusedAndNothingStored(
      await add(courseId, crypto.randomUUID(), ENGLISH, { language: 'ru', label: 'Русский' }),
      404,
      answers.lectureNotFound,
      before,
    );
    await expectRefusedAndNothingStored(
      await add(courseId, lectureId, ENGLISH, { language: 'ru', label: 'R' }, subscriber.cookie),
      403,
      answers.notAllowed,
      before,
    );
    await expectRefusedAndNothingStored(await add(courseId, lectureId, ENGLISH, { language: 'ru', label: 'R' }, ''), 401, answers.notLoggedIn, before);
    const busy = await signUpAdmin(t.app);
    await t.app.ctx.limits.captionUploadsPerAccount.consume(busy.user._id, 100);
    await expectRefusedAndNothingStored(
      await add(courseId, lectureId, ENGLISH, { language: 'ru', label: 'R' }, busy.cookie),
      429,
      answers.tooManyRequests,
      before,
    );
  });

  it('takes 10,000 cues in one file, quickly', async () => {
    const lecture = await newLecture(courseId);
    const stamp = (ms: number) => new Date(ms).toISOString().slice(11, 23);
    const cues = Array.from({ length: 10_000 }, (_, n) => `${n + 1}\n${stamp(n * 1000)} --> ${stamp(n * 1000 + 900)}\nLine number ${n + 1} of the ledger\n`);
    const started = Date.now();
    const added = await add(courseId, lecture, `WEBVTT\n\n${cues.join('\n')}`, { language: 'en', label: 'English' });
    const took = Date.now() - started;
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().caption.cueCount).toBe(10_000);
    const rows = await cueRows(added.json().caption._id);
    expect(rows).toHaveLength(10_000);
    expect(rows.at(-1)).toMatchObject({ position: 9999, startMs: 9_999_000, endMs: 9_999_900, text: 'Line number 10000 of the ledger' });
    expect(took).toBeLessThan(20_000);
  });
});

describe('changing captions', () => {
  let courseId: string;
  let lectureId: string;
  let captionId: string;
  let firstUrl: string;
  beforeAll(async () => {
    courseId = await newCourse();
    lectureId = await newLecture(courseId);
    const added = await add(courseId, lectureId, ENGLISH, { language: 'en', label: 'English' });
    captionId = added.json().caption._id;
    firstUrl = added.json().caption.url;
  });
  const row = async () => (await t.app.ctx.db.select().from(lectureCaptions).where(eq(lectureCaptions.id, captionId)))[0]!;

  it('replaces the file: a new version, its cues re-indexed, the old file gone, the label changed when sent', async () => {
    const oldKey = (await row()).fileKey;
    const filesBefore = await storedFiles();
    const replaced = await replace(courseId, lectureId, captionId, HINDI_SRT.replace('दो पक्ष', 'two sides'), { label: 'English (corrected)' });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({
      message: answers.captionReplaced,
      caption: { _id: captionId, language: 'en', label: 'English (corrected)', version: 2, cueCount: 2 },
    });
    const newKey = (await row()).fileKey;
    expect(newKey).not.toBe(oldKey);
    expect(await storedFiles()).toEqual([...filesBefore.filter((name) => `captions/${name}` !== oldKey), newKey.slice('captions/'.length)].sort());
    expect((await cueRows(captionId))[0]!.text).toBe('हर प्रविष्टि के two sides होते हैं।');
    // The first version's link finds nothing now; the new one its file.
    expectRefused(await get(firstUrl, admin.cookie), 404, answers.captionNotFound);
    expect((await get(replaced.json().caption.url, admin.cookie)).body).toContain('two sides');
  });

  it('refuses a broken replacement, keeping the captions as they were', async () => {
    const before = { ...(await snapshot()), row: await row() };
    const response = await replace(courseId, lectureId, captionId, 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(answers.captionBroken(answers.captionLine(3), answers.captionProblems.noText));
    expect({ ...(await snapshot()), row: await row() }).toEqual(before);
  });

  it('refuses to replace captions the lecture has not (404), removing the file it had stored for them', async () => {
    const before = await snapshot();
    await expectRefusedAndNothingStored(await replace(courseId, lectureId, crypto.randomUUID(), ENGLISH), 404, answers.captionNotFound, before);
    await expectRefusedAndNothingStored(await replace(await newCourse(), lectureId, captionId, ENGLISH), 404, answers.lectureNotFound, before);
    await expectRefusedAndNothingStored(
      await saveCues(courseId, lectureId, crypto.randomUUID(), { cues: [{ start: 1, end: 2, text: 'x' }] }),
      404,
      answers.captionNotFound,
      before,
    );
  });

  it('renames captions without a new file', async () => {
    const before = await row();
    const renamed = await update(courseId, lectureId, captionId, { label: 'English' });
    expect(renamed.json()).toMatchObject({ success: true, caption: { label: 'English', version: before.version, isDefault: true } });
    expect((await row()).fileKey).toBe(before.fileKey);
    expectRefused(await update(courseId, lectureId, captionId, {}), 400, answers.captionChangeEmpty);
    expectRefused(await update(courseId, lectureId, captionId, { isDefault: false }), 400, answers.captionDefaultInvalid);
    expectRefused(await update(courseId, lectureId, crypto.randomUUID(), { label: 'x' }), 404, answers.captionNotFound);
  });

  it('saves the cue editor’s cues as a new version, replacing the cue rows; a broken cue is named by its number', async () => {
    const before = await row();
    const saved = await saveCues(courseId, lectureId, captionId, {
      cues: [
        { start: 0.5, end: 2, text: 'Opening <b>balance</b>' },
        { start: 2.25, end: 5.125, text: 'Closing balance' },
        { start: 6, end: 8, text: 'Trial balance' },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ message: answers.captionUpdated, caption: { version: before.version + 1, cueCount: 3 } });
    expect(await cueRows(captionId)).toEqual([
      { position: 0, startMs: 500, endMs: 2000, text: 'Opening balance', config: 'english' },
      { position: 1, startMs: 2250, endMs: 5125, text: 'Closing balance', config: 'english' },
      { position: 2, startMs: 6000, endMs: 8000, text: 'Trial balance', config: 'english' },
    ]);
    expect((await get(saved.json().caption.url, admin.cookie)).body).toBe(
      'WEBVTT\n\n1\n00:00:00.500 --> 00:00:02.000\nOpening <b>balance</b>\n\n2\n00:00:02.250 --> 00:00:05.125\nClosing balance\n\n3\n00:00:06.000 --> 00:00:08.000\nTrial balance\n',
    );
    expect(await storedFiles()).not.toContain(before.fileKey.slice('captions/'.length));

    const unchanged = { ...(await snapshot()), row: await row() };
    expectRefused(
      await saveCues(courseId, lectureId, captionId, {
        cues: [
          { start: 1, end: 2, text: 'One' },
          { start: 3, end: 2.5, text: 'Two' },
        ],
      }),
      400,
      answers.captionBroken(answers.captionCue(2), answers.captionProblems.endBeforeStart),
    );
    expectRefused(
      await saveCues(courseId, lectureId, captionId, { cues: [{ start: 1, end: 2, text: '   ' }] }),
      400,
      answers.captionBroken(answers.captionCue(1), answers.captionProblems.noText),
    );
    expectRefused(await saveCues(courseId, lectureId, captionId, { cues: [] }), 400, answers.cuesMissing);
    expect({ ...(await snapshot()), row: await row() }).toEqual(unchanged);
  });

  it('removes captions: their row, cues and file; then 404', async () => {
    const lecture = await newLecture(courseId);
    const added = (await add(courseId, lecture, ENGLISH, { language: 'en', label: 'English' })).json().caption;
    const { fileKey } = (await t.app.ctx.db.select().from(lectureCaptions).where(eq(lectureCaptions.id, added._id)))[0]!;
    expectRefused(await remove(courseId, lecture, added._id, subscriber.cookie), 403, answers.notAllowed);
    expectRefused(await remove(await newCourse(), lecture, added._id), 404, answers.lectureNotFound);
    expect((await remove(courseId, lecture, added._id)).json()).toEqual({ success: true, message: answers.captionDeleted });
    expect(await storedFiles()).not.toContain(fileKey.slice('captions/'.length));
    expect(await cueRows(added._id)).toEqual([]);
    expect((await list(courseId, lecture, admin.cookie)).json().captions).toEqual([]);
    expectRefused(await get(added.url, admin.cookie), 404, answers.captionNotFound);
    expectRefused(await remove(courseId, lecture, added._id), 404, answers.captionNotFound);
  });
});

describe('who reads a lecture’s captions', () => {
  let courseId: string;
  let privateLecture: string;
  let previewLecture: string;
  beforeAll(async () => {
    courseId = await newCourse();
    privateLecture = await newLecture(courseId);
    previewLecture = await newLecture(courseId, true);
    for (const lecture of [privateLecture, previewLecture])
      expect((await add(courseId, lecture, ENGLISH, { language: 'en', label: 'English' })).statusCode).toBe(201);
  });
  const urlFor = async (lectureId: string, cookie?: string) => {
    const response = await list(courseId, lectureId, cookie);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().captions[0].url as string;
  };

  it('gives subscribers and administrators the captions of every lecture, at links that are theirs alone', async () => {
    for (const viewer of [subscriber, admin]) {
      for (const lecture of [privateLecture, previewLecture]) {
        const url = await urlFor(lecture, viewer.cookie);
        expect(url).toContain(`/media/captions/${viewer.id}.`);
        expect((await get(url, viewer.cookie)).body).toContain('Debits on the left');
      }
    }
    const theirs = await urlFor(privateLecture, subscriber.cookie);
    expectRefused(await get(theirs, admin.cookie), 403, answers.captionLinkInvalid);
    expectRefused(await get(theirs, learner.cookie), 403, answers.captionLinkInvalid);
    expectRefused(await get(theirs), 403, answers.captionLinkInvalid);
  });

  it('gives a free preview’s captions to anyone, visitors too (for any viewer), and no other lecture’s', async () => {
    const visitors = await urlFor(previewLecture);
    expect(visitors).toContain(`/media/captions/${ANY_VIEWER}.`);
    expect((await get(visitors)).statusCode).toBe(200);
    expect((await get(visitors, learner.cookie)).statusCode).toBe(200);
    expect((await get(await urlFor(previewLecture, learner.cookie), learner.cookie)).statusCode).toBe(200);

    expectRefused(await list(courseId, privateLecture), 401, answers.notLoggedIn);
    expectRefused(await list(courseId, privateLecture, learner.cookie), 403, answers.subscribeToCaptions);
    // A link for any viewer to a lecture that is no preview opens nothing, however it was made.
    const [caption] = await t.app.ctx.db.select().from(lectureCaptions).where(eq(lectureCaptions.lectureId, privateLecture));
    const forged = captionFileUrl(t.config.sessionSecret, {
      captionId: caption!.id,
      version: 1,
      viewerId: ANY_VIEWER,
      expiresAt: new Date(Date.now() + 3600_000),
    });
    expectRefused(await get(forged), 403, answers.captionLinkInvalid);
  });

  it('hides a draft’s captions from all but administrators: the list is 404 and the links stop', async () => {
    const subscribers = await urlFor(privateLecture, subscriber.cookie);
    const visitors = await urlFor(previewLecture);
    const unpublished = await t.app.inject({ method: 'POST', url: `/api/v1/courses/${courseId}/unpublish`, headers: { cookie: admin.cookie } });
    expect(unpublished.statusCode, unpublished.body).toBe(200);
    try {
      expectRefused(await list(courseId, privateLecture, subscriber.cookie), 404, answers.lectureNotFound);
      expectRefused(await list(courseId, previewLecture), 404, answers.lectureNotFound);
      expectRefused(await get(subscribers, subscriber.cookie), 403, answers.notAllowed);
      expectRefused(await get(visitors), 403, answers.captionLinkInvalid);
      expect((await get(await urlFor(privateLecture, admin.cookie), admin.cookie)).statusCode).toBe(200);
    } finally {
      await publishCourseDirectly(t.app.ctx, courseId);
    }
    expect((await get(subscribers, subscriber.cookie)).statusCode).toBe(200);
    expect((await get(visitors)).statusCode).toBe(200);
  });

  it('stops a link when access ends: the preview withdrawn, the subscription over', async () => {
    const visitors = await urlFor(previewLecture);
    const learners = await urlFor(previewLecture, learner.cookie);
    const lapsing = account(await signUp(t.app));
    await subscribe(lapsing.id, true);
    const lapsingUrl = await urlFor(privateLecture, lapsing.cookie);
    await t.app.ctx.db.update(lectures).set({ isPreview: false }).where(eq(lectures.id, previewLecture));
    try {
      expectRefused(await get(visitors), 403, answers.captionLinkInvalid);
      expectRefused(await get(learners, learner.cookie), 403, answers.notAllowed);
      expectRefused(await list(courseId, previewLecture), 401, answers.notLoggedIn);
    } finally {
      await t.app.ctx.db.update(lectures).set({ isPreview: true }).where(eq(lectures.id, previewLecture));
    }
    await subscribe(lapsing.id, false);
    expectRefused(await get(lapsingUrl, lapsing.cookie), 403, answers.notAllowed);
  });

  it('refuses a link that was changed or has expired', async () => {
    const url = await urlFor(privateLecture, subscriber.cookie);
    const [, , , grant, captionId, file] = url.split('/') as [string, string, string, string, string, string];
    const [viewer, expires, signature] = grant.split('.') as [string, string, string];
    const flip = (text: string) => `${text.slice(0, -1)}${text.endsWith('A') ? 'B' : 'A'}`;
    for (const altered of [
      `/media/captions/${viewer}.${expires}.${flip(signature)}/${captionId}/${file}`,
      `/media/captions/${viewer}.${Number(expires) + 3600}.${signature}/${captionId}/${file}`,
      `/media/captions/${viewer}.${expires}.${signature}/${crypto.randomUUID()}/${file}`,
      `/media/captions/${viewer}.${expires}.${signature}/${captionId}/../${file}`,
      `/media/captions/${viewer}.${expires}.${signature}/${captionId}/1.vtt/more`,
      `/media/captions/${grant}`,
    ]) {
      expectRefused(await get(altered, subscriber.cookie), 403, answers.captionLinkInvalid);
    }
    const expired = captionFileUrl(t.config.sessionSecret, { captionId, version: 1, viewerId: subscriber.id, expiresAt: new Date(Date.now() - 1000) });
    expectRefused(await get(expired, subscriber.cookie), 403, answers.captionLinkInvalid);
  });
});

describe('deleting a lecture or a course', () => {
  it('removes the lecture’s captions, their cues and files; and with a course, every lecture’s', async () => {
    const courseId = await newCourse();
    const first = await newLecture(courseId);
    const second = await newLecture(courseId);
    const keysOf = async (lectureId: string) => {
      for (const language of ['en', 'hi']) expect((await add(courseId, lectureId, ENGLISH, { language, label: language })).statusCode).toBe(201);
      return (await t.app.ctx.db.select().from(lectureCaptions).where(eq(lectureCaptions.lectureId, lectureId))).map((row) =>
        row.fileKey.slice('captions/'.length),
      );
    };
    const firstFiles = await keysOf(first);
    const secondFiles = await keysOf(second);
    const cuesBefore = await rowCount(t.database, captionCues);

    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/v1/courses?courseId=${courseId}&lectureId=${first}`, headers: { cookie: admin.cookie } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const stored = await storedFiles();
    for (const file of firstFiles) expect(stored).not.toContain(file);
    for (const file of secondFiles) expect(stored).toContain(file);
    expect(await t.app.ctx.db.select().from(lectureCaptions).where(eq(lectureCaptions.lectureId, first))).toEqual([]);
    expect(await rowCount(t.database, captionCues)).toBe(cuesBefore - 4);

    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/courses/${courseId}`, headers: { cookie: admin.cookie } })).statusCode).toBe(200);
    const after = await storedFiles();
    for (const file of secondFiles) expect(after).not.toContain(file);
    expect(await rowCount(t.database, captionCues)).toBe(cuesBefore - 8);
  });
});

it('indexes with configurations this database has, for every language of the map', async () => {
  for (const config of new Set([...Object.values(SEARCH_CONFIGS), 'simple'])) {
    const [row] = await t.app.ctx.db
      .select({ words: sql<string>`to_tsvector(${config}::regconfig, 'ledgers')::text` })
      .from(users)
      .limit(1);
    expect(row?.words, config).toMatch(/ledg/);
  }
});
