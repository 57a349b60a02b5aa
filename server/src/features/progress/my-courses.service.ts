import { and, asc, count, countDistinct, desc, eq, inArray, max, ne, sql } from 'drizzle-orm';
import type { LearnerCourse, ProgressSettings } from '@lms/contract/progress';
import type { QuizStanding } from '@lms/contract/quizzes';
import type { Context } from '../../context.ts';
import { courseProgress, courseSections, courses, lectureProgress, lectures, quizAttempts, quizzes } from '../../db/schema.ts';
import type { UserRow } from '../auth/sessions.ts';
import { toCourseJson } from '../courses/courses.service.ts';
import { displayOrder, lectureSection } from '../lectures/curriculum-order.ts';
import { courseProgressJson, keepLearnerCourse, toLectureProgressJson, writeHeldSavesOf, type QuizCounts } from './progress.service.ts';

/** What a learner reads of their own progress: a course's lectures, and every course they started. */

/** How many quizzes each course has, and how many of them the learner passed. */
async function quizCountsOf(ctx: Context, userId: string, courseIds: string[]): Promise<Map<string, QuizCounts>> {
  if (courseIds.length === 0) return new Map();
  const [totals, passed] = await Promise.all([
    ctx.db.select({ courseId: quizzes.courseId, n: count() }).from(quizzes).where(inArray(quizzes.courseId, courseIds)).groupBy(quizzes.courseId),
    ctx.db
      .select({ courseId: quizAttempts.courseId, n: countDistinct(quizAttempts.quizId) })
      .from(quizAttempts)
      .where(and(eq(quizAttempts.userId, userId), inArray(quizAttempts.courseId, courseIds), eq(quizAttempts.passed, true)))
      .groupBy(quizAttempts.courseId),
  ]);
  const passedOf = new Map(passed.map((row) => [row.courseId, Number(row.n)]));
  return new Map(courseIds.map((id) => [id, { quizCount: Number(totals.find((row) => row.courseId === id)?.n ?? 0), passedQuizzes: passedOf.get(id) ?? 0 }]));
}

/**
 * A course's quizzes for the learner, in one statement: how many there are, how many they passed,
 * and their standing in each one they finished an attempt at (the quizzes in id order).
 */
async function quizzesOfCourse(ctx: Context, userId: string, courseId: string): Promise<QuizCounts & { standings: QuizStanding[] }> {
  const finished = ctx.db
    .select({
      passed: sql<boolean | null>`bool_or(${quizAttempts.passed})`.as('passed'),
      bestScore: max(quizAttempts.score).as('best_score'),
      attempts: count().as('attempts'),
    })
    .from(quizAttempts)
    .where(and(eq(quizAttempts.quizId, quizzes.id), eq(quizAttempts.userId, userId), ne(quizAttempts.state, 'open')))
    .as('finished');
  const rows = await ctx.db
    .select({ quizId: quizzes.id, passed: finished.passed, bestScore: finished.bestScore, attempts: finished.attempts })
    .from(quizzes)
    .leftJoinLateral(finished, sql`true`)
    .where(eq(quizzes.courseId, courseId))
    .orderBy(quizzes.id);
  const standings = rows
    .filter((row) => Number(row.attempts) > 0)
    .map((row) => ({ quizId: row.quizId, passed: row.passed === true, bestScore: row.bestScore, attempts: Number(row.attempts) }));
  return { quizCount: rows.length, passedQuizzes: standings.filter((standing) => standing.passed).length, standings };
}

/** The learner's progress in each lecture and quiz of a course; `course` is null until they start it. */
export async function getCourseProgress(ctx: Context, user: UserRow, courseId: string) {
  await writeHeldSavesOf(ctx, user.id);
  const generation = ctx.heldSaves.learners.generation;
  // Three statements, read on every lecture page's first load: the course's row with its lecture
  // count beside it, the lectures' rows, and the quizzes.
  const [[summary], rows, { standings, ...quizCounts }] = await Promise.all([
    ctx.db
      .select({ progress: courseProgress, lectureCount: sql<number>`(select count(*) from ${lectures} where ${lectures.courseId} = ${courseId})::int` })
      .from(courseProgress)
      .where(and(eq(courseProgress.userId, user.id), eq(courseProgress.courseId, courseId))),
    ctx.db
      .select()
      .from(lectureProgress)
      .where(and(eq(lectureProgress.userId, user.id), eq(lectureProgress.courseId, courseId))),
    quizzesOfCourse(ctx, user.id, courseId),
  ]);
  keepLearnerCourse(ctx, user.id, courseId, generation, rows, quizCounts);
  return {
    course: summary
      ? courseProgressJson({ ...summary.progress, ...quizCounts, completed: summary.progress.completedLectures, lectureCount: summary.lectureCount })
      : null,
    lectures: rows.map(toLectureProgressJson),
    quizzes: standings,
    settings: { autoplayNext: user.autoplayNext },
  };
}

