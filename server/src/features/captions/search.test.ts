import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import type { CaptionMatch } from '@lms/contract/captions';
import { captionCues, lectureCaptions, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { publishCourseDirectly } from '../../test/courses.ts';
import { mp4Video, multipart, pngImage, signUp, signUpAdmin } from '../../test/http.ts';

let t: TestApp;
let admin: string;
/** Logged in, no subscription. */
let learner: string;
let subscriber: string;
const ids = { python: '', draft: '', loopsLecture: '', previewLecture: '', markupLecture: '', draftLecture: '' };

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signUpAdmin(t.app)).cookie;
  learner = (await signUp(t.app)).cookie;
  const paying = await signUp(t.app);
  subscriber = paying.cookie;
  await t.app.ctx.db
    .update(users)
    .set({ subscriptionEndsAt: new Date(Date.now() + 30 * 24 * 3600 * 1000) })
    .where(eq(users.id, paying.user._id));

  ids.python = await newCourse('Python from zero');
  ids.loopsLecture = await newLecture(ids.python, 'Loops');
  ids.previewLecture = await newLecture(ids.python, 'A first look', true);
  ids.markupLecture = await newLecture(ids.python, 'Writing web pages');
  await publishCourseDirectly(t.app.ctx, ids.python);
  ids.draft = await newCourse('Unfinished course');
  ids.draftLecture = await newLecture(ids.draft, 'Secret plans');

  await addCaptions(ids.loopsLecture, 'en', 'English', 'english', [
    [0, 'Welcome to the course'],
    [65.5, 'Runners run every morning'],
    [130.9, 'python loops and python functions'],
    [200, 'more python later'],
  ]);
  await addCaptions(ids.previewLecture, 'en', 'English', 'english', [[12, 'python is fun']]);
  await addCaptions(ids.previewLecture, 'hi', 'हिन्दी', 'simple', [[30, 'नमस्ते दुनिया, आज हम पायथन सीखेंगे']]);
  await addCaptions(ids.markupLecture, 'en', 'English', 'english', [
    [5, '<b>bold</b> tags are text here'],
    [9, 'a \u0002stray\u0003 mark in the widgets'],
  ]);
  await addCaptions(ids.draftLecture, 'en', 'English', 'english', [[1, 'zebra runners run in the draft']]);
});
afterAll(() => t?.close());

