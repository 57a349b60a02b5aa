import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { answers } from '@lms/contract/answers';
import type { Context } from '../../context.ts';
import { lectures } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Jobs } from '../../jobs.ts';
import { MASTER_PLAYLIST } from '../media/hls-urls.ts';
import { hlsFileKey, savePoster, videoRunKeys } from '../media/storage.ts';
import { clampProgressToDuration } from '../progress/progress.service.ts';
import { describeFfmpeg, ffmpegWarning, type VideoTools } from './ffmpeg.ts';
import { ladderFor, ladderRuns, masterPlaylist, transcodeToHls, type Rendition, type TranscodedRendition } from './hls-transcode.ts';
import { grabFrame, probeVideo, UnreadableVideo, type ProbedVideo } from './probe.ts';
import { swapInReplacement } from './replacement.ts';

/**
 * The video pipeline (decision 0014): after an upload, a job on the queue probes the video (its
 * duration and size go to the lecture at once), then transcodes the HLS ladder in a work folder,
 * its lowest step first (decision 0036): once that is stored with a master playlist naming it,
 * the lecture plays it (a poster frame is cut then), and the master grows as the other steps are
 * stored; the lecture is marked ready when the whole ladder is there.
 *
 * A lecture is held by one run at a time: `processingRun` is the id of the job that may work on
 * it (the job is sent with that id, so sending it twice queues it once). A run writes a heartbeat
 * with its progress every few seconds; one silent for longer than the stall limit died with its
 * process (kill -9, a lost machine), and `restartStalledVideos` hands the lecture to a new run.
 * A run that finds the lecture gone (deleted) or held by another run stops and removes what it made.
 * A run that fails or stops lets go of the early ladder first (the MP4 plays again), then removes it.
 * A lecture with a replacement on its way (`replacementVideoKey`) is processed from that file,
 * and swapped in when its whole ladder is stored (replacement.ts): nothing of it plays before.
 */
export type VideoProcessingJob = Jobs['video-processing'];

const HEARTBEAT_MS = 3000;
const POSTER_MAX_WIDTH = 1280;
const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';
const SEGMENT_TYPE = 'video/mp2t';

/** Where ffmpeg writes a run's files before they are stored: private to the server, under DATA_DIR. */
export const workRoot = (dataDir: string) => path.join(dataDir, 'work');

/** Queues the first processing of a lecture just added; `run` is the one createLecture stored. */
export async function queueVideoProcessing(ctx: Pick<Context, 'jobs'>, job: VideoProcessingJob): Promise<void> {
  await ctx.jobs.send('video-processing', job, { id: job.run });
}

/**
 * Processes the lecture's video, if this run still holds it. Throws on a failure worth retrying
 * (the queue retries with backoff); on the last try, or for a file that is no video, the lecture
 * is marked failed with the reason.
 */
