import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { courses, lectures } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { COMPRESS_MIN_BYTES } from './catalogue-cache.ts';
import { publishCourseDirectly } from '../../test/courses.ts';
import { mediaFiles, rowCount } from '../../test/db.ts';
import { jpgImage, mp4Video, multipart, pngImage, signUp, signUpAdmin, svgImage, type Upload } from '../../test/http.ts';

let t: TestApp;
let admin: string;
let user: string;
const VIDEO_MAX = 512 * 1024;

beforeAll(async () => {
  t = await createTestApp({ env: { VIDEO_MAX_BYTES: String(VIDEO_MAX), IMAGE_MAX_BYTES: String(200 * 1024) } });
  admin = (await signUpAdmin(t.app)).cookie;
  user = (await signUp(t.app)).cookie;
});
afterAll(() => t?.close());

const thumbnail = async (): Promise<Upload> => ({ bytes: await pngImage(800, 450), filename: 'cover.png', type: 'image/png' });
const video = (size?: number): Upload => ({ bytes: mp4Video(size), filename: 'lesson.mp4', type: 'video/mp4' });
let serial = 0;
const courseFields = (overrides: Record<string, string> = {}) => ({
  title: `Course ${++serial}`,
  description: 'Learn things step by step.',
  category: 'Web Development',
  createdBy: 'Asha Verma',
  ...overrides,
});

async function send(method: 'POST' | 'PUT', url: string, cookie: string, fields: Record<string, string | Upload>) {
  const form = await multipart(fields);
  return t.app.inject({ method, url, payload: form.payload, headers: { ...form.headers, cookie } });
}
/** A new course is a draft; the catalogue's tests want it public at once. */
const createDraft = async (overrides: Record<string, string> = {}, cookie = admin) =>
  send('POST', '/api/v1/courses', cookie, { ...courseFields(overrides), thumbnail: await thumbnail() });
async function createCourse(overrides: Record<string, string> = {}, cookie = admin) {
  const response = await createDraft(overrides, cookie);
  if (response.statusCode === 201) await publishCourseDirectly(t.app.ctx, response.json().course._id);
  return response;
}
const addLecture = (courseId: string, fields: Record<string, string | Upload>, cookie = admin) => send('POST', `/api/v1/courses/${courseId}`, cookie, fields);
const lectureFields = (size?: number) => ({ title: 'Getting started', description: 'Set up your tools.', lectures: video(size) });

/** What a refused request could have left behind. */
async function snapshot() {
  return {
    courses: await rowCount(t.database, courses),
    lectures: await rowCount(t.database, lectures),
    thumbnails: await mediaFiles(t.dataDir, 'thumbnails'),
    videos: await mediaFiles(t.dataDir, 'videos'),
  };
}
async function expectNothingWritten(request: () => Promise<LightMyRequestResponse>, status: number, message?: string) {
  const before = await snapshot();
  const response = await request();
  expect(response.statusCode, response.body).toBe(status);
  if (message) expect(response.json()).toEqual({ success: false, message });
  expect(await snapshot()).toEqual(before);
  return response;
}

