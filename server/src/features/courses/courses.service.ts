import { and, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Course, CoursesPage, CourseState, UpdateCourse } from '@lms/contract/courses';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import type { Context } from '../../context.ts';
import { courses, lectures } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { CataloguePage } from './catalogue-cache.ts';
import { LECTURE_MEDIA, lectureMediaKeys } from '../lectures/lecture-media.ts';
import { resourceKeysForDeletion } from '../resources/resources.service.ts';
import { captionKeysForDeletion } from '../captions/captions.service.ts';
import { reencodeImage } from '../media/images.ts';
import { saveThumbnail } from '../media/storage.ts';

export type CourseRow = typeof courses.$inferSelect;
export type CourseWithCount = CourseRow & { numbersOfLectures: number; totalDuration?: number | null; subscribersWatching?: number };

/** Who a read is for: visitors and learners see published courses only, administrators drafts too. */
export interface Audience {
  includeDrafts?: boolean;
}

export const THUMBNAIL_SIZE = { width: 640, height: 360 };

// Counted per row through the (course_id, created_at) index: a page of 50 courses is 50 index look-ups.
// Spelled out in SQL because the outer column must be qualified inside the subquery.
const numbersOfLectures = sql<number>`(select count(*)::int from lectures where lectures.course_id = courses.id)`;
/** Seconds: the sum of the lecture durations measured so far (the video pipeline measures them); null while none is. */
const totalDuration = sql<number | null>`(select sum(duration_seconds)::float8 from lectures where lectures.course_id = courses.id)`;
/** Learners who started the course and may watch it now: what unpublishing would take from them. For administrators' lists only. */
const subscribersWatching = sql<number>`(select count(*)::int from course_progress
  join users on users.id = course_progress.user_id
  where course_progress.course_id = courses.id
    and (users.subscription_ends_at > now() or users.complimentary_until > now()))`;
const published = eq(courses.status, 'published');
/** A course's columns as every read of one gives them, its lectures counted and their length summed. */
export const courseColumns = {
  id: courses.id,
  title: courses.title,
  description: courses.description,
  category: courses.category,
  createdBy: courses.createdBy,
  thumbnailKey: courses.thumbnailKey,
  status: courses.status,
  publishAt: courses.publishAt,
  publishedAt: courses.publishedAt,
  createdAt: courses.createdAt,
  updatedAt: courses.updatedAt,
  numbersOfLectures,
  totalDuration,
};

export const courseStateOf = (course: Pick<CourseRow, 'status' | 'publishAt'>): CourseState =>
  course.status === 'published' ? 'published' : course.publishAt ? 'scheduled' : 'draft';

export function toCourseJson(ctx: Context, course: CourseWithCount): Course {
  return {
    _id: course.id,
    title: course.title,
    description: course.description,
    category: course.category,
    createdBy: course.createdBy,
    thumbnail: { secure_url: ctx.media.publicUrl(course.thumbnailKey) },
    numbersOfLectures: course.numbersOfLectures,
    totalDuration: course.totalDuration ?? null,
    state: courseStateOf(course),
    publishAt: course.status === 'draft' ? (course.publishAt?.toISOString() ?? null) : null,
    ...(course.subscribersWatching !== undefined && { subscribersWatching: course.subscribersWatching }),
  };
}

/** `%` and `_` typed by a user are letters, not wildcards. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A page of the catalogue, newest first, with the number of matching courses (uncached; see CatalogueCache).
 * Administrators' pages hold the drafts too, first, and how many subscribers watch each course.
 */
export async function listCourses(ctx: Context, query: CoursesPage, { includeDrafts = false }: Audience = {}) {
  const filters: SQL[] = includeDrafts ? [] : [published];
  if (query.search) {
    const pattern = containing(query.search);
    filters.push(or(ilike(courses.title, pattern), ilike(courses.category, pattern), ilike(courses.createdBy, pattern))!);
  }
  if (query.category) filters.push(eq(courses.category, query.category));
  if (query.id) filters.push(eq(courses.id, query.id));
  const where = and(...filters);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select(includeDrafts ? { ...courseColumns, subscribersWatching } : courseColumns)
      .from(courses)
      .where(where)
      .orderBy(sql`${courses.publishedAt} desc nulls first`, desc(courses.createdAt), desc(courses.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    ctx.db.select({ n: count() }).from(courses).where(where),
  ]);
  return { courses: rows, total: total!.n };
}

