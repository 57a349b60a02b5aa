import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, desc, eq, isNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Course } from '@lms/contract/courses';
import type { QuizSummary } from '@lms/contract/quizzes';
import {
  AddLectureSchema,
  type Curriculum,
  type CurriculumLecture,
  type Lecture,
  type Section,
  type UpdateLectureSchema,
  type VideoProcessing,
} from '@lms/contract/lectures';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import type { z } from 'zod';
import type { Context } from '../../context.ts';
import { courseSections, courses, lectures, quizVersions, quizzes } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import type { UserRow } from '../auth/sessions.ts';
import type { CataloguePage } from '../courses/catalogue-cache.ts';
import { courseById, courseColumns, findCourse, toCourseJson, type Audience, type CourseWithCount } from '../courses/courses.service.ts';
import { rankAfter } from '../courses/ranks.ts';
import { displayOrder, lectureSection, lockCourse } from './curriculum-order.ts';
import { LECTURE_MEDIA, lectureMediaKeys } from './lecture-media.ts';
import { hlsMasterUrl } from '../media/hls-urls.ts';
import { ANY_VIEWER } from '../media/signed-urls.ts';
import { isHlsFolderKey, saveLectureVideo } from '../media/storage.ts';
import { readHead } from '../media/upload.ts';
import { recountCourseProgress } from '../progress/progress.service.ts';
import { resourceKeysForDeletion } from '../resources/resources.service.ts';
import { captionKeysForDeletion } from '../captions/captions.service.ts';
import { currentVersion, quizSummaryColumns } from '../quizzes/authoring.service.ts';
import { canWatchLectures } from '../users/users.service.ts';
import { queueVideoProcessing, retryVideoProcessing } from '../video/video-processing.ts';
import type { PublishedVideo } from '../media/video-trust.ts';

