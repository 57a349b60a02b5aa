import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { lectures } from '../../db/schema.ts';
import { withSecrets } from '../../secrets.ts';
import { createTestApp, openTestDatabase, TEST_ENV, type TestApp } from '../../test/app.ts';
import { mediaFiles } from '../../test/db.ts';
import { mp4Video, signUp, signUpAdmin } from '../../test/http.ts';
import { startTestS3 } from '../../test/s3.ts';
import { ffmpegThat, lectureAsAdmin, makeClip, newCourse, runsOf, settled, testVideoTools, until, upload } from '../../test/video.ts';
import { seedDemoCourses } from '../../cli/demo-courses.ts';
import { mediaRoot, videoRunKeys } from '../media/storage.ts';
import { describeFfmpeg, ffmpegWarning, type VideoTools } from './ffmpeg.ts';
import { restartStalledVideos, workRoot } from './video-processing.ts';

let tools: VideoTools;
let clipDir: string;
/** A 3 s, 640×360 clip with sound. */
let clip: Buffer;

beforeAll(async () => {
  tools = await testVideoTools();
  clipDir = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-clip-'));
  clip = await fs.readFile(await makeClip(tools, path.join(clipDir, 'clip.mp4'), { seconds: 3 }));
});
afterAll(() => fs.rm(clipDir, { recursive: true, force: true }));

/** Processing on, jobs picked up and retried within a second or two. */
const PROCESSING_ON = { VIDEO_PROCESSING: 'on', VIDEO_STALL_SECONDS: '2' };

