import type { Readable } from 'node:stream';
import { and, asc, count, eq, inArray, type SQL } from 'drizzle-orm';
import { answers } from '@lms/contract/answers';
import { RESOURCES_PER_LECTURE, type ResourceMime } from '@lms/contract/media';
import type { Resource } from '@lms/contract/resources';
import type { CourseStatus } from '@lms/contract/courses';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { courses, lectureResources, lectures } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { UserRow } from '../auth/sessions.ts';
import { saveLectureResource } from '../media/storage.ts';
import { canWatchLectures } from '../users/users.service.ts';
import { downloadName } from './file-names.ts';
import { checkResourceContent } from './resource-content.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type ResourceRow = typeof lectureResources.$inferSelect;

/** A file stored and judged, not yet attached to its lecture. */
export interface StoredResource {
  key: string;
  name: string;
  mime: ResourceMime;
  bytes: number;
}

const HOUR_MS = 3600 * 1000;
const MB = 1024 * 1024;

/**
 * Who may download a lecture's files: whoever may watch its video (administrators and active
 * subscribers); a free preview's, anyone logged in who has chosen their own password. Logged-out
 * visitors never get them: a preview's video plays for anyone, its files are a reason to sign up.
 */
export function mayDownloadFilesOf(user: UserRow, lecture: { isPreview: boolean; courseStatus: CourseStatus }): boolean {
  // A draft's files are for administrators alone, as the draft is.
  if (lecture.courseStatus !== 'published') return user.role === 'ADMIN' && !user.mustChangePassword;
  return canWatchLectures(user) || (lecture.isPreview && !user.mustChangePassword);
}

/** The type a file is answered with: text says its encoding, which is always UTF-8 here. */
export const contentTypeOf = (mime: string) => (mime === 'text/plain' ? 'text/plain; charset=utf-8' : mime);

/** The size limit in words, rounded down so that it never reads larger than it is: "100 MB", "512 KB". */
export const sizeLimitText = (bytes: number) => (bytes >= MB ? `${Math.floor((bytes / MB) * 10) / 10} MB` : `${Math.floor(bytes / 1024)} KB`);

async function findLecture(ctx: Context, courseId: string, lectureId: string): Promise<{ id: string; isPreview: boolean; courseStatus: CourseStatus }> {
  const [lecture] = await ctx.db
    .select({ id: lectures.id, isPreview: lectures.isPreview, courseStatus: courses.status })
    .from(lectures)
    .innerJoin(courses, eq(courses.id, lectures.courseId))
    .where(and(eq(lectures.id, lectureId), eq(lectures.courseId, courseId)));
  if (!lecture) throw new AppError(404, answers.lectureNotFound);
  return lecture;
}

async function resourceCount(db: Db | Tx, lectureId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(lectureResources).where(eq(lectureResources.lectureId, lectureId));
  return row!.n;
}

function refusePastLimit(files: number): void {
  if (files >= RESOURCES_PER_LECTURE) throw new AppError(409, answers.resourceLimit(RESOURCES_PER_LECTURE));
}

/** A file as the API lists it, with a download link made for `viewerId` until `expiresAt`. */
async function toResourceJson(ctx: Context, row: ResourceRow, viewerId: string, expiresAt: Date): Promise<Resource> {
  const download = { fileName: row.fileName, contentType: contentTypeOf(row.mime) };
  return {
    _id: row.id,
    name: row.fileName,
    mime: row.mime,
    bytes: row.bytes,
    url: await ctx.media.privateUrl({ key: row.fileKey, viewerId, expiresAt, download }),
  };
}

const linkExpiry = (ctx: Context) => new Date(Date.now() + ctx.config.videoUrlHours * HOUR_MS);

/** A lecture's files in the order they were attached, with links for `viewer`: 404 for a lecture not of the course, then 403 unless they may download them. */
export async function listResources(
  ctx: Context,
  { courseId, lectureId, viewer }: { courseId: string; lectureId: string; viewer: UserRow },
): Promise<Resource[]> {
  const lecture = await findLecture(ctx, courseId, lectureId);
  if (!mayDownloadFilesOf(viewer, lecture)) throw new AppError(403, answers.subscribeToDownload);
  const rows = await ctx.db
    .select()
    .from(lectureResources)
    .where(eq(lectureResources.lectureId, lecture.id))
    .orderBy(asc(lectureResources.createdAt), asc(lectureResources.id));
  const expiresAt = linkExpiry(ctx);
  return Promise.all(rows.map((row) => toResourceJson(ctx, row, viewer.id, expiresAt)));
}

