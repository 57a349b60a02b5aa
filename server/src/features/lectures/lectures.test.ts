import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { courses, lectures, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { publishCourseDirectly } from '../../test/courses.ts';
import { mediaFiles, rowCount } from '../../test/db.ts';
import { mp4Video, multipart, pngImage, signUp, signUpAdmin, type Upload } from '../../test/http.ts';
import { ANY_VIEWER } from '../media/signed-urls.ts';

const VIDEO_SIZE = 40_000;

let t: TestApp;
let admin: string;
/** Logged in, no subscription. */
let learner: string;
let subscriber: { id: string; cookie: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signUpAdmin(t.app)).cookie;
  learner = (await signUp(t.app)).cookie;
  const paying = await signUp(t.app);
  await t.app.ctx.db
    .update(users)
    .set({ subscriptionEndsAt: new Date(Date.now() + 30 * 24 * 3600 * 1000) })
    .where(eq(users.id, paying.user._id));
  subscriber = { id: paying.user._id, cookie: paying.cookie };
});
afterAll(() => t?.close());

const video = (): Upload => ({ bytes: mp4Video(VIDEO_SIZE), filename: 'lesson.mp4', type: 'video/mp4' });

async function newCourse(title = 'Storefront course'): Promise<string> {
  const form = await multipart({
    title,
    description: 'What a visitor reads before buying.',
    category: 'Business',
    createdBy: 'Asha Verma',
    thumbnail: { bytes: await pngImage(), filename: 'cover.png', type: 'image/png' },
  });
  const response = await t.app.inject({ method: 'POST', url: '/api/v1/courses', payload: form.payload, headers: { ...form.headers, cookie: admin } });
  expect(response.statusCode, response.body).toBe(201);
  await publishCourseDirectly(t.app.ctx, response.json().course._id);
  return response.json().course._id;
}

async function postLecture(courseId: string, fields: Record<string, string>, cookie = admin): Promise<LightMyRequestResponse> {
  const form = await multipart({ description: 'A part of the course.', ...fields, lectures: video() });
  return t.app.inject({ method: 'POST', url: `/api/v1/courses/${courseId}`, payload: form.payload, headers: { ...form.headers, cookie } });
}

