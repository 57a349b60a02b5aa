import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { answers } from '@lms/contract/answers';
import { COMPLETION_SHARE, type CourseProgress, type LectureProgress, type ProgressSettings, type SaveProgressSchema } from '@lms/contract/progress';
import type { z } from 'zod';
import { batchLoaderPer } from '../../batch-loader.ts';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { courseProgress, lectureProgress, lectures, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { UserRow } from '../auth/sessions.ts';
import { queueCertificateCheck } from '../certificates/certificates.service.ts';
import { canWatchLectures } from '../users/users.service.ts';
import type { HeldSave } from './held-saves.ts';
import type { LearnerCourse, LectureFact, StoredLecture } from './save-copies.ts';

export type SaveInput = z.output<typeof SaveProgressSchema>;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type LectureProgressRow = typeof lectureProgress.$inferSelect;

/** A save may say it was read up to this far ahead of the server's clock (clocks drift); later is refused. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;
/** The position may pass the measured length by this much: players report the last frame's end. */
const END_TOLERANCE_SECONDS = 1;

/** The lecture a progress write is about, with what the write needs to know; 404 and 403 as for watching it. */
async function watchableLecture(ctx: Context, user: UserRow, lectureId: string) {
  const [lecture] = await ctx.db
    .select({
      id: lectures.id,
      courseId: lectures.courseId,
      durationSeconds: lectures.durationSeconds,
      isPreview: lectures.isPreview,
      // Spelled out: drizzle leaves a column unqualified here, which the subquery would take for its own.
      lectureCount: sql<number>`(select count(*) from lectures as siblings where siblings.course_id = lectures.course_id)`.mapWith(Number),
      quizCount: sql<number>`(select count(*) from quizzes as q where q.course_id = lectures.course_id)`.mapWith(Number),
      passedQuizzes: sql<number>`(select count(distinct a.quiz_id) from quiz_attempts as a
        where a.user_id = ${user.id} and a.course_id = lectures.course_id and a.passed)`.mapWith(Number),
    })
    .from(lectures)
    .where(eq(lectures.id, lectureId));
  if (!lecture) throw new AppError(404, answers.lectureNotFound);
  // Free previews count for anyone signed in; everything else needs what watching it needs.
  if (!lecture.isPreview && !canWatchLectures(user)) throw new AppError(403, answers.subscribeToWatch);
  return lecture;
}

export const percentOf = (completed: number, total: number) => (total === 0 ? 0 : Math.round((100 * Math.min(completed, total)) / total));

/** A learner's quizzes in a course: how many the course has, and how many of them they passed (any attempt, any version). */
export interface QuizCounts {
  quizCount: number;
  passedQuizzes: number;
}

export const toLectureProgressJson = (row: LectureProgressRow): LectureProgress => ({
  lectureId: row.lectureId,
  position: row.positionSeconds,
  watched: row.watchedSeconds,
  completed: row.completedAt !== null,
  completedAt: row.completedAt?.toISOString() ?? null,
  updatedAt: row.updatedAt.toISOString(),
});

/**
 * Brings the learner's course row in step with their lecture rows (the lecture just written
 * becomes the last one watched) and answers how many lectures they completed. The row is
 * rewritten only when something a reader sees changed, or a minute has passed: steady playback
 * costs one write here a minute, not one a save.
 */
async function touchCourseProgress(tx: Tx, { userId, courseId, lectureId }: { userId: string; courseId: string; lectureId: string }): Promise<number> {
  const result = await tx.execute(sql`
    with counted as (
      select count(*)::int as completed from ${lectureProgress}
      where ${lectureProgress.userId} = ${userId} and ${lectureProgress.courseId} = ${courseId} and ${lectureProgress.completedAt} is not null
    ), written as (
      insert into ${courseProgress} (user_id, course_id, completed_lectures, last_lecture_id, last_watched_at)
      select ${userId}, ${courseId}, completed, ${lectureId}, now() from counted
      on conflict (user_id, course_id) do update set
        completed_lectures = excluded.completed_lectures,
        last_lecture_id = excluded.last_lecture_id,
        last_watched_at = excluded.last_watched_at
      where ${courseProgress.completedLectures} <> excluded.completed_lectures
        or ${courseProgress.lastLectureId} is distinct from excluded.last_lecture_id
        or ${courseProgress.lastWatchedAt} < excluded.last_watched_at - interval '1 minute'
      returning 1
    )
    select completed from counted`);
  // Both drivers (node-postgres, PGlite) answer `{ rows }`.
  return Number((result as unknown as { rows: { completed: number }[] }).rows[0]!.completed);
}

export interface SavedProgress {
  lecture: LectureProgress;
  course: CourseProgress;
}

/** A lecture as saves see it, from the copy kept between saves or read once; 404 when it does not exist. */
async function lectureFact(ctx: Context, lectureId: string): Promise<LectureFact> {
  const facts = ctx.heldSaves.lectures;
  const known = facts.get(lectureId);
  if (known) return known;
  const generation = facts.generation;
  const [lecture] = await ctx.db
    .select({
      courseId: lectures.courseId,
      isPreview: lectures.isPreview,
      durationSeconds: lectures.durationSeconds,
      // Spelled out: drizzle leaves a column unqualified here, which the subquery would take for its own.
      lectureCount: sql<number>`(select count(*) from lectures as siblings where siblings.course_id = lectures.course_id)`.mapWith(Number),
    })
    .from(lectures)
    .where(eq(lectures.id, lectureId));
  if (!lecture) throw new AppError(404, answers.lectureNotFound);
  facts.remember(lectureId, lecture, generation);
  return lecture;
}

/** What the read of learners' rows answers, a row per stored lecture or one with none (raw rows: snake_case, times as the driver gives them). */
interface LearnerCourseRow {
  user_id: string;
  course_id: string;
  quiz_count: number;
  passed_quizzes: number;
  lecture_id: string | null;
  position_seconds: number;
  position_at: Date | string;
  watched_seconds: number;
  completed_at: Date | string | null;
  completion_set_at: Date | string | null;
  updated_at: Date | string;
}

const msOf = (value: Date | string) => new Date(value).getTime();
const msOrNull = (value: Date | string | null) => (value === null ? null : msOf(value));

/** A learner and a course, as the read of their rows names them. */
const learnerCourseKey = (userId: string, courseId: string) => `${userId}:${courseId}`;
const ofLearnerCourseKey = (key: string) => ({ userId: key.slice(0, key.indexOf(':')), courseId: key.slice(key.indexOf(':') + 1) });

/**
 * The rows of learners not in the copy, read together (batch-loader.ts): a viewer's rows are read
 * again after LEARNER_TRUST_MS, and every viewer's first save after a catalogue change reads them.
 */
const learnerReadsOf = batchLoaderPer((ctx: Context, keys: string[]) => readLearnerCourses(ctx, keys));

/** Each learner's rows in a course (keys from learnerCourseKey), kept in the copy, in one statement. */
async function readLearnerCourses(ctx: Context, keys: string[]): Promise<Map<string, LearnerCourse>> {
  const states = ctx.heldSaves.learners;
  const generation = states.generation;
  // Ids from the database (the session's user, the lecture's course), never from the request.
  const pairs = keys.map(ofLearnerCourseKey);
  const userIds = pairs.map((pair) => pair.userId);
  const courseIds = pairs.map((pair) => pair.courseId);
  const result = await ctx.db.execute(sql`
    select k.user_id, k.course_id,
           (select count(*) from quizzes as q where q.course_id = k.course_id)::int as quiz_count,
           (select count(distinct a.quiz_id) from quiz_attempts as a
             where a.user_id = k.user_id and a.course_id = k.course_id and a.passed)::int as passed_quizzes,
           p.lecture_id, p.position_seconds, p.position_at, p.watched_seconds, p.completed_at, p.completion_set_at, p.updated_at
    from unnest(${`{${userIds.join(',')}}`}::uuid[], ${`{${courseIds.join(',')}}`}::uuid[]) as k(user_id, course_id)
    -- Lateral: each learner's rows looked up in the index by learner and course, where a join lets the
    -- planner (no statistics on the embedded database) scan every learner's rows for each batch.
    left join lateral (
      select * from lecture_progress as r where r.user_id = k.user_id and r.course_id = k.course_id
    ) as p on true`);
  const found = new Map<string, LearnerCourse>();
  for (const row of (result as unknown as { rows: LearnerCourseRow[] }).rows) {
    const key = learnerCourseKey(row.user_id, row.course_id);
    let state = found.get(key);
    if (!state) found.set(key, (state = { lectures: new Map(), quizCount: Number(row.quiz_count), passedQuizzes: Number(row.passed_quizzes) }));
    if (row.lecture_id === null) continue;
    state.lectures.set(row.lecture_id, {
      position: Number(row.position_seconds),
      positionAt: msOf(row.position_at),
      watched: Number(row.watched_seconds),
      completedAt: msOrNull(row.completed_at),
      completionSetAt: msOrNull(row.completion_set_at),
      updatedAt: msOf(row.updated_at),
    });
  }
  for (const [key, state] of found) {
    const { userId, courseId } = ofLearnerCourseKey(key);
    states.remember(userId, courseId, state, generation);
  }
  return found;
}

/** The learner's rows in a course, from this instance's copy or read (with the others asked for meanwhile). */
async function learnerCourse(ctx: Context, userId: string, courseId: string): Promise<LearnerCourse> {
  const known = ctx.heldSaves.learners.get(userId, courseId);
  if (known) return known;
  return (await learnerReadsOf(ctx).load(learnerCourseKey(userId, courseId)))!;
}

/**
 * A learner's row for a lecture as a save leaves it: the rules writeHeldSaves writes by, applied
 * in memory, so that the answer says now what the flush will store.
 */
export function applySave(stored: StoredLecture | undefined, save: HeldSave, length: number | null, now: number): StoredLecture {
  const within = (seconds: number) => (length === null ? seconds : Math.min(seconds, length));
  if (!stored)
    return {
      position: within(save.position),
      positionAt: save.positionAt,
      watched: within(save.watched),
      completedAt: save.completingAt === null ? null : now,
      completionSetAt: null,
      updatedAt: now,
    };
  const completes = save.completingAt !== null && (stored.completionSetAt === null || save.completingAt > stored.completionSetAt);
  return {
    position: save.positionAt >= stored.positionAt ? within(save.position) : stored.position,
    positionAt: Math.max(save.positionAt, stored.positionAt),
    watched: within(stored.watched + save.watched),
    completedAt: stored.completedAt ?? (completes ? now : null),
    completionSetAt: stored.completionSetAt,
    updatedAt: now,
  };
}

/**
 * Records where the learner is in a lecture: checked now (404, 403, 400 at once, from copies kept
 * between saves: no query for a lecture and learner seen lately), held, and written with the other
 * saves of the flush interval (held-saves.ts). Idempotent and order-proof: a save read before the
 * one stored (its `at`) leaves the position alone, and no save un-completes a lecture. A lecture
 * is completed once the learner reaches COMPLETION_SHARE of it or its end (decision 0015).
 *
 * Answers the lecture and course progress as the write will leave them, computed from the
 * learner's rows (decision 0037). A session over its rate (`overRate`) is answered nothing (202):
 * its save is held as any other, and the flood costs no answer.
 */
export async function saveOrHoldProgress(
  ctx: Context,
  { user, lectureId, input, overRate }: { user: UserRow; lectureId: string; input: SaveInput; overRate: boolean },
): Promise<SavedProgress | null> {
  const now = Date.now();
  if (input.at > now + CLOCK_SKEW_MS) throw new AppError(400, answers.progressTimeInvalid);
  const lecture = await lectureFact(ctx, lectureId);
  // Free previews count for anyone signed in; everything else needs what watching it needs.
  if (!lecture.isPreview && !canWatchLectures(user)) throw new AppError(403, answers.subscribeToWatch);
  // The server's measure wins; the player's stands in until the pipeline has measured the video.
  const length = lecture.durationSeconds ?? input.duration ?? null;
  if (length !== null && input.position > length + END_TOLERANCE_SECONDS) throw new AppError(400, answers.progressPositionInvalid);
  // The browser's clock, but never ahead of ours: a fast clock must not freeze the position.
  const readAt = Math.min(input.at, now);
  const save: HeldSave = {
    userId: user.id,
    lectureId,
    courseId: lecture.courseId,
    position: input.position,
    positionAt: readAt,
    watched: input.watched,
    duration: input.duration ?? null,
    completingAt: input.ended === true || (length !== null && input.position >= COMPLETION_SHARE * length) ? readAt : null,
    heldAt: now,
  };
  // A flood is answered without reading the learner's rows; a copy already kept still follows it.
  const state = overRate ? ctx.heldSaves.learners.get(user.id, lecture.courseId) : await learnerCourse(ctx, user.id, lecture.courseId);
  if (!ctx.heldSaves.hold(save)) throw new AppError(429, answers.tooManyRequests);
  if (!state) return null;
  const row = applySave(state.lectures.get(lectureId), save, length, now);
  state.lectures.set(lectureId, row);
  if (overRate) return null;
  let completed = 0;
  for (const stored of state.lectures.values()) if (stored.completedAt !== null) completed++;
  return {
    lecture: {
      lectureId,
      position: row.position,
      watched: row.watched,
      completed: row.completedAt !== null,
      completedAt: row.completedAt === null ? null : new Date(row.completedAt).toISOString(),
      updatedAt: new Date(row.updatedAt).toISOString(),
    },
    course: courseProgressJson({
      courseId: lecture.courseId,
      completed,
      lectureCount: lecture.lectureCount,
      quizCount: state.quizCount,
      passedQuizzes: state.passedQuizzes,
      lastLectureId: lectureId,
      lastWatchedAt: new Date(now),
    }),
  };
}

/**
 * Keeps the learner's rows in a course as a read of their progress found them (read in
 * `generation`), unless a copy is kept already: the lecture page reads them before the player
 * starts, and its first save then asks the database nothing.
 */
export function keepLearnerCourse(ctx: Context, userId: string, courseId: string, generation: number, rows: LectureProgressRow[], quizzes: QuizCounts): void {
  const states = ctx.heldSaves.learners;
  if (states.get(userId, courseId)) return;
  const lectureRows = new Map<string, StoredLecture>();
  for (const row of rows)
    lectureRows.set(row.lectureId, {
      position: row.positionSeconds,
      positionAt: row.positionAt.getTime(),
      watched: row.watchedSeconds,
      completedAt: row.completedAt?.getTime() ?? null,
      completionSetAt: row.completionSetAt?.getTime() ?? null,
      updatedAt: row.updatedAt.getTime(),
    });
  states.remember(userId, courseId, { lectures: lectureRows, quizCount: quizzes.quizCount, passedQuizzes: quizzes.passedQuizzes }, generation);
}

/** Writes the learner's held saves before a read or a mark of their own progress: they see what they saved. */
export async function writeHeldSavesOf(ctx: Context, userId: string): Promise<void> {
  if (ctx.heldSaves.holds(userId)) await ctx.heldSaves.flush();
}

/** A lecture row the batch wrote (raw). */
interface WrittenRow {
  user_id: string;
  lecture_id: string;
  course_id: string;
  just_completed: boolean;
}

/** A learner's course row brought in step (raw). */
interface CountedRow {
  user_id: string;
  course_id: string;
  completed: number;
  /** Counted only where the batch completed a lecture of the course. */
  lecture_count: number | null;
}

/**
 * Writes a batch of held saves in one transaction of two statements: the lecture rows, then each
 * learner's course row (the lecture saved last becomes the last one watched; the count of
 * completed lectures is counted again). A save of a lecture or a learner deleted meanwhile is
 * dropped. The rules are those of applySave: the later `at` wins the position, completed stays
 * completed, and a save read before the learner's own unmark does not complete the lecture again.
 * A course completed by the batch queues its certificate check.
 */
export async function writeHeldSaves(ctx: Context, batch: HeldSave[]): Promise<void> {
  if (batch.length === 0) return;
  const saves = JSON.stringify(
    batch.map((save) => ({
      user_id: save.userId,
      lecture_id: save.lectureId,
      position: save.position,
      position_at: new Date(save.positionAt).toISOString(),
      watched: save.watched,
      duration: save.duration,
      completing_at: save.completingAt === null ? null : new Date(save.completingAt).toISOString(),
    })),
  );
  const counted = await ctx.db.transaction(async (tx) => {
    // Each save is a few rows found by their keys: index look-ups, whatever the tables hold. Left to
    // itself the planner, which knows no batch's size (a JSON function is a hundred rows to it) and on
    // the embedded database no table's statistics, joins the batch by scanning users and every
    // learner's lecture rows, twice: a part's cost grew with the tables, not with its saves.
    await tx.execute(
      sql`select set_config('enable_seqscan', 'off', true), set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true)`,
    );
    const written = await tx.execute(sql`
      with allowed as (
        select s.*, l.course_id, coalesce(l.duration_seconds, s.duration) as length
        from json_to_recordset(${saves}::json) as s(user_id uuid, lecture_id uuid, position real, position_at timestamptz, watched real, duration real, completing_at timestamptz)
        join lectures as l on l.id = s.lecture_id
        join users as u on u.id = s.user_id
      ), updated as (
        update lecture_progress as p set
          position_seconds = case when a.position_at >= p.position_at then least(a.position, coalesce(a.length, 'Infinity')) else p.position_seconds end,
          position_at = greatest(a.position_at, p.position_at),
          watched_seconds = least(p.watched_seconds + a.watched, coalesce(a.length, 'Infinity')),
          completed_at = case
            when p.completed_at is null and a.completing_at is not null and (p.completion_set_at is null or a.completing_at > p.completion_set_at)
            then now() else p.completed_at end,
          updated_at = now()
        from allowed as a
        where p.user_id = a.user_id and p.lecture_id = a.lecture_id
        returning p.user_id, p.lecture_id, p.course_id, p.completed_at = now() as just_completed
      ), inserted as (
        insert into lecture_progress as p (user_id, lecture_id, course_id, position_seconds, position_at, watched_seconds, completed_at)
        select a.user_id, a.lecture_id, a.course_id, least(a.position, coalesce(a.length, 'Infinity')), a.position_at,
               least(a.watched, coalesce(a.length, 'Infinity')), case when a.completing_at is not null then now() end
        from allowed as a
        where not exists (select 1 from lecture_progress as o where o.user_id = a.user_id and o.lecture_id = a.lecture_id)
        -- Another instance wrote the row since this statement began: the same rules, on what it wrote.
        on conflict (user_id, lecture_id) do update set
          position_seconds = case when excluded.position_at >= p.position_at then excluded.position_seconds else p.position_seconds end,
          position_at = greatest(excluded.position_at, p.position_at),
          watched_seconds = least(p.watched_seconds + excluded.watched_seconds,
            coalesce((select l.duration_seconds from lectures as l where l.id = excluded.lecture_id), 'Infinity')),
          completed_at = case
            when p.completed_at is null and excluded.completed_at is not null
             and (p.completion_set_at is null or excluded.position_at > p.completion_set_at)
            then excluded.completed_at else p.completed_at end,
          updated_at = now()
        returning p.user_id, p.lecture_id, p.course_id, p.completed_at = now() as just_completed
      )
      select * from updated union all select * from inserted`);
    // Per learner and course: the lecture saved last, and whether the batch completed one of its lectures.
    const bySave = new Map(batch.map((save) => [`${save.userId}:${save.lectureId}`, save]));
    const touched = new Map<string, { user_id: string; course_id: string; last_lecture_id: string; heldAt: number; justCompleted: boolean }>();
    for (const row of (written as unknown as { rows: WrittenRow[] }).rows) {
      const save = bySave.get(`${row.user_id}:${row.lecture_id}`)!;
      const key = `${row.user_id}:${row.course_id}`;
      const before = touched.get(key);
      const justCompleted = row.just_completed === true || before?.justCompleted === true;
      if (!before || save.heldAt >= before.heldAt)
        touched.set(key, { user_id: row.user_id, course_id: row.course_id, last_lecture_id: row.lecture_id, heldAt: save.heldAt, justCompleted });
      else before.justCompleted = justCompleted;
    }
    if (touched.size === 0) return [];
    // The course was last watched when its last save came, not when the batch was written.
    const courses = [...touched.values()].map(({ heldAt, justCompleted, ...course }) => ({
      ...course,
      last_watched_at: new Date(heldAt).toISOString(),
      just_completed: justCompleted,
    }));
    // The course's lectures are counted only where the batch completed one (a certificate may be due).
    const result = await tx.execute(sql`
      with touched as (
        select * from json_to_recordset(${JSON.stringify(courses)}::json)
          as t(user_id uuid, course_id uuid, last_lecture_id uuid, last_watched_at timestamptz, just_completed boolean)
      ), counted as (
        select t.user_id, t.course_id, t.last_lecture_id, t.last_watched_at,
               (select count(*) from lecture_progress as p
                 where p.user_id = t.user_id and p.course_id = t.course_id and p.completed_at is not null)::int as completed,
               case when t.just_completed then (select count(*) from lectures as l where l.course_id = t.course_id)::int end as lecture_count
        from touched as t
      ), written as (
        insert into course_progress as c (user_id, course_id, completed_lectures, last_lecture_id, last_watched_at)
        select user_id, course_id, completed, last_lecture_id, last_watched_at from counted
        on conflict (user_id, course_id) do update set
          completed_lectures = excluded.completed_lectures,
          last_lecture_id = excluded.last_lecture_id,
          last_watched_at = greatest(c.last_watched_at, excluded.last_watched_at)
        -- Rewritten only when a reader would see a change, or a minute passed: steady playback costs one write a minute here.
        where c.completed_lectures <> excluded.completed_lectures
           or c.last_lecture_id is distinct from excluded.last_lecture_id
           or c.last_watched_at < excluded.last_watched_at - interval '1 minute'
        returning 1
      )
      select user_id, course_id, completed, lecture_count from counted`);
    return (result as unknown as { rows: CountedRow[] }).rows.filter((row) => row.lecture_count !== null);
  });
  // The end of a video completes a lecture as marking it does: the last one may earn a certificate (the job checks the quizzes too).
  for (const row of counted)
    if (Number(row.completed) >= Number(row.lecture_count)) await queueCertificateCheck(ctx, { userId: row.user_id, courseId: row.course_id });
}

/** A course's progress: lectures completed and quizzes passed each count as one item of the percent. */
export const courseProgressJson = (
  row: {
    courseId: string;
    completed: number;
    lectureCount: number;
    lastLectureId: string | null;
    lastWatchedAt: Date;
  } & QuizCounts,
): CourseProgress => ({
  courseId: row.courseId,
  completedLectures: Math.min(row.completed, row.lectureCount),
  lectureCount: row.lectureCount,
  passedQuizzes: Math.min(row.passedQuizzes, row.quizCount),
  quizCount: row.quizCount,
  percent: percentOf(Math.min(row.completed, row.lectureCount) + Math.min(row.passedQuizzes, row.quizCount), row.lectureCount + row.quizCount),
  lastLectureId: row.lastLectureId,
  lastWatchedAt: row.lastWatchedAt.toISOString(),
});

/** The learner marks a lecture as completed, or takes the mark back; the position stays where it is. */
export async function setLectureCompleted(ctx: Context, user: UserRow, lectureId: string, completed: boolean): Promise<SavedProgress> {
  const lecture = await watchableLecture(ctx, user, lectureId);
  // Saves held before the mark go first: the mark's count of completed lectures includes them.
  await writeHeldSavesOf(ctx, user.id);
  const now = new Date();
  const saved = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(lectureProgress)
      .values({
        userId: user.id,
        lectureId: lecture.id,
        courseId: lecture.courseId,
        positionSeconds: 0,
        positionAt: new Date(0),
        completedAt: completed ? now : null,
        completionSetAt: now,
      })
      .onConflictDoUpdate({
        target: [lectureProgress.userId, lectureProgress.lectureId],
        set: {
          completedAt: completed ? sql`coalesce(${lectureProgress.completedAt}, now())` : null,
          completionSetAt: now,
          updatedAt: now,
        },
      })
      .returning();
    const count = await touchCourseProgress(tx, { userId: user.id, courseId: lecture.courseId, lectureId: lecture.id });
    return {
      lecture: toLectureProgressJson(row!),
      course: courseProgressJson({
        courseId: lecture.courseId,
        completed: count,
        lectureCount: lecture.lectureCount,
        quizCount: lecture.quizCount,
        passedQuizzes: lecture.passedQuizzes,
        lastLectureId: lecture.id,
        lastWatchedAt: now,
      }),
    };
  });
  // The rows a save's answer is computed from changed here.
  ctx.heldSaves.learners.forgetLearner(user.id);
  // Every lecture completed: the certificate is the job's to issue (it checks the quizzes too), after this answer, never in it.
  if (completed && saved.course.completedLectures >= saved.course.lectureCount)
    await queueCertificateCheck(ctx, { userId: user.id, courseId: lecture.courseId });
  return saved;
}

