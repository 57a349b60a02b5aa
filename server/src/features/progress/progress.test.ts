import fs from 'node:fs/promises';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { answers } from '@lms/contract/answers';
import { findSession } from '../auth/sessions.ts';
import { courseCompletionCounts, courseProgress, lectureProgress, lectures, payments, subscriptions, users } from '../../db/schema.ts';
import { PROGRESS_WRITES_PER_MINUTE } from '../../rate-limit.ts';
import { createTestApp, testDatabaseKind, type TestApp } from '../../test/app.ts';
import { publishCourseDirectly } from '../../test/courses.ts';
import { createHeldSaves, MAX_HELD_PER_LEARNER } from './held-saves.ts';
import { writeHeldSaves } from './progress.service.ts';
import { mp4Video, multipart, pngImage, signUp, signUpAdmin } from '../../test/http.ts';

const DAY_MS = 24 * 3600 * 1000;

let t: TestApp;
let admin: string;

beforeAll(async () => {
  // Held saves are written when a test flushes them (or the app closes), never by the timer mid-test.
  t = await createTestApp({ heldSavesFlushMs: 3_600_000 });
  admin = (await signUpAdmin(t.app)).cookie;
});
afterAll(() => t?.close());

async function newCourse(app = t.app, cookie = admin, title = 'Progress course'): Promise<string> {
  const form = await multipart({
    title,
    description: 'Lectures to get through.',
    category: 'Design',
    createdBy: 'Asha Verma',
    thumbnail: { bytes: await pngImage(), filename: 'cover.png', type: 'image/png' },
  });
  const response = await app.inject({ method: 'POST', url: '/api/v1/courses', payload: form.payload, headers: { ...form.headers, cookie } });
  expect(response.statusCode, response.body).toBe(201);
  await publishCourseDirectly(app.ctx, response.json().course._id);
  return response.json().course._id;
}

/** Adds a lecture whose video the pipeline measured at `duration` seconds (null: not measured yet). */
async function newLecture(
  courseId: string,
  { title = 'Lecture', duration = 100 as number | null, preview = false, app = t.app, cookie = admin } = {},
): Promise<string> {
  const form = await multipart({
    title,
    description: 'Part of it.',
    preview: String(preview),
    lectures: { bytes: mp4Video(2000), filename: 'l.mp4', type: 'video/mp4' },
  });
  const response = await app.inject({ method: 'POST', url: `/api/v1/courses/${courseId}`, payload: form.payload, headers: { ...form.headers, cookie } });
  expect(response.statusCode, response.body).toBe(201);
  const id: string = response.json().course.lectures.at(-1)._id;
  await app.ctx.db.update(lectures).set({ durationSeconds: duration }).where(eq(lectures.id, id));
  return id;
}

async function subscriber(app = t.app, days = 30) {
  const account = await signUp(app);
  await app.ctx.db
    .update(users)
    .set({ subscriptionEndsAt: new Date(Date.now() + days * DAY_MS) })
    .where(eq(users.id, account.user._id));
  return account;
}

let clock = Date.now() - 60_000;
/** A save as the player sends it; `at` moves forward a second each call unless given. */
const save = (lectureId: string, cookie: string, body: Record<string, unknown>, app = t.app) =>
  app.inject({ method: 'POST', url: `/api/v1/progress/lectures/${lectureId}`, payload: { at: (clock += 1000), ...body }, headers: { cookie } });

const mark = (lectureId: string, cookie: string, completed: unknown) =>
  t.app.inject({ method: 'PUT', url: `/api/v1/progress/lectures/${lectureId}/completed`, payload: { completed }, headers: { cookie } });

