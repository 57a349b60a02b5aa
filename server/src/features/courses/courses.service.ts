import { Readable } from 'node:stream';
import { and, asc, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Course, CoursesPage, Lecture, UpdateCourse } from '@lms/contract/courses';
import { messages } from '@lms/contract/messages';
import type { Context } from '../../context.ts';
import { courses, lectures } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { UserRow } from '../auth/sessions.ts';
import { reencodeImage } from '../media/images.ts';
import { saveLectureVideo, saveThumbnail } from '../media/storage.ts';

export type CourseRow = typeof courses.$inferSelect;
export type LectureRow = typeof lectures.$inferSelect;
export type CourseWithCount = CourseRow & { numbersOfLectures: number };
/** A video already in storage, not yet attached to a lecture. */
export interface StoredVideo {
  key: string;
  mime: string;
  bytes: number;
}

const THUMBNAIL_SIZE = { width: 640, height: 360 };

// Counted per row through the (course_id, created_at) index: a page of 50 courses is 50 index look-ups.
// Spelled out in SQL because the outer column must be qualified inside the subquery.
const numbersOfLectures = sql<number>`(select count(*)::int from lectures where lectures.course_id = courses.id)`;
const courseColumns = {
  id: courses.id,
  title: courses.title,
  description: courses.description,
  category: courses.category,
  createdBy: courses.createdBy,
  thumbnailKey: courses.thumbnailKey,
  createdAt: courses.createdAt,
  updatedAt: courses.updatedAt,
  numbersOfLectures,
};

export function toCourseJson(ctx: Context, course: CourseWithCount): Course {
  return {
    _id: course.id,
    title: course.title,
    description: course.description,
    category: course.category,
    createdBy: course.createdBy,
    thumbnail: { secure_url: ctx.media.publicUrl(course.thumbnailKey) },
    numbersOfLectures: course.numbersOfLectures,
  };
}

/** `%` and `_` typed by a user are letters, not wildcards. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A page of the catalogue, newest first, with the number of matching courses (uncached; see CatalogueCache). */
export async function listCourses(ctx: Context, query: CoursesPage) {
  const filters: SQL[] = [];
  if (query.search) {
    const pattern = containing(query.search);
    filters.push(or(ilike(courses.title, pattern), ilike(courses.category, pattern), ilike(courses.createdBy, pattern))!);
  }
  if (query.category) filters.push(eq(courses.category, query.category));
  if (query.id) filters.push(eq(courses.id, query.id));
  const where = and(...filters);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select(courseColumns)
      .from(courses)
      .where(where)
      .orderBy(desc(courses.createdAt), desc(courses.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    ctx.db.select({ n: count() }).from(courses).where(where),
  ]);
  return { courses: rows, total: total!.n };
}

export async function findCourse(ctx: Context, id: string): Promise<CourseWithCount> {
  const [course] = await ctx.db.select(courseColumns).from(courses).where(eq(courses.id, id));
  if (!course) throw new AppError(404, messages.courseNotFound);
  return course;
}

const toThumbnail = (bytes: Buffer) =>
  reencodeImage(bytes, { accept: ['jpg', 'png'], size: THUMBNAIL_SIZE, rejectMessage: messages.thumbnailType });

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
    const [course] = await ctx.db.insert(courses).values({ ...input, thumbnailKey }).returning();
    ctx.catalogue.invalidate();
    return { ...course!, numbersOfLectures: 0 };
  });
}

export async function updateCourse(ctx: Context, id: string, input: UpdateCourse, thumbnail?: Buffer): Promise<CourseWithCount> {
  const existing = await findCourse(ctx, id);
  const update = async (thumbnailKey?: string) => {
    const [course] = await ctx.db
      .update(courses)
      .set({ ...input, ...(thumbnailKey && { thumbnailKey }), updatedAt: new Date() })
      .where(eq(courses.id, id))
      .returning();
    if (!course) throw new AppError(404, messages.courseNotFound);
    ctx.catalogue.invalidate();
    return { ...course, numbersOfLectures: existing.numbersOfLectures };
  };
  if (!thumbnail) return update();
  const updated = await withNewThumbnail(ctx, thumbnail, update);
  await ctx.media.remove(existing.thumbnailKey);
  return updated;
}