export async function setProgressSettings(ctx: Context, user: UserRow, settings: ProgressSettings): Promise<ProgressSettings> {
  await ctx.db.update(users).set({ autoplayNext: settings.autoplayNext }).where(eq(users.id, user.id));
  return settings;
}

/**
 * After lectures of a course were deleted (their progress went with them, by the foreign key):
 * each learner's count of completed lectures is counted again, and a learner left with no
 * progress in the course no longer counts as having started it.
 */
export async function recountCourseProgress(tx: Tx | Db, courseId: string): Promise<void> {
  await tx
    .delete(courseProgress)
    .where(
      and(
        eq(courseProgress.courseId, courseId),
        sql`not exists (select 1 from ${lectureProgress} where ${lectureProgress.userId} = ${courseProgress.userId} and ${lectureProgress.courseId} = ${courseId})`,
      ),
    );
  await tx
    .update(courseProgress)
    .set({
      completedLectures: sql`(select count(*) from ${lectureProgress} where ${lectureProgress.userId} = ${courseProgress.userId} and ${lectureProgress.courseId} = ${courseId} and ${isNotNull(lectureProgress.completedAt)})`,
    })
    .where(eq(courseProgress.courseId, courseId));
}

/**
 * After a lecture's video was measured (a new one may be shorter): no learner's place or time
 * watched lies past its end. Completion stays as it was: a learner who finished the lecture keeps
 * it, and one whose place is now the end resumes from the start (decision 0015's margin).
 */
export async function clampProgressToDuration(tx: Tx | Db, lectureId: string, durationSeconds: number): Promise<void> {
  await tx
    .update(lectureProgress)
    .set({
      positionSeconds: sql`least(${lectureProgress.positionSeconds}, ${durationSeconds}::real)`,
      watchedSeconds: sql`least(${lectureProgress.watchedSeconds}, ${durationSeconds}::real)`,
    })
    .where(
      and(
        eq(lectureProgress.lectureId, lectureId),
        sql`(${lectureProgress.positionSeconds} > ${durationSeconds}::real or ${lectureProgress.watchedSeconds} > ${durationSeconds}::real)`,
      ),
    );
}
