import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { LearnerCourse, ProgressSettings } from '@lms/contract/progress';
import type { Context } from '../../context.ts';
import { courseProgress, courseSections, courses, lectureProgress, lectures } from '../../db/schema.ts';
import type { UserRow } from '../auth/sessions.ts';
import { toCourseJson } from '../courses/courses.service.ts';
import { displayOrder, lectureSection } from '../lectures/curriculum-order.ts';
import { courseProgressJson, toLectureProgressJson } from './progress.service.ts';

/** What a learner reads of their own progress: a course's lectures, and every course they started. */

/** The learner's progress in each lecture of a course; `course` is null until they start it. */
export async function getCourseProgress(ctx: Context, user: UserRow, courseId: string) {
  const [[summary], rows, [lectureTotal]] = await Promise.all([
    ctx.db
      .select()
      .from(courseProgress)
      .where(and(eq(courseProgress.userId, user.id), eq(courseProgress.courseId, courseId))),
    ctx.db
      .select()
      .from(lectureProgress)
      .where(and(eq(lectureProgress.userId, user.id), eq(lectureProgress.courseId, courseId))),
    ctx.db.select({ n: count() }).from(lectures).where(eq(lectures.courseId, courseId)),
  ]);
  return {
    course: summary ? courseProgressJson({ ...summary, completed: summary.completedLectures, lectureCount: lectureTotal!.n }) : null,
    lectures: rows.map(toLectureProgressJson),
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
  const started = await ctx.db
    .select({ progress: courseProgress, course: courses })
    .from(courseProgress)
    .innerJoin(courses, eq(courses.id, courseProgress.courseId))
    // A course made a draft again is out of sight until it is published again; its progress is kept.
    .where(and(eq(courseProgress.userId, user.id), eq(courses.status, 'published')))
    .orderBy(desc(courseProgress.lastWatchedAt), asc(courseProgress.courseId))
    .limit(MY_COURSES_MAX);
  const courseIds = started.map((row) => row.course.id);
  const [lectureRows, progressRows] =
    courseIds.length === 0
      ? [[], []]
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
        ]);
  const progressOf = new Map(progressRows.map((row) => [row.lectureId, row]));

  const list = started.map(({ progress, course }): LearnerCourse => {
    const courseLectures = lectureRows.filter((lecture) => lecture.courseId === course.id);
    const json = courseProgressJson({ ...progress, completed: progress.completedLectures, lectureCount: courseLectures.length });
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