const courseProgressOf = async (courseId: string, cookie: string) => {
  const response = await t.app.inject({ url: `/api/v1/progress/courses/${courseId}`, headers: { cookie } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

const lectureOf = async (courseId: string, lectureId: string, cookie: string) =>
  (await courseProgressOf(courseId, cookie)).lectures.find((row: { lectureId: string }) => row.lectureId === lectureId);

describe('a flush', () => {
  it("writes a flush by the rows' keys, and leaves every other query of the database planned as before", async () => {
    const courseId = await newCourse(t.app, admin, 'Flushed course');
    const lectureId = await newLecture(courseId);
    const account = await subscriber();
    const saved = await save(lectureId, account.cookie, { position: 7, watched: 5 });
    expect(saved.statusCode, saved.body).toBe(200);
    await t.app.ctx.heldSaves.flush();
    expect(await lectureOf(courseId, lectureId, account.cookie)).toMatchObject({ position: 7, watched: 5 });
    // The flush's planner settings are its transaction's own: the next statement plans as ever.
    const result = (await t.app.ctx.db.execute(
      sql`select current_setting('enable_seqscan') as seqscan, current_setting('enable_hashjoin') as hashjoin`,
    )) as unknown as {
      rows: { seqscan: string; hashjoin: string }[];
    };
    expect(result.rows[0]).toEqual({ seqscan: 'on', hashjoin: 'on' });
  });
});

describe('saving and resuming', () => {
  let courseId: string;
  let first: string;
  let second: string;
  let learner: Awaited<ReturnType<typeof subscriber>>;
  beforeAll(async () => {
    courseId = await newCourse();
    first = await newLecture(courseId, { title: 'One' });
    second = await newLecture(courseId, { title: 'Two' });
    learner = await subscriber();
  });

  it('answers nothing for a course not started, with the autoplay setting on', async () => {
    const progress = await courseProgressOf(courseId, learner.cookie);
    expect(progress).toMatchObject({ success: true, course: null, lectures: [], settings: { autoplayNext: true } });
  });

  it('stores the position and answers it, with the course figures, on the next visit', async () => {
    const saved = await save(first, learner.cookie, { position: 42.5, watched: 10 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      message: answers.progressSaved,
      lecture: { lectureId: first, position: 42.5, watched: 10, completed: false },
      course: { courseId, completedLectures: 0, lectureCount: 2, percent: 0, lastLectureId: first },
    });
    const lecture = await lectureOf(courseId, first, learner.cookie);
    expect(lecture).toMatchObject({ position: 42.5, watched: 10, completed: false, completedAt: null });
  });

  it('adds up the time watched, never beyond the length of the video', async () => {
    await save(first, learner.cookie, { position: 60, watched: 100 });
    expect((await lectureOf(courseId, first, learner.cookie)).watched).toBe(100);
  });

  it('never moves the position back to a save read earlier, whatever order they arrive in', async () => {
    const now = Date.now();
    await save(second, learner.cookie, { position: 50, at: now - 1000 });
    const late = await save(second, learner.cookie, { position: 10, at: now - 5000 });
    expect(late.statusCode).toBe(200);
    expect(late.json().lecture.position).toBe(50);
    // A newer save moves it anywhere, back included (the learner sought back).
    await save(second, learner.cookie, { position: 5, at: now });
    expect((await lectureOf(courseId, second, learner.cookie)).position).toBe(5);
  });

  it('completes a lecture at 90 % of it, not before, and counts it in the course', async () => {
    const course = await newCourse();
    const lecture = await newLecture(course, { duration: 200 });
    await newLecture(course);
    await newLecture(course);
    const below = await save(lecture, learner.cookie, { position: 179.9 });
    expect(below.json().lecture.completed).toBe(false);
    const at = await save(lecture, learner.cookie, { position: 180 });
    expect(at.json().lecture.completed).toBe(true);
    expect(at.json().course).toMatchObject({ completedLectures: 1, lectureCount: 3, percent: 33 });
  });

  it('never un-completes a lecture on a later save, seeking back included', async () => {
    const course = await newCourse();
    const lecture = await newLecture(course);
    await save(lecture, learner.cookie, { position: 99 });
    const back = await save(lecture, learner.cookie, { position: 3 });
    expect(back.json().lecture).toMatchObject({ position: 3, completed: true });
  });

  it('completes a lecture the pipeline has not measured when the player reached its end', async () => {
    const course = await newCourse();
    const lecture = await newLecture(course, { duration: null });
    const midway = await save(lecture, learner.cookie, { position: 30, duration: 100 });
    expect(midway.json().lecture.completed).toBe(false);
    const ended = await save(lecture, learner.cookie, { position: 100, duration: 100, ended: true });
    expect(ended.json().lecture.completed).toBe(true);
  });

  it('lets the learner mark a lecture done and take the mark back; a save read before the unmark does not complete it again', async () => {
    const course = await newCourse();
    const lecture = await newLecture(course);
    const done = await mark(lecture, learner.cookie, true);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ message: answers.lectureMarkedDone, lecture: { completed: true }, course: { completedLectures: 1, percent: 100 } });
    const readBefore = Date.now() - 2000;
    const undone = await mark(lecture, learner.cookie, false);
    expect(undone.json()).toMatchObject({ message: answers.lectureMarkedNotDone, lecture: { completed: false }, course: { completedLectures: 0, percent: 0 } });
    const stale = await save(lecture, learner.cookie, { position: 95, at: readBefore });
    expect(stale.json().lecture.completed).toBe(false);
    const fresh = await save(lecture, learner.cookie, { position: 95, at: Date.now() });
    expect(fresh.json().lecture.completed).toBe(true);
  });

  it('refuses positions outside the video, and NaN, negative, absurd or missing values, with a message', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ position: -1 }, answers.progressPositionInvalid],
      [{ position: 'NaN' }, answers.progressPositionInvalid],
      [{ position: null }, answers.progressPositionInvalid],
      [{ position: 1e12 }, answers.progressPositionInvalid],
      [{ position: 150 }, answers.progressPositionInvalid], // the video is 100 s long
      [{ position: 5, duration: -3 }, answers.progressDurationInvalid],
      [{ position: 5, watched: 5000 }, answers.progressWatchedInvalid],
      [{ position: 5, at: Date.now() + DAY_MS }, answers.progressTimeInvalid],
      [{ position: 5, at: 'yesterday' }, answers.progressTimeInvalid],
    ];
    for (const [body, message] of cases) {
      const response = await save(first, learner.cookie, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toEqual({ success: false, message });
    }
    const bad = await mark(first, learner.cookie, 'yes');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(answers.progressCompletedInvalid);
    // Nothing of them was written.
    expect((await lectureOf(courseId, first, learner.cookie)).position).toBe(60);
  });

  it('remembers whether the next lecture starts by itself', async () => {
    const off = await t.app.inject({ method: 'PUT', url: '/api/v1/progress/settings', payload: { autoplayNext: false }, headers: { cookie: learner.cookie } });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().settings).toEqual({ autoplayNext: false });
    expect((await courseProgressOf(courseId, learner.cookie)).settings).toEqual({ autoplayNext: false });
    const mine = await t.app.inject({ url: '/api/v1/progress', headers: { cookie: learner.cookie } });
    expect(mine.json().settings).toEqual({ autoplayNext: false });
    const bad = await t.app.inject({ method: 'PUT', url: '/api/v1/progress/settings', payload: { autoplayNext: 1 }, headers: { cookie: learner.cookie } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(answers.progressAutoplayInvalid);
  });
});