/** A page of the catalogue as the API answers it. */
export async function cataloguePage(ctx: Context, query: CoursesPage, audience: Audience = {}) {
  const { courses, total } = await listCourses(ctx, query, audience);
  const { page, limit } = query;
  return { success: true, message: answers.coursesFetched, courses: courses.map((c) => toCourseJson(ctx, c)), total, page, limit };
}

/** A page of the public catalogue, from this instance's cache (fresh for a few seconds, cleared by every write). */
export function cachedCataloguePage(ctx: Context, query: CoursesPage): Promise<CataloguePage> {
  const { page, limit, search, category, id } = query;
  return ctx.catalogue.page(JSON.stringify([page, limit, search, category, id]), () => cataloguePage(ctx, query));
}

/** The course `id`, if the audience may see it: a draft only when it includes drafts. */
export const courseById = (id: string, { includeDrafts = false }: Audience = {}) => (includeDrafts ? eq(courses.id, id) : and(eq(courses.id, id), published));

/** The course by id; a draft is not found unless the audience includes drafts. */
export async function findCourse(ctx: Context, id: string, audience: Audience = {}): Promise<CourseWithCount> {
  const [course] = await ctx.db.select(courseColumns).from(courses).where(courseById(id, audience));
  if (!course) throw new AppError(404, messages.courseNotFound);
  return course;
}

const toThumbnail = (bytes: Buffer) => reencodeImage(bytes, { accept: ['jpg', 'png'], size: THUMBNAIL_SIZE, rejectMessage: messages.thumbnailType });

/** Runs `write` with a freshly stored thumbnail; the file is removed again if the write fails. */
async function withNewThumbnail<T>(ctx: Context, bytes: Buffer, write: (thumbnailKey: string) => Promise<T>): Promise<T> {
  const thumbnailKey = await saveThumbnail(ctx.media, await toThumbnail(bytes));
  try {
    return await write(thumbnailKey);
  } catch (error) {
    await ctx.media.remove(thumbnailKey);
    throw error;
  }
}

export async function createCourse(
  ctx: Context,
  input: { title: string; description: string; category: string; createdBy: string },
  thumbnail: Buffer,
): Promise<CourseWithCount> {
  return withNewThumbnail(ctx, thumbnail, async (thumbnailKey) => {
    const [course] = await ctx.db
      .insert(courses)
      .values({ ...input, thumbnailKey })
      .returning();
    return { ...course!, numbersOfLectures: 0 };
  });
}

export async function updateCourse(ctx: Context, id: string, input: UpdateCourse, thumbnail?: Buffer): Promise<CourseWithCount> {
  const existing = await findCourse(ctx, id, { includeDrafts: true });
  const update = async (thumbnailKey?: string) => {
    const [course] = await ctx.db
      .update(courses)
      .set({ ...input, ...(thumbnailKey && { thumbnailKey }), updatedAt: new Date() })
      .where(eq(courses.id, id))
      .returning();
    if (!course) throw new AppError(404, messages.courseNotFound);
    return { ...course, numbersOfLectures: existing.numbersOfLectures, totalDuration: existing.totalDuration };
  };
  if (!thumbnail) return update();
  const updated = await withNewThumbnail(ctx, thumbnail, update);
  await ctx.media.remove(existing.thumbnailKey);
  return updated;
}

/** Removes the course, its lectures (by cascade) and then all their media. */
export async function deleteCourse(ctx: Context, id: string): Promise<void> {
  const keys = await ctx.db.transaction(async (tx) => {
    // The course, then its lectures, locked in the order lecture writes take them: a lecture, a
    // file or captions being added meanwhile are in the lists below, or find the course gone.
    await tx.select({ id: courses.id }).from(courses).where(eq(courses.id, id)).for('update');
    const resourceKeys = await resourceKeysForDeletion(tx, eq(lectures.courseId, id));
    const captionKeys = await captionKeysForDeletion(tx, eq(lectures.courseId, id));
    const media = await tx.select(LECTURE_MEDIA).from(lectures).where(eq(lectures.courseId, id));
    const [deleted] = await tx.delete(courses).where(eq(courses.id, id)).returning({ key: courses.thumbnailKey });
    if (!deleted) throw new AppError(404, messages.courseNotFound);
    return [deleted.key, ...media.flatMap(lectureMediaKeys), ...resourceKeys, ...captionKeys];
  });
  await Promise.all(keys.map((key) => ctx.media.remove(key)));
}
