import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { lectureResources, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { publishCourseDirectly } from '../../test/courses.ts';
import { mediaFiles, rowCount } from '../../test/db.ts';
import { exeFile, pdfFile, zipFile } from '../../test/files.ts';
import { jpgImage, mp4Video, multipart, pngImage, signUp, signUpAdmin, type Upload } from '../../test/http.ts';

/** Small, so that a file past it is quick to send. */
const MAX_BYTES = 256 * 1024;
const png = await pngImage();
const jpg = await jpgImage();

let t: TestApp;
let admin: { id: string; cookie: string };
/** Logged in, no subscription. */
let learner: { id: string; cookie: string };
let subscriber: { id: string; cookie: string };

beforeAll(async () => {
  t = await createTestApp({ env: { RESOURCE_MAX_BYTES: String(MAX_BYTES) } });
  const account = (signup: { user: { _id: string }; cookie: string }) => ({ id: signup.user._id, cookie: signup.cookie });
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

async function newCourse(): Promise<string> {
  const form = await multipart({
    title: 'Bookkeeping from zero',
    description: 'Ledgers, journals and closing the books.',
    category: 'Business',
    createdBy: 'Asha Verma',
    thumbnail: { bytes: await pngImage(), filename: 'cover.png', type: 'image/png' },
  });
  const response = await t.app.inject({ method: 'POST', url: '/api/v1/courses', ...form, headers: { ...form.headers, cookie: admin.cookie } });
  expect(response.statusCode, response.body).toBe(201);
  await publishCourseDirectly(t.app.ctx, response.json().course._id);
  return response.json().course._id;
}

async function newLecture(courseId: string, preview = false): Promise<string> {
  const form = await multipart({
    title: 'Ledgers',
    description: 'Where every entry goes.',
    preview: String(preview),
    lectures: { bytes: mp4Video(4000), filename: 'l.mp4' },
  });
  const response = await t.app.inject({ method: 'POST', url: `/api/v1/courses/${courseId}`, ...form, headers: { ...form.headers, cookie: admin.cookie } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().course.lectures.at(-1)._id;
}

const resourcesUrl = (courseId: string, lectureId: string) => `/api/v1/courses/${courseId}/lectures/${lectureId}/resources`;

async function attach(courseId: string, lectureId: string, file: Upload | null, cookie = admin.cookie): Promise<LightMyRequestResponse> {
  const form = await multipart(file ? { file } : { note: 'no file' });
  return t.app.inject({ method: 'POST', url: resourcesUrl(courseId, lectureId), ...form, headers: { ...form.headers, cookie } });
}

const list = (courseId: string, lectureId: string, cookie?: string) =>
  t.app.inject({ url: resourcesUrl(courseId, lectureId), headers: cookie ? { cookie } : {} });
const download = (url: string, cookie?: string) => t.app.inject({ url, headers: cookie ? { cookie } : {} });
const storedFiles = () => mediaFiles(t.dataDir, 'resources');

/** A refusal that leaves no row and no file behind, not even an unfinished one. */
async function expectRefusedAndNothingStored(response: LightMyRequestResponse, status: number, message: string, before: { rows: number; files: string[] }) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json()).toEqual({ success: false, message });
  expect(await rowCount(t.database, lectureResources)).toBe(before.rows);
  expect(await storedFiles()).toEqual(before.files);
}
const snapshot = async () => ({ rows: await rowCount(t.database, lectureResources), files: await storedFiles() });

describe('attaching files to a lecture', () => {
  let courseId: string;
  let lectureId: string;
  beforeAll(async () => {
    courseId = await newCourse();
    lectureId = await newLecture(courseId);
  });

  it('stores a PDF and lists it with a download link that answers the file as an attachment', async () => {
    const pdf = pdfFile();
    const added = await attach(courseId, lectureId, { bytes: pdf, filename: 'Workbook.pdf', type: 'application/pdf' });
    expect(added.statusCode, added.body).toBe(201);
    const { resource } = added.json();
    expect(added.json()).toMatchObject({ success: true, message: answers.resourceAdded });
    expect(resource).toMatchObject({ name: 'Workbook.pdf', mime: 'application/pdf', bytes: pdf.length });
    expect(resource.url).toMatch(new RegExp(`^/media/private/resources/[0-9a-f]{32}\\.pdf\\?viewer=${admin.id}&expires=\\d+&signature=[\\w-]{43}$`));

    const listed = await list(courseId, lectureId, admin.cookie);
    expect(listed.json()).toMatchObject({ success: true, resources: [{ _id: resource._id, name: 'Workbook.pdf' }], maxBytes: MAX_BYTES, maxFiles: 20 });

    const file = await download(resource.url, admin.cookie);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(pdf)).toBe(true);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="Workbook.pdf"; filename*=UTF-8''Workbook.pdf`);
    expect(file.headers['cache-control']).toBe('private, no-store');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    // A broken download resumes where it stopped.
    const rest = await t.app.inject({ url: resource.url, headers: { cookie: admin.cookie, range: 'bytes=100-' } });
    expect(rest.statusCode).toBe(206);
    expect(rest.rawPayload.equals(pdf.subarray(100))).toBe(true);
  });

  it.each([
    ['a ZIP', zipFile(), 'handouts.zip', 'application/zip', 'handouts.zip'],
    ['a PNG named as text', png, 'diagram.txt', 'image/png', 'diagram.txt.png'],
    ['a JPEG', jpg, 'Photo.JPEG', 'image/jpeg', 'Photo.JPEG'],
    ['UTF-8 text', Buffer.from('Débit et crédit — २०२६ 📒\n'.repeat(3000)), 'notes.md', 'text/plain', 'notes.md'],
    ['text named as a program', Buffer.from('@echo off\necho hello\n'), 'setup.bat', 'text/plain', 'setup.bat.txt'],
  ])('judges %s by its content and names it for what it is', async (_kind, bytes, filename, mime, name) => {
    const added = await attach(courseId, lectureId, { bytes, filename });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().resource).toMatchObject({ mime, name, bytes: bytes.length });
    const file = await download(added.json().resource.url, admin.cookie);
    expect(file.rawPayload.equals(bytes)).toBe(true);
    expect(file.headers['content-type']).toBe(mime === 'text/plain' ? 'text/plain; charset=utf-8' : mime);
  });

  it('gives a name sent with a path, quotes and control characters a safe one, and a non-ASCII name an ASCII fallback', async () => {
    const added = await attach(courseId, lectureId, { bytes: pdfFile(100), filename: 'C:\\Users\\asha\\"Résumé"\u202e\u0007 2026.pdf' });
    expect(added.json().resource.name).toBe('Résumé 2026.pdf');
    const file = await download(added.json().resource.url, admin.cookie);
    expect(file.headers['content-disposition']).toBe(`attachment; filename="Resume 2026.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%202026.pdf`);
  });

  it.each([
    ['a program named .pdf', exeFile(), 'worksheet.pdf', answers.resourceType],
    ['text with a NUL byte', Buffer.from('line one\n\0line two\n'), 'notes.txt', answers.resourceType],
    ['an empty file', Buffer.alloc(0), 'empty.txt', answers.resourceEmpty],
  ])('refuses %s with 400 and stores nothing', async (_kind, bytes, filename, message) => {
    const before = await snapshot();
    await expectRefusedAndNothingStored(await attach(courseId, lectureId, { bytes, filename }), 400, message, before);
  });

  it('refuses text that stops being UTF-8 after its first chunks, removing what was stored of it', async () => {
    const before = await snapshot();
    const text = Buffer.concat([Buffer.from('a'.repeat(150_000)), Buffer.from([0xc3, 0x28]), Buffer.from('b'.repeat(1000))]);
    await expectRefusedAndNothingStored(await attach(courseId, lectureId, { bytes: text, filename: 'notes.txt' }), 400, answers.resourceType, before);
  });

  it.each([
    ['a PDF', pdfFile(MAX_BYTES)],
    ['text', Buffer.from('é'.repeat(MAX_BYTES))],
  ])('refuses %s larger than RESOURCE_MAX_BYTES with 413 and the limit, and stores nothing', async (_kind, bytes) => {
    const before = await snapshot();
    await expectRefusedAndNothingStored(await attach(courseId, lectureId, { bytes, filename: 'big' }), 413, answers.resourceTooLarge('256 KB'), before);
  });

  it('asks for a file when the form has none', async () => {
    const before = await snapshot();
    await expectRefusedAndNothingStored(await attach(courseId, lectureId, null), 400, answers.resourceMissing, before);
  });

  it('refuses a lecture of another course, or none, before reading the file', async () => {
    const other = await newCourse();
    const before = await snapshot();
    for (const [course, lecture] of [
      [other, lectureId],
      [courseId, crypto.randomUUID()],
    ]) {
      await expectRefusedAndNothingStored(await attach(course!, lecture!, { bytes: pdfFile(), filename: 'a.pdf' }), 404, answers.lectureNotFound, before);
      expect((await list(course!, lecture!, admin.cookie)).statusCode).toBe(404);
    }
  });

  it('takes 20 files a lecture, then says to remove one first', async () => {
    const full = await newLecture(courseId);
    for (let n = 1; n <= 20; n++) expect((await attach(courseId, full, { bytes: Buffer.from(`note ${n}\n`), filename: `${n}.txt` })).statusCode).toBe(201);
    const before = await snapshot();
    await expectRefusedAndNothingStored(await attach(courseId, full, { bytes: pdfFile(), filename: '21.pdf' }), 409, answers.resourceLimit(20), before);
    expect((await list(courseId, full, admin.cookie)).json().resources.map((r: { name: string }) => r.name)).toEqual(
      Array.from({ length: 20 }, (_, n) => `${n + 1}.txt`),
    );
  });

  it('is for administrators, and limits how many files one attaches in a while', async () => {
    const before = await snapshot();
    await expectRefusedAndNothingStored(
      await attach(courseId, lectureId, { bytes: pdfFile(), filename: 'a.pdf' }, subscriber.cookie),
      403,
      answers.notAllowed,
      before,
    );
    await expectRefusedAndNothingStored(await attach(courseId, lectureId, { bytes: pdfFile(), filename: 'a.pdf' }, ''), 401, answers.notLoggedIn, before);

    const busy = await signUpAdmin(t.app);
    await t.app.ctx.limits.resourceUploadsPerAccount.consume(busy.user._id, 100);
    await expectRefusedAndNothingStored(
      await attach(courseId, lectureId, { bytes: pdfFile(), filename: 'a.pdf' }, busy.cookie),
      429,
      answers.tooManyRequests,
      before,
    );
  });
});

describe('who gets a lecture’s files', () => {
  let courseId: string;
  let privateLecture: string;
  let previewLecture: string;
  beforeAll(async () => {
    courseId = await newCourse();
    privateLecture = await newLecture(courseId);
    previewLecture = await newLecture(courseId, true);
    for (const lecture of [privateLecture, previewLecture])
      expect((await attach(courseId, lecture, { bytes: pdfFile(), filename: 'slides.pdf' })).statusCode).toBe(201);
  });

  const urlFor = async (lectureId: string, cookie: string) => {
    const response = await list(courseId, lectureId, cookie);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().resources[0].url as string;
  };
  const expectRefused = (response: LightMyRequestResponse, status: number, message: string) => {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json()).toEqual({ success: false, message });
  };

  it('lists them for subscribers and administrators, with links that are theirs alone', async () => {
    for (const viewer of [subscriber, admin]) {
      for (const lecture of [privateLecture, previewLecture]) {
        const url = await urlFor(lecture, viewer.cookie);
        expect(url).toContain(`viewer=${viewer.id}`);
        expect((await download(url, viewer.cookie)).statusCode).toBe(200);
      }
    }
    // A link made for the subscriber opens for nobody else, not even an administrator.
    const theirs = await urlFor(privateLecture, subscriber.cookie);
    expectRefused(await download(theirs, admin.cookie), 403, answers.resourceLinkInvalid);
    expectRefused(await download(theirs), 403, answers.resourceLinkInvalid);
  });

  it('shares a free preview’s files with anyone logged in, but not with visitors, and no other lecture’s', async () => {
    const url = await urlFor(previewLecture, learner.cookie);
    expect((await download(url, learner.cookie)).statusCode).toBe(200);
    expectRefused(await download(url), 403, answers.resourceLinkInvalid);
    expectRefused(await list(courseId, previewLecture), 401, answers.notLoggedIn);
    expectRefused(await list(courseId, privateLecture, learner.cookie), 403, answers.subscribeToDownload);
  });

  it('keeps a draft’s files for administrators: a subscriber’s list and links stop while the course is unpublished', async () => {
    const subscribersUrl = await urlFor(privateLecture, subscriber.cookie);
    const unpublished = await t.app.inject({ method: 'POST', url: `/api/v1/courses/${courseId}/unpublish`, headers: { cookie: admin.cookie } });
    expect(unpublished.statusCode, unpublished.body).toBe(200);
    try {
      expectRefused(await list(courseId, privateLecture, subscriber.cookie), 403, answers.subscribeToDownload);
      expectRefused(await list(courseId, previewLecture, learner.cookie), 403, answers.subscribeToDownload);
      expectRefused(await download(subscribersUrl, subscriber.cookie), 403, answers.notAllowed);
      expect((await download(await urlFor(privateLecture, admin.cookie), admin.cookie)).statusCode).toBe(200);
    } finally {
      await publishCourseDirectly(t.app.ctx, courseId);
    }
    expect((await download(subscribersUrl, subscriber.cookie)).statusCode).toBe(200);
  });

  it('stops a link when access ends: the preview withdrawn, the subscription over', async () => {
    const learnerUrl = await urlFor(previewLecture, learner.cookie);
    const lapsing = await signUp(t.app);
    await subscribe(lapsing.user._id, true);
    const lapsingUrl = await urlFor(privateLecture, lapsing.cookie);

    const withdrawn = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/courses/${courseId}/lectures/${previewLecture}`,
      payload: { preview: false },
      headers: { cookie: admin.cookie },
    });
    expect(withdrawn.statusCode).toBe(200);
    expectRefused(await download(learnerUrl, learner.cookie), 403, answers.notAllowed);
    expectRefused(await list(courseId, previewLecture, learner.cookie), 403, answers.subscribeToDownload);

    await subscribe(lapsing.user._id, false);
    expectRefused(await download(lapsingUrl, lapsing.cookie), 403, answers.notAllowed);
  });

  it('refuses a link that was changed, that expired, or that signs another kind of file', async () => {
    const url = new URL(await urlFor(privateLecture, admin.cookie), 'http://x');
    const changed = (name: string, value: string) => {
      const copy = new URL(url);
      copy.searchParams.set(name, value);
      return `${copy.pathname}${copy.search}`;
    };
    expectRefused(await download(changed('expires', String(Number(url.searchParams.get('expires')) + 60)), admin.cookie), 403, answers.resourceLinkInvalid);
    expectRefused(await download(changed('signature', 'A'.repeat(43)), admin.cookie), 403, answers.resourceLinkInvalid);
    expectRefused(await download(changed('viewer', 'not-a-uuid'), admin.cookie), 403, answers.resourceLinkInvalid);

    const key = url.pathname.replace('/media/private/', '');
    const expired = await t.app.ctx.media.privateUrl({ key, viewerId: admin.id, expiresAt: new Date(Date.now() - 1000) });
    expectRefused(await download(expired, admin.cookie), 403, answers.resourceLinkInvalid);

    // A video's link is no download link, and a download link plays no video.
    const lectures = (await t.app.inject({ url: `/api/v1/courses/${courseId}`, headers: { cookie: admin.cookie } })).json().lectures;
    const videoUrl = new URL(lectures[0].secure_url, 'http://x');
    expectRefused(
      await download(`/media/private/resources/${videoUrl.pathname.split('/').pop()}${videoUrl.search}`, admin.cookie),
      403,
      answers.resourceLinkInvalid,
    );
    expectRefused(await download(`/media/private/videos/${key.split('/')[1]}${url.search}`, admin.cookie), 403, answers.videoLinkInvalid);
  });
});

describe('removing files', () => {
  const resourceFile = (url: string) => new URL(url, 'http://x').pathname.split('/').pop()!;
  const exists = (file: string) =>
    fs.access(path.join(t.dataDir, 'media', 'resources', file)).then(
      () => true,
      () => false,
    );

  async function lectureWithFiles(courseId: string, files = 2): Promise<{ lectureId: string; urls: string[] }> {
    const lectureId = await newLecture(courseId);
    const urls: string[] = [];
    for (let n = 0; n < files; n++) urls.push((await attach(courseId, lectureId, { bytes: pdfFile(1000), filename: `part-${n}.pdf` })).json().resource.url);
    for (const url of urls) expect(await exists(resourceFile(url))).toBe(true);
    return { lectureId, urls };
  }

  it('removes one file and its stored copy; its link then finds nothing', async () => {
    const courseId = await newCourse();
    const { lectureId, urls } = await lectureWithFiles(courseId);
    const [resource] = (await list(courseId, lectureId, admin.cookie)).json().resources;
    const url = `${resourcesUrl(courseId, lectureId)}/${resource._id}`;

    expect((await t.app.inject({ method: 'DELETE', url, headers: { cookie: subscriber.cookie } })).statusCode).toBe(403);
    const other = await newCourse();
    const elsewhere = await t.app.inject({ method: 'DELETE', url: `${resourcesUrl(other, lectureId)}/${resource._id}`, headers: { cookie: admin.cookie } });
    expect(elsewhere.statusCode).toBe(404);
    expect(await exists(resourceFile(urls[0]!))).toBe(true);

    const deleted = await t.app.inject({ method: 'DELETE', url, headers: { cookie: admin.cookie } });
    expect(deleted.json()).toEqual({ success: true, message: answers.resourceDeleted });
    expect(await exists(resourceFile(urls[0]!))).toBe(false);
    expect(await exists(resourceFile(urls[1]!))).toBe(true);
    expect((await list(courseId, lectureId, admin.cookie)).json().resources).toHaveLength(1);
    expect((await download(urls[0]!, admin.cookie)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url, headers: { cookie: admin.cookie } })).json()).toEqual({
      success: false,
      message: answers.resourceNotFound,
    });
  });

  it('removes a lecture’s files with the lecture, and every lecture’s with the course', async () => {
    const courseId = await newCourse();
    const first = await lectureWithFiles(courseId);
    const second = await lectureWithFiles(courseId);

    const lectureDeleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/courses?courseId=${courseId}&lectureId=${first.lectureId}`,
      headers: { cookie: admin.cookie },
    });
    expect(lectureDeleted.statusCode).toBe(200);
    for (const url of first.urls) expect(await exists(resourceFile(url))).toBe(false);
    for (const url of second.urls) expect(await exists(resourceFile(url))).toBe(true);

    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/courses/${courseId}`, headers: { cookie: admin.cookie } })).statusCode).toBe(200);
    for (const url of second.urls) expect(await exists(resourceFile(url))).toBe(false);
  });
});