describe('who may save', () => {
  let courseId: string;
  let lecture: string;
  let preview: string;
  beforeAll(async () => {
    courseId = await newCourse();
    lecture = await newLecture(courseId);
    preview = await newLecture(courseId, { preview: true });
  });

  it('refuses a learner without a subscription (403), except for a free preview', async () => {
    const visitor = await signUp(t.app);
    const refused = await save(lecture, visitor.cookie, { position: 5 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ success: false, message: answers.subscribeToWatch });
    expect((await mark(lecture, visitor.cookie, true)).statusCode).toBe(403);
    const rows = await t.app.ctx.db.select().from(lectureProgress).where(eq(lectureProgress.userId, visitor.user._id));
    expect(rows).toEqual([]);
    const previewSave = await save(preview, visitor.cookie, { position: 5 });
    expect(previewSave.statusCode, previewSave.body).toBe(200);
  });

  it('refuses a learner whose subscription ended', async () => {
    const lapsed = await subscriber(t.app, -1);
    expect((await save(lecture, lapsed.cookie, { position: 5 })).statusCode).toBe(403);
  });

  it("refuses the next save of a subscriber whose access ends, though the session's user is kept between requests", async () => {
    const learner = await subscriber();
    expect((await save(lecture, learner.cookie, { position: 4 })).statusCode).toBe(200);
    const kept = t.app.ctx.sessions.stats.hits;
    expect((await save(lecture, learner.cookie, { position: 5 })).statusCode).toBe(200);
    expect(t.app.ctx.sessions.stats.hits).toBeGreaterThan(kept);
    // Taken away as billing or an administrator does: the row changes, and every instance hears it.
    await t.app.ctx.db
      .update(users)
      .set({ subscriptionEndsAt: new Date(Date.now() - DAY_MS) })
      .where(eq(users.id, learner.user._id));
    const refused = await save(lecture, learner.cookie, { position: 6 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ success: false, message: answers.subscribeToWatch });
    await t.app.ctx.heldSaves.flush();
    const [row] = await t.app.ctx.db
      .select()
      .from(lectureProgress)
      .where(and(eq(lectureProgress.userId, learner.user._id), eq(lectureProgress.lectureId, lecture)));
    expect(row?.positionSeconds).toBe(5);
  });

  it('reads the sessions and the rows of learners not kept together, and answers each learner their own', async () => {
    const [done, fresh, leaving] = [await subscriber(), await subscriber(), await subscriber()];
    expect((await mark(lecture, done.cookie, true)).statusCode).toBe(200);
    const logout = await t.app.inject({ url: '/api/v1/user/logout', headers: { cookie: leaving.cookie } });
    expect(logout.statusCode, logout.body).toBe(200);
    expect((await save(preview, admin, { position: 1 })).statusCode).toBe(200); // the lectures are kept
    // As after the copies' time limits: every saver's next save reads.
    t.app.ctx.sessions.forgetAll();
    t.app.ctx.heldSaves.learners.forgetAll();
    // Sessions asked for in the same turn of the event loop are one statement.
    const tokenOf = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1).split(';')[0]!;
    const selects = vi.spyOn(t.app.ctx.db, 'select');
    try {
      const found = await Promise.all([done, fresh, leaving].map((account) => findSession(t.app.ctx, tokenOf(account.cookie))));
      expect(found.map((session) => session?.user.id)).toEqual([done.user._id, fresh.user._id, undefined]);
      expect(selects).toHaveBeenCalledTimes(1);
    } finally {
      selects.mockRestore();
    }
    t.app.ctx.sessions.forgetAll();
    // Saves at once, read in however many batches their requests fall into: each learner gets their own rows.
    const [ofDone, ofFresh, ofLeaving] = await Promise.all([
      save(preview, done.cookie, { position: 7 }),
      save(preview, fresh.cookie, { position: 8 }),
      save(preview, leaving.cookie, { position: 9 }),
    ]);
    expect(ofLeaving.statusCode).toBe(401);
    expect(ofDone.statusCode, ofDone.body).toBe(200);
    expect(ofFresh.statusCode, ofFresh.body).toBe(200);
    expect(ofDone.json().lecture.position).toBe(7);
    expect(ofDone.json().course.completedLectures).toBe(1);
    expect(ofFresh.json().lecture.position).toBe(8);
    expect(ofFresh.json().course.completedLectures).toBe(0);
  });

  it('lets admins save, and refuses anyone logged out (401) and unknown lectures (404)', async () => {
    expect((await save(lecture, admin, { position: 5 })).statusCode).toBe(200);
    const anonymous = await t.app.inject({ method: 'POST', url: `/api/v1/progress/lectures/${lecture}`, payload: { position: 1, at: Date.now() } });
    expect(anonymous.statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/v1/progress' })).statusCode).toBe(401);
    const unknown = await save('00000000-0000-4000-8000-000000000000', admin, { position: 1 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(answers.lectureNotFound);
    expect((await save('not-a-uuid', admin, { position: 1 })).statusCode).toBe(400);
  });
});

describe('the copy of a lecture that saves are checked against', () => {
  it('is dropped when the lecture changes or goes: a preview made private refuses, a shorter video refuses a place past its end, a deleted lecture is 404', async () => {
    const courseId = await newCourse();
    const lecture = await newLecture(courseId, { preview: true });
    await newLecture(courseId);
    const visitor = await signUp(t.app);
    expect((await save(lecture, visitor.cookie, { position: 50 })).statusCode).toBe(200);
    await t.app.ctx.db.update(lectures).set({ isPreview: false }).where(eq(lectures.id, lecture));
    await t.app.ctx.changes.caughtUp();
    expect((await save(lecture, visitor.cookie, { position: 51 })).statusCode).toBe(403);

    expect((await save(lecture, admin, { position: 50 })).statusCode).toBe(200);
    await t.app.ctx.db.update(lectures).set({ durationSeconds: 20 }).where(eq(lectures.id, lecture));
    await t.app.ctx.changes.caughtUp();
    expect((await save(lecture, admin, { position: 50 })).statusCode).toBe(400);

    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/v1/courses?courseId=${courseId}&lectureId=${lecture}`, headers: { cookie: admin } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const gone = await save(lecture, admin, { position: 5 });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ success: false, message: answers.lectureNotFound });
  });

  it('is dropped on another instance of the same database when the lecture changes', async () => {
    const other = await createTestApp({ database: t.database, catchUpOnEveryRequest: false, heldSavesFlushMs: 3_600_000 });
    try {
      const courseId = await newCourse();
      const lecture = await newLecture(courseId);
      const visitor = await signUp(t.app);
      // The other instance keeps the lecture as not a preview.
      expect((await save(lecture, visitor.cookie, { position: 5 }, other.app)).statusCode).toBe(403);
      await t.app.ctx.db.update(lectures).set({ isPreview: true }).where(eq(lectures.id, lecture));
      const started = Date.now();
      while ((await save(lecture, visitor.cookie, { position: 5 }, other.app)).statusCode !== 200) {
        if (Date.now() - started > 1000) throw new Error('the other instance still refuses the save a second later');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await other.close();
    }
  });
});

describe('a flood of saves from one session', () => {
  it('is throttled, and the latest position is still written', async () => {
    const courseId = await newCourse();
    const lecture = await newLecture(courseId, { duration: 1000 });
    const learner = await subscriber();
    await t.app.ctx.heldSaves.flush();
    const statuses: number[] = [];
    for (let i = 1; i <= PROGRESS_WRITES_PER_MINUTE + 20; i++) statuses.push((await save(lecture, learner.cookie, { position: i })).statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(PROGRESS_WRITES_PER_MINUTE);
    expect(statuses.filter((status) => status === 202)).toHaveLength(20);
    // Held, not yet written: the newest save of the lecture is all that is held.
    expect(t.app.ctx.heldSaves.size).toBe(1);
    const [stored] = await t.app.ctx.db.select().from(lectureProgress).where(eq(lectureProgress.lectureId, lecture));
    expect(stored).toBeUndefined();
    // The learner reading their progress has their held saves written first: the newest position.
    expect((await lectureOf(courseId, lecture, learner.cookie)).position).toBe(PROGRESS_WRITES_PER_MINUTE + 20);
    expect(t.app.ctx.heldSaves.size).toBe(0);
  });

  it('is counted per session: another session of the same learner saves at once', async () => {
    const courseId = await newCourse();
    const lecture = await newLecture(courseId);
    const learner = await subscriber();
    for (let i = 0; i < PROGRESS_WRITES_PER_MINUTE; i++) await save(lecture, learner.cookie, { position: 1 });
    expect((await save(lecture, learner.cookie, { position: 2 })).statusCode).toBe(202);
    const again = await t.app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { email: learner.email, password: learner.password } });
    const other = again.cookies.find((cookie) => cookie.name === 'lms_session')!;
    expect((await save(lecture, `lms_session=${other.value}`, { position: 3 })).statusCode).toBe(200);
  });
});

describe('a flood about lectures the learner may not save', () => {
  const UNKNOWN = ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b', '00000000-0000-4000-8000-00000000000c'];
  /** Spends the session's rate on saves that are written, so that the next ones would be held. */
  const spendRate = async (lectureId: string, cookie: string) => {
    for (let i = 0; i < PROGRESS_WRITES_PER_MINUTE; i++) expect((await save(lectureId, cookie, { position: 1 })).statusCode).toBe(200);
  };

  it('is refused at once, 404 for a lecture that does not exist and 403 for one not theirs to watch, and nothing is held', async () => {
    const courseId = await newCourse();
    const lecture = await newLecture(courseId);
    const preview = await newLecture(courseId, { preview: true });
    const learner = await subscriber();
    const visitor = await signUp(t.app);
    await t.app.ctx.heldSaves.flush();
    await spendRate(lecture, learner.cookie);
    await spendRate(preview, visitor.cookie);
    await t.app.ctx.heldSaves.flush();

    for (const unknown of UNKNOWN) {
      const refused = await save(unknown, learner.cookie, { position: 2 });
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ success: false, message: answers.lectureNotFound });
    }
    const notTheirs = await save(lecture, visitor.cookie, { position: 2 });
    expect(notTheirs.statusCode).toBe(403);
    expect(notTheirs.json()).toEqual({ success: false, message: answers.subscribeToWatch });
    expect(t.app.ctx.heldSaves.size).toBe(0);

    // What they may save is still held, as before.
    expect((await save(lecture, learner.cookie, { position: 3 })).statusCode).toBe(202);
    expect((await save(preview, visitor.cookie, { position: 3 })).statusCode).toBe(202);
    expect(t.app.ctx.heldSaves.size).toBe(2);
    await t.app.ctx.heldSaves.flush();
    expect((await lectureOf(courseId, lecture, learner.cookie)).position).toBe(3);
  });

  it("cannot fill the area others share: a learner holds saves for a few lectures at most, and another learner's save is still held", async () => {
    const courseId = await newCourse();
    const many = [];
    for (let i = 0; i < MAX_HELD_PER_LEARNER + 3; i++) many.push(await newLecture(courseId, { title: `Lecture ${i}` }));
    const [flooder, other] = [await subscriber(), await subscriber()];
    const shared = t.app.ctx.heldSaves;
    await shared.flush();
    // A small area, so that one learner could fill it without a share of their own.
    t.app.ctx.heldSaves = createHeldSaves({
      write: (batch) => writeHeldSaves(t.app.ctx, batch),
      onError: () => undefined,
      flushMs: 3_600_000,
      maxHeld: MAX_HELD_PER_LEARNER + 2,
    });
    try {
      await spendRate(many[0]!, flooder.cookie);
      await spendRate(many[0]!, other.cookie);
      for (const unknown of UNKNOWN) expect((await save(unknown, flooder.cookie, { position: 2 })).statusCode).toBe(404);
      const statuses = [];
      for (const lecture of many) statuses.push((await save(lecture, flooder.cookie, { position: 2 })).statusCode);
      expect(statuses).toEqual([...Array<number>(MAX_HELD_PER_LEARNER).fill(202), ...Array<number>(3).fill(429)]);
      // The newest save of a lecture already held replaces it: a learner's own flood goes on.
      expect((await save(many[0]!, flooder.cookie, { position: 4 })).statusCode).toBe(202);

      expect((await save(many[0]!, other.cookie, { position: 5 })).statusCode).toBe(202);
      expect(t.app.ctx.heldSaves.size).toBe(MAX_HELD_PER_LEARNER + 1);
      await t.app.ctx.heldSaves.flush();
      expect((await lectureOf(courseId, many[0]!, other.cookie)).position).toBe(5);
      expect((await lectureOf(courseId, many[0]!, flooder.cookie)).position).toBe(4);
    } finally {
      await t.app.ctx.heldSaves.close();
      t.app.ctx.heldSaves = shared;
    }
  });
});

describe('held saves when the server stops', () => {
  it('are written before the database closes', async () => {
    // Never flushed by the timer here: only closing the app writes them.
    const own = await createTestApp({ heldSavesFlushMs: 3_600_000 });
    try {
      const boss = (await signUpAdmin(own.app)).cookie;
      const courseId = await newCourse(own.app, boss);
      const lecture = await newLecture(courseId, { app: own.app, cookie: boss, duration: 1000 });
      for (let i = 1; i <= PROGRESS_WRITES_PER_MINUTE + 1; i++) await save(lecture, boss, { position: i }, own.app);
      expect(own.app.ctx.heldSaves.size).toBe(1);
      await own.app.close();
      const [row] = await own.database.db.select().from(lectureProgress).where(eq(lectureProgress.lectureId, lecture));
      expect(row!.positionSeconds).toBe(PROGRESS_WRITES_PER_MINUTE + 1);
    } finally {
      await own.database.close();
      await fs.rm(own.dataDir, { recursive: true, force: true });
    }
  });
});

describe('continue watching (GET /progress)', () => {
  it('lists the courses started, most recent first, each with where to pick up', async () => {
    const learner = await subscriber();
    const older = await newCourse(t.app, admin, 'Older course');
    const o1 = await newLecture(older, { title: 'Older one', duration: 120 });
    await newLecture(older, { title: 'Older two' });
    const newer = await newCourse(t.app, admin, 'Newer course');
    const n1 = await newLecture(newer, { title: 'Newer one' });
    const n2 = await newLecture(newer, { title: 'Newer two', duration: 300 });
    await save(o1, learner.cookie, { position: 70 });
    // The first lecture of the newer course done, the second not started: pick up at the second.
    await save(n1, learner.cookie, { position: 100 });
    await t.app.ctx.heldSaves.flush();
    await t.app.ctx.db
      .update(courseProgress)
      .set({ lastWatchedAt: new Date(Date.now() - DAY_MS) })
      .where(eq(courseProgress.courseId, older));

    const response = await t.app.inject({ url: '/api/v1/progress', headers: { cookie: learner.cookie } });
    expect(response.statusCode, response.body).toBe(200);
    const list = response.json().courses;
    expect(list.map((item: { course: { title: string } }) => item.course.title)).toEqual(['Newer course', 'Older course']);
    expect(list[0]).toMatchObject({
      completedLectures: 1,
      lectureCount: 2,
      percent: 50,
      resume: { lectureId: n2, title: 'Newer two', position: 0, duration: 300 },
    });
    expect(list[1]).toMatchObject({
      completedLectures: 0,
      lectureCount: 2,
      percent: 0,
      resume: { lectureId: o1, title: 'Older one', position: 70, duration: 120 },
    });
    expect(list[1].course).toMatchObject({ _id: older, numbersOfLectures: 2, totalDuration: 220 });
  });
});

describe('deleting', () => {
  it('a lecture deletes its progress and recounts the course; a course deletes all of its own, nothing else', async () => {
    const learner = await subscriber();
    const courseId = await newCourse();
    const a = await newLecture(courseId);
    const b = await newLecture(courseId);
    const kept = await newCourse();
    const k = await newLecture(kept);
    await save(a, learner.cookie, { position: 95 });
    await save(b, learner.cookie, { position: 20 });
    await save(k, learner.cookie, { position: 20 });
    await t.app.ctx.heldSaves.flush();
    const rowsOf = (lectureId: string) => t.app.ctx.db.select().from(lectureProgress).where(eq(lectureProgress.lectureId, lectureId));

    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/v1/courses?courseId=${courseId}&lectureId=${a}`, headers: { cookie: admin } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await rowsOf(a)).toEqual([]);
    expect(await rowsOf(b)).toHaveLength(1);
    expect((await courseProgressOf(courseId, learner.cookie)).course).toMatchObject({ completedLectures: 0, lectureCount: 1, percent: 0 });

    // With its last watched lecture gone too, the learner has not started the course any more.
    await t.app.inject({ method: 'DELETE', url: `/api/v1/courses?courseId=${courseId}&lectureId=${b}`, headers: { cookie: admin } });
    expect((await courseProgressOf(courseId, learner.cookie)).course).toBeNull();

    await save(await newLecture(courseId), learner.cookie, { position: 1 });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/courses/${courseId}`, headers: { cookie: admin } })).statusCode).toBe(200);
    const left = await t.app.ctx.db.select().from(courseProgress).where(eq(courseProgress.userId, learner.user._id));
    expect(left.map((row) => row.courseId)).toEqual([kept]);
    expect(await rowsOf(k)).toHaveLength(1);
    const [account] = await t.app.ctx.db.select().from(users).where(eq(users.id, learner.user._id));
    expect(account).toBeDefined();
  });
});

describe('GET /api/v1/admin/engagement', () => {
  let e: TestApp;
  afterAll(() => e?.close());

  it('counts active learners, lists subscribers who stopped watching, and sums up each course (exact figures)', async () => {
    e = await createTestApp();
    const boss = (await signUpAdmin(e.app)).cookie;
    const design = await newCourse(e.app, boss, 'Design');
    const d1 = await newLecture(design, { app: e.app, cookie: boss });
    const d2 = await newLecture(design, { app: e.app, cookie: boss });
    const empty = await newCourse(e.app, boss, 'Empty');
    const [finisher, halfway, starter, idle, lapsed, cancelled] = await Promise.all([1, 2, 3, 4, 5, 6].map(() => subscriber(e.app, 30)));
    // Renewal dates, for the order of the at-risk list.
    const renew = (who: { user: { _id: string } }, days: number, extra = {}) =>
      e.app.ctx.db
        .update(users)
        .set({ subscriptionEndsAt: new Date(Date.now() + days * DAY_MS), ...extra })
        .where(eq(users.id, who.user._id));
    await renew(idle!, 20);
    await renew(lapsed!, 5);
    await renew(cancelled!, 3, { subscriptionCancelledAt: new Date() });

    const at = Date.now();
    const put = (lectureId: string, cookie: string, position: number) =>
      e.app.inject({ method: 'POST', url: `/api/v1/progress/lectures/${lectureId}`, payload: { position, at }, headers: { cookie } });
    await put(d1, finisher!.cookie, 100);
    await put(d2, finisher!.cookie, 100);
    await put(d1, halfway!.cookie, 100);
    await put(d2, halfway!.cookie, 10);
    await put(d1, starter!.cookie, 10);
    await put(d1, boss, 100); // the admin's own watching counts for nothing
    // `lapsed` watched, but 20 days ago.
    await put(d1, lapsed!.cookie, 10);
    await e.app.ctx.heldSaves.flush();
    await e.app.ctx.db
      .update(courseProgress)
      .set({ lastWatchedAt: new Date(Date.now() - 20 * DAY_MS) })
      .where(and(eq(courseProgress.userId, lapsed!.user._id), eq(courseProgress.courseId, design)));

    const response = await e.app.inject({ url: '/api/v1/admin/engagement', headers: { cookie: boss } });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.activeLearnersThisWeek).toBe(3);
    expect(body.churnRisk.total).toBe(2);
    expect(body.churnRisk.learners.map((row: { email: string }) => row.email)).toEqual([lapsed!.email, idle!.email]);
    expect(body.churnRisk.learners[0].lastWatchedAt).not.toBeNull();
    expect(body.churnRisk.learners[1].lastWatchedAt).toBeNull();
    expect(body.churnRisk.learners[1].renewsAt.slice(0, 10)).toBe(new Date(Date.now() + 20 * DAY_MS).toISOString().slice(0, 10));
    expect(body.courses).toEqual([
      { courseId: empty, title: 'Empty', lectureCount: 0, started: 0, completed: 0, averageCompletion: 0 },
      // finisher 100 %, halfway 50 %, starter 0 %, lapsed 0 %: (100 + 50 + 0 + 0) / 4
      { courseId: design, title: 'Design', lectureCount: 2, started: 4, completed: 1, averageCompletion: 37.5 },
    ]);

    const learner = await e.app.inject({ url: '/api/v1/admin/engagement', headers: { cookie: finisher!.cookie } });
    expect(learner.statusCode).toBe(403);

    // The per-course figures follow deletions (they read counts that triggers keep).
    const designFigures = async () => {
      const answer = await e.app.inject({ url: '/api/v1/admin/engagement', headers: { cookie: boss } });
      return answer.json().courses.find((course: { courseId: string }) => course.courseId === design);
    };
    await e.app.ctx.db.delete(users).where(eq(users.id, starter!.user._id));
    expect(await designFigures()).toMatchObject({ started: 3, completed: 1, averageCompletion: 50 });
    // d2 gone: finisher and halfway have completed the one lecture left, lapsed has not.
    const removed = await e.app.inject({ method: 'DELETE', url: `/api/v1/courses?courseId=${design}&lectureId=${d2}`, headers: { cookie: boss } });
    expect(removed.statusCode).toBe(200);
    expect(await designFigures()).toMatchObject({ lectureCount: 1, started: 3, completed: 2, averageCompletion: 66.7 });
    expect((await e.app.inject({ method: 'DELETE', url: `/api/v1/courses/${design}`, headers: { cookie: boss } })).statusCode).toBe(200);
    expect(await designFigures()).toBeUndefined();
    expect(await e.app.ctx.db.select().from(courseCompletionCounts).where(eq(courseCompletionCounts.courseId, design))).toEqual([]);
  });

  it('gives a new subscriber as long as the window to start watching before listing them at risk', async () => {
    const g = await createTestApp();
    try {
      const boss = (await signUpAdmin(g.app)).cookie;
      const ago = (days: number) => new Date(Date.now() - days * DAY_MS);
      let sequence = 0;
      /** A subscription of the learner's, begun by a payment (or a trial) `days` ago; more payments after it. */
      const subscription = async (
        who: { user: { _id: string } },
        { paidDaysAgo = [] as number[], trialDaysAgo = null as number | null, resumed = false } = {},
      ) => {
        const [row] = await g.database.db
          .insert(subscriptions)
          .values({
            userId: who.user._id,
            providerSubscriptionId: `sub_grace${++sequence}${Date.now()}`,
            providerPlanId: 'plan_x',
            status: trialDaysAgo === null ? 'active' : 'authenticated',
            ...(trialDaysAgo !== null && { trialDays: 7, trialStartedAt: ago(trialDaysAgo), startAt: ago(trialDaysAgo - 7) }),
            // A resume starts charging where the paid period ends.
            ...(resumed && { startAt: ago(Math.min(...paidDaysAgo)) }),
          })
          .returning();
        for (const days of paidDaysAgo) {
          await g.database.db.insert(payments).values({
            userId: who.user._id,
            subscriptionId: row!.id,
            providerPaymentId: `pay_grace${++sequence}${Date.now()}`,
            amountPaise: 9900,
            status: 'captured',
            paidAt: ago(days),
          });
        }
      };
      const [justPaid, inTrial, veteran, resumed, paidLongAgo] = await Promise.all([1, 2, 3, 4, 5].map(() => subscriber(g.app, 30)));
      // Paid two minutes ago.
      await subscription(justPaid!, { paidDaysAgo: [2 / (24 * 60)] });
      await subscription(inTrial!, { trialDaysAgo: 1 });
      // Renewed two minutes ago, subscribed for 40 days.
      await subscription(veteran!, { paidDaysAgo: [40, 10, 2 / (24 * 60)] });
      // Subscribed 40 days ago, cancelled without a refund, then resumed: the resumed subscription's first charge is no new start.
      await subscription(resumed!, { paidDaysAgo: [40] });
      await subscription(resumed!, { paidDaysAgo: [2], resumed: true });
      await subscription(paidLongAgo!, { paidDaysAgo: [15] });

      const listed = async () => {
        const response = await g.app.inject({ url: '/api/v1/admin/engagement', headers: { cookie: boss } });
        expect(response.statusCode, response.body).toBe(200);
        return response
          .json()
          .churnRisk.learners.map((row: { email: string }) => row.email)
          .sort();
      };
      expect(await listed()).toEqual([veteran!.email, resumed!.email, paidLongAgo!.email].sort());

      // Fifteen days on, the one who paid two minutes ago has had the window and not watched.
      await g.database.db
        .update(payments)
        .set({ paidAt: ago(15) })
        .where(eq(payments.userId, justPaid!.user._id));
      expect(await listed()).toContain(justPaid!.email);
      expect(await listed()).not.toContain(inTrial!.email);
    } finally {
      await g.close();
    }
  });
});

describe.runIf(testDatabaseKind === 'postgres')('the wait for a write to be heard (PostgreSQL)', () => {
  it('is skipped by a save, which is held and changes nothing yet, and kept by a mark, which writes', async () => {
    const other = await createTestApp({ database: t.database, catchUpOnEveryRequest: false });
    try {
      const courseId = await newCourse();
      const lecture = await newLecture(courseId);
      const waits = vi.spyOn(other.app.ctx.changes, 'caughtUp');
      const saved = await save(lecture, admin, { position: 12 }, other.app);
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().lecture.position).toBe(12);
      expect(waits).not.toHaveBeenCalled();
      const marked = await other.app.inject({
        method: 'PUT',
        url: `/api/v1/progress/lectures/${lecture}/completed`,
        payload: { completed: true },
        headers: { cookie: admin },
      });
      expect(marked.statusCode, marked.body).toBe(200);
      expect(waits).toHaveBeenCalledTimes(1);
    } finally {
      await other.close();
    }
  });
});