describe('POST /api/v1/courses', () => {
  it('creates a course for an admin, with a re-encoded public thumbnail', async () => {
    const response = await createCourse({ title: 'Modern JavaScript' });
    expect(response.statusCode).toBe(201);
    const { course } = response.json();
    expect(course).toMatchObject({ title: 'Modern JavaScript', category: 'Web Development', createdBy: 'Asha Verma', numbersOfLectures: 0 });
    expect(course.thumbnail.secure_url).toMatch(/^\/media\/thumbnails\/[0-9a-f]{32}\.webp$/);
    const image = await t.app.inject({ url: course.thumbnail.secure_url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    expect(image.headers['cache-control']).toContain('immutable');
  });

  it('accepts a jpg thumbnail', async () => {
    const response = await send('POST', '/api/v1/courses', admin, { ...courseFields(), thumbnail: { bytes: await jpgImage(), filename: 'c.jpeg' } });
    expect(response.statusCode).toBe(201);
  });

  it('is for admins only: 401 logged out, 403 for a user, nothing written', async () => {
    await expectNothingWritten(async () => createCourse({}, ''), 401, answers.notLoggedIn);
    await expectNothingWritten(async () => createCourse({}, user), 403, answers.notAllowed);
  });

  it('answers "All fields are mandatory" for each missing field, the thumbnail included', async () => {
    const full = { ...courseFields(), thumbnail: await thumbnail() };
    for (const missing of ['title', 'description', 'category', 'createdBy', 'thumbnail'] as const) {
      const { [missing]: _, ...rest } = full;
      await expectNothingWritten(() => send('POST', '/api/v1/courses', admin, rest), 400, messages.allFieldsMandatory);
    }
    await expectNothingWritten(() => send('POST', '/api/v1/courses', admin, { ...full, title: '  ' }), 400, messages.allFieldsMandatory);
  });

  it('refuses svg, non-image and over-size thumbnails and huge titles, writing nothing', async () => {
    const fields = courseFields();
    await expectNothingWritten(
      () => send('POST', '/api/v1/courses', admin, { ...fields, thumbnail: { bytes: svgImage(), filename: 'c.svg' } }),
      400,
      messages.thumbnailType,
    );
    await expectNothingWritten(
      () => send('POST', '/api/v1/courses', admin, { ...fields, thumbnail: { bytes: 'hello', filename: 'c.png' } }),
      400,
      messages.thumbnailType,
    );
    const big = Buffer.concat([await pngImage(), Buffer.alloc(300 * 1024)]);
    await expectNothingWritten(
      () => send('POST', '/api/v1/courses', admin, { ...fields, thumbnail: { bytes: big, filename: 'c.png' } }),
      413,
      answers.imageTooLarge,
    );
    await expectNothingWritten(async () => createCourse({ title: 'x'.repeat(100 * 1024) }), 400, messages.titleTooLong);
  });
});

describe('GET /api/v1/courses', () => {
  let ids: string[];
  beforeAll(async () => {
    ids = [];
    for (const [title, category, createdBy] of [
      ['Rust for Beginners', 'Systems', 'Ravi Kumar'],
      ['Advanced Rust', 'Systems', 'Meera Nair'],
      ['Watercolour Basics', 'Art & Design', 'Ravi Kumar'],
      ['100% Practical SQL', 'Data', 'Li Wei'],
    ]) {
      ids.push((await createCourse({ title: title!, category: category!, createdBy: createdBy! })).json().course._id);
    }
  });
  const list = (query = '') => t.app.inject({ url: `/api/v1/courses${query}` });

  it('is public, newest first, with lecture counts and no lecture URLs', async () => {
    const response = await list();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = response.json();
    expect(body).toMatchObject({ success: true, message: answers.coursesFetched, page: 1, limit: 50 });
    expect(Object.keys(body).sort()).toEqual(['courses', 'limit', 'message', 'page', 'success', 'total']);
    expect(body.total).toBeGreaterThanOrEqual(4);
    expect(body.courses.slice(0, 4).map((c: { _id: string }) => c._id)).toEqual([...ids].reverse());
    expect(Object.keys(body.courses[0]).sort()).toEqual([
      '_id',
      'category',
      'createdBy',
      'description',
      'numbersOfLectures',
      'publishAt',
      'state',
      'thumbnail',
      'title',
      'totalDuration',
    ]);
    expect(body.courses.every((c: { state: string }) => c.state === 'published')).toBe(true);
    expect(response.body).not.toContain('/media/private/');
  });

  it('searches title, category and instructor, case-insensitively', async () => {
    const titles = async (query: string) =>
      (await list(query))
        .json()
        .courses.map((c: { title: string }) => c.title)
        .sort();
    expect(await titles('?search=rust')).toEqual(['Advanced Rust', 'Rust for Beginners']);
    expect(await titles('?search=ART%20%26')).toEqual(['Watercolour Basics']);
    expect(await titles('?search=ravi')).toEqual(['Rust for Beginners', 'Watercolour Basics']);
    expect(await titles('?search=%25')).toEqual(['100% Practical SQL']);
    expect(await titles('?search=_')).toEqual([]);
    expect((await list('?search=rust')).json().total).toBe(2);
  });

  it('filters by category and pages', async () => {
    const systems = (await list('?category=Systems')).json();
    expect(systems.total).toBe(2);
    const first = (await list('?category=Systems&limit=1&page=1')).json();
    const second = (await list('?category=Systems&limit=1&page=2')).json();
    expect(first).toMatchObject({ total: 2, page: 1, limit: 1 });
    expect(first.courses).toHaveLength(1);
    expect(second.courses[0]._id).not.toBe(first.courses[0]._id);
    expect((await list('?category=Systems&limit=1&page=3')).json().courses).toEqual([]);
    expect((await list()).json().limit).toBe(50);
  });

  it('finds one course by id', async () => {
    const found = (await list(`?id=${ids[0]}`)).json();
    expect(found.total).toBe(1);
    expect(found.courses[0]._id).toBe(ids[0]);
    expect((await list('?id=00000000-0000-4000-8000-000000000000')).json()).toMatchObject({ total: 0, courses: [] });
  });

  it.each(['?id=nope', '?limit=101', '?limit=0', '?page=0', '?page=abc', '?limit=1.5', `?search=${'a'.repeat(101)}`])('refuses %s with 400', async (query) => {
    const response = await list(query);
    expect(response.statusCode).toBe(400);
    expect(response.json().success).toBe(false);
  });
});

describe('GET /api/v1/courses/:id (lectures)', () => {
  let courseId: string;
  beforeAll(async () => {
    courseId = (await createCourse()).json().course._id;
    expect((await addLecture(courseId, lectureFields())).statusCode).toBe(201);
  });

  it('gives an admin the lectures with signed video URLs', async () => {
    const response = await t.app.inject({ url: `/api/v1/courses/${courseId}`, headers: { cookie: admin } });
    expect(response.statusCode).toBe(200);
    const { lectures: list, course } = response.json();
    expect(course.numbersOfLectures).toBe(1);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ title: 'Getting started', description: 'Set up your tools.', duration: null });
    expect(list[0].secure_url).toMatch(/^\/media\/private\/videos\/[0-9a-f]{32}\.mp4\?viewer=[0-9a-f-]{36}&expires=\d+&signature=[\w-]+$/);
    const expires = Number(new URL(list[0].secure_url, 'http://x').searchParams.get('expires'));
    expect(expires * 1000 - Date.now()).toBeGreaterThan(5.9 * 3600 * 1000);
    expect(expires * 1000 - Date.now()).toBeLessThan(6.1 * 3600 * 1000);
  });

  it('is 401 logged out, 403 for a user without a subscription, 404 for an unknown course, 400 for a malformed id', async () => {
    expect((await t.app.inject({ url: `/api/v1/courses/${courseId}` })).statusCode).toBe(401);
    const refused = await t.app.inject({ url: `/api/v1/courses/${courseId}`, headers: { cookie: user } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(answers.subscribeToWatch);
    expect(refused.body).not.toContain('/media/private/');
    const unknown = await t.app.inject({ url: '/api/v1/courses/00000000-0000-4000-8000-000000000000', headers: { cookie: admin } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(messages.courseNotFound);
    for (const id of ['not-a-uuid', "1'%20OR%20'1'='1", '%00']) {
      expect((await t.app.inject({ url: `/api/v1/courses/${id}`, headers: { cookie: admin } })).statusCode).toBe(400);
    }
  });
});

describe('POST /api/v1/courses/:id (add lecture)', () => {
  let courseId: string;
  beforeAll(async () => {
    courseId = (await createCourse()).json().course._id;
  });

  it('streams the video to storage and answers the course with its lectures', async () => {
    const response = await addLecture(courseId, lectureFields(200 * 1024));
    expect(response.statusCode).toBe(201);
    const { course } = response.json();
    expect(course._id).toBe(courseId);
    expect(course.numbersOfLectures).toBe(course.lectures.length);
    const added = course.lectures.at(-1);
    expect(added.title).toBe('Getting started');
    const key = added.secure_url.split('?')[0].replace('/media/private/', '');
    expect(await t.app.ctx.media.stat(key)).toEqual({ bytes: mp4Video(200 * 1024).length });
  });

  it('accepts fields sent after the file', async () => {
    const response = await addLecture(courseId, { lectures: video(), title: 'After', description: 'Fields last.' });
    expect(response.statusCode).toBe(201);
  });

  it('answers "All fields are mandatory" for a missing field or video, keeping no file', async () => {
    const full = lectureFields();
    for (const missing of ['title', 'description', 'lectures'] as const) {
      const { [missing]: _, ...rest } = full;
      await expectNothingWritten(() => addLecture(courseId, rest), 400, messages.allFieldsMandatory);
    }
    await expectNothingWritten(() => addLecture(courseId, { title: 'T', description: 'D', video: video() }), 400, messages.allFieldsMandatory);
  });

  it('judges the video by its bytes: text named .mp4, an image, an empty file are refused', async () => {
    for (const bytes of [Buffer.from('not a video at all, just text'), await pngImage(), Buffer.alloc(0)]) {
      await expectNothingWritten(
        () => addLecture(courseId, { ...lectureFields(), lectures: { bytes, filename: 'clip.mp4', type: 'video/mp4' } }),
        400,
        messages.videoType,
      );
    }
  });

  it('refuses a video over VIDEO_MAX_BYTES with 413, keeping no file', async () => {
    await expectNothingWritten(() => addLecture(courseId, lectureFields(VIDEO_MAX + 1024)), 413, answers.videoTooLarge);
  });

  it('refuses huge titles and descriptions, keeping no file', async () => {
    await expectNothingWritten(() => addLecture(courseId, { ...lectureFields(), title: 'x'.repeat(121) }), 400, messages.titleTooLong);
    await expectNothingWritten(() => addLecture(courseId, { ...lectureFields(), description: 'x'.repeat(5001) }), 400, messages.descriptionTooLong);
  });

  it('leaves nothing when the body is cut off mid-video', async () => {
    const form = await multipart(lectureFields(300 * 1024));
    const cut = form.payload.subarray(0, form.payload.length - 100 * 1024);
    await expectNothingWritten(
      () => t.app.inject({ method: 'POST', url: `/api/v1/courses/${courseId}`, payload: cut, headers: { ...form.headers, cookie: admin } }),
      400,
      answers.malformedForm,
    );
  });

  it('leaves nothing when the client disconnects mid-upload', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const before = await snapshot();
    const form = await multipart(lectureFields(400 * 1024));
    await new Promise<void>((resolve) => {
      const request = http.request({
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: `/api/v1/courses/${courseId}`,
        headers: { ...form.headers, cookie: admin, 'content-length': form.payload.length },
      });
      request.on('error', () => resolve());
      request.on('close', () => resolve());
      request.write(form.payload.subarray(0, 200 * 1024), () => setTimeout(() => request.destroy(), 100));
    });
    // The server notices the closed connection on its own schedule.
    for (let i = 0; i < 50 && JSON.stringify(await snapshot()) !== JSON.stringify(before); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await snapshot()).toEqual(before);
    const videos = await mediaFiles(t.dataDir, 'videos');
    expect(videos.filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it('is for admins only, and 404 for an unknown course', async () => {
    await expectNothingWritten(() => addLecture(courseId, lectureFields(), user), 403, answers.notAllowed);
    await expectNothingWritten(() => addLecture(courseId, lectureFields(), ''), 401, answers.notLoggedIn);
    await expectNothingWritten(() => addLecture('00000000-0000-4000-8000-000000000000', lectureFields()), 404, messages.courseNotFound);
  });
});

describe('DELETE /api/v1/courses?courseId=&lectureId=', () => {
  it('removes the lecture and its video', async () => {
    const courseId = (await createCourse()).json().course._id;
    const added = (await addLecture(courseId, lectureFields())).json().course.lectures[0];
    const file = added.secure_url.split('?')[0].split('/').pop();
    expect(await mediaFiles(t.dataDir, 'videos')).toContain(file);

    const response = await t.app.inject({ method: 'DELETE', url: `/api/v1/courses?courseId=${courseId}&lectureId=${added._id}`, headers: { cookie: admin } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true, message: answers.lectureDeleted, course: { _id: courseId, numbersOfLectures: 0, lectures: [] } });
    expect(await mediaFiles(t.dataDir, 'videos')).not.toContain(file);
  });

  it('refuses users, a lecture of another course, unknown and malformed ids', async () => {
    const courseId = (await createCourse()).json().course._id;
    const otherId = (await createCourse()).json().course._id;
    const lectureId = (await addLecture(courseId, lectureFields())).json().course.lectures[0]._id;
    const remove = (query: string, cookie = admin) => t.app.inject({ method: 'DELETE', url: `/api/v1/courses${query}`, headers: { cookie } });
    await expectNothingWritten(() => remove(`?courseId=${courseId}&lectureId=${lectureId}`, user), 403);
    await expectNothingWritten(() => remove(`?courseId=${otherId}&lectureId=${lectureId}`), 404, answers.lectureNotFound);
    await expectNothingWritten(() => remove(`?courseId=${courseId}`), 400);
    await expectNothingWritten(() => remove(`?courseId=${courseId}&lectureId=nope`), 400);
  });
});

describe('PUT /api/v1/courses/:id', () => {
  it('edits fields and replaces the thumbnail, removing the old file', async () => {
    const created = (await createCourse({ title: 'Old title' })).json().course;
    const oldFile = created.thumbnail.secure_url.split('/').pop();
    const response = await send('PUT', `/api/v1/courses/${created._id}`, admin, {
      title: 'New title',
      thumbnail: { bytes: await jpgImage(), filename: 'n.jpg' },
    });
    expect(response.statusCode).toBe(200);
    const { course } = response.json();
    expect(course).toMatchObject({ title: 'New title', category: created.category, description: created.description });
    expect(course.thumbnail.secure_url).not.toBe(created.thumbnail.secure_url);
    expect(await mediaFiles(t.dataDir, 'thumbnails')).not.toContain(oldFile);
  });

  it('refuses blank fields, users, unknown and malformed ids', async () => {
    const created = (await createCourse()).json().course;
    await expectNothingWritten(() => send('PUT', `/api/v1/courses/${created._id}`, admin, { title: ' ' }), 400, messages.allFieldsMandatory);
    await expectNothingWritten(() => send('PUT', `/api/v1/courses/${created._id}`, user, { title: 'Mine now' }), 403);
    await expectNothingWritten(() => send('PUT', '/api/v1/courses/00000000-0000-4000-8000-000000000000', admin, { title: 'Ghost' }), 404);
    await expectNothingWritten(() => send('PUT', '/api/v1/courses/123', admin, { title: 'Ghost' }), 400);
  });
});

describe('DELETE /api/v1/courses/:id', () => {
  it('removes the course, its lectures and all their files', async () => {
    const course = (await createCourse()).json().course;
    await addLecture(course._id, lectureFields());
    await addLecture(course._id, lectureFields());
    const before = await snapshot();

    const response = await t.app.inject({ method: 'DELETE', url: `/api/v1/courses/${course._id}`, headers: { cookie: admin } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: answers.courseDeleted });
    const after = await snapshot();
    expect(after.courses).toBe(before.courses - 1);
    expect(after.lectures).toBe(before.lectures - 2);
    expect(after.thumbnails).toHaveLength(before.thumbnails.length - 1);
    expect(after.videos).toHaveLength(before.videos.length - 2);
    expect(after.thumbnails).not.toContain(course.thumbnail.secure_url.split('/').pop());
    expect((await t.app.inject({ url: `/api/v1/courses/${course._id}`, headers: { cookie: admin } })).statusCode).toBe(404);
  });

  it('refuses users and unknown courses', async () => {
    const course = (await createCourse()).json().course;
    await expectNothingWritten(() => t.app.inject({ method: 'DELETE', url: `/api/v1/courses/${course._id}`, headers: { cookie: user } }), 403);
    await expectNothingWritten(
      () => t.app.inject({ method: 'DELETE', url: '/api/v1/courses/00000000-0000-4000-8000-000000000000', headers: { cookie: admin } }),
      404,
    );
  });
});

describe('the catalogue is cached but never stale after a change, wherever it was made', () => {
  type Listed = { _id: string; title: string; category: string; numbersOfLectures: number };
  type Page = { courses: Listed[]; total: number };
  async function catalogue(query = ''): Promise<Page> {
    const response = await t.app.inject({ url: `/api/v1/courses${query}` });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    return response.json();
  }
  const listed = (page: Page, id: string) => page.courses.find((course) => course._id === id);
  const newCourse = async (overrides: Record<string, string> = {}) => {
    const response = await createCourse(overrides);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().course as Listed;
  };

  it('answers a repeated read from memory, and a row changed behind its back (another instance, a job) at once', async () => {
    const course = await newCourse({ title: 'Before the back door' });
    expect(listed(await catalogue(), course._id)?.title).toBe('Before the back door');
    const hits = t.app.ctx.catalogue.stats.hits;
    expect(listed(await catalogue(), course._id)?.title).toBe('Before the back door');
    expect(t.app.ctx.catalogue.stats.hits).toBe(hits + 1);

    await t.database.db.update(courses).set({ title: 'Through the back door' }).where(eq(courses.id, course._id));
    const fresh = await t.app.inject({ url: '/api/v1/courses' });
    expect(fresh.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(fresh.json()).toMatchObject({ success: true, message: answers.coursesFetched, page: 1, limit: 50 });
    expect(listed(fresh.json(), course._id)?.title).toBe('Through the back door');
    expect(t.app.ctx.catalogue.stats.hits).toBe(hits + 1);
  });

  it('sends the catalogue compressed to a browser that accepts it, the same JSON inside', async () => {
    for (let i = 0; i < 4; i++) await newCourse();
    const plain = await t.app.inject({ url: '/api/v1/courses' });
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');

    const compressed = await t.app.inject({ url: '/api/v1/courses', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers).toMatchObject({ 'content-encoding': 'br', vary: 'accept-encoding', 'content-type': 'application/json; charset=utf-8' });
    expect(Number(compressed.headers['content-length'])).toBe(compressed.rawPayload.length);
    expect(compressed.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(brotliDecompressSync(compressed.rawPayload).toString('utf8'))).toEqual(plain.json());

    const gzip = await t.app.inject({ url: '/api/v1/courses', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('answers 304 without the body to a browser that holds the page, and a new ETag once it changed', async () => {
    const course = await newCourse({ title: 'Tagged once' });
    const first = await t.app.inject({ url: '/api/v1/courses' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    // Another encoding of the same page is the same content: the same ETag.
    const compressed = await t.app.inject({ url: '/api/v1/courses', headers: { 'accept-encoding': 'br' } });
    expect(compressed.headers.etag).toBe(etag);

    for (const ifNoneMatch of [etag, etag.slice(2), `W/"other", ${etag}`, '*']) {
      const again = await t.app.inject({ url: '/api/v1/courses', headers: { 'if-none-match': ifNoneMatch } });
      expect(again.statusCode, ifNoneMatch).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
    }
    // Another page of the catalogue is other content.
    const searched = await t.app.inject({ url: '/api/v1/courses?search=Tagged', headers: { 'if-none-match': etag } });
    expect(searched.statusCode).toBe(200);
    expect(searched.headers.etag).not.toBe(etag);

    const edited = await send('PUT', `/api/v1/courses/${course._id}`, admin, { title: 'Tagged twice' });
    expect(edited.statusCode, edited.body).toBe(200);
    const changed = await t.app.inject({ url: '/api/v1/courses', headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(listed(changed.json(), course._id)?.title).toBe('Tagged twice');
  });

  it("gives an administrator the live list, never a 304 for the visitors' page", async () => {
    const page = await t.app.inject({ url: '/api/v1/courses' });
    const response = await t.app.inject({ url: '/api/v1/courses', headers: { cookie: admin, 'if-none-match': page.headers.etag as string } });
    expect(response.statusCode).toBe(200);
    expect(response.headers.etag).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it("gives a visitor the route's very answer again, kept by URL and Accept-Encoding; an administrator still the live list", async () => {
    await newCourse({ title: 'Kept for visitors' });
    const browser = { 'accept-encoding': 'gzip, deflate, br, zstd' };
    const byRoute = await t.app.inject({ url: '/api/v1/courses?limit=3', headers: browser });
    expect(t.app.ctx.catalogue.kept('/api/v1/courses?limit=3', browser['accept-encoding'])).toBeDefined();
    const kept = await t.app.inject({ url: '/api/v1/courses?limit=3', headers: browser });
    const { date: _date, ...headers } = byRoute.headers;
    expect(kept.statusCode).toBe(200);
    expect(kept.headers).toEqual({ ...headers, date: kept.headers.date });
    expect(Object.keys(kept.headers)).toEqual(Object.keys(byRoute.headers));
    expect(kept.rawPayload.equals(byRoute.rawPayload)).toBe(true);

    // A visitor holding the page gets the 304 a signed-in learner gets from the route.
    const ifNoneMatch = { ...browser, 'if-none-match': byRoute.headers.etag as string };
    const notModified = await t.app.inject({ url: '/api/v1/courses?limit=3', headers: ifNoneMatch });
    const learnerNotModified = await t.app.inject({ url: '/api/v1/courses?limit=3', headers: { ...ifNoneMatch, cookie: user } });
    expect(learnerNotModified.statusCode).toBe(304);
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload.length).toBe(0);
    expect({ ...notModified.headers, date: undefined }).toEqual({ ...learnerNotModified.headers, date: undefined });
    expect(Object.keys(notModified.headers)).toEqual(Object.keys(learnerNotModified.headers));
    const otherTag = await t.app.inject({ url: '/api/v1/courses?limit=3', headers: { ...browser, 'if-none-match': 'W/"other"' } });
    expect(otherTag.statusCode).toBe(200);
    expect(otherTag.rawPayload.equals(byRoute.rawPayload)).toBe(true);

    // A draft is the administrator's alone, whatever was kept for visitors.
    const draft = (await createDraft({ title: 'Draft, not for visitors' })).json().course as Listed;
    await catalogue('?limit=3');
    const forAdmin = await t.app.inject({ url: '/api/v1/courses?limit=3', headers: { ...browser, cookie: admin } });
    expect(forAdmin.headers['cache-control']).toBe('no-store');
    expect(listed(forAdmin.json(), draft._id)).toBeDefined();
    expect(listed(await catalogue('?limit=3'), draft._id)).toBeUndefined();
    // A signed-in learner gets the visitors' page, through the route (their session is looked at).
    const forLearner = await t.app.inject({ url: '/api/v1/courses?limit=3', headers: { cookie: user } });
    expect(forLearner.headers['cache-control']).toBe('private, no-cache');
    expect(listed(forLearner.json(), draft._id)).toBeUndefined();
  });

  it("keeps a visitor's curriculum too, shows an added lecture at once, and a draft's to its administrator alone", async () => {
    const course = await newCourse();
    const url = `/api/v1/courses/${course._id}/curriculum`;
    expect((await t.app.inject({ url })).json().lectures).toHaveLength(0);
    expect(t.app.ctx.catalogue.kept(url, undefined)).toBeDefined();
    expect((await t.app.inject({ url })).json().lectures).toHaveLength(0);
    expect((await addLecture(course._id, lectureFields())).statusCode).toBe(201);
    expect((await t.app.inject({ url })).json().lectures).toHaveLength(1);

    const draft = (await createDraft()).json().course as Listed;
    const draftUrl = `/api/v1/courses/${draft._id}/curriculum`;
    for (let i = 0; i < 2; i++) expect((await t.app.inject({ url: draftUrl })).statusCode).toBe(404);
    expect((await t.app.inject({ url: draftUrl, headers: { cookie: admin } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: draftUrl })).statusCode).toBe(404);
  });

  it('never gives a kept answer after a change: the next visitor gets the new page', async () => {
    const course = await newCourse({ title: 'Kept, then renamed' });
    await catalogue();
    expect(listed(await catalogue(), course._id)?.title).toBe('Kept, then renamed');
    expect(t.app.ctx.catalogue.kept('/api/v1/courses', undefined)).toBeDefined();
    expect((await send('PUT', `/api/v1/courses/${course._id}`, admin, { title: 'Renamed since' })).statusCode).toBe(200);
    expect(t.app.ctx.catalogue.kept('/api/v1/courses', undefined)).toBeUndefined();
    expect(listed(await catalogue(), course._id)?.title).toBe('Renamed since');
  });

  it('shows a created course at once, with the total one higher', async () => {
    const before = await catalogue();
    const course = await newCourse({ title: 'Freshly Added' });
    const after = await catalogue();
    expect(after.total).toBe(before.total + 1);
    expect(after.courses[0]).toMatchObject({ _id: course._id, title: 'Freshly Added', numbersOfLectures: 0 });
  });

  it('shows an edited title at once', async () => {
    const course = await newCourse({ title: 'Draft title' });
    expect(listed(await catalogue(), course._id)?.title).toBe('Draft title');
    const response = await send('PUT', `/api/v1/courses/${course._id}`, admin, { title: 'Final title' });
    expect(response.statusCode, response.body).toBe(200);
    expect(listed(await catalogue(), course._id)?.title).toBe('Final title');
  });

  it('counts an added and then a deleted lecture at once', async () => {
    const course = await newCourse();
    expect(listed(await catalogue(), course._id)?.numbersOfLectures).toBe(0);
    const added = await addLecture(course._id, lectureFields());
    expect(added.statusCode, added.body).toBe(201);
    expect(listed(await catalogue(), course._id)?.numbersOfLectures).toBe(1);
    const lectureId = added.json().course.lectures[0]._id;
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/v1/courses?courseId=${course._id}&lectureId=${lectureId}`, headers: { cookie: admin } });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(listed(await catalogue(), course._id)?.numbersOfLectures).toBe(0);
  });

  it('drops a deleted course at once, with the total back where it was', async () => {
    const before = await catalogue();
    const course = await newCourse();
    const withIt = await catalogue();
    expect(withIt.total).toBe(before.total + 1);
    expect(listed(withIt, course._id)).toBeDefined();
    const response = await t.app.inject({ method: 'DELETE', url: `/api/v1/courses/${course._id}`, headers: { cookie: admin } });
    expect(response.statusCode, response.body).toBe(200);
    const after = await catalogue();
    expect(listed(after, course._id)).toBeUndefined();
    expect(after.total).toBe(before.total);
  });

  it('caches a search, a category and a page apart from the plain list, and empties them all on a write', async () => {
    const first = await newCourse({ title: 'Cached Apart One', category: 'Cache Studies' });
    const plain = await catalogue();
    expect(plain.courses.length).toBeGreaterThan(1);
    const categories = (page: Page) => [...new Set(page.courses.map((course) => course.category))];

    const category = await catalogue('?category=Cache%20Studies');
    expect(category.total).toBe(1);
    expect(category.courses.map((course) => course._id)).toEqual([first._id]);
    expect(categories(category)).toEqual(['Cache Studies']);
    const search = await catalogue('?search=cached%20apart');
    expect(search.courses.map((course) => course._id)).toEqual([first._id]);
    const onePerPage = await catalogue('?limit=1&page=2');
    expect(onePerPage.courses).toHaveLength(1);
    expect(onePerPage.courses[0]!._id).toBe(plain.courses[1]!._id);
    // And the plain list was not overwritten by them.
    expect(await catalogue()).toEqual(plain);

    const second = await newCourse({ title: 'Cached Apart Two', category: 'Cache Studies' });
    expect((await catalogue('?category=Cache%20Studies')).courses.map((course) => course._id)).toEqual([second._id, first._id]);
    expect((await catalogue('?search=cached%20apart')).total).toBe(2);
    expect((await catalogue('?limit=1&page=2')).courses[0]!._id).toBe(first._id);
    expect((await catalogue()).total).toBe(plain.total + 1);
  });
});

describe('two instances on one database give the catalogue the same ETag, and both a new one after a write on either', () => {
  let b: TestApp;
  beforeAll(async () => {
    b = await createTestApp({ database: t.database, catchUpOnEveryRequest: false });
  });
  afterAll(() => b?.close());

  const etagOn = async (app: TestApp) => (await app.app.inject({ url: '/api/v1/courses' })).headers.etag as string;
  /** Polls until `check` holds; fails if it still does not a second later. */
  async function within1s(check: () => Promise<boolean>): Promise<void> {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > 1000) throw new Error('still not so a second later');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('answers 304 on one for the ETag the other gave, until a course changes', async () => {
    const created = await createCourse({ title: 'Seen on both' });
    const courseId = created.json().course._id as string;
    await within1s(async () => (await etagOn(b)) === (await etagOn(t)));
    const etag = await etagOn(t);
    expect((await b.app.inject({ url: '/api/v1/courses', headers: { 'if-none-match': etag } })).statusCode).toBe(304);

    // Edited through the first: the second's page, and its ETag, change too.
    expect((await send('PUT', `/api/v1/courses/${courseId}`, admin, { title: 'Renamed on one' })).statusCode).toBe(200);
    await within1s(async () => (await b.app.inject({ url: '/api/v1/courses', headers: { 'if-none-match': etag } })).statusCode === 200);
    const renamed = await b.app.inject({ url: '/api/v1/courses' });
    expect(renamed.headers.etag).not.toBe(etag);
    expect(renamed.json().courses.find((course: { _id: string }) => course._id === courseId).title).toBe('Renamed on one');
    expect(await etagOn(t)).toBe(renamed.headers.etag);
  });

  it('stops giving the answer it kept for visitors once the other changed the course', async () => {
    const created = await createCourse({ title: 'Kept on the second' });
    const courseId = created.json().course._id as string;
    const titleOn = async (app: TestApp) =>
      ((await app.app.inject({ url: '/api/v1/courses' })).json().courses as { _id: string; title: string }[]).find((course) => course._id === courseId)?.title;
    await within1s(async () => (await titleOn(b)) === 'Kept on the second');
    await titleOn(b);
    expect(b.app.ctx.catalogue.kept('/api/v1/courses', undefined)).toBeDefined();
    expect((await send('PUT', `/api/v1/courses/${courseId}`, admin, { title: 'Renamed on the first' })).statusCode).toBe(200);
    await within1s(async () => (await titleOn(b)) === 'Renamed on the first');
  });
});
