import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { messages } from '@lms/contract/messages';
import { courseProgress, courses, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { mp4Video, multipart, pngImage, signUp, signUpAdmin } from '../../test/http.ts';
import { buildSitemap } from '../storefront/storefront.service.ts';
import { publishDueCourses } from './publishing.service.ts';

const DAY_MS = 24 * 3600 * 1000;

let t: TestApp;
/** A second instance on the same database, with its own caches. */
let other: TestApp;
let admin: string;
let subscriber: { id: string; cookie: string };
let learner: string;

beforeAll(async () => {
  t = await createTestApp();
  other = await createTestApp({ database: t.database });
  admin = (await signUpAdmin(t.app)).cookie;
  learner = (await signUp(t.app)).cookie;
  const paying = await signUp(t.app);
  await t.app.ctx.db
    .update(users)
    .set({ subscriptionEndsAt: new Date(Date.now() + 30 * DAY_MS) })
    .where(eq(users.id, paying.user._id));
  subscriber = { id: paying.user._id, cookie: paying.cookie };
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

async function createDraft(title: string): Promise<{ _id: string; state: string }> {
  const form = await multipart({
    title,
    description: 'Written before anyone may see it.',
    category: 'Drafting',
    createdBy: 'Asha Verma',
    thumbnail: { bytes: await pngImage(), filename: 'cover.png', type: 'image/png' },
  });
  const response = await t.app.inject({ method: 'POST', url: '/api/v1/courses', payload: form.payload, headers: { ...form.headers, cookie: admin } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().course;
}

async function addLecture(courseId: string): Promise<string> {
  const form = await multipart({
    title: 'First steps',
    description: 'Where it starts.',
    lectures: { bytes: mp4Video(20_000), filename: 'l.mp4', type: 'video/mp4' },
  });
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/v1/courses/${courseId}`,
    payload: form.payload,
    headers: { ...form.headers, cookie: admin },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().course.lectures.at(-1)._id;
}

const publish = (courseId: string, payload: object = {}, cookie = admin) =>
  t.app.inject({ method: 'POST', url: `/api/v1/courses/${courseId}/publish`, payload, headers: { cookie } });
const unpublish = (courseId: string, cookie = admin) => t.app.inject({ method: 'POST', url: `/api/v1/courses/${courseId}/unpublish`, headers: { cookie } });

type Listed = { _id: string; state: string; publishAt: string | null; subscribersWatching?: number };
const catalogue = async (app: TestApp, query = '', cookie?: string): Promise<Listed[]> =>
  (await app.app.inject({ url: `/api/v1/courses${query}`, headers: cookie ? { cookie } : {} })).json().courses;
const ids = (listed: Listed[]) => listed.map((course) => course._id);

/** Every place a visitor or a learner could come across the course, and whether it shows there. */
async function seenByVisitors(courseId: string, title: string): Promise<Record<string, boolean | number>> {
  const curriculum = (cookie?: string, app = t) =>
    app.app.inject({ url: `/api/v1/courses/${courseId}/curriculum`, headers: cookie ? { cookie } : {} }).then((r) => r.statusCode);
  return {
    catalogue: ids(await catalogue(t)).includes(courseId),
    catalogueOnAnotherInstance: ids(await catalogue(other)).includes(courseId),
    catalogueForASubscriber: ids(await catalogue(t, '', subscriber.cookie)).includes(courseId),
    search: ids(await catalogue(t, `?search=${encodeURIComponent(title)}`)).includes(courseId),
    byId: ids(await catalogue(t, `?id=${courseId}`)).includes(courseId),
    sitemap: (await buildSitemap(t.app.ctx)).includes(courseId),
    curriculum: await curriculum(),
    curriculumOnAnotherInstance: await curriculum(undefined, other),
    curriculumForALearner: await curriculum(learner),
    lecturesForASubscriber: (await t.app.inject({ url: `/api/v1/courses/${courseId}`, headers: { cookie: subscriber.cookie } })).statusCode,
  };
}
const hidden = {
  catalogue: false,
  catalogueOnAnotherInstance: false,
  catalogueForASubscriber: false,
  search: false,
  byId: false,
  sitemap: false,
  curriculum: 404,
  curriculumOnAnotherInstance: 404,
  curriculumForALearner: 404,
  lecturesForASubscriber: 404,
};
const shown = {
  catalogue: true,
  catalogueOnAnotherInstance: true,
  catalogueForASubscriber: true,
  search: true,
  byId: true,
  sitemap: true,
  curriculum: 200,
  curriculumOnAnotherInstance: 200,
  curriculumForALearner: 200,
  lecturesForASubscriber: 200,
};

describe('a new course is a draft', () => {
  it('is seen by administrators alone, first in their list and marked as a draft, until it is published', async () => {
    const course = await createDraft('Invisible Ink Basics');
    expect(course.state).toBe('draft');
    await addLecture(course._id);
    expect(await seenByVisitors(course._id, 'Invisible Ink Basics')).toEqual(hidden);

    const adminList = await catalogue(t, '', admin);
    expect(adminList[0]).toMatchObject({ _id: course._id, state: 'draft', publishAt: null, subscribersWatching: 0 });
    expect((await t.app.inject({ url: `/api/v1/courses/${course._id}/curriculum`, headers: { cookie: admin } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: `/api/v1/courses/${course._id}`, headers: { cookie: admin } })).statusCode).toBe(200);

    const published = await publish(course._id);
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json()).toMatchObject({ success: true, message: answers.coursePublished, course: { _id: course._id, state: 'published' } });
    // Every instance sees it at once, though each had the catalogue cached without it.
    expect(await seenByVisitors(course._id, 'Invisible Ink Basics')).toEqual(shown);
    expect((await catalogue(t))[0]!._id).toBe(course._id);

    const unpublished = await unpublish(course._id);
    expect(unpublished.json()).toMatchObject({ message: answers.courseUnpublished, course: { state: 'draft' } });
    expect(await seenByVisitors(course._id, 'Invisible Ink Basics')).toEqual(hidden);
  });

  it('drops out of a learner’s continue-watching list while it is a draft, and comes back with their progress', async () => {
    const course = await createDraft('Paused Pottery');
    const lectureId = await addLecture(course._id);
    await publish(course._id);
    const saved = await t.app.inject({
      method: 'POST',
      url: `/api/v1/progress/lectures/${lectureId}`,
      payload: { position: 12, watched: 12, duration: 60, at: Date.now() },
      headers: { cookie: subscriber.cookie },
    });
    expect(saved.statusCode, saved.body).toBeLessThan(300);
    const started = async () =>
      (await t.app.inject({ url: '/api/v1/progress', headers: { cookie: subscriber.cookie } }))
        .json()
        .courses.map((c: { course: { _id: string } }) => c.course._id);
    await t.app.ctx.heldSaves.flush();
    const [row] = await t.app.ctx.db.select().from(courseProgress).where(eq(courseProgress.courseId, course._id));
    expect(row?.userId).toBe(subscriber.id);
    expect(await started()).toContain(course._id);
    expect((await catalogue(t, '', admin)).find((c) => c._id === course._id)?.subscribersWatching).toBe(1);

    await unpublish(course._id);
    expect(await started()).not.toContain(course._id);
    await publish(course._id);
    expect(await started()).toContain(course._id);
  });
});

describe('video links of a course made a draft again', () => {
  it('stop for a subscriber at once, and play again once it is published; an administrator’s keep playing', async () => {
    const course = await createDraft('Links That Stop');
    await addLecture(course._id);
    await publish(course._id);
    const urlFor = async (cookie: string) =>
      (await t.app.inject({ url: `/api/v1/courses/${course._id}`, headers: { cookie } })).json().lectures[0].secure_url as string;
    const subscribersUrl = await urlFor(subscriber.cookie);
    const adminsUrl = await urlFor(admin);
    const play = (url: string, cookie: string) => t.app.inject({ url, headers: { cookie, range: 'bytes=0-99' } }).then((r) => r.statusCode);
    const lectureId = (await t.app.inject({ url: `/api/v1/courses/${course._id}`, headers: { cookie: subscriber.cookie } })).json().lectures[0]._id;
    const lease = await t.app.inject({ method: 'POST', url: '/api/v1/playback', payload: { lectureId }, headers: { cookie: subscriber.cookie } });
    expect(lease.statusCode).toBe(201);
    expect(await play(subscribersUrl, subscriber.cookie)).toBe(206);

    await unpublish(course._id);
    expect(await play(subscribersUrl, subscriber.cookie)).toBe(403);
    expect(await play(adminsUrl, admin)).toBe(206);

    await publish(course._id);
    expect(await play(subscribersUrl, subscriber.cookie)).toBe(206);
  });
});

describe('publishing', () => {
  it('refuses a course with no lecture, and changes nothing', async () => {
    const course = await createDraft('Empty Shelves');
    const response = await publish(course._id);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: answers.publishNeedsLecture });
    expect((await catalogue(t, '', admin)).find((c) => c._id === course._id)?.state).toBe('draft');
  });

  it('is for administrators: 401 logged out, 403 for a subscriber, 404 for an unknown course', async () => {
    const course = await createDraft('Guarded Gates');
    await addLecture(course._id);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/courses/${course._id}/publish`, payload: {} })).statusCode).toBe(401);
    expect((await publish(course._id, {}, subscriber.cookie)).statusCode).toBe(403);
    expect((await unpublish(course._id, subscriber.cookie)).statusCode).toBe(403);
    const unknown = await publish('00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(messages.courseNotFound);
    expect((await unpublish('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect(await seenByVisitors(course._id, 'Guarded Gates')).toEqual(hidden);
  });

  it('refuses a publishing time that is not a date, or more than five years ahead', async () => {
    const course = await createDraft('Far Futures');
    await addLecture(course._id);
    for (const publishAt of ['tomorrow', '2026-13-01T00:00:00Z', new Date(Date.now() + 6 * 365 * DAY_MS).toISOString()]) {
      const response = await publish(course._id, { publishAt });
      expect(response.statusCode, publishAt).toBe(400);
      expect(response.json()).toEqual({ success: false, message: answers.publishAtInvalid });
    }
    expect((await catalogue(t, '', admin)).find((c) => c._id === course._id)).toMatchObject({ state: 'draft', publishAt: null });
  });

  it('publishes at once when the time chosen has passed', async () => {
    const course = await createDraft('Yesterday’s News');
    await addLecture(course._id);
    const response = await publish(course._id, { publishAt: new Date(Date.now() - 60_000).toISOString() });
    expect(response.json()).toMatchObject({ message: answers.coursePublished, course: { state: 'published', publishAt: null } });
  });
});

describe('scheduled publishing', () => {
  it('keeps a scheduled course hidden until its time, when the queue’s job publishes it', async () => {
    const course = await createDraft('Tomorrow’s Tides');
    await addLecture(course._id);
    const at = new Date(Date.now() + DAY_MS);
    const scheduled = await publish(course._id, { publishAt: at.toISOString() });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(scheduled.json()).toMatchObject({ message: answers.courseScheduled, course: { state: 'scheduled', publishAt: at.toISOString() } });
    expect(await seenByVisitors(course._id, 'Tomorrow’s Tides')).toEqual(hidden);

    // The time comes: the every-minute job, sent through the queue as its schedule would, publishes it.
    await t.app.ctx.db
      .update(courses)
      .set({ publishAt: sql`now() - interval '1 second'` })
      .where(eq(courses.id, course._id));
    await t.app.ctx.jobs.send('scheduled-publishing', {});
    await expect.poll(async () => ids(await catalogue(t)).includes(course._id), { timeout: 10_000 }).toBe(true);
    expect(await seenByVisitors(course._id, 'Tomorrow’s Tides')).toEqual(shown);
    expect((await catalogue(t, '', admin)).find((c) => c._id === course._id)).toMatchObject({ state: 'published', publishAt: null });
  });

  it('is called off by unpublishing', async () => {
    const course = await createDraft('Called Off');
    await addLecture(course._id);
    await publish(course._id, { publishAt: new Date(Date.now() + DAY_MS).toISOString() });
    expect((await unpublish(course._id)).json().course).toMatchObject({ state: 'draft', publishAt: null });
    expect(await publishDueCourses(t.app.ctx, { log: { info() {}, warn() {} } })).toBe(0);
  });

  it('leaves a scheduled course whose lectures were all deleted a draft, its schedule dropped', async () => {
    const course = await createDraft('Emptied Out');
    const lectureId = await addLecture(course._id);
    await publish(course._id, { publishAt: new Date(Date.now() + DAY_MS).toISOString() });
    await t.app.inject({ method: 'DELETE', url: `/api/v1/courses?courseId=${course._id}&lectureId=${lectureId}`, headers: { cookie: admin } });
    await t.app.ctx.db
      .update(courses)
      .set({ publishAt: sql`now() - interval '1 second'` })
      .where(eq(courses.id, course._id));
    const warned: string[] = [];
    await publishDueCourses(t.app.ctx, { log: { info() {}, warn: (_fields: unknown, line: string) => void warned.push(line) } as never });
    expect((await catalogue(t, '', admin)).find((c) => c._id === course._id)).toMatchObject({ state: 'draft', publishAt: null });
    expect(warned).toEqual(['scheduled course(s) left unpublished: they have no lecture']);
  });
});
