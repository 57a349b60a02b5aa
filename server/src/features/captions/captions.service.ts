import { and, asc, count, desc, eq, ne, type SQL } from 'drizzle-orm';
import { answers } from '@lms/contract/answers';
import { CAPTIONS_PER_LECTURE, type Caption, type CueInput } from '@lms/contract/captions';
import type { CourseStatus } from '@lms/contract/courses';
import { checkCues, cuePlainText, parseCaptions, toWebVtt, type Cue } from '@lms/contract/webvtt';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { captionCues, courses, lectureCaptions, lectures } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { UserRow } from '../auth/sessions.ts';
import type { LadderCaptions } from '../media/hls.routes.ts';
import { ANY_VIEWER } from '../media/signed-urls.ts';
import { saveCaptionFile } from '../media/storage.ts';
import { canWatchLectures } from '../users/users.service.ts';
import { captionFileUrl } from './caption-urls.ts';
import { searchConfigOf } from './search-config.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type CaptionRow = typeof lectureCaptions.$inferSelect;
interface LectureParams {
  courseId: string;
  lectureId: string;
}
interface CaptionParams extends LectureParams {
  captionId: string;
}

const HOUR_MS = 3600 * 1000;
/** Cues per INSERT: 1000 rows of six values stay far below PostgreSQL's 65,535 parameters, and 10,000 cues take ten statements. */
const CUE_BATCH = 1000;

/**
 * Who may read a lecture's captions: the lecture's own rule. A free preview's are for anyone its
 * video plays for, logged in or not (a preview without its captions would fail the visitor it is
 * meant to win); the rest for whoever may watch (administrators, active subscribers). A draft's
 * are for administrators alone, as the draft is.
 */
export function mayReadCaptionsOf(user: UserRow | null, lecture: { isPreview: boolean; courseStatus: CourseStatus }): boolean {
  if (lecture.courseStatus !== 'published') return user !== null && user.role === 'ADMIN' && !user.mustChangePassword;
  return lecture.isPreview || (user !== null && canWatchLectures(user));
}

const linkExpiry = (ctx: Context) => new Date(Date.now() + ctx.config.videoUrlHours * HOUR_MS);