export async function processLectureVideo(
  ctx: Context,
  tools: VideoTools,
  job: VideoProcessingJob,
  { finalAttempt, log, signal }: { finalAttempt: boolean; log: FastifyBaseLogger; signal?: AbortSignal },
): Promise<void> {
  const lecture = await claim(ctx, job);
  if (!lecture) return;
  const replacing = lecture.replacementVideoKey;
  const made: string[] = [];
  const workDir = path.join(workRoot(ctx.config.dataDir), `video-${job.run}`);
  const stop = new AbortController();
  const abort = () => stop.abort(new Error('the server is stopping'));
  signal?.addEventListener('abort', abort, { once: true });
  // Seconds from the claim to each stage's end, for the log: where a ladder's time goes.
  const claimed = performance.now();
  const timings: Record<string, number> = {};
  const mark = (stage: string) => (timings[stage] = Math.round(performance.now() - claimed) / 1000);
  try {
    await fs.mkdir(workDir, { recursive: true, mode: 0o700 });
    const source = await localCopy(ctx, replacing ?? lecture.videoKey, workDir);
    const video = await probeVideo(tools, source, stop.signal);
    mark('probed');
    // Durations show on the course page as soon as they are known (the catalogue hears the change);
    // a replacement's once it has taken the current video's place.
    if (replacing) await report(ctx, job, { processingPercent: 0 });
    else await recordMeasures(ctx, job, video);

    // Only finished renditions are stored: a process killed during a transcode leaves its work
    // folder, and what it stored before is named by its run's keys (removeOrphanWorkFolders).
    const { hlsKey, posterKey } = videoRunKeys(job.run);
    made.push(hlsKey, posterKey);
    mark('measured');
    const poster = await transcodeAndStore(ctx, tools, { job, source, video, workDir, publish: !replacing, signal: stop.signal, mark });
    // Everything is stored: the scratch folder goes before the lecture says ready, so ready means no disk left in use.
    await fs.rm(workDir, { recursive: true, force: true });

    const done = replacing
      ? await swapInReplacement(ctx, { ...job, replacing }, { hlsKey, posterKey: poster, video })
      : await markReady(ctx, job, { hlsKey, posterKey: poster });
    if (!done) throw new LostLecture();
    made.length = 0;
    mark('ready');
    log.info({ lectureId: job.lectureId, seconds: video.durationSeconds, height: video.height, timings }, 'lecture video processed');
  } catch (error) {
    if (error instanceof LostLecture) {
      await removeAll(ctx, made);
      return void log.info({ lectureId: job.lectureId }, 'lecture deleted or taken over while processing; its files are removed');
    }
    // The row lets go of the ladder it may already play before its files go: the MP4 plays meanwhile.
    if (error instanceof UnreadableVideo) {
      await markFailed(ctx, job, answers.videoUnreadable(error.detail));
      return removeAll(ctx, made);
    }
    if (signal?.aborted) {
      // Shutting down: the next try (after the queue's retry delay) starts it again.
      await release(ctx, job);
      await removeAll(ctx, made);
      throw error;
    }
    if (finalAttempt) await markFailed(ctx, job, answers.videoTranscodeFailed((error as Error).message));
    else await release(ctx, job);
    await removeAll(ctx, made);
    throw error;
  } finally {
    signal?.removeEventListener('abort', abort);
    await fs.rm(workDir, { recursive: true, force: true });
  }
}

const removeAll = async (ctx: Context, keys: string[]) => void (await Promise.all(keys.map((key) => ctx.media.remove(key).catch(() => undefined))));

/** The run's lost its lecture: deleted, or handed to another run after a stall. */
class LostLecture extends Error {}

/**
 * Takes the lecture for this run: it must name the run, be waiting or processing, and have no
 * fresh heartbeat (another worker holding the same job id cannot happen, but a stalled run's
 * heartbeat may still be young).
 */
async function claim(ctx: Context, job: VideoProcessingJob) {
  const stalled = new Date(Date.now() - ctx.config.video.stallSeconds * 1000);
  const [lecture] = await ctx.db
    .update(lectures)
    .set({ videoState: 'processing', processingPercent: 0, processingError: null, processingHeartbeatAt: new Date() })
    .where(
      and(
        eq(lectures.id, job.lectureId),
        eq(lectures.processingRun, job.run),
        inArray(lectures.videoState, ['waiting', 'processing']),
        or(isNull(lectures.processingHeartbeatAt), lt(lectures.processingHeartbeatAt, stalled)),
      ),
    )
    .returning();
  return lecture;
}

/** Writes the run's heartbeat (and whatever else changed); LostLecture when the lecture is no longer this run's. */
async function report(ctx: Context, job: VideoProcessingJob, changes: Partial<typeof lectures.$inferInsert>): Promise<void> {
  const [held] = await ctx.db
    .update(lectures)
    .set({ ...changes, processingHeartbeatAt: new Date() })
    .where(and(eq(lectures.id, job.lectureId), eq(lectures.processingRun, job.run)))
    .returning({ id: lectures.id });
  if (!held) throw new LostLecture();
}