/** Before an upload is read: the lecture is the course's and has room for another file (checked again when it is attached). */
export async function checkRoomForResource(ctx: Context, { courseId, lectureId }: { courseId: string; lectureId: string }): Promise<void> {
  const lecture = await findLecture(ctx, courseId, lectureId);
  refusePastLimit(await resourceCount(ctx.db, lecture.id));
}

/**
 * Streams an uploaded file into storage once its content has shown what it is (see
 * checkResourceContent); anything else is refused and nothing is stored. `sentName` becomes the
 * name it downloads as, made safe.
 */
export async function storeResourceFile(ctx: Context, file: Readable & { truncated?: boolean }, sentName: string | undefined): Promise<StoredResource> {
  const checked = await checkResourceContent(file);
  const key = await saveLectureResource(ctx.media, checked.body, { ext: checked.ext, mime: contentTypeOf(checked.mime) });
  return { key, name: downloadName(sentName, checked.mime), mime: checked.mime, bytes: checked.bytes() };
}

/**
 * Attaches a stored file to its lecture and answers it as `viewer` (the admin) sees it. The
 * lecture's row is locked while its files are counted: two uploads at once cannot both take the
 * last place, and a lecture deleted meanwhile is found gone. Refused, the file is removed again.
 */
export async function attachResource(
  ctx: Context,
  { courseId, lectureId, file, viewer }: { courseId: string; lectureId: string; file: StoredResource; viewer: UserRow },
): Promise<Resource> {
  let row: ResourceRow;
  try {
    row = await ctx.db.transaction(async (tx) => {
      const [lecture] = await tx
        .select({ id: lectures.id })
        .from(lectures)
        .where(and(eq(lectures.id, lectureId), eq(lectures.courseId, courseId)))
        .for('no key update');
      if (!lecture) throw new AppError(404, answers.lectureNotFound);
      refusePastLimit(await resourceCount(tx, lecture.id));
      const [created] = await tx
        .insert(lectureResources)
        .values({ lectureId: lecture.id, fileKey: file.key, fileName: file.name, mime: file.mime, bytes: file.bytes })
        .returning();
      return created!;
    });
  } catch (error) {
    await ctx.media.remove(file.key);
    throw error;
  }
  return toResourceJson(ctx, row, viewer.id, linkExpiry(ctx));
}

/** Removes one of a lecture's files, then its stored copy. */
export async function deleteResource(
  ctx: Context,
  { courseId, lectureId, resourceId }: { courseId: string; lectureId: string; resourceId: string },
): Promise<void> {
  const ofTheCourse = ctx.db
    .select({ id: lectures.id })
    .from(lectures)
    .where(and(eq(lectures.id, lectureId), eq(lectures.courseId, courseId)));
  const [deleted] = await ctx.db
    .delete(lectureResources)
    .where(and(eq(lectureResources.id, resourceId), inArray(lectureResources.lectureId, ofTheCourse)))
    .returning({ key: lectureResources.fileKey });
  if (!deleted) throw new AppError(404, answers.resourceNotFound);
  await ctx.media.remove(deleted.key);
}

/**
 * The stored files of the lectures `which` selects, read as those lectures are deleted (their
 * rows go with them: a foreign key). The lectures are locked first, so an upload attaching a file
 * to one waits until it is gone, and then finds no lecture, rather than slipping in a file that
 * this deletion would not know to remove.
 */
export async function resourceKeysForDeletion(tx: Tx, which: SQL | undefined): Promise<string[]> {
  await tx.select({ id: lectures.id }).from(lectures).where(which).for('update');
  const rows = await tx
    .select({ key: lectureResources.fileKey })
    .from(lectureResources)
    .innerJoin(lectures, eq(lectureResources.lectureId, lectures.id))
    .where(which);
  return rows.map((row) => row.key);
}

/**
 * What the file at `key` downloads as, when `user` may download it now; 404 once it was removed,
 * 403 when their access has ended. For the local download route; the bucket's links carry it.
 */
export async function findResourceDownload(ctx: Context, key: string, user: UserRow): Promise<{ fileName: string; contentType: string }> {
  const [found] = await ctx.db
    .select({ fileName: lectureResources.fileName, mime: lectureResources.mime, isPreview: lectures.isPreview, courseStatus: courses.status })
    .from(lectureResources)
    .innerJoin(lectures, eq(lectureResources.lectureId, lectures.id))
    .innerJoin(courses, eq(courses.id, lectures.courseId))
    .where(eq(lectureResources.fileKey, key))
    .limit(1);
  if (!found) throw new AppError(404, answers.resourceNotFound);
  if (!mayDownloadFilesOf(user, found)) throw new AppError(403, answers.notAllowed);
  return { fileName: found.fileName, contentType: contentTypeOf(found.mime) };
}