/** Captions as the API lists them, with a link to their file made for `viewerId` until `expiresAt`. */
function toCaptionJson(ctx: Context, row: CaptionRow, viewerId: string, expiresAt = linkExpiry(ctx)): Caption {
  return {
    _id: row.id,
    language: row.language,
    label: row.label,
    isDefault: row.isDefault,
    cueCount: row.cueCount,
    version: row.version,
    url: captionFileUrl(ctx.config.sessionSecret, { captionId: row.id, version: row.version, viewerId, expiresAt }),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function findLecture(ctx: Context, { courseId, lectureId }: LectureParams) {
  const [lecture] = await ctx.db
    .select({ id: lectures.id, isPreview: lectures.isPreview, courseStatus: courses.status })
    .from(lectures)
    .innerJoin(courses, eq(courses.id, lectures.courseId))
    .where(and(eq(lectures.id, lectureId), eq(lectures.courseId, courseId)));
  if (!lecture) throw new AppError(404, answers.lectureNotFound);
  return lecture;
}

/** The lecture's row, locked against its deletion (which locks it FOR UPDATE) until the transaction ends; 404 once it is gone. */
async function lockLecture(tx: Tx, { courseId, lectureId }: LectureParams): Promise<string> {
  const [lecture] = await tx
    .select({ id: lectures.id })
    .from(lectures)
    .where(and(eq(lectures.id, lectureId), eq(lectures.courseId, courseId)))
    .for('no key update');
  if (!lecture) throw new AppError(404, answers.lectureNotFound);
  return lecture.id;
}

async function lockCaption(tx: Tx, lectureId: string, captionId: string): Promise<CaptionRow> {
  const [row] = await tx
    .select()
    .from(lectureCaptions)
    .where(and(eq(lectureCaptions.id, captionId), eq(lectureCaptions.lectureId, lectureId)))
    .for('update');
  if (!row) throw new AppError(404, answers.captionNotFound);
  return row;
}

async function captionCount(db: Db | Tx, lectureId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(lectureCaptions).where(eq(lectureCaptions.lectureId, lectureId));
  return row!.n;
}

function refusePastLimit(languages: number): void {
  if (languages >= CAPTIONS_PER_LECTURE) throw new AppError(409, answers.captionLimit(CAPTIONS_PER_LECTURE));
}

/**
 * A lecture's captions, the default first and then by label, with links made for `viewer` (a
 * visitor's, on a free preview, for ANY_VIEWER). 404 for a lecture not of the course, or of a draft
 * for anyone but an administrator; then 401 for a visitor, 403 for a learner who may not watch it.
 */
export async function listCaptions(ctx: Context, { viewer, ...params }: LectureParams & { viewer: UserRow | null }): Promise<Caption[]> {
  const lecture = await findLecture(ctx, params);
  if (!mayReadCaptionsOf(viewer, lecture)) {
    if (lecture.courseStatus !== 'published') throw new AppError(404, answers.lectureNotFound);
    if (!viewer) throw new AppError(401, answers.notLoggedIn);
    throw new AppError(403, answers.subscribeToCaptions);
  }
  const rows = await ctx.db
    .select()
    .from(lectureCaptions)
    .where(eq(lectureCaptions.lectureId, lecture.id))
    .orderBy(desc(lectureCaptions.isDefault), asc(lectureCaptions.label), asc(lectureCaptions.id));
  const expiresAt = linkExpiry(ctx);
  return rows.map((row) => toCaptionJson(ctx, row, viewer?.id ?? ANY_VIEWER, expiresAt));
}

/** Before an upload is read: the lecture is the course's and has room for another language (checked again when the captions are added). */
export async function checkRoomForCaptions(ctx: Context, params: LectureParams): Promise<void> {
  const lecture = await findLecture(ctx, params);
  refusePastLimit(await captionCount(ctx.db, lecture.id));
}

/**
 * The cues of an uploaded WebVTT or SRT file: UTF-8 text (checked strictly, not repaired), read
 * by the contract's one-pass reader. Anything broken is a 400 whose message names the line.
 */
export function readCaptionFile(bytes: Buffer): Cue[] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AppError(400, answers.captionNotUtf8);
  }
  const read = parseCaptions(text);
  if (!read.ok) throw new AppError(400, read.message);
  return read.cues;
}

/** Replaces the caption's cue rows (the search index) with `cues`, in batches. */
async function writeCues(tx: Tx, captionId: string, language: string, cues: readonly Cue[]): Promise<void> {
  await tx.delete(captionCues).where(eq(captionCues.captionId, captionId));
  const searchConfig = searchConfigOf(language);
  for (let from = 0; from < cues.length; from += CUE_BATCH) {
    await tx.insert(captionCues).values(
      cues.slice(from, from + CUE_BATCH).map((cue, index) => ({
        captionId,
        position: from + index,
        startMs: Math.round(cue.start * 1000),
        endMs: Math.round(cue.end * 1000),
        text: cuePlainText(cue.text),
        searchConfig,
      })),
    );
  }
}

/** Makes `captionId` the lecture's one default: the others are cleared first, as the unique index checks each statement. */
async function moveDefault(tx: Tx, lectureId: string, captionId: string): Promise<void> {
  await tx
    .update(lectureCaptions)
    .set({ isDefault: false })
    .where(and(eq(lectureCaptions.lectureId, lectureId), ne(lectureCaptions.id, captionId), eq(lectureCaptions.isDefault, true)));
  await tx.update(lectureCaptions).set({ isDefault: true }).where(eq(lectureCaptions.id, captionId));
}

/** Stores `cues` as a new WebVTT file and runs `write` with its key; when `write` fails, the file is removed again. */
async function withStoredFile<T>(ctx: Context, cues: readonly Cue[], write: (file: { key: string; bytes: number }) => Promise<T>): Promise<T> {
  const webVtt = toWebVtt(cues);
  const key = await saveCaptionFile(ctx.media, webVtt);
  try {
    return await write({ key, bytes: Buffer.byteLength(webVtt) });
  } catch (error) {
    await ctx.media.remove(key);
    throw error;
  }
}

/**
 * Adds captions in a language the lecture does not have yet (409 otherwise, and past
 * CAPTIONS_PER_LECTURE languages), answered as `viewer` (the admin) sees them. The file is stored
 * as WebVTT, then its row and cues are written in one transaction with the lecture locked: two
 * uploads at once cannot both take the last place or the same language, and a lecture deleted
 * meanwhile is found gone. A lecture's first captions are its default; `isDefault` moves it.
 */