/** How many courses the home page and the profile list at most. */
const MY_COURSES_MAX = 100;

/**
 * Every course the learner started, most recent first, each with where to pick up: the lecture
 * watched last, or once that one is completed the first one after it not completed yet.
 */
export async function getMyProgress(ctx: Context, user: UserRow): Promise<{ courses: LearnerCourse[]; settings: ProgressSettings }> {
  await writeHeldSavesOf(ctx, user.id);
  const started = await ctx.db
    .select({ progress: courseProgress, course: courses })
    .from(courseProgress)
    .innerJoin(courses, eq(courses.id, courseProgress.courseId))
    // A course made a draft again is out of sight until it is published again; its progress is kept.
    .where(and(eq(courseProgress.userId, user.id), eq(courses.status, 'published')))
    .orderBy(desc(courseProgress.lastWatchedAt), asc(courseProgress.courseId))
    .limit(MY_COURSES_MAX);
  const courseIds = started.map((row) => row.course.id);
  const [lectureRows, progressRows, quizCounts] =
    courseIds.length === 0
      ? [[], [], new Map<string, QuizCounts>()]
      : await Promise.all([
          ctx.db
            .select({ id: lectures.id, courseId: lectures.courseId, title: lectures.title, duration: lectures.durationSeconds })
            .from(lectures)
            .leftJoin(courseSections, lectureSection)
            .where(inArray(lectures.courseId, courseIds))
            .orderBy(...displayOrder),
          ctx.db
            .select({ lectureId: lectureProgress.lectureId, position: lectureProgress.positionSeconds, completedAt: lectureProgress.completedAt })
            .from(lectureProgress)
            .where(and(eq(lectureProgress.userId, user.id), inArray(lectureProgress.courseId, courseIds))),
          quizCountsOf(ctx, user.id, courseIds),
        ]);
  const progressOf = new Map(progressRows.map((row) => [row.lectureId, row]));

  const list = started.map(({ progress, course }): LearnerCourse => {
    const courseLectures = lectureRows.filter((lecture) => lecture.courseId === course.id);
    const json = courseProgressJson({
      ...progress,
      ...quizCounts.get(course.id)!,
      completed: progress.completedLectures,
      lectureCount: courseLectures.length,
    });
    const known = courseLectures.map((lecture) => lecture.duration).filter((seconds) => seconds !== null);
    const totalDuration = known.length > 0 ? known.reduce((sum, seconds) => sum + seconds, 0) : null;
    return {
      ...json,
      course: toCourseJson(ctx, { ...course, numbersOfLectures: courseLectures.length, totalDuration }),
      resume: resumePoint(courseLectures, progress.lastLectureId, progressOf),
    };
  });
  return { courses: list, settings: { autoplayNext: user.autoplayNext } };
}

type LectureBrief = { id: string; title: string; duration: number | null };

/** Where the learner picks a course up (see getMyProgress); null once every lecture is completed. */
function resumePoint(
  courseLectures: LectureBrief[],
  lastLectureId: string | null,
  progressOf: Map<string, { position: number; completedAt: Date | null }>,
): LearnerCourse['resume'] {
  const at = (lecture: LectureBrief) => ({
    lectureId: lecture.id,
    title: lecture.title,
    position: progressOf.get(lecture.id)?.position ?? 0,
    duration: lecture.duration,
  });
  const lastIndex = courseLectures.findIndex((lecture) => lecture.id === lastLectureId);
  const last = courseLectures[lastIndex];
  if (last && !progressOf.get(last.id)?.completedAt) return at(last);
  // The lecture after the last one watched, wrapping round to any left undone.
  const order = [...courseLectures.slice(lastIndex + 1), ...courseLectures.slice(0, Math.max(lastIndex, 0))];
  const next = order.find((lecture) => !progressOf.get(lecture.id)?.completedAt);
  return next ? { ...at(next), position: 0 } : null;
}
