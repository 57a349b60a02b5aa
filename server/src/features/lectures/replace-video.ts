import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { answers } from '@lms/contract/answers';
import type { Lecture } from '@lms/contract/lectures';
import type { Context } from '../../context.ts';
import { courses, lectures } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { UserRow } from '../auth/sessions.ts';
import { queueVideoProcessing } from '../video/video-processing.ts';
import { toLectureJson, type LectureRow, type StoredVideo } from './lectures.service.ts';

/**
 * Replacing a lecture's video (decision 0028): the lecture keeps its id, place, title, preview
 * switch and its learners' progress; only what describes the video changes.
 *
 * - When the current video has its HLS ladder and this server processes videos, the new one is
 *   kept beside it (`replacementVideoKey`) and processed, while the current one plays; the run
 *   swaps it in when done (features/video/replacement.ts).
 * - Otherwise there is no ladder to keep playing (the current video is waiting, processing or
 *   failed), or nothing here could make one: the new video takes its place at once, plays as
 *   uploaded, and is processed as a new upload is.
 *
 * Either way the lecture gets a new run id, so a run still working on the lecture (its first
 * processing, or an earlier replacement's) stops at its next heartbeat and removes what it made.
 */
export async function replaceLectureVideo(
  ctx: Context,
  { courseId, lectureId, video, viewer }: { courseId: string; lectureId: string; video: StoredVideo; viewer: UserRow },
): Promise<Lecture> {
  const run = randomUUID();
  let replaced: { lecture: LectureRow; unused: (string | null)[] };
  try {
    replaced = await ctx.db.transaction(async (tx) => {
      // Locked: a run swapping in an earlier replacement, or another replace, waits for this one (or this for it).
      const [current] = await tx
        .select()
        .from(lectures)
        .where(and(eq(lectures.id, lectureId), eq(lectures.courseId, courseId)))
        .for('update');
      if (!current) throw new AppError(404, answers.lectureNotFound);
      const pipeline = { videoState: 'waiting' as const, processingRun: run, processingPercent: null, processingError: null, processingHeartbeatAt: null };
      const keepsPlaying = ctx.video.available && hasLadder(current);
      const [lecture] = await tx
        .update(lectures)
        .set(
          keepsPlaying
            ? { ...pipeline, replacementVideoKey: video.key, replacementVideoType: video.mime, replacementVideoBytes: video.bytes }
            : {
                ...pipeline,
                videoKey: video.key,
                videoType: video.mime,
                videoBytes: video.bytes,
                replacementVideoKey: null,
                replacementVideoType: null,
                replacementVideoBytes: null,
                hlsKey: null,
                posterKey: null,
                durationSeconds: null,
                videoWidth: null,
                videoHeight: null,
              },
        )
        .where(eq(lectures.id, lectureId))
        .returning();
      // The course page shows the lecture's length, which may change (the sitemap's lastmod).
      await tx.update(courses).set({ updatedAt: new Date() }).where(eq(courses.id, courseId));
      // A replacement not yet swapped in is superseded either way.
      const unused = keepsPlaying ? [current.replacementVideoKey] : [current.videoKey, current.hlsKey, current.posterKey, current.replacementVideoKey];
      return { lecture: lecture!, unused };
    });
  } catch (error) {
    await ctx.media.remove(video.key);
    throw error;
  }
  // No row names these any more: should removing one fail, or the process die first, the media sweep removes it.
  await Promise.all(replaced.unused.filter((key) => key !== null).map((key) => ctx.media.remove(key).catch(() => undefined)));
  // As after an upload: should this send fail, the lecture stays `waiting` and restartStalledVideos queues it.
  await queueVideoProcessing(ctx, { lectureId, run }).catch(() => undefined);
  return toLectureJson(ctx, replaced.lecture, viewer);
}

/** The current video's ladder is there to keep playing: ready, or ready with a replacement already on its way. */
const hasLadder = (lecture: LectureRow) => lecture.hlsKey !== null && (lecture.videoState === 'ready' || lecture.replacementVideoKey !== null);

/** Refuses an unknown lecture (or one of another course) before its new video is uploaded. */
export async function checkLectureExists(ctx: Context, courseId: string, lectureId: string): Promise<void> {
  const [found] = await ctx.db
    .select({ id: lectures.id })
    .from(lectures)
    .where(and(eq(lectures.id, lectureId), eq(lectures.courseId, courseId)));
  if (!found) throw new AppError(404, answers.lectureNotFound);
}
