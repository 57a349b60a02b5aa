import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { answers } from '@lms/contract/answers';
import { COMPLETION_SHARE, type CourseProgress, type LectureProgress, type ProgressSettings, type SaveProgressSchema } from '@lms/contract/progress';
import type { z } from 'zod';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { courseProgress, lectureProgress, lectures, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { UserRow } from '../auth/sessions.ts';
import { queueCertificateCheck } from '../certificates/certificates.service.ts';
import { canWatchLectures } from '../users/users.service.ts';
import { checkSaveMayBeHeld, type KnownLectures } from './known-lectures.ts';

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

/** What the one statement of a save answers (raw rows: snake_case, times as the driver gives them). */
interface SaveRow {
  course_id: string;
  is_preview: boolean;
  duration: number | null;
  lecture_count: number;
  quiz_count: number;
  passed_quizzes: number;
  lecture_id: string | null;
  position_seconds: number | null;
  watched_seconds: number | null;
  completed_at: Date | string | null;
  updated_at: Date | string | null;
  completed: number | null;
  /** This save completed the lecture (its completion time is this statement's). */
  just_completed: boolean | null;
}

/**
 * Records where the learner is in a lecture. Idempotent and order-proof: a save read before the
 * one stored (its `at`) leaves the position alone, and no save un-completes a lecture. A lecture
 * is completed once the learner reaches COMPLETION_SHARE of it or its end (decision 0015).
 *
 * The product's most frequent write, so it is one statement (atomic on its own, one round trip,
 * one commit): it reads the lecture, writes the learner's row for it only when they may watch it
 * and the position is within it, and brings their course row in step. When nothing was written,
 * what it read says why (404, 403 or 400). Answers, beside what was saved, whether the lecture is a
 * free preview (for the route's KnownLectures).
 */
/**
 * Saves the position now; or, when the session is over its rate (`overRate`), holds the save
 * back to be written a moment later, the latest kept. Held only when it would be written: a
 * flood about lectures that do not exist, or that are not the learner's to watch, is refused
 * now instead of filling the area others share.
 */
export async function saveOrHoldProgress(
  ctx: Context,
  known: KnownLectures,
  { user, lectureId, input, overRate }: { user: UserRow; lectureId: string; input: SaveInput; overRate: boolean },
): Promise<SavedProgress | null> {
  const save = () => saveProgress(ctx, user, lectureId, input);
  if (!overRate) {
    const { isPreview, ...saved } = await save();
    known.remember(lectureId, isPreview);
    return saved;
  }
  await checkSaveMayBeHeld(ctx, known, user, lectureId);
  if (!ctx.heldSaves.hold(user.id, `${user.id}:${lectureId}`, save)) throw new AppError(429, answers.tooManyRequests);
  return null;
}

export async function saveProgress(ctx: Context, user: UserRow, lectureId: string, input: SaveInput): Promise<SavedProgress & { isPreview: boolean }> {
  const now = Date.now();
  if (input.at > now + CLOCK_SKEW_MS) throw new AppError(400, answers.progressTimeInvalid);
  // The browser's clock, but never ahead of ours: a fast clock must not freeze the position.
  const readAt = new Date(Math.min(input.at, now)).toISOString();
  const canWatch = canWatchLectures(user);
  const result = await ctx.db.execute(sql`
    with lecture as (
      select l.id, l.course_id, l.is_preview,
             -- The server's measure wins; the player's stands in until the pipeline has measured the video.
             coalesce(l.duration_seconds, ${input.duration ?? null}::real) as duration,
             (select count(*) from lectures as siblings where siblings.course_id = l.course_id)::int as lecture_count,
             -- Quizzes count in the percent as items: two index lookups (quizzes by course, attempts by learner and course).
             (select count(*) from quizzes as q where q.course_id = l.course_id)::int as quiz_count,
             (select count(distinct a.quiz_id) from quiz_attempts as a
               where a.user_id = ${user.id}::uuid and a.course_id = l.course_id and a.passed)::int as passed_quizzes
      from lectures as l where l.id = ${lectureId}::uuid
    ), allowed as (
      select * from lecture
      where (${canWatch}::boolean or is_preview) and (duration is null or ${input.position}::real <= duration + ${END_TOLERANCE_SECONDS})
    ), saved as (
      insert into lecture_progress as p (user_id, lecture_id, course_id, position_seconds, position_at, watched_seconds, completed_at)
      select ${user.id}::uuid, id, course_id, least(${input.position}::real, coalesce(duration, 'Infinity')), ${readAt}::timestamptz,
             least(${input.watched}::real, coalesce(duration, 'Infinity')),
             case when ${input.ended === true}::boolean or ${input.position}::real >= ${COMPLETION_SHARE} * duration then now() end
      from allowed
      on conflict (user_id, lecture_id) do update set
        position_seconds = case when excluded.position_at >= p.position_at then excluded.position_seconds else p.position_seconds end,
        position_at = greatest(excluded.position_at, p.position_at),
        watched_seconds = least(p.watched_seconds + excluded.watched_seconds, coalesce((select duration from allowed), 'Infinity')),
        -- Completed stays completed; a save read before the learner's own unmark does not complete it again.
        completed_at = case
          when p.completed_at is null and excluded.completed_at is not null
           and (p.completion_set_at is null or excluded.position_at > p.completion_set_at)
          then excluded.completed_at else p.completed_at end,
        updated_at = now()
      returning p.lecture_id, p.course_id, p.position_seconds, p.watched_seconds, p.completed_at, p.updated_at
    ), others as (
      -- The learner's other completed lectures of the course (this one's row is the one just written).
      select count(*)::int as n from lecture_progress as o, allowed as a
      where o.user_id = ${user.id}::uuid and o.course_id = a.course_id and o.lecture_id <> a.id and o.completed_at is not null
    ), course as (
      insert into course_progress as c (user_id, course_id, completed_lectures, last_lecture_id, last_watched_at)
      select ${user.id}::uuid, s.course_id, o.n + (s.completed_at is not null)::int, s.lecture_id, now() from saved as s, others as o
      on conflict (user_id, course_id) do update set
        completed_lectures = excluded.completed_lectures,
        last_lecture_id = excluded.last_lecture_id,
        last_watched_at = excluded.last_watched_at
      -- Rewritten only when a reader would see a change, or a minute passed: steady playback costs one write a minute here.
      where c.completed_lectures <> excluded.completed_lectures
         or c.last_lecture_id is distinct from excluded.last_lecture_id
         or c.last_watched_at < excluded.last_watched_at - interval '1 minute'
      returning 1
    )
    select l.course_id, l.is_preview, l.duration, l.lecture_count, l.quiz_count, l.passed_quizzes,
           s.lecture_id, s.position_seconds, s.watched_seconds, s.completed_at, s.updated_at,
           o.n + (s.completed_at is not null)::int as completed,
           s.completed_at = now() as just_completed
    from lecture as l left join saved as s on true left join others as o on true`);
  const row = (result as unknown as { rows: SaveRow[] }).rows[0];
  if (!row) throw new AppError(404, answers.lectureNotFound);
  if (row.lecture_id === null) {
    if (!canWatch && !row.is_preview) throw new AppError(403, answers.subscribeToWatch);
    throw new AppError(400, answers.progressPositionInvalid);
  }
  // The end of a video completes a lecture as marking it does: the last one may earn a certificate.
  if (row.just_completed && Number(row.completed) >= Number(row.lecture_count)) await queueCertificateCheck(ctx, { userId: user.id, courseId: row.course_id });
  const time = (value: Date | string) => new Date(value).toISOString();
  return {
    isPreview: row.is_preview,
    lecture: {
      lectureId: row.lecture_id,
      position: Number(row.position_seconds),
      watched: Number(row.watched_seconds),
      completed: row.completed_at !== null,
      completedAt: row.completed_at === null ? null : time(row.completed_at),
      updatedAt: time(row.updated_at!),
    },
    course: courseProgressJson({
      courseId: row.course_id,
      completed: Number(row.completed),
      lectureCount: Number(row.lecture_count),
      quizCount: Number(row.quiz_count),
      passedQuizzes: Number(row.passed_quizzes),
      lastLectureId: lectureId,
      lastWatchedAt: new Date(),
    }),
  };
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
