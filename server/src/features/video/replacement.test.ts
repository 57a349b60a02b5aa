import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import type { Lecture } from '@lms/contract/lectures';
import { courseProgress, lectureProgress, lectures, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { mediaFiles } from '../../test/db.ts';
import { waitForJobs } from '../../test/mail.ts';
import { mp4Video, multipart, signUp, signUpAdmin } from '../../test/http.ts';
import { ffmpegThat, lectureAsAdmin, makeClip, newCourse, settled, testVideoTools, until, upload } from '../../test/video.ts';
import type { VideoTools } from './ffmpeg.ts';
import { restartStalledVideos, workRoot } from './video-processing.ts';

// Replacing a lecture's video with the pipeline on, with a real ffmpeg: the current video and its
// ladder play until the new one's are ready, then the new one takes its place.

let tools: VideoTools;
let clipDir: string;
/** 3 s at 640×360: the video first uploaded. */
let clip: Buffer;
/** 2 s at 320×180: the new take, shorter and smaller, so that which one plays can be told. */
let shorterClip: Buffer;

beforeAll(async () => {
  tools = await testVideoTools();
  clipDir = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-clip-'));
  clip = await fs.readFile(await makeClip(tools, path.join(clipDir, 'clip.mp4'), { seconds: 3 }));
  shorterClip = await fs.readFile(await makeClip(tools, path.join(clipDir, 'shorter.mp4'), { seconds: 2, width: 320, height: 180 }));
});
afterAll(() => fs.rm(clipDir, { recursive: true, force: true }));

const PROCESSING_ON = { VIDEO_PROCESSING: 'on', VIDEO_STALL_SECONDS: '2' };
/** ffmpeg that waits before making a ladder: long enough to act while a video is processed. */
const slowFfmpeg = async (seconds: number) => ({
  ...PROCESSING_ON,
  FFMPEG_PATH: await ffmpegThat(tools, clipDir, `sleep ${seconds}`),
  FFPROBE_PATH: tools.ffprobe,
});

async function replaceVideo(t: TestApp, admin: string, lecture: { courseId: string; lectureId: string }, bytes: Buffer) {
  const form = await multipart({ lectures: { bytes, filename: 'new take.mp4', type: 'video/mp4' } });
  const response = await t.app.inject({
    method: 'PUT',
    url: `/api/v1/courses/${lecture.courseId}/lectures/${lecture.lectureId}/video`,
    payload: form.payload,
    headers: { ...form.headers, cookie: admin },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { success: true; message: string; lecture: Lecture };
}

const rowOf = async (t: TestApp, lectureId: string) => (await t.app.ctx.db.select().from(lectures).where(eq(lectures.id, lectureId)))[0]!;
/** The stored video a signed URL names (its signature changes with its expiry, by the second). */
const videoOf = (url: string) => new URL(url, 'http://x').pathname;
/** The ladder folder an HLS URL names (its grant differs from viewer to viewer and hour to hour). */
const folderOf = (hlsUrl: string | null) => hlsUrl?.split('/').at(-2);
const replacementDone = (lecture: Lecture) => lecture.replacement === null && lecture.processing.state === 'ready';

/**
 * Waits until no run is left working, then lists what storage holds. A run's job ends after it has
 * removed what it made and, for a swapped-in replacement, the old video's files: those go after the
 * swap commits, so a lecture already showing the new video does not mean they are gone yet.
 */
async function storedOnceSettled(t: TestApp) {
  await waitForJobs(t.database, { timeoutMs: 20_000 });
  return {
    videos: (await mediaFiles(t.dataDir, 'videos')).sort(),
    hls: await mediaFiles(t.dataDir, 'hls'),
    posters: await mediaFiles(t.dataDir, 'posters'),
    work: await fs.readdir(workRoot(t.dataDir)).catch(() => []),
  };
}
const fileName = (key: string) => key.split('/').at(-1)!;

describe('replacing a processed lecture’s video', () => {
  it('keeps the old ladder playing while the new video is processed, then swaps it in: same id and place, places clamped, old files removed', async () => {
    const t = await createTestApp({ env: await slowFfmpeg(2) });
    try {
      const admin = (await signUpAdmin(t.app)).cookie;
      const courseId = await newCourse(t, admin);
      const added = await upload(t, admin, courseId, clip, 'Replaced');
      const next = await upload(t, admin, courseId, mp4Video(30_000), 'Next');
      const old = await until(() => lectureAsAdmin(t, admin, courseId, added._id), settled);
      expect(old.processing.state).toBe('ready');
      const oldRow = await rowOf(t, added._id);

      // Two learners: one completed the 3 s video at its end, one stopped at 2.5 s.
      const learners = await Promise.all([signUp(t.app), signUp(t.app)]);
      await t.app.ctx.db.update(users).set({ subscriptionEndsAt: new Date(Date.now() + 86_400_000) });
      const save = (cookie: string, position: number) =>
        t.app.inject({
          method: 'POST',
          url: `/api/v1/progress/lectures/${added._id}`,
          payload: { position, watched: position, at: Date.now() },
          headers: { cookie },
        });
      expect((await save(learners[0].cookie, 3)).json().lecture.completed).toBe(true);
      expect((await save(learners[1].cookie, 2.5)).json().lecture.completed).toBe(false);

      const answer = await replaceVideo(t, admin, { courseId, lectureId: added._id }, shorterClip);
      expect(answer.message).toBe(answers.videoReplacementStarted);
      // Everything that plays is still the old video's; the new one is on its way.
      expect(answer.lecture).toMatchObject({
        _id: added._id,
        poster_url: old.poster_url,
        processing: { state: 'ready' },
        replacement: { state: 'waiting' },
      });
      expect(videoOf(answer.lecture.secure_url)).toBe(videoOf(old.secure_url));
      expect(folderOf(answer.lecture.hls_url)).toBe(folderOf(old.hls_url));

      const processing = await until(
        () => lectureAsAdmin(t, admin, courseId, added._id),
        (lecture) => lecture.replacement?.state === 'processing',
      );
      expect(processing.duration).toBe(old.duration);
      expect((await t.app.inject({ url: processing.hls_url!, headers: { cookie: admin } })).statusCode).toBe(200);

      const replaced = await until(() => lectureAsAdmin(t, admin, courseId, added._id), replacementDone);
      expect(replaced.duration).toBeCloseTo(2, 0);
      expect(folderOf(replaced.hls_url)).not.toBe(folderOf(old.hls_url));
      expect((await t.app.inject({ url: replaced.hls_url!, headers: { cookie: admin } })).statusCode).toBe(200);
      const poster = await t.app.inject({ url: replaced.poster_url! });
      expect(await sharp(poster.rawPayload).metadata()).toMatchObject({ width: 320, height: 180 });
      const list = (await t.app.inject({ url: `/api/v1/courses/${courseId}`, headers: { cookie: admin } })).json().lectures as Lecture[];
      expect(list.map((lecture) => lecture._id)).toEqual([added._id, next._id]);

      // The learners' places are within the new length; the one who had completed it keeps that.
      const rows = await t.app.ctx.db.select().from(lectureProgress).where(eq(lectureProgress.lectureId, added._id));
      const byLearner = (index: number) => rows.find((row) => row.userId === learners[index]!.user._id)!;
      expect(byLearner(0).positionSeconds).toBeCloseTo(replaced.duration!, 3);
      expect(byLearner(0).completedAt).not.toBeNull();
      expect(byLearner(1).positionSeconds).toBeCloseTo(replaced.duration!, 3);
      expect(byLearner(1).watchedSeconds).toBeLessThanOrEqual(replaced.duration! + 0.001);
      expect(byLearner(1).completedAt).toBeNull();
      const counts = await t.app.ctx.db.select().from(courseProgress).where(eq(courseProgress.courseId, courseId));
      expect(counts.map((row) => row.completedLectures).sort()).toEqual([0, 1]);

      // Only the new video, its ladder and its poster are stored, beside the other lecture's video.
      const newRow = await rowOf(t, added._id);
      const stored = await storedOnceSettled(t);
      expect(stored.videos).toEqual([fileName(newRow.videoKey), fileName((await rowOf(t, next._id)).videoKey)].sort());
      expect(stored.hls).toEqual([fileName(newRow.hlsKey!)]);
      expect(stored.posters).toEqual([fileName(newRow.posterKey!)]);
      expect(stored.work).toEqual([]);
      expect(newRow).toMatchObject({ videoWidth: 320, videoHeight: 180, replacementVideoKey: null, videoBytes: shorterClip.length });
      expect(newRow.videoKey).not.toBe(oldRow.videoKey);
    } finally {
      await t.close();
    }
  }, 90_000);

  it('a new video that cannot be processed fails beside the current one, which keeps playing; Retry and another replacement work', async () => {
    const t = await createTestApp({ env: PROCESSING_ON });
    try {
      const admin = (await signUpAdmin(t.app)).cookie;
      const courseId = await newCourse(t, admin);
      const added = await upload(t, admin, courseId, clip);
      const ids = { courseId, lectureId: added._id };
      const old = await until(() => lectureAsAdmin(t, admin, courseId, added._id), settled);

      await replaceVideo(t, admin, ids, mp4Video(40_000));
      const failed = await until(
        () => lectureAsAdmin(t, admin, courseId, added._id),
        (lecture) => lecture.replacement?.state === 'failed',
      );
      expect(failed.replacement!.reason).toMatch(/^This file could not be read as a video/);
      expect(failed).toMatchObject({ processing: { state: 'ready' }, duration: old.duration });
      expect(videoOf(failed.secure_url)).toBe(videoOf(old.secure_url));
      expect((await t.app.inject({ url: failed.hls_url!, headers: { cookie: admin } })).statusCode).toBe(200);
      const unreadableKey = (await rowOf(t, added._id)).replacementVideoKey!;

      const retried = await t.app.inject({ method: 'POST', url: `/api/v1/courses/${courseId}/lectures/${added._id}/processing`, headers: { cookie: admin } });
      expect(retried.json().lecture).toMatchObject({ processing: { state: 'ready' }, replacement: { state: 'waiting' } });
      await until(
        () => lectureAsAdmin(t, admin, courseId, added._id),
        (lecture) => lecture.replacement?.state === 'failed',
      );

      await replaceVideo(t, admin, ids, shorterClip);
      expect(await t.app.ctx.media.stat(unreadableKey)).toBeUndefined();
      const replaced = await until(() => lectureAsAdmin(t, admin, courseId, added._id), replacementDone);
      expect(replaced.duration).toBeCloseTo(2, 0);
      expect((await storedOnceSettled(t)).videos).toEqual([fileName((await rowOf(t, added._id)).videoKey)]);
    } finally {
      await t.close();
    }
  }, 90_000);
});

describe('replacing a video while it is processed', () => {
  it('stops the first processing of the old video: the new one plays at once and is processed; nothing of the old one is left', async () => {
    const t = await createTestApp({ env: await slowFfmpeg(4) });
    try {
      const admin = (await signUpAdmin(t.app)).cookie;
      const courseId = await newCourse(t, admin);
      const added = await upload(t, admin, courseId, clip);
      await until(
        () => lectureAsAdmin(t, admin, courseId, added._id),
        (lecture) => lecture.processing.state === 'processing' && lecture.duration !== null,
      );
      // A learner near the end of the old video, whose length was measured already.
      const learner = await signUp(t.app);
      await t.app.ctx.db.update(users).set({ subscriptionEndsAt: new Date(Date.now() + 86_400_000) });
      const saved = await t.app.inject({
        method: 'POST',
        url: `/api/v1/progress/lectures/${added._id}`,
        payload: { position: 2.6, watched: 2.6, at: Date.now() },
        headers: { cookie: learner.cookie },
      });
      expect(saved.statusCode, saved.body).toBe(200);

      const answer = await replaceVideo(t, admin, { courseId, lectureId: added._id }, shorterClip);
      // There was no ladder to keep playing: the new video plays as uploaded, as a new upload does.
      expect(answer.message).toBe(answers.videoReplaced);
      expect(answer.lecture).toMatchObject({ processing: { state: 'waiting' }, replacement: null, duration: null, hls_url: null });
      expect(videoOf(answer.lecture.secure_url)).not.toBe(videoOf(added.secure_url));

      const ready = await until(() => lectureAsAdmin(t, admin, courseId, added._id), settled);
      expect(ready.processing.state).toBe('ready');
      expect(ready.duration).toBeCloseTo(2, 0);
      const row = await rowOf(t, added._id);
      expect(row).toMatchObject({ videoWidth: 320, videoHeight: 180 });
      // Measured, the new video is shorter than where the learner was: their place is its end.
      const [place] = await t.app.ctx.db.select().from(lectureProgress).where(eq(lectureProgress.lectureId, added._id));
      expect(place!.positionSeconds).toBeCloseTo(ready.duration!, 3);
      // The first run noticed it had lost the lecture and removed its poster and work folder.
      await new Promise((resolve) => setTimeout(resolve, 4000));
      expect(await storedOnceSettled(t)).toEqual({
        videos: [fileName(row.videoKey)],
        hls: [fileName(row.hlsKey!)],
        posters: [fileName(row.posterKey!)],
        work: [],
      });
    } finally {
      await t.close();
    }
  }, 90_000);

  // Three processings, each held 3 s by the slowed ffmpeg, and a settling wait: on a busy 2-core machine this took over 30 s.
  it('stops an earlier replacement still processing and removes its file; the latest one is swapped in', async () => {
    const t = await createTestApp({ env: await slowFfmpeg(3) });
    try {
      const admin = (await signUpAdmin(t.app)).cookie;
      const courseId = await newCourse(t, admin);
      const added = await upload(t, admin, courseId, clip);
      const ids = { courseId, lectureId: added._id };
      const old = await until(() => lectureAsAdmin(t, admin, courseId, added._id), settled);
      const oldRow = await rowOf(t, added._id);

      await replaceVideo(t, admin, ids, clip);
      await until(
        () => lectureAsAdmin(t, admin, courseId, added._id),
        (lecture) => lecture.replacement?.state === 'processing',
      );
      const earlierKey = (await rowOf(t, added._id)).replacementVideoKey!;

      const answer = await replaceVideo(t, admin, ids, shorterClip);
      expect(answer.lecture).toMatchObject({ processing: { state: 'ready' }, replacement: { state: 'waiting' } });
      expect(videoOf(answer.lecture.secure_url)).toBe(videoOf(old.secure_url));
      expect(await t.app.ctx.media.stat(earlierKey)).toBeUndefined();

      const replaced = await until(() => lectureAsAdmin(t, admin, courseId, added._id), replacementDone);
      expect(replaced.duration).toBeCloseTo(2, 0);
      const row = await rowOf(t, added._id);
      expect(row).toMatchObject({ videoWidth: 320, videoHeight: 180 });
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(await storedOnceSettled(t)).toEqual({
        videos: [fileName(row.videoKey)],
        hls: [fileName(row.hlsKey!)],
        posters: [fileName(row.posterKey!)],
        work: [],
      });
      expect([row.videoKey, row.hlsKey, row.posterKey]).not.toContain(oldRow.hlsKey);
    } finally {
      await t.close();
    }
  }, 90_000);
});

describe('a replacement whose run died with its process', () => {
  it('is handed to a new run once its heartbeat is stale, and swapped in', async () => {
    const t = await createTestApp({ env: PROCESSING_ON });
    try {
      const admin = (await signUpAdmin(t.app)).cookie;
      const courseId = await newCourse(t, admin);
      const added = await upload(t, admin, courseId, clip);
      await until(() => lectureAsAdmin(t, admin, courseId, added._id), settled);
      // As a kill -9 mid-transcode leaves it: the replacement stored and named, its run silent.
      const replacementKey = `videos/${'e'.repeat(32)}.mp4`;
      await t.app.ctx.media.put(replacementKey, shorterClip, 'video/mp4');
      await t.app.ctx.db
        .update(lectures)
        .set({
          replacementVideoKey: replacementKey,
          replacementVideoType: 'video/mp4',
          replacementVideoBytes: shorterClip.length,
          videoState: 'processing',
          processingPercent: 30,
          processingRun: crypto.randomUUID(),
          processingHeartbeatAt: new Date(Date.now() - 60_000),
        })
        .where(eq(lectures.id, added._id));

      await restartStalledVideos(t.app.ctx, { log: t.app.log });
      const replaced = await until(() => lectureAsAdmin(t, admin, courseId, added._id), replacementDone);
      expect(replaced.duration).toBeCloseTo(2, 0);
      expect((await rowOf(t, added._id)).videoKey).toBe(replacementKey);
      // The old video is removed after the swap commits: asked again until it is gone.
      await expect.poll(async () => (await storedOnceSettled(t)).videos).toEqual([fileName(replacementKey)]);
    } finally {
      await t.close();
    }
  }, 90_000);
});
