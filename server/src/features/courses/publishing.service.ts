import { and, eq, isNotNull, lte, sql } from 'drizzle-orm';
import { PUBLISH_AHEAD_MAX_DAYS, type PublishCourse } from '@lms/contract/courses';
import { answers } from '@lms/contract/answers';
import { messages } from '@lms/contract/messages';
import type { FastifyBaseLogger } from 'fastify';
import type { Context } from '../../context.ts';
import { courses } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { findCourse, type CourseWithCount } from './courses.service.ts';

const DAY_MS = 24 * 3600 * 1000;
// Spelled out: the outer column must be qualified inside the subquery.
const hasLectures = sql`exists (select 1 from lectures where lectures.course_id = courses.id)`;

/**
 * Publishes a course now, or schedules it when `publishAt` is in the future (the queue's
 * scheduled-publishing job publishes it then). A course with no lecture is not published:
 * its page would promise nothing. Answers the course as it is now.
 */
export async function publishCourse(ctx: Context, id: string, { publishAt }: PublishCourse): Promise<{ course: CourseWithCount; scheduled: boolean }> {
  const now = new Date();
  const at = publishAt === undefined ? null : new Date(publishAt);
  if (at && at.getTime() > now.getTime() + PUBLISH_AHEAD_MAX_DAYS * DAY_MS) throw new AppError(400, answers.publishAtInvalid);
  const scheduled = at !== null && at > now;
  const [updated] = await ctx.db
    .update(courses)
    .set(
      scheduled
        ? { status: 'draft', publishAt: at, updatedAt: now }
        : // Published before: it keeps its place in the catalogue rather than jump to the top.
          { status: 'published', publishAt: null, publishedAt: sql`coalesce(${courses.publishedAt}, now())`, updatedAt: now },
    )
    .where(and(eq(courses.id, id), hasLectures))
    .returning({ id: courses.id });
  if (!updated) {
    await findCourse(ctx, id, { includeDrafts: true });
    throw new AppError(400, answers.publishNeedsLecture);
  }
  return { course: await findCourse(ctx, id, { includeDrafts: true }), scheduled };
}

/** Makes the course a draft again, seen by administrators only, and drops its schedule. */
export async function unpublishCourse(ctx: Context, id: string): Promise<CourseWithCount> {
  const [updated] = await ctx.db
    .update(courses)
    .set({ status: 'draft', publishAt: null, updatedAt: new Date() })
    .where(eq(courses.id, id))
    .returning({ id: courses.id });
  if (!updated) throw new AppError(404, messages.courseNotFound);
  return findCourse(ctx, id, { includeDrafts: true });
}

/**
 * The scheduled-publishing job, every minute: publishes the drafts whose time has come. One
 * whose lectures were all deleted since it was scheduled stays a draft, its schedule dropped,
 * rather than go out empty. Answers how many were published.
 */
export async function publishDueCourses(ctx: Pick<Context, 'db'>, { log }: { log: Pick<FastifyBaseLogger, 'info' | 'warn'> }): Promise<number> {
  const due = and(eq(courses.status, 'draft'), isNotNull(courses.publishAt), lte(courses.publishAt, sql`now()`));
  const published = await ctx.db
    .update(courses)
    .set({ status: 'published', publishedAt: sql`coalesce(${courses.publishedAt}, ${courses.publishAt})`, publishAt: null, updatedAt: new Date() })
    .where(and(due, hasLectures))
    .returning({ id: courses.id });
  const empty = await ctx.db.update(courses).set({ publishAt: null, updatedAt: new Date() }).where(due).returning({ id: courses.id });
  if (published.length > 0) log.info({ courses: published.map((c) => c.id) }, `published ${published.length} scheduled course(s)`);
  if (empty.length > 0) log.warn({ courses: empty.map((c) => c.id) }, 'scheduled course(s) left unpublished: they have no lecture');
  return published.length;
}