/** The video's length and size, and no learner's place past its end (the lecture may have had a longer video before). */
async function recordMeasures(ctx: Context, job: VideoProcessingJob, video: ProbedVideo): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [held] = await tx
      .update(lectures)
      .set({
        durationSeconds: video.durationSeconds,
        videoWidth: video.width,
        videoHeight: video.height,
        processingPercent: 0,
        processingHeartbeatAt: new Date(),
      })
      .where(and(eq(lectures.id, job.lectureId), eq(lectures.processingRun, job.run)))
      .returning({ id: lectures.id });
    if (!held) throw new LostLecture();
    await clampProgressToDuration(tx, job.lectureId, video.durationSeconds);
  });
}

async function markReady(ctx: Context, job: VideoProcessingJob, made: { hlsKey: string; posterKey: string }): Promise<boolean> {
  const [done] = await ctx.db
    .update(lectures)
    .set({ videoState: 'ready', processingPercent: 100, processingError: null, processingHeartbeatAt: null, ...made })
    .where(and(eq(lectures.id, job.lectureId), eq(lectures.processingRun, job.run)))
    .returning({ id: lectures.id });
  return done !== undefined;
}

/** Lets the next try of this job claim the lecture at once. */
async function release(ctx: Context, job: VideoProcessingJob): Promise<void> {
  await ctx.db
    .update(lectures)
    .set({ processingHeartbeatAt: null, processingPercent: 0, ...withoutRunOutputs(job.run) })
    .where(and(eq(lectures.id, job.lectureId), eq(lectures.processingRun, job.run)));
}

/** The ladder and poster columns, let go of where they name what `run` made (a first upload's early ladder); others' are kept. */
function withoutRunOutputs(run: string) {
  const { hlsKey, posterKey } = videoRunKeys(run);
  return {
    hlsKey: sql<string | null>`case when ${lectures.hlsKey} = ${hlsKey} then null else ${lectures.hlsKey} end`,
    posterKey: sql<string | null>`case when ${lectures.posterKey} = ${posterKey} then null else ${lectures.posterKey} end`,
  };
}

async function markFailed(ctx: Context, job: VideoProcessingJob, reason: string): Promise<void> {
  await ctx.db
    .update(lectures)
    .set({ videoState: 'failed', processingError: reason, processingPercent: null, processingHeartbeatAt: null, ...withoutRunOutputs(job.run) })
    .where(and(eq(lectures.id, job.lectureId), eq(lectures.processingRun, job.run)));
}

/** The upload as a file ffmpeg can read: in place on local disk, downloaded into the work folder from S3. */
async function localCopy(ctx: Context, key: string, workDir: string): Promise<string> {
  const local = ctx.media.localFile(key);
  if (local) return local;
  const file = path.join(workDir, `source${path.extname(key)}`);
  await pipeline(ctx.media.read(key), createWriteStream(file, { mode: 0o600 }));
  return file;
}

/** A frame a tenth of the way in (past a black opening), at most 5 s, as a stored WebP. */
async function posterOf(ctx: Context, tools: VideoTools, job: VideoProcessingJob, source: string, video: ProbedVideo, signal: AbortSignal): Promise<string> {
  const png = await grabFrame(tools, source, Math.min(5, video.durationSeconds / 10), POSTER_MAX_WIDTH, signal);
  const { default: sharp } = await import('sharp');
  return savePoster(ctx.media, await sharp(png).webp({ quality: 80 }).toBuffer(), videoRunKeys(job.run).posterKey);
}

/**
 * Transcodes the ladder in runs (ladderRuns: the lowest step alone, then the rest) and stores
 * each run's renditions under the run's HLS folder key as they land, with a master playlist that
 * names only those stored. With `publish` (a first upload), the lecture plays the ladder from its
 * first stored rendition: `hlsKey` is set then, the poster's key once it is cut, and the state
 * stays processing (with its percent) until the whole ladder is there. A replacement publishes
 * nothing: it is swapped in whole. Answers the poster's key.
 */
