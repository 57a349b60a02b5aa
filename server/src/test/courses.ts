import { eq } from 'drizzle-orm';
import type { Context } from '../context.ts';
import { courses } from '../db/schema.ts';

/**
 * Publishes a course straight in the database, as if the admin had pressed Publish, without the
 * rule that it hold a lecture first: a test of the catalogue needs public courses, not lectures.
 */
export async function publishCourseDirectly(ctx: Pick<Context, 'db'>, courseId: string): Promise<void> {
  await ctx.db.update(courses).set({ status: 'published', publishedAt: new Date() }).where(eq(courses.id, courseId));
}