export async function addCaptions(
  ctx: Context,
  {
    cues,
    language,
    label,
    isDefault,
    viewer,
    ...params
  }: LectureParams & { cues: readonly Cue[]; language: string; label: string; isDefault: boolean; viewer: UserRow },
): Promise<Caption> {
  const row = await withStoredFile(ctx, cues, (file) =>
    ctx.db.transaction(async (tx) => {
      const lectureId = await lockLecture(tx, params);
      const languages = await captionCount(tx, lectureId);
      refusePastLimit(languages);
      const [taken] = await tx
        .select({ id: lectureCaptions.id })
        .from(lectureCaptions)
        .where(and(eq(lectureCaptions.lectureId, lectureId), eq(lectureCaptions.language, language)));
      if (taken) throw new AppError(409, answers.captionLanguageTaken(language));
      const [created] = await tx
        .insert(lectureCaptions)
        .values({ lectureId, language, label, fileKey: file.key, bytes: file.bytes, cueCount: cues.length })
        .returning();
      if (isDefault || languages === 0) await moveDefault(tx, lectureId, created!.id);
      await writeCues(tx, created!.id, language, cues);
      return { ...created!, isDefault: isDefault || languages === 0 };
    }),
  );
  return toCaptionJson(ctx, row, viewer.id);
}

/**
 * A new version of a caption's file: stored, then the row (version + 1, new key) and its cues
 * written in one transaction, and only then the previous file removed, so a failure at any point
 * leaves the captions as they were and no file behind.
 */
async function saveNewVersion(
  ctx: Context,
  { cues, label, viewer, captionId, ...params }: CaptionParams & { cues: readonly Cue[]; label?: string; viewer: UserRow },
): Promise<Caption> {
  const { row, previousKey } = await withStoredFile(ctx, cues, (file) =>
    ctx.db.transaction(async (tx) => {
      const lectureId = await lockLecture(tx, params);
      const current = await lockCaption(tx, lectureId, captionId);
      const [updated] = await tx
        .update(lectureCaptions)
        .set({
          fileKey: file.key,
          bytes: file.bytes,
          cueCount: cues.length,
          version: current.version + 1,
          label: label ?? current.label,
          updatedAt: new Date(),
        })
        .where(eq(lectureCaptions.id, captionId))
        .returning();
      await writeCues(tx, captionId, current.language, cues);
      return { row: updated!, previousKey: current.fileKey };
    }),
  );
  await ctx.media.remove(previousKey);
  return toCaptionJson(ctx, row, viewer.id);
}

/** Replaces a caption's file with an uploaded one (and its label, when sent): a new version of the same language. */
export const replaceCaptions = (ctx: Context, options: CaptionParams & { cues: readonly Cue[]; label?: string; viewer: UserRow }) =>
  saveNewVersion(ctx, options);

/** The cue editor's save: the cues checked by the file's rules (400 naming the cue by its number), then stored as a new version. */
export async function saveCaptionCues(ctx: Context, { cues, ...options }: CaptionParams & { cues: readonly CueInput[]; viewer: UserRow }): Promise<Caption> {
  const checked = checkCues(cues);
  if (!checked.ok) throw new AppError(400, checked.message);
  return saveNewVersion(ctx, { ...options, cues: checked.cues });
}

/** Renames captions, or makes them the lecture's default (the previous default stops being one). */
export async function updateCaptions(
  ctx: Context,
  { captionId, label, isDefault, viewer, ...params }: CaptionParams & { label?: string; isDefault?: true; viewer: UserRow },
): Promise<Caption> {
  const row = await ctx.db.transaction(async (tx) => {
    const lectureId = await lockLecture(tx, params);
    await lockCaption(tx, lectureId, captionId);
    if (isDefault) await moveDefault(tx, lectureId, captionId);
    const [updated] = await tx
      .update(lectureCaptions)
      .set({ ...(label !== undefined && { label }), updatedAt: new Date() })
      .where(eq(lectureCaptions.id, captionId))
      .returning();
    return updated!;
  });
  return toCaptionJson(ctx, row, viewer.id);
}

