import { and, eq } from 'drizzle-orm';
import type { Context } from '../../context.ts';
import { lectures } from '../../db/schema.ts';
import { LECTURE_MEDIA } from '../lectures/lecture-media.ts';
import { clampProgressToDuration } from '../progress/progress.service.ts';
import type { ProbedVideo } from './probe.ts';

/**
 * A replacement's run (decision 0028) works on `replacementVideoKey` while the lecture's current
 * video, ladder and poster keep playing; the pipeline's columns (state, percent, run, heartbeat)
 * follow the replacement meanwhile. When its ladder is stored, this puts the new video in the
 * current one's place in one transaction, learners' places clamped to the new length, and then
 * removes the current video's files. Answers false when the run no longer holds the lecture (a
 * newer replacement, or the lecture deleted): the caller removes what it made.
 */
export async function swapInReplacement(
  ctx: Context,
  { lectureId, run, replacing }: { lectureId: string; run: string; replacing: string },
  made: { hlsKey: string; posterKey: string; video: ProbedVideo },
): Promise<boolean> {
  const previous = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ ...LECTURE_MEDIA, replacementVideoType: lectures.replacementVideoType, replacementVideoBytes: lectures.replacementVideoBytes })
      .from(lectures)
      .where(and(eq(lectures.id, lectureId), eq(lectures.processingRun, run)))
      .for('update');
    if (!row || row.replacementVideoKey !== replacing) return null;
    await tx
      .update(lectures)
      .set({
        videoKey: replacing,
        videoType: row.replacementVideoType!,
        videoBytes: row.replacementVideoBytes!,
        replacementVideoKey: null,
        replacementVideoType: null,
        replacementVideoBytes: null,
        hlsKey: made.hlsKey,
        posterKey: made.posterKey,
        durationSeconds: made.video.durationSeconds,
        videoWidth: made.video.width,
        videoHeight: made.video.height,
        videoState: 'ready',
        processingPercent: 100,
        processingError: null,
        processingHeartbeatAt: null,
      })
      .where(eq(lectures.id, lectureId));
    await clampProgressToDuration(tx, lectureId, made.video.durationSeconds);
    return row;
  });
  if (!previous) return false;
  // No row names these any more: a crash before they are gone leaves them to the media sweep.
  const replaced = [previous.videoKey, previous.hlsKey, previous.posterKey].filter((key) => key !== null);
  await Promise.all(replaced.map((key) => ctx.media.remove(key).catch(() => undefined)));
  return true;
}