/** Removes the course, its lectures (by cascade) and then all their media. */
export async function deleteCourse(ctx: Context, id: string): Promise<void> {
  const keys = await ctx.db.transaction(async (tx) => {
    const videos = await tx.select({ key: lectures.videoKey }).from(lectures).where(eq(lectures.courseId, id));
    const [deleted] = await tx.delete(courses).where(eq(courses.id, id)).returning({ key: courses.thumbnailKey });
    if (!deleted) throw new AppError(404, messages.courseNotFound);
    return [deleted.key, ...videos.map((video) => video.key)];
  });
  ctx.catalogue.invalidate();
  await Promise.all(keys.map((key) => ctx.media.remove(key)));
}

/** The course's lectures in the order they were added, each with a video URL made for `viewer`. */
export async function listLectures(ctx: Context, courseId: string, viewer: UserRow): Promise<Lecture[]> {
  const rows = await ctx.db
    .select()
    .from(lectures)
    .where(eq(lectures.courseId, courseId))
    .orderBy(asc(lectures.createdAt), asc(lectures.id));
  const expiresAt = new Date(Date.now() + ctx.config.videoUrlHours * 3600 * 1000);
  return Promise.all(
    rows.map(async (lecture) => ({
      _id: lecture.id,
      title: lecture.title,
      description: lecture.description,
      secure_url: await ctx.media.privateUrl({ key: lecture.videoKey, viewerId: viewer.id, expiresAt }),
      duration: lecture.durationSeconds,
    })),
  );
}

/**
 * Streams an uploaded video into storage, judging its type by its first bytes:
 * anything but a video is refused before anything is stored.
 */
export async function storeLectureVideo(ctx: Context, video: Readable): Promise<StoredVideo> {
  const head = await readHead(video, 4100);
  const { fileTypeFromBuffer } = await import('file-type');
  const type = await fileTypeFromBuffer(head);
  if (!type?.mime.startsWith('video/')) {
    // Read the rest away: the multipart parser moves on only once this part is consumed.
    video.resume();
    throw new AppError(400, messages.videoType);
  }
  let bytes = 0;
  async function* headThenRest() {
    bytes += head.length;
    yield head;
    for await (const chunk of video as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      yield chunk;
    }
  }
  const key = await saveLectureVideo(ctx.media, Readable.from(headThenRest(), { objectMode: false }), type);
  return { key, mime: type.mime, bytes };
}

/** At least `size` bytes from the start of `stream` (fewer if it is shorter), leaving the rest unread. */
async function readHead(stream: Readable, size: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    length += chunk.length;
    if (length >= size) break;
  }
  return Buffer.concat(chunks);
}

export async function createLecture(
  ctx: Context,
  courseId: string,
  input: { title: string; description: string; durationSeconds?: number | null },
  video: StoredVideo,
): Promise<LectureRow> {
  try {
    const [lecture] = await ctx.db
      .insert(lectures)
      .values({ courseId, ...input, videoKey: video.key, videoType: video.mime, videoBytes: video.bytes })
      .returning();
    ctx.catalogue.invalidate();
    return lecture!;
  } catch (error) {
    await ctx.media.remove(video.key);
    // The course was deleted while its lecture was uploading.
    if ((error as { cause?: { code?: string } }).cause?.code === '23503') throw new AppError(404, messages.courseNotFound);
    throw error;
  }
}

export async function deleteLecture(ctx: Context, courseId: string, lectureId: string): Promise<void> {
  const [deleted] = await ctx.db
    .delete(lectures)
    .where(and(eq(lectures.id, lectureId), eq(lectures.courseId, courseId)))
    .returning({ key: lectures.videoKey });
  if (!deleted) throw new AppError(404, messages.lectureNotFound);
  ctx.catalogue.invalidate();
  await ctx.media.remove(deleted.key);
}