/** Removes captions (their cues go by cascade), then their file. When they were the default, the first of the rest by label becomes it. */
export async function deleteCaptions(ctx: Context, { captionId, ...params }: CaptionParams): Promise<void> {
  const fileKey = await ctx.db.transaction(async (tx) => {
    const lectureId = await lockLecture(tx, params);
    const current = await lockCaption(tx, lectureId, captionId);
    await tx.delete(lectureCaptions).where(eq(lectureCaptions.id, captionId));
    if (current.isDefault) {
      const [next] = await tx
        .select({ id: lectureCaptions.id })
        .from(lectureCaptions)
        .where(eq(lectureCaptions.lectureId, lectureId))
        .orderBy(asc(lectureCaptions.label), asc(lectureCaptions.id))
        .limit(1);
      if (next) await moveDefault(tx, lectureId, next.id);
    }
    return current.fileKey;
  });
  await ctx.media.remove(fileKey);
}

/**
 * The caption files of the lectures `which` selects, read as those lectures are deleted (their
 * rows and cues go with them: foreign keys). The lectures are locked first, so captions being
 * added or replaced wait until the lecture is gone, and then find no lecture, rather than storing
 * a file this deletion would not know to remove.
 */
export async function captionKeysForDeletion(tx: Tx, which: SQL | undefined): Promise<string[]> {
  await tx.select({ id: lectures.id }).from(lectures).where(which).for('update');
  const rows = await tx
    .select({ key: lectureCaptions.fileKey })
    .from(lectureCaptions)
    .innerJoin(lectures, eq(lectureCaptions.lectureId, lectures.id))
    .where(which);
  return rows.map((row) => row.key);
}

/**
 * The stored file of a caption link, for the caption file route, once the link's signature and
 * expiry have been checked and, for a link bound to a viewer, the request's session found to be
 * theirs (`reader`). A link for ANY_VIEWER works while the lecture is a free preview of a
 * published course; a viewer's while they may still read the captions. 404 when the captions, or
 * that version of their file, are gone (the list gives the new link).
 *
 * No playback lease is asked for: caption text is a few kilobytes that the transcript shows beside
 * the player, not the video the lease protects, and its link is already bound to the viewer.
 */
export async function findCaptionFile(
  ctx: Context,
  { captionId, version, reader }: { captionId: string; version: number; reader: UserRow | typeof ANY_VIEWER },
): Promise<{ fileKey: string }> {
  const [found] = await ctx.db
    .select({ fileKey: lectureCaptions.fileKey, version: lectureCaptions.version, isPreview: lectures.isPreview, courseStatus: courses.status })
    .from(lectureCaptions)
    .innerJoin(lectures, eq(lectureCaptions.lectureId, lectures.id))
    .innerJoin(courses, eq(courses.id, lectures.courseId))
    .where(eq(lectureCaptions.id, captionId));
  if (!found || found.version !== version) throw new AppError(404, answers.captionNotFound);
  if (reader === ANY_VIEWER) {
    if (!found.isPreview || found.courseStatus !== 'published') throw new AppError(403, answers.captionLinkInvalid);
  } else if (!mayReadCaptionsOf(reader, found)) {
    throw new AppError(403, answers.notAllowed);
  }
  return { fileKey: found.fileKey };
}

/** The captions of the lecture whose ladder is the HLS folder `folderKey` (the default first, then by label). */
export async function findLadderCaptions(ctx: Context, folderKey: string): Promise<LadderCaptions> {
  const rows = await ctx.db
    .select({
      durationSeconds: lectures.durationSeconds,
      language: lectureCaptions.language,
      label: lectureCaptions.label,
      version: lectureCaptions.version,
      fileKey: lectureCaptions.fileKey,
    })
    .from(lectures)
    .leftJoin(lectureCaptions, eq(lectureCaptions.lectureId, lectures.id))
    .where(eq(lectures.hlsKey, folderKey))
    .orderBy(desc(lectureCaptions.isDefault), asc(lectureCaptions.label), asc(lectureCaptions.id));
  return {
    durationSeconds: rows[0]?.durationSeconds ?? null,
    tracks: rows.flatMap((row) => (row.language === null ? [] : [{ language: row.language, label: row.label!, version: row.version!, fileKey: row.fileKey! }])),
  };
}