async function transcodeAndStore(
  ctx: Context,
  tools: VideoTools,
  {
    job,
    source,
    video,
    workDir,
    publish,
    signal,
    mark,
  }: {
    job: VideoProcessingJob;
    source: string;
    video: ProbedVideo;
    workDir: string;
    publish: boolean;
    signal: AbortSignal;
    /** Notes the time a stage ended, by its name. */
    mark: (stage: string) => void;
  },
): Promise<string> {
  const { hlsKey } = videoRunKeys(job.run);
  const runs = ladderRuns(ladderFor(video.height));
  // Work grows with the pixels made: 1080p is nine times 360p.
  const weightOf = (steps: Rendition[]) => steps.reduce((sum, step) => sum + step.height * step.height, 0);
  const total = runs.reduce((sum, run) => sum + weightOf(run.renditions), 0);
  let doneWeight = 0;
  let share = 0;
  let lost: unknown;
  const controller = new AbortController();
  signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  // One heartbeat write every HEARTBEAT_MS for the whole ladder, with the percent done.
  const percent = () => Math.min(99, Math.floor(((doneWeight + share) / total) * 100));
  const heartbeat = setInterval(() => {
    report(ctx, job, { processingPercent: percent() }).catch((error: unknown) => {
      // Deleted or taken over: stop ffmpeg now rather than finish work nobody wants.
      lost = error;
      controller.abort(error);
    });
  }, HEARTBEAT_MS);
  const stored: TranscodedRendition[] = [];
  let poster: string | undefined;
  try {
    for (const [number, run] of runs.entries()) {
      const outDir = path.join(workDir, `hls-${number}`);
      await fs.mkdir(outDir);
      const weight = weightOf(run.renditions);
      const made = await transcodeToHls(tools, {
        file: source,
        outDir,
        video,
        renditions: run.renditions,
        firstIndex: run.firstIndex,
        onProgress: (done) => (share = done * weight),
        signal: controller.signal,
      });
      if (lost) throw lost;
      mark(`run ${number} transcoded`);
      for (const rendition of made) {
        // Moved, not copied, on local disk: segments never pass through the event loop.
        for (const name of [...rendition.segments, rendition.playlist]) {
          const type = name.endsWith('.m3u8') ? PLAYLIST_TYPE : SEGMENT_TYPE;
          await ctx.media.moveIn(hlsFileKey(hlsKey, name), path.join(outDir, name), type);
        }
        stored.push(rendition);
      }
      await ctx.media.put(hlsFileKey(hlsKey, MASTER_PLAYLIST), Buffer.from(masterPlaylist(stored)), PLAYLIST_TYPE);
      await fs.rm(outDir, { recursive: true, force: true });
      doneWeight += weight;
      share = 0;
      mark(`run ${number} stored`);
      if (number === 0) {
        if (publish) await report(ctx, job, { hlsKey, processingPercent: percent() });
        mark('playable');
        poster = await posterOf(ctx, tools, job, source, video, controller.signal);
        if (publish) await report(ctx, job, { posterKey: poster });
        mark('poster');
      }
    }
  } catch (error) {
    throw lost ?? error;
  } finally {
    clearInterval(heartbeat);
  }
  if (!poster) throw new Error('the video has no ladder to make');
  return poster;
}

/**
 * Hands every lecture whose processing stalled (its run silent past the stall limit) to a new
 * run, queues again each lecture still waiting (the job of its run is queued once, however
 * often this asks), and removes the work folders dead runs left. Runs at start and every minute.
 */
export async function restartStalledVideos(ctx: Context, { log }: { log: FastifyBaseLogger }): Promise<void> {
  const stalled = new Date(Date.now() - ctx.config.video.stallSeconds * 1000);
  const handedOver = await ctx.db
    .update(lectures)
    .set({
      processingRun: sql`gen_random_uuid()`,
      processingHeartbeatAt: null,
      processingPercent: 0,
      // A first upload's early ladder and poster were the dead run's: its files go with its work folder, and the MP4 plays until the new run's ladder.
      hlsKey: sql`case when ${lectures.replacementVideoKey} is null then null else ${lectures.hlsKey} end`,
      posterKey: sql`case when ${lectures.replacementVideoKey} is null then null else ${lectures.posterKey} end`,
    })
    .where(and(eq(lectures.videoState, 'processing'), lt(lectures.processingHeartbeatAt, stalled)))
    .returning({ lectureId: lectures.id, run: lectures.processingRun });
  if (handedOver.length > 0) log.warn({ lectures: handedOver.map((row) => row.lectureId) }, 'video processing stalled; starting it again');
  const waiting = await ctx.db
    .select({ lectureId: lectures.id, run: lectures.processingRun })
    .from(lectures)
    .where(or(eq(lectures.videoState, 'waiting'), and(eq(lectures.videoState, 'processing'), isNull(lectures.processingHeartbeatAt))));
  for (const { lectureId, run } of [...handedOver, ...waiting]) {
    if (run) await queueVideoProcessing(ctx, { lectureId, run });
  }
  const removed = await removeOrphanWorkFolders(ctx);
  if (removed > 0) log.info({ count: removed }, 'removed work folders of video processing runs that died');
}