/** Adds a lecture and answers its id (lectures are listed in the order they were added). */
async function addLecture(courseId: string, title: string, preview?: 'true' | 'false'): Promise<string> {
  const response = await postLecture(courseId, { title, ...(preview && { preview }) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().course.lectures.at(-1)._id;
}

const curriculum = (courseId: string, cookie?: string) => t.app.inject({ url: `/api/v1/courses/${courseId}/curriculum`, headers: cookie ? { cookie } : {} });

const setPreview = (courseId: string, lectureId: string, payload: unknown, cookie = admin) =>
  t.app.inject({ method: 'PATCH', url: `/api/v1/courses/${courseId}/lectures/${lectureId}`, payload: payload as object, headers: { cookie } });

/** The admin's (viewer-bound) URL of each lecture, by title. */
async function adminUrls(courseId: string): Promise<Record<string, string>> {
  const response = await t.app.inject({ url: `/api/v1/courses/${courseId}`, headers: { cookie: admin } });
  return Object.fromEntries(response.json().lectures.map((lecture: { title: string; secure_url: string }) => [lecture.title, lecture.secure_url]));
}

const keyOf = (url: string) => new URL(url, 'http://x').pathname.replace('/media/private/', '');

function expectRefused(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(403);
  expect(response.json()).toEqual({ success: false, message: answers.videoLinkInvalid });
}

describe('GET /api/v1/courses/:id/curriculum', () => {
  let courseId: string;
  beforeAll(async () => {
    courseId = await newCourse('Bookkeeping from zero');
    await addLecture(courseId, 'Welcome', 'true');
    await addLecture(courseId, 'Ledgers');
    await addLecture(courseId, 'Closing the books', 'false');
  });

  it('is public: a visitor gets the course as the catalogue lists it and every lecture in order, with no video URL but the preview’s', async () => {
    const response = await curriculum(courseId);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json();
    const listed = (await t.app.inject({ url: `/api/v1/courses?id=${courseId}` })).json().courses[0];
    expect(body).toMatchObject({ success: true, message: answers.curriculumFetched, course: listed, lectureCount: 3, totalDuration: null });
    expect(body.course.numbersOfLectures).toBe(3);
    expect(body.lectures.map((l: { title: string; preview: boolean; duration: null }) => [l.title, l.preview, l.duration])).toEqual([
      ['Welcome', true, null],
      ['Ledgers', false, null],
      ['Closing the books', false, null],
    ]);
    for (const lecture of body.lectures)
      expect(Object.keys(lecture).sort()).toEqual(
        lecture.preview
          ? ['_id', 'description', 'duration', 'preview', 'sectionId', 'secure_url', 'title']
          : ['_id', 'description', 'duration', 'preview', 'sectionId', 'title'],
      );
    expect(body.lectures[0].secure_url).toMatch(new RegExp(`^/media/private/videos/[0-9a-f]{32}\\.mp4\\?viewer=${ANY_VIEWER}&expires=\\d+&signature=[\\w-]+$`));
    // Only the preview's video is named anywhere in the answer.
    expect(response.body.match(/\/media\/private\//g)).toHaveLength(1);
  });

  it('is the same for a learner without a subscription and for a subscriber', async () => {
    const visitor = (await curriculum(courseId)).json();
    for (const cookie of [learner, subscriber.cookie]) {
      expect((await curriculum(courseId, cookie)).json()).toEqual(visitor);
    }
  });

  it('gives durations once known, and their total', async () => {
    const id = await newCourse();
    await addLecture(id, 'One');
    await addLecture(id, 'Two');
    await addLecture(id, 'Three');
    const before = (await curriculum(id)).json();
    expect(before.totalDuration).toBeNull();
    const [one, two] = before.lectures;
    await t.app.ctx.db.update(lectures).set({ durationSeconds: 90.5 }).where(eq(lectures.id, one._id));
    await t.app.ctx.db.update(lectures).set({ durationSeconds: 30 }).where(eq(lectures.id, two._id));
    t.app.ctx.catalogue.invalidate(); // as the video pipeline will, after measuring
    const after = (await curriculum(id)).json();
    expect(after.lectures.map((l: { duration: number | null }) => l.duration)).toEqual([90.5, 30, null]);
    expect(after.totalDuration).toBe(120.5);
  });

  it('answers a course without lectures with an empty list', async () => {
    const id = await newCourse();
    expect((await curriculum(id)).json()).toMatchObject({ success: true, lectures: [], lectureCount: 0, totalDuration: null });
  });

  it('shows an added lecture at once, though answers are cached', async () => {
    const id = await newCourse();
    await addLecture(id, 'First');
    expect((await curriculum(id)).json().lectureCount).toBe(1);
    await addLecture(id, 'Second', 'true');
    const body = (await curriculum(id)).json();
    expect(body.lectureCount).toBe(2);
    expect(body.lectures[1]).toMatchObject({ title: 'Second', preview: true, secure_url: expect.any(String) });
  });

  it('is 404 "Course not found" for an unknown or malformed id', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', "1'%20OR%20'1'='1", '%00', 'x'.repeat(150)]) {
      const response = await curriculum(id);
      expect(response.statusCode, id).toBe(404);
      expect(response.json()).toEqual({ success: false, message: messages.courseNotFound });
    }
  });

  it('makes preview URLs that last VIDEO_URL_HOURS to the next full hour, the same for every visitor within it', async () => {
    const [first, second] = await Promise.all([curriculum(courseId), curriculum(courseId, learner)]);
    const url = first.json().lectures[0].secure_url;
    expect(second.json().lectures[0].secure_url).toBe(url);
    const expires = Number(new URL(url, 'http://x').searchParams.get('expires'));
    expect(expires % 3600).toBe(0);
    expect(expires * 1000 - Date.now()).toBeGreaterThanOrEqual(6 * 3600 * 1000 - 1000);
    expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(7 * 3600 * 1000);
  });
});

describe('free preview lectures', () => {
  let courseId: string;
  let previewId: string;
  let privateId: string;
  let previewUrl: string;
  let privateKey: string;

  beforeAll(async () => {
    courseId = await newCourse('Preview rules');
    previewId = await addLecture(courseId, 'Free intro', 'true');
    privateId = await addLecture(courseId, 'Paid part');
    previewUrl = (await curriculum(courseId)).json().lectures[0].secure_url;
    privateKey = keyOf((await adminUrls(courseId))['Paid part']!);
  });

  it('play for a visitor without a session, whole and by ranges, and for a learner without a subscription', async () => {
    const whole = await t.app.inject({ url: previewUrl });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.rawPayload.equals(mp4Video(VIDEO_SIZE))).toBe(true);
    const range = await t.app.inject({ url: previewUrl, headers: { range: 'bytes=100-1099' } });
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-range']).toBe(`bytes 100-1099/${VIDEO_SIZE + 32}`);
    expect(range.rawPayload.equals(mp4Video(VIDEO_SIZE).subarray(100, 1100))).toBe(true);
    expect((await t.app.inject({ url: previewUrl, headers: { cookie: learner, range: 'bytes=0-9' } })).statusCode).toBe(206);
  });

  it('never give a visitor or a learner a URL of a lecture that is not a preview, and its URLs refuse them', async () => {
    const body = (await curriculum(courseId, learner)).json();
    expect(body.lectures[0]).toMatchObject({ _id: previewId, preview: true, secure_url: previewUrl });
    expect(body.lectures[1]).toEqual({
      _id: privateId,
      sectionId: null,
      title: 'Paid part',
      description: 'A part of the course.',
      duration: null,
      preview: false,
    });
    expect((await t.app.inject({ url: `/api/v1/courses/${courseId}`, headers: { cookie: learner } })).statusCode).toBe(403);
    // The admin's own link, copied: bound to the admin.
    const copied = (await adminUrls(courseId))['Paid part']!;
    expectRefused(await t.app.inject({ url: copied }));
    expectRefused(await t.app.inject({ url: copied, headers: { cookie: learner } }));
    // The preview's link moved to another video: the signature no longer matches.
    const moved = previewUrl.replace(keyOf(previewUrl), privateKey);
    expectRefused(await t.app.inject({ url: moved }));
  });

  it('are checked by the server: a genuinely signed "anyone" URL of a lecture that is no preview is refused', async () => {
    const forAnyone = await t.app.ctx.media.privateUrl({ key: privateKey, viewerId: ANY_VIEWER, expiresAt: new Date(Date.now() + 3600_000) });
    expectRefused(await t.app.inject({ url: forAnyone }));
    expectRefused(await t.app.inject({ url: forAnyone, headers: { cookie: learner } }));
    // An expired preview URL is refused like any other.
    const expired = await t.app.ctx.media.privateUrl({ key: keyOf(previewUrl), viewerId: ANY_VIEWER, expiresAt: new Date(Date.now() - 1000) });
    expectRefused(await t.app.inject({ url: expired }));
  });

  it('keep the spec’s GET /courses/:id answers: 401 logged out, 403 without a subscription; subscribers get their own URLs and the preview flag', async () => {
    const loggedOut = await t.app.inject({ url: `/api/v1/courses/${courseId}` });
    expect(loggedOut.statusCode).toBe(401);
    expect(loggedOut.json()).toEqual({ success: false, message: answers.notLoggedIn });
    const learnerAnswer = await t.app.inject({ url: `/api/v1/courses/${courseId}`, headers: { cookie: learner } });
    expect(learnerAnswer.statusCode).toBe(403);
    expect(learnerAnswer.json()).toEqual({ success: false, message: answers.subscribeToWatch });
    expect(learnerAnswer.body).not.toContain('/media/private/');

    const response = await t.app.inject({ url: `/api/v1/courses/${courseId}`, headers: { cookie: subscriber.cookie } });
    expect(response.statusCode).toBe(200);
    const list = response.json().lectures;
    expect(list.map((l: { title: string; preview: boolean }) => [l.title, l.preview])).toEqual([
      ['Free intro', true],
      ['Paid part', false],
    ]);
    for (const lecture of list) expect(lecture.secure_url).toContain(`viewer=${subscriber.id}`);
  });

  it('an admin turns on and off; turning it off stops issuing its URL and refuses the ones issued', async () => {
    const on = await setPreview(courseId, privateId, { preview: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({
      success: true,
      message: answers.lecturePreviewOn,
      lecture: { _id: privateId, title: 'Paid part', preview: true, duration: null },
    });
    const issued = (await curriculum(courseId)).json().lectures[1].secure_url;
    expect(issued).toContain(`viewer=${ANY_VIEWER}`);
    expect((await t.app.inject({ url: issued, headers: { range: 'bytes=0-9' } })).statusCode).toBe(206);

    const off = await setPreview(courseId, privateId, { preview: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ success: true, message: answers.lecturePreviewOff, lecture: { _id: privateId, preview: false } });
    const after = (await curriculum(courseId)).json().lectures[1];
    expect(after.preview).toBe(false);
    expect(after.secure_url).toBeUndefined();
    // Refused at once, though it played a moment ago.
    expectRefused(await t.app.inject({ url: issued, headers: { range: 'bytes=0-9' } }));
    // The other preview is untouched.
    expect((await t.app.inject({ url: previewUrl, headers: { range: 'bytes=0-9' } })).statusCode).toBe(206);
  });

  it('stop playing when the lecture is deleted', async () => {
    const id = await addLecture(courseId, 'Short-lived preview', 'true');
    const url = (await curriculum(courseId)).json().lectures.find((l: { _id: string }) => l._id === id).secure_url;
    expect((await t.app.inject({ url, headers: { range: 'bytes=0-9' } })).statusCode).toBe(206);
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/v1/courses?courseId=${courseId}&lectureId=${id}`, headers: { cookie: admin } });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().course.lectures.map((l: { _id: string }) => l._id)).not.toContain(id);
    expectRefused(await t.app.inject({ url, headers: { range: 'bytes=0-9' } }));
  });
});

describe('POST /api/v1/courses/:id with preview', () => {
  let courseId: string;
  beforeAll(async () => {
    courseId = await newCourse();
  });

  it("takes 'true' and 'false', and no field as false", async () => {
    for (const [preview, expected] of [
      ['true', true],
      ['false', false],
      [undefined, false],
    ] as const) {
      const response = await postLecture(courseId, { title: `Lecture ${String(preview)}`, ...(preview && { preview }) });
      expect(response.statusCode).toBe(201);
      expect(response.json().course.lectures.at(-1)).toMatchObject({ title: `Lecture ${String(preview)}`, preview: expected });
    }
  });

  it('refuses any other value, keeping no file and no row', async () => {
    for (const preview of ['yes', '1', 'TRUE', '']) {
      const before = { lectures: await rowCount(t.database, lectures), videos: await mediaFiles(t.dataDir, 'videos') };
      const response = await postLecture(courseId, { title: 'Odd', preview });
      expect(response.statusCode, preview).toBe(400);
      expect(response.json()).toEqual({ success: false, message: answers.previewInvalid });
      expect({ lectures: await rowCount(t.database, lectures), videos: await mediaFiles(t.dataDir, 'videos') }).toEqual(before);
    }
  });

  it('is still for admins only', async () => {
    expect((await postLecture(courseId, { title: 'Sneaky', preview: 'true' }, learner)).statusCode).toBe(403);
    expect((await postLecture(courseId, { title: 'Sneaky', preview: 'true' }, '')).statusCode).toBe(401);
  });
});

describe('PATCH /api/v1/courses/:courseId/lectures/:lectureId', () => {
  let courseId: string;
  let lectureId: string;
  let otherCourseId: string;
  beforeAll(async () => {
    courseId = await newCourse();
    lectureId = await addLecture(courseId, 'Toggle me');
    otherCourseId = await newCourse();
  });
  const previewFlag = async () => (await t.app.ctx.db.select({ isPreview: lectures.isPreview }).from(lectures).where(eq(lectures.id, lectureId)))[0]!.isPreview;

  it('is for admins only: 401 logged out, 403 for a learner and a subscriber, nothing changed', async () => {
    const loggedOut = await setPreview(courseId, lectureId, { preview: true }, '');
    expect(loggedOut.statusCode).toBe(401);
    expect(loggedOut.json()).toEqual({ success: false, message: answers.notLoggedIn });
    for (const cookie of [learner, subscriber.cookie]) {
      const refused = await setPreview(courseId, lectureId, { preview: true }, cookie);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ success: false, message: answers.notAllowed });
    }
    expect(await previewFlag()).toBe(false);
  });

  it('is 404 for a lecture of another course or an unknown one, 400 for malformed ids', async () => {
    for (const [course, lecture] of [
      [otherCourseId, lectureId],
      [courseId, '00000000-0000-4000-8000-000000000000'],
      ['00000000-0000-4000-8000-000000000000', lectureId],
    ]) {
      const response = await setPreview(course!, lecture!, { preview: true });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ success: false, message: answers.lectureNotFound });
    }
    for (const [course, lecture] of [
      ['nope', lectureId],
      [courseId, 'nope'],
    ]) {
      const response = await setPreview(course!, lecture!, { preview: true });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ success: false, message: answers.invalidId });
    }
    expect(await previewFlag()).toBe(false);
  });

  it('refuses a preview that is not a boolean, and a body with nothing to change', async () => {
    for (const payload of [{ preview: 'true' }, { preview: 1 }, { preview: null }]) {
      const response = await setPreview(courseId, lectureId, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toEqual({ success: false, message: answers.previewInvalid });
    }
    for (const payload of [{}, undefined]) {
      const response = await setPreview(courseId, lectureId, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toEqual({ success: false, message: answers.lectureChangeEmpty });
    }
    expect(await previewFlag()).toBe(false);
  });

  it('touches the course, so the sitemap can say when its page last changed', async () => {
    const [before] = await t.app.ctx.db.select({ updatedAt: courses.updatedAt }).from(courses).where(eq(courses.id, courseId));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await setPreview(courseId, lectureId, { preview: true })).statusCode).toBe(200);
    const [after] = await t.app.ctx.db.select({ updatedAt: courses.updatedAt }).from(courses).where(eq(courses.id, courseId));
    expect(after!.updatedAt.getTime()).toBeGreaterThan(before!.updatedAt.getTime());
    expect(await previewFlag()).toBe(true);
  });
});

describe("GET /api/v1/courses/:id, a learner's lectures from the catalogue cache", () => {
  let courseId: string;
  let lectureId: string;
  beforeAll(async () => {
    courseId = await newCourse('Cached for learners');
    lectureId = await addLecture(courseId, 'Ownership');
  });

  const lectureList = async (app: TestApp, cookie: string) => {
    const response = await app.app.inject({ url: `/api/v1/courses/${courseId}`, headers: { cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().lectures as { _id: string; title: string; secure_url: string; processing: { percent: number | null } }[];
  };

  it('reads the course once for every learner, each given URLs of their own, and shows a change made behind its back at once', async () => {
    const other = await signUp(t.app);
    await t.app.ctx.db
      .update(users)
      .set({ subscriptionEndsAt: new Date(Date.now() + 24 * 3600 * 1000) })
      .where(eq(users.id, other.user._id));
    const [mine] = await lectureList(t, subscriber.cookie);
    const hits = t.app.ctx.catalogue.stats.hits;
    const [theirs] = await lectureList(t, other.cookie);
    expect(t.app.ctx.catalogue.stats.hits).toBe(hits + 1);
    expect(theirs!.title).toBe('Ownership');
    // Signed for each viewer: one learner's link is not another's.
    expect(theirs!.secure_url).not.toBe(mine!.secure_url);

    // As another instance or a job would: the database tells every instance, and the copy goes.
    await t.database.db.update(lectures).set({ title: 'Borrowing' }).where(eq(lectures.id, lectureId));
    expect((await lectureList(t, subscriber.cookie))[0]!.title).toBe('Borrowing');
  });

  it("reads an administrator's list from the database each time: it follows the pipeline as it goes", async () => {
    await t.database.db.update(lectures).set({ videoState: 'processing', processingPercent: 10 }).where(eq(lectures.id, lectureId));
    expect((await lectureList(t, admin))[0]!.processing.percent).toBe(10);
    // The pipeline's percent changes nothing the catalogue shows, so it tells no instance.
    await t.database.db.update(lectures).set({ processingPercent: 60 }).where(eq(lectures.id, lectureId));
    expect((await lectureList(t, admin))[0]!.processing.percent).toBe(60);
    await t.database.db.update(lectures).set({ videoState: 'ready', processingPercent: null }).where(eq(lectures.id, lectureId));
  });

  describe('on two instances of one database', () => {
    let b: TestApp;
    beforeAll(async () => {
      b = await createTestApp({ database: t.database, catchUpOnEveryRequest: false });
    });
    afterAll(() => b?.close());

    it('shows a lecture renamed on one to a learner of the other within a second', async () => {
      const before = (await lectureList(b, subscriber.cookie))[0]!.title;
      const renamed = `${before}, renamed`;
      expect((await setPreview(courseId, lectureId, { title: renamed })).statusCode).toBe(200);
      const started = Date.now();
      while ((await lectureList(b, subscriber.cookie))[0]!.title !== renamed) {
        if (Date.now() - started > 1000) throw new Error('the other instance still shows the old title a second later');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
  });
});