async function newCourse(title: string): Promise<string> {
  const form = await multipart({
    title,
    description: 'Everything from the first line on.',
    category: 'Programming',
    createdBy: 'Asha Verma',
    thumbnail: { bytes: await pngImage(), filename: 'cover.png', type: 'image/png' },
  });
  const response = await t.app.inject({ method: 'POST', url: '/api/v1/courses', ...form, headers: { ...form.headers, cookie: admin } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().course._id;
}

async function newLecture(courseId: string, title: string, preview = false): Promise<string> {
  const form = await multipart({ title, description: 'A lecture.', preview: String(preview), lectures: { bytes: mp4Video(4000), filename: 'l.mp4' } });
  const response = await t.app.inject({ method: 'POST', url: `/api/v1/courses/${courseId}`, ...form, headers: { ...form.headers, cookie: admin } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().course.lectures.at(-1)._id;
}

/** Captions as the upload stores them: the row, and its cues' plain text in the language's configuration. */
async function addCaptions(lectureId: string, language: string, label: string, searchConfig: string, cues: [number, string][]) {
  const [caption] = await t.app.ctx.db
    .insert(lectureCaptions)
    .values({ lectureId, language, label, fileKey: `captions/test/${lectureId}-${language}.vtt`, bytes: 100, cueCount: cues.length })
    .returning();
  await t.app.ctx.db.insert(captionCues).values(
    cues.map(([start, text], position) => ({
      captionId: caption!.id,
      position,
      startMs: Math.round(start * 1000),
      endMs: Math.round(start * 1000) + 3000,
      text,
      searchConfig,
    })),
  );
}

async function search(q: string, { cookie, limit }: { cookie?: string; limit?: number } = {}): Promise<CaptionMatch[]> {
  const response = await ask(q, { cookie, limit });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json()).toMatchObject({ success: true, message: answers.captionMatchesFetched });
  return response.json().matches;
}

const ask = (q: string, { cookie, limit }: { cookie?: string; limit?: number } = {}) =>
  t.app.inject({ url: '/api/v1/captions/search', query: { q, ...(limit && { limit: String(limit) }) }, headers: cookie ? { cookie } : {} });

const hits = (match: CaptionMatch) => match.parts.filter((part) => part.hit).map((part) => part.text);
const textOf = (match: CaptionMatch) => match.parts.map((part) => part.text).join('');

describe('searching what lectures say', () => {
  it('finds words by their stem in English, marks them, and opens the lecture where the cue starts', async () => {
    const [match, ...others] = await search('running');
    expect(others).toEqual([]);
    expect(match).toEqual({
      course: { _id: ids.python, title: 'Python from zero' },
      lecture: { _id: ids.loopsLecture, title: 'Loops' },
      language: 'en',
      label: 'English',
      start: 65,
      parts: [
        { text: 'Runners ', hit: false },
        { text: 'run', hit: true },
        { text: ' every morning', hit: false },
      ],
      canWatch: false,
    });
  });

  it('finds a quoted phrase only where its words come in that order', async () => {
    const [match, ...others] = await search('"python functions"');
    expect(others).toEqual([]);
    expect(match!.lecture._id).toBe(ids.loopsLecture);
    expect(match!.start).toBe(130);
    expect(hits(match!)).toEqual(expect.arrayContaining(['functions']));
    expect(await search('"functions python"')).toEqual([]);
  });

  it('finds Hindi words in captions read with the simple configuration', async () => {
    const [match, ...others] = await search('पायथन');
    expect(others).toEqual([]);
    expect(match).toMatchObject({ lecture: { _id: ids.previewLecture }, language: 'hi', label: 'हिन्दी', start: 30 });
    expect(hits(match!)).toEqual(['पायथन']);
    expect(textOf(match!)).toBe('नमस्ते दुनिया, आज हम पायथन सीखेंगे');
  });

  it('gives each lecture once, with its best cue, the lectures matching more words first', async () => {
    const matches = await search('python or loops');
    expect(matches.map((match) => match.lecture._id)).toEqual([ids.loopsLecture, ids.previewLecture]);
    expect(matches[0]!.start).toBe(130);
    expect(hits(matches[0]!)).toEqual(['python', 'loops', 'python']);
    expect(matches[1]!.start).toBe(12);
  });

  it('answers at most `limit` matches', async () => {
    expect(await search('python', { limit: 1 })).toHaveLength(1);
    expect(await search('python')).toHaveLength(2);
  });

  it('never finds what drafts say, not even for an administrator', async () => {
    expect(await search('zebra')).toEqual([]);
    expect(await search('zebra', { cookie: admin })).toEqual([]);
    expect((await search('runners', { cookie: admin })).map((match) => match.lecture._id)).toEqual([ids.loopsLecture]);
  });

  it('answers the cue as plain text: markup written in a cue stays text, and stray mark characters are dropped', async () => {
    const [tags] = await search('tags');
    expect(tags!.parts).toEqual([
      { text: '<b>bold</b> ', hit: false },
      { text: 'tags', hit: true },
      { text: ' are text here', hit: false },
    ]);
    const [bold] = await search('bold');
    expect(hits(bold!)).toEqual(['bold']);
    expect(textOf(bold!)).toBe('<b>bold</b> tags are text here');

    const [stray] = await search('widgets');
    expect(stray!.parts).toEqual([
      { text: 'a stray mark in the ', hit: false },
      { text: 'widgets', hit: true },
    ]);
  });

  it('says who may watch: anyone a free preview, subscribers and administrators every lecture', async () => {
    const canWatch = async (cookie?: string) => Object.fromEntries((await search('python', { cookie })).map((match) => [match.lecture._id, match.canWatch]));
    expect(await canWatch()).toEqual({ [ids.loopsLecture]: false, [ids.previewLecture]: true });
    expect(await canWatch(learner)).toEqual({ [ids.loopsLecture]: false, [ids.previewLecture]: true });
    expect(await canWatch(subscriber)).toEqual({ [ids.loopsLecture]: true, [ids.previewLecture]: true });
    expect(await canWatch(admin)).toEqual({ [ids.loopsLecture]: true, [ids.previewLecture]: true });
  });

  it('finds nothing, without an error, for a search of only stop words or no words at all', async () => {
    expect(await search('the and of')).toEqual([]);
    expect(await search('!!')).toEqual([]);
    expect(await search('"" --')).toEqual([]);
  });

  it('reads SQL and tsquery syntax typed into the box as words', async () => {
    for (const q of ["'; drop table caption_cues; --", 'a & b | !c', '\\\\', 'python\\', 'python:* <-> (', "python') or 1=1 --"]) {
      const response = await ask(q);
      expect(response.statusCode, `${q}: ${response.body}`).toBe(200);
    }
    expect(await search('python')).toHaveLength(2);
  });

  it('refuses a search too short or too long, saying so', async () => {
    for (const [url, message] of [
      ['/api/v1/captions/search?q=a', answers.searchTooShort],
      ['/api/v1/captions/search?q=%20a%20', answers.searchTooShort],
      ['/api/v1/captions/search', answers.searchTooShort],
      [`/api/v1/captions/search?q=${'a'.repeat(101)}`, answers.searchTooLong],
      ['/api/v1/captions/search?q=python&limit=21', answers.invalidPage],
    ] as const) {
      const response = await t.app.inject({ url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({ success: false, message });
    }
  });

  it('answers at most 120 searches a minute from one address, and others still', async () => {
    const from = (remoteAddress: string) => t.app.inject({ url: '/api/v1/captions/search?q=python', remoteAddress });
    for (let i = 0; i < 120; i++) expect((await from('203.0.113.7')).statusCode).toBe(200);
    const refused = await from('203.0.113.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ success: false, message: answers.tooManyRequests });
    expect((await from('203.0.113.8')).statusCode).toBe(200);
  });
});