/** The admin's Retry: a failed lecture goes back to waiting, with a new run queued. */
export async function retryVideoProcessing(ctx: Context, courseId: string, lectureId: string) {
  const run = randomUUID();
  const [lecture] = await ctx.db
    .update(lectures)
    .set({ videoState: 'waiting', processingRun: run, processingError: null, processingPercent: null, processingHeartbeatAt: null })
    .where(and(eq(lectures.id, lectureId), eq(lectures.courseId, courseId), eq(lectures.videoState, 'failed')))
    .returning();
  if (!lecture) {
    const [exists] = await ctx.db
      .select({ id: lectures.id })
      .from(lectures)
      .where(and(eq(lectures.id, lectureId), eq(lectures.courseId, courseId)));
    throw exists ? new AppError(409, answers.videoRetryNotFailed) : new AppError(404, answers.lectureNotFound);
  }
  await queueVideoProcessing(ctx, { lectureId, run });
  return lecture;
}

/**
 * Removes work folders of runs that no longer hold their lecture: what a killed process left
 * (its lecture has since been handed to a new run, or finished), or a run of a deleted lecture.
 * A run holds its lecture (processing, its id in processingRun) before it makes its folder, and
 * removes the folder last; so a run killed while storing its ladder or poster still has a folder,
 * and those files (under the run's keys) go with it unless its lecture was marked ready with them.
 */
export async function removeOrphanWorkFolders(ctx: Pick<Context, 'db' | 'config' | 'media'>): Promise<number> {
  const root = workRoot(ctx.config.dataDir);
  const runs = new Map<string, string>();
  for (const entry of await fs.readdir(root, { withFileTypes: true }).catch(() => [])) {
    const run = /^video-([0-9a-f-]{36})$/.exec(entry.name)?.[1];
    if (entry.isDirectory() && run) runs.set(run, path.join(root, entry.name));
  }
  if (runs.size === 0) return 0;
  const held = await ctx.db
    .select({ run: lectures.processingRun })
    .from(lectures)
    .where(and(eq(lectures.videoState, 'processing'), inArray(lectures.processingRun, [...runs.keys()])));
  for (const { run } of held) if (run) runs.delete(run);
  if (runs.size === 0) return 0;
  const outputs = [...runs.keys()].flatMap((run) => Object.values(videoRunKeys(run)));
  const kept = await ctx.db
    .select({ hlsKey: lectures.hlsKey, posterKey: lectures.posterKey })
    .from(lectures)
    .where(or(inArray(lectures.hlsKey, outputs), inArray(lectures.posterKey, outputs)));
  const keptKeys = new Set(kept.flatMap((row) => [row.hlsKey, row.posterKey]));
  for (const key of outputs) if (!keptKeys.has(key)) await ctx.media.remove(key);
  for (const folder of runs.values()) await fs.rm(folder, { recursive: true, force: true });
  return runs.size;
}

/** Whether this server can process videos: if not, why (in words for the admin); if so, with which ffmpeg, and whether to replace it. */
export function videoStatus(ctx: Pick<Context, 'video'>) {
  const { video } = ctx;
  return {
    available: video.available,
    reason: video.available ? null : answers.videoProcessingOff(video.reason),
    ffmpeg: video.available ? describeFfmpeg(video.tools.build) : null,
    ffmpegWarning: video.available ? ffmpegWarning(video.tools.build) : null,
  };
}
