import { and, asc, desc, eq, gt, inArray, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import { generateNKeysBetween } from 'fractional-indexing';
import { answers } from '@lms/contract/answers';
import type { Section } from '@lms/contract/lectures';
import type { Context } from '../../context.ts';
import { courseSections, lectures, quizzes } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { rankAfter, rankBetween } from '../courses/ranks.ts';
import { lockCourse, type Tx } from './curriculum-order.ts';

/**
 * A course's curriculum as the admin arranges it: sections (added last, renamed, deleted, moved)
 * and lectures moved within and across them. A move writes the moved row alone (and touches the
 * course): its new rank is taken between its new neighbours', whatever the course's size. Every
 * write locks the course first (lockCourse), so concurrent moves take turns and never read ranks
 * that another is changing; the unique (course, section, rank) constraint is the safety net.
 */

/** The lectures of `sectionId` (null: those of no section) in the course. */
const lecturesOfGroup = (courseId: string, sectionId: string | null): SQL =>
  and(eq(lectures.courseId, courseId), sectionId === null ? isNull(lectures.sectionId) : eq(lectures.sectionId, sectionId))!;

/** The last rank among the course's sections, or null when it has none. */
async function lastSectionRank(tx: Tx, courseId: string): Promise<string | null> {
  const [last] = await tx
    .select({ rank: courseSections.rank })
    .from(courseSections)
    .where(eq(courseSections.courseId, courseId))
    .orderBy(desc(courseSections.rank))
    .limit(1);
  return last?.rank ?? null;
}

/** Adds a section after the course's last one. */
export async function addSection(ctx: Context, { courseId, title }: { courseId: string; title: string }): Promise<Section> {
  return ctx.db.transaction(async (tx) => {
    await lockCourse(tx, courseId);
    const [section] = await tx
      .insert(courseSections)
      .values({ courseId, title, rank: rankAfter(await lastSectionRank(tx, courseId)) })
      .returning({ _id: courseSections.id, title: courseSections.title });
    return section!;
  });
}

export async function renameSection(ctx: Context, { courseId, sectionId, title }: { courseId: string; sectionId: string; title: string }): Promise<Section> {
  return ctx.db.transaction(async (tx) => {
    await lockCourse(tx, courseId, answers.sectionNotFound);
    const [section] = await tx
      .update(courseSections)
      .set({ title })
      .where(and(eq(courseSections.id, sectionId), eq(courseSections.courseId, courseId)))
      .returning({ _id: courseSections.id, title: courseSections.title });
    if (!section) throw new AppError(404, answers.sectionNotFound);
    return section;
  });
}

/**
 * Deletes a section; its lectures stay, in their order, at the end of the part listed just before
 * it (the previous section, or the lectures of no section for the first one), so that nobody's
 * course changes order but for the heading that went. They get fresh ranks after that part's last.
 */
export async function deleteSection(ctx: Context, { courseId, sectionId }: { courseId: string; sectionId: string }): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await lockCourse(tx, courseId, answers.sectionNotFound);
    const [section] = await tx
      .select({ rank: courseSections.rank })
      .from(courseSections)
      .where(and(eq(courseSections.id, sectionId), eq(courseSections.courseId, courseId)));
    if (!section) throw new AppError(404, answers.sectionNotFound);
    const [previous] = await tx
      .select({ id: courseSections.id })
      .from(courseSections)
      .where(and(eq(courseSections.courseId, courseId), lt(courseSections.rank, section.rank)))
      .orderBy(desc(courseSections.rank))
      .limit(1);
    const target = previous?.id ?? null;
    const moving = await tx.select({ id: lectures.id }).from(lectures).where(lecturesOfGroup(courseId, sectionId)).orderBy(asc(lectures.rank));
    if (moving.length > 0) {
      const [last] = await tx.select({ rank: lectures.rank }).from(lectures).where(lecturesOfGroup(courseId, target)).orderBy(desc(lectures.rank)).limit(1);
      const ranks = generateNKeysBetween(last?.rank ?? null, null, moving.length);
      // One statement for the lot. Ranks are digits and letters, ids hex and dashes: safe in array literals.
      await tx.execute(sql`
        update ${lectures} set section_id = ${target}, rank = moved.rank
        from unnest(${`{${moving.map((row) => row.id).join(',')}}`}::uuid[], ${`{${ranks.join(',')}}`}::text[]) as moved(id, rank)
        where ${lectures.id} = moved.id`);
    }
    await tx.delete(courseSections).where(eq(courseSections.id, sectionId));
    // A quiz after one of them goes along (a quiz at the section's end falls to the course's end: the foreign key).
    const movedIds = moving.map((row) => row.id);
    if (movedIds.length > 0) await tx.update(quizzes).set({ sectionId: target }).where(inArray(quizzes.afterLectureId, movedIds));
  });
}