export type LectureRow = typeof lectures.$inferSelect;
/** A video already in storage, not yet attached to a lecture. */
export interface StoredVideo {
  key: string;
  mime: string;
  bytes: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HOUR_MS = 3600 * 1000;

/** When a video URL made now for a viewer stops working. */
const viewerUrlExpiry = (ctx: Context) => new Date(Date.now() + ctx.config.videoUrlHours * HOUR_MS);

/**
 * When a preview URL made now stops working: VIDEO_URL_HOURS from now, rounded up to the hour,
 * so every visitor within the hour gets the same URL and browsers reuse the bytes they fetched.
 */
const previewUrlExpiry = (ctx: Context) => new Date(Math.ceil((Date.now() + ctx.config.videoUrlHours * HOUR_MS) / HOUR_MS) * HOUR_MS);

/** Touched by every lecture change: the course page changed, which the sitemap's `lastmod` reports. */
const touchCourse = (courseId: string) => ({ set: { updatedAt: new Date() }, where: eq(courses.id, courseId) });

/** What the course's pages show of a lecture: its columns as LectureRow names them. */
const listedLectureColumns = {
  id: lectures.id,
  sectionId: lectures.sectionId,
  title: lectures.title,
  description: lectures.description,
  videoKey: lectures.videoKey,
  durationSeconds: lectures.durationSeconds,
  isPreview: lectures.isPreview,
  videoState: lectures.videoState,
  processingPercent: lectures.processingPercent,
  processingError: lectures.processingError,
  replacementVideoKey: lectures.replacementVideoKey,
  hlsKey: lectures.hlsKey,
  posterKey: lectures.posterKey,
};
type ListedLecture = Pick<LectureRow, keyof typeof listedLectureColumns>;

/** `json_build_object` of `columns`, keyed by their names here (code's own names: no quote to escape). */
const jsonObject = (columns: Record<string, SQLWrapper>) =>
  sql`json_build_object(${sql.join(
    Object.entries(columns).map(([name, column]) => sql`${sql.raw(`'${name}'`)}, ${column}`),
    sql`, `,
  )})`;

/** A json array of the rows, in order; empty when there are none (json_agg alone gives null). */
const jsonRows = (object: SQL, order: SQL) => sql`coalesce(json_agg(${object} order by ${order}), '[]'::json)`;

/**
 * The course's sections (in order), lectures (in display order) and quizzes (oldest first:
 * curriculumItems keeps that order among quizzes sharing a place), each a json array beside the
 * course's columns: the course pages' read in one statement, where four cost the embedded
 * database four parses and plans on the server's thread. The outer course is spelled out in SQL:
 * a query of one table names its columns unqualified, which inside a subquery are the subquery's own.
 */
const courseContents = {
  sections: sql<Section[]>`(select ${jsonRows(jsonObject({ _id: courseSections.id, title: courseSections.title }), sql`${courseSections.rank}`)}
    from ${courseSections} where course_sections.course_id = courses.id)`,
  lectures: sql<ListedLecture[]>`(select ${jsonRows(jsonObject(listedLectureColumns), sql.join(displayOrder, sql`, `))}
    from ${lectures} left join ${courseSections} on ${lectureSection} where lectures.course_id = courses.id)`,
  quizzes: sql<QuizSummary[]>`(select ${jsonRows(jsonObject(quizSummaryColumns), sql`${quizzes.createdAt}, ${quizzes.id}`)}
    from ${quizzes} join ${quizVersions} on ${currentVersion} where quizzes.course_id = courses.id)`,
};

/** The course with its sections, lectures and quizzes (courseContents); a draft is not found unless the audience includes drafts. */
async function findCourseWithContents(ctx: Context, courseId: string, audience: Audience) {
  const [course] = await ctx.db
    .select({ ...courseColumns, ...courseContents })
    .from(courses)
    .where(courseById(courseId, audience));
  if (!course) throw new AppError(404, messages.courseNotFound);
  return course;
}

/**
 * A published course's contents, as every learner sees them, from the catalogue cache (emptied by
 * every change to courses, sections, lectures or quizzes; a processing percent, which changes none,
 * shows within CATALOGUE_FRESH_MS). Each request makes its viewer's URLs from them. Administrators
 * read the database: their lists hold drafts and follow the pipeline as it goes.
 */
const publishedContents = (ctx: Context, courseId: string) => ctx.catalogue.value(`contents of ${courseId}`, () => findCourseWithContents(ctx, courseId, {}));

/** Where the lecture's video is in the pipeline, as the admin sees it. */
const processingOf = (lecture: ListedLecture): VideoProcessing => ({
  state: lecture.videoState,
  percent: lecture.videoState === 'processing' ? (lecture.processingPercent ?? 0) : null,
  reason: lecture.videoState === 'failed' ? lecture.processingError : null,
});

/**
 * While a new video is on its way (features/lectures/replace-video.ts), the pipeline's columns
 * follow its run, and the video playing now is the one whose ladder is ready.
 */
const processingAndReplacementOf = (lecture: ListedLecture): Pick<Lecture, 'processing' | 'replacement'> =>
  lecture.replacementVideoKey
    ? { processing: { state: 'ready', percent: null, reason: null }, replacement: processingOf(lecture) }
    : { processing: processingOf(lecture), replacement: null };

/** The master playlist's URL for `viewerId` once the ladder is ready (it stays while a replacement is processed); null before. */
const hlsUrlOf = (ctx: Context, lecture: ListedLecture, viewerId: string, expiresAt: Date) =>
  hasReadyLadder(lecture) ? hlsMasterUrl(ctx.config.sessionSecret, { key: lecture.hlsKey!, viewerId, expiresAt }) : null;

/**
 * Whether the lecture's ladder plays: processed, kept playing while a replacement is processed,
 * or a first upload's ladder from its first stored rendition on (the pipeline sets `hlsKey` only
 * once a rendition and a master naming it are stored, and clears it if the run fails).
 */
const hasReadyLadder = (lecture: Pick<LectureRow, 'hlsKey'>) => lecture.hlsKey !== null;

const posterUrlOf = (ctx: Context, lecture: ListedLecture) => (lecture.posterKey ? ctx.media.publicUrl(lecture.posterKey) : null);

/**
 * A lecture as the spec's lecture list shows it, with video URLs for `viewer`. Once the ladder is
 * ready, a learner is given the ladder only: `secure_url` is its playlist too, and the upload
 * answers them 403 (features/lectures/viewer-access.ts). Administrators keep the original.
 */
export async function toLectureJson(ctx: Context, lecture: ListedLecture, viewer: UserRow, expiresAt = viewerUrlExpiry(ctx)): Promise<Lecture> {
  const hls = hlsUrlOf(ctx, lecture, viewer.id, expiresAt);
  return {
    _id: lecture.id,
    sectionId: lecture.sectionId,
    title: lecture.title,
    description: lecture.description,
    secure_url: hls && viewer.role !== 'ADMIN' ? hls : await ctx.media.privateUrl({ key: lecture.videoKey, viewerId: viewer.id, expiresAt }),
    duration: lecture.durationSeconds,
    preview: lecture.isPreview,
    ...processingAndReplacementOf(lecture),
    poster_url: posterUrlOf(ctx, lecture),
    hls_url: hls,
  };
}

/** The lectures, in their order, each with video URLs made for `viewer`. */
function lecturesSeenBy(ctx: Context, rows: ListedLecture[], viewer: UserRow): Promise<Lecture[]> {
  const expiresAt = viewerUrlExpiry(ctx);
  return Promise.all(rows.map((lecture) => toLectureJson(ctx, lecture, viewer, expiresAt)));
}

/**
 * The public curriculum of a course: the same for every visitor, so the route may cache it.
 * No video URL, except for free previews, whose URL anyone may play (ANY_VIEWER).
 * An unknown or malformed id is one answer: the course is not found.
 */
export async function getCurriculum(ctx: Context, courseId: string, audience: Audience = {}): Promise<Curriculum> {
  if (!UUID.test(courseId)) throw new AppError(404, messages.courseNotFound);
  // Its quizzes too, for anyone: their summaries carry no question, so no answer.
  const { sections, lectures: rows, quizzes, ...course } = await findCourseWithContents(ctx, courseId, audience);
  const expiresAt = previewUrlExpiry(ctx);
  const curriculum = await Promise.all(
    rows.map(async (lecture): Promise<CurriculumLecture> => {
      const json: CurriculumLecture = {
        _id: lecture.id,
        sectionId: lecture.sectionId,
        title: lecture.title,
        description: lecture.description,
        duration: lecture.durationSeconds,
        preview: lecture.isPreview,
      };
      if (!lecture.isPreview) return json;
      const hls = hlsUrlOf(ctx, lecture, ANY_VIEWER, expiresAt);
      const poster = posterUrlOf(ctx, lecture);
      return {
        ...json,
        // As for learners, a preview's upload is not given out once its ladder plays.
        secure_url: hls ?? (await ctx.media.privateUrl({ key: lecture.videoKey, viewerId: ANY_VIEWER, expiresAt })),
        ...(hls && { hls_url: hls }),
        ...(poster && { poster_url: poster }),
      };
    }),
  );
  const known = rows.map((lecture) => lecture.durationSeconds).filter((seconds) => seconds !== null);
  return {
    success: true,
    message: answers.curriculumFetched,
    course: toCourseJson(ctx, { ...course, numbersOfLectures: rows.length }),
    sections,
    lectures: curriculum,
    quizzes,
    lectureCount: rows.length,
    totalDuration: known.length > 0 ? known.reduce((sum, seconds) => sum + seconds, 0) : null,
  };
}

/** The video at `key` (the upload, or the HLS folder `hls/<hex>`), if it belongs to a lecture of a published course. */
export async function findPublishedVideo(ctx: Context, key: string): Promise<PublishedVideo | undefined> {
  const column = isHlsFolderKey(key) ? lectures.hlsKey : lectures.videoKey;
  const [found] = await ctx.db
    .select({ preview: lectures.isPreview, videoState: lectures.videoState, hlsKey: lectures.hlsKey, replacementVideoKey: lectures.replacementVideoKey })
    .from(lectures)
    .innerJoin(courses, eq(courses.id, lectures.courseId))
    .where(and(eq(column, key), eq(courses.status, 'published')))
    .limit(1);
  return found && { preview: found.preview, ladderReady: hasReadyLadder(found) };
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

/**
 * Adds a lecture from the add-lecture form: its fields (title, description, preview) and the
 * video already stored. The video is removed again if the fields are refused or the write fails.
 */
export async function addLecture(ctx: Context, courseId: string, fields: unknown, video: StoredVideo): Promise<LectureRow> {
  let input;
  try {
    input = parseInput(AddLectureSchema, fields);
  } catch (error) {
    await ctx.media.remove(video.key);
    throw error;
  }
  return createLecture(ctx, courseId, { title: input.title, description: input.description, isPreview: input.preview }, video);
}

export async function createLecture(
  ctx: Context,
  courseId: string,
  input: { title: string; description: string; isPreview?: boolean },
  video: StoredVideo,
): Promise<LectureRow> {
  const run = randomUUID();
  let lecture: LectureRow;
  try {
    lecture = await ctx.db.transaction(async (tx) => {
      // The course's row is locked while the lecture takes the last place: adds and moves in one course take turns.
      const [course] = await tx.select({ id: courses.id }).from(courses).where(eq(courses.id, courseId)).for('update');
      if (!course) throw new AppError(404, messages.courseNotFound);
      const [last] = await tx
        .select({ rank: lectures.rank })
        .from(lectures)
        .where(and(eq(lectures.courseId, courseId), isNull(lectures.sectionId)))
        .orderBy(desc(lectures.rank))
        .limit(1);
      const [created] = await tx
        .insert(lectures)
        .values({
          courseId,
          ...input,
          rank: rankAfter(last?.rank ?? null),
          videoKey: video.key,
          videoType: video.mime,
          videoBytes: video.bytes,
          processingRun: run,
        })
        .returning();
      const touch = touchCourse(courseId);
      await tx.update(courses).set(touch.set).where(touch.where);
      return created!;
    });
  } catch (error) {
    await ctx.media.remove(video.key);
    // The course was deleted while its lecture was uploading.
    if ((error as { cause?: { code?: string } }).cause?.code === '23503') throw new AppError(404, messages.courseNotFound);
    throw error;
  }
  // The lecture plays as uploaded from now on. Should this send fail, the lecture stays `waiting`
  // and restartStalledVideos queues it within a minute: the upload is never lost for it.
  await queueVideoProcessing(ctx, { lectureId: lecture.id, run }).catch(() => undefined);
  return lecture;
}

/**
 * Changes a lecture of the course in place: any of its title, description and whether it is a
 * free preview (anyone may watch it, or no longer); answers it as `viewer` sees it.
 */
export async function updateLecture(
  ctx: Context,
  { courseId, lectureId, change, viewer }: { courseId: string; lectureId: string; change: z.output<typeof UpdateLectureSchema>; viewer: UserRow },
): Promise<Lecture> {
  const lecture = await ctx.db.transaction(async (tx) => {
    // A lecture of an unknown course is not found either.
    await lockCourse(tx, courseId, answers.lectureNotFound);
    const [updated] = await tx
      .update(lectures)
      .set({ title: change.title, description: change.description, isPreview: change.preview })
      .where(and(eq(lectures.id, lectureId), eq(lectures.courseId, courseId)))
      .returning();
    if (!updated) throw new AppError(404, answers.lectureNotFound);
    return updated;
  });
  return toLectureJson(ctx, lecture, viewer);
}

/**
 * Removes the lecture and then its media. A processing run still working on it finds the row
 * gone when it next reports, stops, and removes what it made (features/video).
 */
export async function deleteLecture(ctx: Context, courseId: string, lectureId: string): Promise<void> {
  const keys = await ctx.db.transaction(async (tx) => {
    // The course first, as every write to its lectures locks it (curriculum-order.ts).
    const touch = touchCourse(courseId);
    await tx.update(courses).set(touch.set).where(touch.where);
    // Its attached files and captions go with it (foreign keys); their stored copies are removed below.
    const which = and(eq(lectures.id, lectureId), eq(lectures.courseId, courseId));
    const resourceKeys = await resourceKeysForDeletion(tx, which);
    const captionKeys = await captionKeysForDeletion(tx, which);
    const [row] = await tx
      .delete(lectures)
      .where(and(eq(lectures.id, lectureId), eq(lectures.courseId, courseId)))
      .returning(LECTURE_MEDIA);
    if (!row) throw new AppError(404, answers.lectureNotFound);
    // Its progress went with it (foreign key); the learners' course figures follow.
    await recountCourseProgress(tx, courseId);
    return [...lectureMediaKeys(row), ...resourceKeys, ...captionKeys];
  });
  await Promise.all(keys.map((key) => ctx.media.remove(key)));
}

/** The public curriculum from this instance's cache: the same for every visitor. */
export const cachedCurriculum = (ctx: Context, courseId: string): Promise<CataloguePage> =>
  ctx.catalogue.page(`curriculum:${courseId}`, () => getCurriculum(ctx, courseId));

/**
 * A course, its sections, its lectures with video URLs for `viewer` and its quizzes: active
 * subscribers and administrators only (404 before 403; drafts for administrators alone).
 */
export async function courseLectures(
  ctx: Context,
  courseId: string,
  viewer: UserRow,
): Promise<{ course: Course; sections: Section[]; lectures: Lecture[]; quizzes: QuizSummary[] }> {
  const audience = { includeDrafts: viewer.role === 'ADMIN' };
  if (!canWatchLectures(viewer)) {
    await findCourse(ctx, courseId, audience);
    throw new AppError(403, answers.subscribeToWatch);
  }
  const contents = audience.includeDrafts ? await findCourseWithContents(ctx, courseId, audience) : await publishedContents(ctx, courseId);
  const { sections, lectures: rows, quizzes, ...course } = contents;
  return { course: toCourseJson(ctx, course), sections, lectures: await lecturesSeenBy(ctx, rows, viewer), quizzes };
}

/** Adds the lecture (see addLecture) and answers the course with every lecture, as `viewer` sees them. */
export async function addLectureToCourse(
  ctx: Context,
  { course, fields, video, viewer }: { course: CourseWithCount; fields: unknown; video: StoredVideo; viewer: UserRow },
): Promise<Course & { lectures: Lecture[] }> {
  await addLecture(ctx, course.id, fields, video);
  return courseWithLectures(ctx, course.id, viewer);
}

/** Deletes the lecture (see deleteLecture) and answers the course with the lectures left, as `viewer` sees them. */
export async function deleteLectureOfCourse(
  ctx: Context,
  { courseId, lectureId, viewer }: { courseId: string; lectureId: string; viewer: UserRow },
): Promise<Course & { lectures: Lecture[] }> {
  await deleteLecture(ctx, courseId, lectureId);
  return courseWithLectures(ctx, courseId, viewer);
}

/** The course as it stands after a change of its lectures, with every lecture as `viewer` sees them. */
async function courseWithLectures(ctx: Context, courseId: string, viewer: UserRow): Promise<Course & { lectures: Lecture[] }> {
  const { lectures: rows, ...course } = await findCourseWithContents(ctx, courseId, { includeDrafts: true });
  return { ...toCourseJson(ctx, course), lectures: await lecturesSeenBy(ctx, rows, viewer) };
}

/** Processes a lecture's video again after its processing failed; answers the lecture as `viewer` sees it. */
export async function retryLectureProcessing(
  ctx: Context,
  { courseId, lectureId, viewer }: { courseId: string; lectureId: string; viewer: UserRow },
): Promise<Lecture> {
  return toLectureJson(ctx, await retryVideoProcessing(ctx, courseId, lectureId), viewer);
}
