import { eq } from 'drizzle-orm';
import type { Context } from '../context.ts';
import { courses } from '../db/schema.ts';

/**
 * Publishes a course straight in the database, as if the admin had pressed Publish, without the
 * rule that it hold a lecture first: a test of the catalogue needs public courses, not lectures.
 * Answers once this instance has heard the change, as a route's answer would: its caches are fresh.
 */
export async function publishCourseDirectly(ctx: Pick<Context, 'db' | 'changes'>, courseId: string): Promise<void> {
  await ctx.db.update(courses).set({ status: 'published', publishedAt: new Date() }).where(eq(courses.id, courseId));
  await ctx.changes.caughtUp();
}