/** Moves a section after the section `afterId` of the course, or first when null. */
export async function moveSection(ctx: Context, { courseId, sectionId, afterId }: { courseId: string; sectionId: string; afterId: string | null }) {
  await ctx.db.transaction(async (tx) => {
    await lockCourse(tx, courseId);
    const named = await tx
      .select({ id: courseSections.id, rank: courseSections.rank })
      .from(courseSections)
      .where(and(eq(courseSections.courseId, courseId), inArray(courseSections.id, afterId ? [sectionId, afterId] : [sectionId])));
    const moved = named.find((row) => row.id === sectionId);
    if (!moved) throw new AppError(400, answers.sectionNotInCourse);
    const after = afterId === null ? null : named.find((row) => row.id === afterId);
    if (after === undefined || afterId === sectionId) throw new AppError(400, answers.placeNotSection);
    const before = after?.rank ?? null;
    const [next] = await tx
      .select({ rank: courseSections.rank })
      .from(courseSections)
      .where(and(eq(courseSections.courseId, courseId), ne(courseSections.id, sectionId), before === null ? undefined : gt(courseSections.rank, before)))
      .orderBy(asc(courseSections.rank))
      .limit(1);
    if (isBetween(moved.rank, before, next?.rank ?? null)) return;
    await tx
      .update(courseSections)
      .set({ rank: rankBetween(before, next?.rank ?? null) })
      .where(eq(courseSections.id, sectionId));
  });
}

/**
 * Moves a lecture of the course into the section `sectionId` (null: among the lectures of no
 * section), after its lecture `afterId`, or first in it when null. Ids of another course, or a
 * lecture to follow that is not in that section, are refused (400).
 */
export async function moveLecture(
  ctx: Context,
  { courseId, lectureId, sectionId, afterId }: { courseId: string; lectureId: string; sectionId: string | null; afterId: string | null },
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await lockCourse(tx, courseId);
    const named = await tx
      .select({ id: lectures.id, sectionId: lectures.sectionId, rank: lectures.rank })
      .from(lectures)
      .where(and(eq(lectures.courseId, courseId), inArray(lectures.id, afterId ? [lectureId, afterId] : [lectureId])));
    const moved = named.find((row) => row.id === lectureId);
    if (!moved) throw new AppError(400, answers.lectureNotInCourse);
    let before: string | null = null;
    if (afterId !== null) {
      const after = named.find((row) => row.id === afterId);
      if (!after || after.sectionId !== sectionId || afterId === lectureId) throw new AppError(400, answers.placeNotInSection);
      before = after.rank;
    } else if (sectionId !== null) {
      const [section] = await tx
        .select({ id: courseSections.id })
        .from(courseSections)
        .where(and(eq(courseSections.id, sectionId), eq(courseSections.courseId, courseId)));
      if (!section) throw new AppError(400, answers.sectionNotInCourse);
    }
    const [next] = await tx
      .select({ rank: lectures.rank })
      .from(lectures)
      .where(and(lecturesOfGroup(courseId, sectionId), ne(lectures.id, lectureId), before === null ? undefined : gt(lectures.rank, before)))
      .orderBy(asc(lectures.rank))
      .limit(1);
    if (moved.sectionId === sectionId && isBetween(moved.rank, before, next?.rank ?? null)) return;
    await tx
      .update(lectures)
      .set({ sectionId, rank: rankBetween(before, next?.rank ?? null) })
      .where(eq(lectures.id, lectureId));
    // A quiz placed after the lecture follows it, and would stay in its new section should the lecture go.
    if (moved.sectionId !== sectionId) await tx.update(quizzes).set({ sectionId }).where(eq(quizzes.afterLectureId, lectureId));
  });
}

/** Whether `rank` lies between two neighbours' (null: an end of the list): the item is already there. */
const isBetween = (rank: string, before: string | null, after: string | null) => (before === null || rank > before) && (after === null || rank < after);
