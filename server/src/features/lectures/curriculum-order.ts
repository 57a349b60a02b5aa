import { asc, eq, sql } from 'drizzle-orm';
import { messages } from '@lms/contract/messages';
import type { Db } from '../../db/client.ts';
import { courseSections, courses, lectures } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';

/**
 * The one order a course's lectures are shown and played in, wherever they are listed (the
 * curriculum, the player's list, where a learner picks up): the lectures of no section first,
 * then each section's, sections in their order; within each group, by rank. A query joins
 * `course_sections` on `lectureSection` (a left join: most lectures of most courses have none)
 * and orders by `displayOrder`.
 */
export const lectureSection = eq(courseSections.id, lectures.sectionId);
export const displayOrder = [sql`${courseSections.rank} asc nulls first`, asc(lectures.rank)];

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Locks the course's row until the transaction ends, and touches it: a write to a course's
 * sections or lectures takes this first, so that two of them in one course take turns (a move
 * reads its neighbours' ranks, which no other move may change meanwhile) and always lock in the
 * same order (course, then lectures: no deadlock). An update locks the row as `select … for update`
 * would; the touch is what the sitemap's `lastmod` reads, and its trigger tells every instance
 * that the curriculum changed (decision 0019), which a write to `course_sections` alone would not.
 */
export async function lockCourse(tx: Tx, courseId: string, notFound: string = messages.courseNotFound): Promise<void> {
  const [course] = await tx.update(courses).set({ updatedAt: new Date() }).where(eq(courses.id, courseId)).returning({ id: courses.id });
  if (!course) throw new AppError(404, notFound);
}

export type { Tx };