describe('a lecture uploaded with processing on', () => {
  let t: TestApp;
  let admin: string;
  let courseId: string;

  beforeAll(async () => {
    t = await createTestApp({ env: PROCESSING_ON });
    admin = (await signUpAdmin(t.app)).cookie;
    courseId = await newCourse(t, admin);
  });
  afterAll(() => t?.close());

  it('plays as uploaded at once, then gets its duration, a poster and an HLS ladder, and the course its total', async () => {
    const added = await upload(t, admin, courseId, clip);
    // The MP4 is there from the first answer, whatever the pipeline's state.
    expect(added.secure_url).toMatch(/^\/media\/private\/videos\//);
    expect(['waiting', 'processing']).toContain(added.processing.state);
    expect(added.hls_url).toBeNull();

    const ready = await until(() => lectureAsAdmin(t, admin, courseId, added._id), settled);
    expect(ready.processing).toEqual({ state: 'ready', percent: null, reason: null });
    expect(ready.duration).toBeCloseTo(3, 0);
    expect(ready.hls_url).toMatch(/^\/media\/hls\/[0-9a-f-]{36}\.\d+\.[\w-]{43}\/[0-9a-f]{32}\/master\.m3u8$/);

    // The poster: a public WebP frame of the video.
    expect(ready.poster_url).toMatch(/^\/media\/posters\/[0-9a-f]{32}\.webp$/);
    const poster = await t.app.inject({ url: ready.poster_url! });
    expect(poster.statusCode).toBe(200);
    expect(await sharp(poster.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 640, height: 360 });

    // The ladder is stored beside the upload: one rendition for a 360p video, in 6 s segments.
    const [row] = await t.app.ctx.db.select().from(lectures).where(eq(lectures.id, added._id));
    const stored = await fs.readdir(path.join(mediaRoot(t.dataDir), row!.hlsKey!));
    expect(stored.sort()).toEqual(['0.m3u8', '0_00000.ts', 'master.m3u8']);
    expect(row).toMatchObject({ videoWidth: 640, videoHeight: 360 });
    // Nothing is left in the work folder.
    expect(await fs.readdir(workRoot(t.dataDir))).toEqual([]);

    const curriculum = (await t.app.inject({ url: `/api/v1/courses/${courseId}/curriculum` })).json();
    expect(curriculum.totalDuration).toBeCloseTo(3, 0);
    expect(curriculum.lectures[0].duration).toBeCloseTo(3, 0);
    const listed = (await t.app.inject({ url: `/api/v1/courses?id=${courseId}` })).json();
    expect(listed.courses[0].totalDuration).toBeCloseTo(3, 0);
  }, 90_000);

  it('marks a file ffprobe cannot read as failed with a readable reason, at once and without retrying; the upload stays playable', async () => {
    const added = await upload(t, admin, courseId, mp4Video(40_000), 'Not really a video');
    const failed = await until(() => lectureAsAdmin(t, admin, courseId, added._id), settled);
    expect(failed.processing.state).toBe('failed');
    expect(failed.processing.reason).toMatch(/^This file could not be read as a video \(.+\)\. Upload it again, or export it as MP4 \(H\.264\)\.$/);
    expect(failed.secure_url).toMatch(/^\/media\/private\/videos\//);
    expect(failed.hls_url).toBeNull();
    expect(failed.duration).toBeNull();
  });

  it('lets the admin retry a failed video, and only a failed one', async () => {
    const added = await upload(t, admin, courseId, mp4Video(40_000), 'Retried');
    await until(() => lectureAsAdmin(t, admin, courseId, added._id), settled);
    const retryUrl = `/api/v1/courses/${courseId}/lectures/${added._id}/processing`;

    const learner = (await signUp(t.app)).cookie;
    expect((await t.app.inject({ method: 'POST', url: retryUrl, headers: { cookie: learner } })).statusCode).toBe(403);

    const retried = await t.app.inject({ method: 'POST', url: retryUrl, headers: { cookie: admin } });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toMatchObject({ success: true, message: answers.videoRetryStarted, lecture: { processing: { state: 'waiting' } } });
    // The same bytes fail the same way again.
    expect((await until(() => lectureAsAdmin(t, admin, courseId, added._id), settled)).processing.state).toBe('failed');

    const good = await upload(t, admin, courseId, clip, 'Good one');
    await until(() => lectureAsAdmin(t, admin, courseId, good._id), settled);
    const refused = await t.app.inject({ method: 'POST', url: `/api/v1/courses/${courseId}/lectures/${good._id}/processing`, headers: { cookie: admin } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ success: false, message: answers.videoRetryNotFailed });

    const unknown = await t.app.inject({
      method: 'POST',
      url: `/api/v1/courses/${courseId}/lectures/${crypto.randomUUID()}/processing`,
      headers: { cookie: admin },
    });
    expect(unknown.json()).toEqual({ success: false, message: answers.lectureNotFound });
  });

  it('tells the admin which ffmpeg it uses', async () => {
    const response = await t.app.inject({ url: '/api/v1/video/status', headers: { cookie: admin } });
    // This machine's: Debian's, where it is installed (.ci/run installs it).
    expect(response.json()).toEqual({
      success: true,
      message: answers.videoStatus,
      available: true,
      reason: null,
      ffmpeg: describeFfmpeg(tools.build),
      ffmpegWarning: ffmpegWarning(tools.build),
    });
    const learner = (await signUp(t.app)).cookie;
    expect((await t.app.inject({ url: '/api/v1/video/status', headers: { cookie: learner } })).statusCode).toBe(403);
  });
});

describe("with the npm package's ffmpeg", () => {
  it('warns the admin that it is the old build and how to replace it', async () => {
    const require = createRequire(import.meta.url);
    const t = await createTestApp({
      env: {
        VIDEO_PROCESSING: 'on',
        FFMPEG_PATH: (require('@ffmpeg-installer/ffmpeg') as { path: string }).path,
        FFPROBE_PATH: (require('@ffprobe-installer/ffprobe') as { path: string }).path,
      },
    });
    try {
      const admin = (await signUpAdmin(t.app)).cookie;
      const status = (await t.app.inject({ url: '/api/v1/video/status', headers: { cookie: admin } })).json();
      expect(status).toMatchObject({ available: true, ffmpeg: 'ffmpeg 4.1 (bundled npm build, 2018)', ffmpegWarning: answers.videoFfmpegOutdated(2018) });
    } finally {
      await t.close();
    }
  });
});

describe('when no ffmpeg can run', () => {
  it('still takes uploads, which play as MP4 and wait; the admin is told why processing is off', async () => {
    const t = await createTestApp({ env: { VIDEO_PROCESSING: 'on', FFMPEG_PATH: '/nowhere/ffmpeg', FFPROBE_PATH: '/nowhere/ffprobe' } });
    try {
      const admin = (await signUpAdmin(t.app)).cookie;
      const courseId = await newCourse(t, admin);
      const added = await upload(t, admin, courseId, clip);
      expect(added.processing).toEqual({ state: 'waiting', percent: null, reason: null });
      expect((await t.app.inject({ url: added.secure_url, headers: { cookie: admin } })).statusCode).toBe(200);

      const status = (await t.app.inject({ url: '/api/v1/video/status', headers: { cookie: admin } })).json();
      expect(status).toMatchObject({ available: false, ffmpeg: null, ffmpegWarning: null });
      expect(status.reason).toBe(answers.videoProcessingOff('/nowhere/ffmpeg could not run (spawn /nowhere/ffmpeg ENOENT)'));
    } finally {
      await t.close();
    }
  });
});

describe('faults', () => {
  it('retries a transcode that fails, then marks the lecture failed with ffmpeg’s words; no files are left', async () => {
    const t = await createTestApp({
      env: { ...PROCESSING_ON, FFMPEG_PATH: await ffmpegThat(tools, clipDir, 'echo "simulated encoder crash" >&2; exit 1'), FFPROBE_PATH: tools.ffprobe },
      jobRules: { 'video-processing': { retryLimit: 1, retryDelaySeconds: 1 } },
    });
    try {
      const admin = (await signUpAdmin(t.app)).cookie;
      const courseId = await newCourse(t, admin);
      const added = await upload(t, admin, courseId, clip);
      const failed = await until(() => lectureAsAdmin(t, admin, courseId, added._id), settled);
      expect(failed.processing.state).toBe('failed');
      expect(failed.processing.reason).toBe(answers.videoTranscodeFailed('ffmpeg failed: simulated encoder crash'));
      // The first try and one retry.
      expect(await runsOf(t.config.video.ffmpegPath!)).toBe(2);
      // The poster each try cut was removed with it, and no HLS folder was stored.
      expect(await mediaFiles(t.dataDir, 'posters')).toEqual([]);
      expect(await fs.readdir(path.join(mediaRoot(t.dataDir), 'hls')).catch(() => [])).toEqual([]);
      // Durations are measured before the transcode, and stay.
      expect(failed.duration).toBeCloseTo(3, 0);
    } finally {
      await t.close();
    }
  }, 90_000);

  it('deleting a lecture while its video is transcoded stops the run and leaves no files', async () => {
    const t = await createTestApp({ env: { ...PROCESSING_ON, FFMPEG_PATH: await ffmpegThat(tools, clipDir, 'sleep 4'), FFPROBE_PATH: tools.ffprobe } });
    try {
      const admin = (await signUpAdmin(t.app)).cookie;
      const courseId = await newCourse(t, admin);
      const added = await upload(t, admin, courseId, clip);
      await until(
        () => lectureAsAdmin(t, admin, courseId, added._id),
        (lecture) => lecture.processing.state === 'processing' && lecture.duration !== null,
      );
      const deleted = await t.app.inject({ method: 'DELETE', url: `/api/v1/courses?courseId=${courseId}&lectureId=${added._id}`, headers: { cookie: admin } });
      expect(deleted.statusCode, deleted.body).toBe(200);

      // The run notices at its next heartbeat (or when ffmpeg ends), and removes its poster and work folder.
      for (let tries = 0; tries < 60; tries++) {
        const left = [...(await mediaFiles(t.dataDir, 'posters')), ...(await fs.readdir(workRoot(t.dataDir)).catch(() => []))];
        if (left.length === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      await new Promise((resolve) => setTimeout(resolve, 5000));
      expect(await mediaFiles(t.dataDir, 'posters')).toEqual([]);
      expect(await mediaFiles(t.dataDir, 'videos')).toEqual([]);
      expect(await fs.readdir(path.join(mediaRoot(t.dataDir), 'hls')).catch(() => [])).toEqual([]);
      expect(await fs.readdir(workRoot(t.dataDir))).toEqual([]);
    } finally {
      await t.close();
    }
  }, 90_000);
});

describe('restarts', () => {
  /** Two servers, one after the other, on one database and one data folder: a restart. */
  async function serverOn(database: Database, dataDir: string, env: Record<string, string>) {
    const config = withSecrets(loadConfig({ ...TEST_ENV, DATA_DIR: dataDir, ...env }));
    return buildApp(config, { database, jobs: { retryDelaySeconds: 1, pollingIntervalSeconds: 0.5 } });
  }

  it('a job queued before a restart runs after it', async () => {
    const database = await openTestDatabase();
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-test-'));
    try {
      // Stopped before it could process: the upload's job waits in the queue.
      const first = await serverOn(database, dataDir, { VIDEO_PROCESSING: 'off' });
      const admin = (await signUpAdmin(first)).cookie;
      const courseId = await newCourse({ app: first }, admin);
      const added = await upload({ app: first }, admin, courseId, clip);
      expect(added.processing.state).toBe('waiting');
      await first.close();

      const second = await serverOn(database, dataDir, PROCESSING_ON);
      try {
        const ready = await until(() => lectureAsAdmin({ app: second }, admin, courseId, added._id), settled);
        expect(ready.processing.state).toBe('ready');
      } finally {
        await second.close();
      }
    } finally {
      await database.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);

  it('a run that died with its process (kill -9) is handed to a new run once its heartbeat is stale, and completes', async () => {
    const t = await createTestApp({ env: PROCESSING_ON });
    try {
      const admin = (await signUpAdmin(t.app)).cookie;
      const courseId = await newCourse(t, admin);
      const added = await upload(t, admin, courseId, clip);
      await until(() => lectureAsAdmin(t, admin, courseId, added._id), settled);
      // As a process killed mid-transcode leaves it: processing, held by a run that will never write again, and its work folder.
      await t.app.ctx.db
        .update(lectures)
        .set({
          videoState: 'processing',
          processingPercent: 40,
          processingRun: crypto.randomUUID(),
          processingHeartbeatAt: new Date(Date.now() - 60_000),
          hlsKey: null,
        })
        .where(eq(lectures.id, added._id));
      const deadWork = path.join(workRoot(t.dataDir), `video-${crypto.randomUUID()}`);
      await fs.mkdir(path.join(deadWork, 'hls'), { recursive: true });
      await fs.writeFile(path.join(deadWork, 'hls', '0_00000.ts'), 'half a segment');

      await restartStalledVideos(t.app.ctx, { log: t.app.log });
      const ready = await until(() => lectureAsAdmin(t, admin, courseId, added._id), settled);
      expect(ready.processing.state).toBe('ready');
      expect(ready.hls_url).not.toBeNull();

      // The dead run's folder went with it: its run no longer holds the lecture.
      expect(await fs.readdir(workRoot(t.dataDir))).toEqual([]);
    } finally {
      await t.close();
    }
  }, 90_000);

  it('a run killed while storing its ladder and poster leaves nothing once its work folder is swept; a run killed just after finishing keeps its files', async () => {
    const t = await createTestApp({ env: PROCESSING_ON });
    try {
      const admin = (await signUpAdmin(t.app)).cookie;
      const courseId = await newCourse(t, admin);
      const added = await upload(t, admin, courseId, clip);
      await until(() => lectureAsAdmin(t, admin, courseId, added._id), settled);
      const [finished] = await t.app.ctx.db.select().from(lectures).where(eq(lectures.id, added._id));
      expect(finished!.hlsKey).toBe(videoRunKeys(finished!.processingRun!).hlsKey);
      expect(finished!.posterKey).toBe(videoRunKeys(finished!.processingRun!).posterKey);

      // The finished run was killed before it removed its work folder; another run died half-way
      // through storing: a segment of its ladder and its poster are in storage, named by its run.
      await fs.mkdir(path.join(workRoot(t.dataDir), `video-${finished!.processingRun}`), { recursive: true });
      const dead = crypto.randomUUID();
      await fs.mkdir(path.join(workRoot(t.dataDir), `video-${dead}`), { recursive: true });
      await t.app.ctx.media.put(`${videoRunKeys(dead).hlsKey}/0_00000.ts`, Buffer.from('a stored segment'), 'video/mp2t');
      await t.app.ctx.media.put(videoRunKeys(dead).posterKey, Buffer.from('a poster'), 'image/webp');

      await restartStalledVideos(t.app.ctx, { log: t.app.log });
      expect(await fs.readdir(workRoot(t.dataDir))).toEqual([]);
      expect(await mediaFiles(t.dataDir, 'hls')).toEqual([finished!.hlsKey!.slice('hls/'.length)]);
      expect(await mediaFiles(t.dataDir, 'posters')).toEqual([finished!.posterKey!.slice('posters/'.length)]);
      const ready = await lectureAsAdmin(t, admin, courseId, added._id);
      expect((await t.app.inject({ url: ready.hls_url!, headers: { cookie: admin } })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  }, 90_000);
});

describe('with S3 storage', () => {
  it('downloads the upload to process it, and stores the poster and the ladder in the bucket', async () => {
    const s3 = await startTestS3();
    const t = await createTestApp({ env: { ...s3.env, ...PROCESSING_ON } });
    try {
      const admin = (await signUpAdmin(t.app)).cookie;
      const courseId = await newCourse(t, admin);
      const added = await upload(t, admin, courseId, clip);
      const ready = await until(() => lectureAsAdmin(t, admin, courseId, added._id), settled);
      expect(ready.processing.state).toBe('ready');
      expect(ready.duration).toBeCloseTo(3, 0);
      const [row] = await t.app.ctx.db.select().from(lectures).where(eq(lectures.id, added._id));
      for (const key of [row!.posterKey!, `${row!.hlsKey}/master.m3u8`, `${row!.hlsKey}/0.m3u8`, `${row!.hlsKey}/0_00000.ts`]) {
        expect(await t.app.ctx.media.stat(key), key).toBeDefined();
      }
      // Nothing stays on local disk: the download was in the run's work folder.
      expect(await fs.readdir(workRoot(t.dataDir))).toEqual([]);

      // Deleting the lecture empties the bucket of its ladder too.
      await t.app.inject({ method: 'DELETE', url: `/api/v1/courses?courseId=${courseId}&lectureId=${added._id}`, headers: { cookie: admin } });
      expect(await t.app.ctx.media.stat(`${row!.hlsKey}/0_00000.ts`)).toBeUndefined();
      expect(await t.app.ctx.media.stat(row!.posterKey!)).toBeUndefined();
    } finally {
      await t.close();
      await s3.close();
    }
  }, 90_000);
});

describe('the demo courses', () => {
  it('go through the same pipeline on first start: every demo lecture gets its duration, poster and ladder', async () => {
    const t = await createTestApp({ env: PROCESSING_ON });
    try {
      await seedDemoCourses(t.app.ctx, () => undefined);
      for (let tries = 0; tries < 480; tries++) {
        const states = await t.app.ctx.db.select({ state: lectures.videoState }).from(lectures);
        if (states.every(({ state }) => state === 'ready' || state === 'failed')) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const rows = await t.app.ctx.db.select().from(lectures);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        expect(row).toMatchObject({ videoState: 'ready', videoWidth: 640, videoHeight: 360 });
        expect(row.durationSeconds).toBeCloseTo(8, 0);
        expect(row.posterKey).not.toBeNull();
        expect(row.hlsKey).not.toBeNull();
      }
    } finally {
      await t.close();
    }
  }, 180_000);
});
