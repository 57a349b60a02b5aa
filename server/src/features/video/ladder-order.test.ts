import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lecture } from '@lms/contract/lectures';
import { lectures } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { mediaFiles } from '../../test/db.ts';
import { multipart, signUpAdmin } from '../../test/http.ts';
import { lectureAsAdmin, makeClip, newCourse, settled, testVideoTools, until, upload } from '../../test/video.ts';
import { mediaRoot, videoRunKeys } from '../media/storage.ts';
import type { VideoTools } from './ffmpeg.ts';
import { restartStalledVideos, workRoot } from './video-processing.ts';

// The ladder's order: a 720p upload plays its 360p step as soon as that is stored, while the
// 720p step is made; the master playlist names only what is stored, and grows.

let tools: VideoTools;
let clipDir: string;
/** 3 s at 1280×720: a ladder of two steps. */
let clip: Buffer;

beforeAll(async () => {
  tools = await testVideoTools();
  clipDir = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-clip-'));
  clip = await fs.readFile(await makeClip(tools, path.join(clipDir, 'clip.mp4'), { seconds: 3, width: 1280, height: 720 }));
});
afterAll(() => fs.rm(clipDir, { recursive: true, force: true }));

/**
 * A server whose ffmpeg makes the 720p step only once `gate` exists: the test looks at the
 * lecture between its renditions, for as long as it needs, then opens the gate.
 */
async function gatedServer(): Promise<{ t: TestApp; gate: string; admin: string; courseId: string }> {
  const name = Math.random().toString(36).slice(2);
  const gate = path.join(clipDir, `gate-${name}`);
  const script = path.join(clipDir, `ffmpeg-gated-${name}`);
  await fs.writeFile(script, `#!/bin/sh\ncase " $* " in *"scale=-2:720"*) while [ ! -e "${gate}" ]; do sleep 0.1; done;; esac\nexec "${tools.ffmpeg}" "$@"\n`, {
    mode: 0o755,
  });
  const t = await createTestApp({ env: { VIDEO_PROCESSING: 'on', VIDEO_STALL_SECONDS: '2', FFMPEG_PATH: script, FFPROBE_PATH: tools.ffprobe } });
  const admin = (await signUpAdmin(t.app)).cookie;
  return { t, gate, admin, courseId: await newCourse(t, admin) };
}

const rowOf = async (t: TestApp, lectureId: string) => (await t.app.ctx.db.select().from(lectures).where(eq(lectures.id, lectureId)))[0]!;
const folderOf = (hlsUrl: string | null) => hlsUrl?.split('/').at(-2);
const playsEarly = (lecture: Lecture) => lecture.hls_url !== null || settled(lecture);

async function masterOf(t: TestApp, admin: string, hlsUrl: string | null) {
  const response = await t.app.inject({ url: hlsUrl!, headers: { cookie: admin } });
  expect(response.statusCode).toBe(200);
  return response.body;
}
const renditionsIn = (master: string) => master.split('\n').filter((line) => line.endsWith('.m3u8'));

/** Waits until no run is left working, then lists what storage holds. */
async function storedOnceSettled(t: TestApp) {
  for (let tries = 0; tries < 60; tries++) {
    if ((await fs.readdir(workRoot(t.dataDir)).catch(() => [])).length === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    hls: await mediaFiles(t.dataDir, 'hls'),
    posters: await mediaFiles(t.dataDir, 'posters'),
    work: await fs.readdir(workRoot(t.dataDir)).catch(() => []),
  };
}

describe('a 720p upload', () => {
  it('plays its 360p step while the 720p one is made, still processing for the admin; then the master names both', async () => {
    const { t, gate, admin, courseId } = await gatedServer();
    try {
      const added = await upload(t, admin, courseId, clip);
      const early = await until(() => lectureAsAdmin(t, admin, courseId, added._id), playsEarly);
      expect(early.processing.state).toBe('processing');
      expect(early.hls_url).toMatch(/\/master\.m3u8$/);
      const earlyMaster = await masterOf(t, admin, early.hls_url);
      expect(renditionsIn(earlyMaster)).toEqual(['0.m3u8']);
      expect(earlyMaster).toContain('RESOLUTION=640x360');
      // Its playlist and segment play; the 720p step does not exist yet.
      const base = early.hls_url!.slice(0, early.hls_url!.lastIndexOf('/'));
      expect((await t.app.inject({ url: `${base}/0.m3u8`, headers: { cookie: admin } })).statusCode).toBe(200);
      expect((await t.app.inject({ url: `${base}/0_00000.ts`, headers: { cookie: admin } })).statusCode).toBe(200);
      expect((await t.app.inject({ url: `${base}/1.m3u8`, headers: { cookie: admin } })).statusCode).toBe(404);
      const stored = await fs.readdir(path.join(mediaRoot(t.dataDir), (await rowOf(t, added._id)).hlsKey!));
      expect(stored.filter((name) => name.startsWith('1'))).toEqual([]);

      await fs.writeFile(gate, '');
      const ready = await until(() => lectureAsAdmin(t, admin, courseId, added._id), settled);
      expect(ready.processing).toEqual({ state: 'ready', percent: null, reason: null });
      // The same ladder, grown: a view from now on gets both steps.
      expect(folderOf(ready.hls_url)).toBe(folderOf(early.hls_url));
      expect(renditionsIn(await masterOf(t, admin, ready.hls_url))).toEqual(['0.m3u8', '1.m3u8']);
      expect(ready.poster_url).toMatch(/^\/media\/posters\//);
      expect((await storedOnceSettled(t)).work).toEqual([]);
    } finally {
      await t.close();
    }
  }, 90_000);

  it('deleted between its renditions: the run stops and leaves no files', async () => {
    const { t, gate, admin, courseId } = await gatedServer();
    try {
      const added = await upload(t, admin, courseId, clip);
      expect((await until(() => lectureAsAdmin(t, admin, courseId, added._id), playsEarly)).hls_url).not.toBeNull();
      const deleted = await t.app.inject({ method: 'DELETE', url: `/api/v1/courses?courseId=${courseId}&lectureId=${added._id}`, headers: { cookie: admin } });
      expect(deleted.statusCode, deleted.body).toBe(200);
      // Whether the run notices at its heartbeat (in the gate) or once ffmpeg ends, nothing is left.
      await fs.writeFile(gate, '');
      expect(await storedOnceSettled(t)).toEqual({ hls: [], posters: [], work: [] });
      expect(await mediaFiles(t.dataDir, 'videos')).toEqual([]);
    } finally {
      await t.close();
    }
  }, 90_000);

  it('a run killed between its renditions (kill -9) is handed to a new run: the dead one’s early ladder goes, the new one completes', async () => {
    const { t, gate, admin, courseId } = await gatedServer();
    try {
      await fs.writeFile(gate, '');
      const added = await upload(t, admin, courseId, clip);
      await until(() => lectureAsAdmin(t, admin, courseId, added._id), settled);
      // As a process killed after storing its 360p step leaves it: processing, the dead run's early
      // ladder and poster named by the row and stored, its work folder still there.
      const dead = crypto.randomUUID();
      const deadKeys = videoRunKeys(dead);
      const live = await rowOf(t, added._id);
      await fs.cp(path.join(mediaRoot(t.dataDir), live.hlsKey!), path.join(mediaRoot(t.dataDir), deadKeys.hlsKey), { recursive: true });
      await fs.rm(path.join(mediaRoot(t.dataDir), deadKeys.hlsKey, '1.m3u8'));
      await fs.copyFile(path.join(mediaRoot(t.dataDir), live.posterKey!), path.join(mediaRoot(t.dataDir), deadKeys.posterKey));
      await fs.mkdir(path.join(workRoot(t.dataDir), `video-${dead}`, 'hls-1'), { recursive: true });
      await t.app.ctx.db
        .update(lectures)
        .set({
          videoState: 'processing',
          processingPercent: 20,
          processingRun: dead,
          processingHeartbeatAt: new Date(Date.now() - 60_000),
          hlsKey: deadKeys.hlsKey,
          posterKey: deadKeys.posterKey,
        })
        .where(eq(lectures.id, added._id));
      await t.app.ctx.media.remove(live.hlsKey!);
      await t.app.ctx.media.remove(live.posterKey!);

      await restartStalledVideos(t.app.ctx, { log: t.app.log });
      const ready = await until(() => lectureAsAdmin(t, admin, courseId, added._id), settled);
      expect(ready.processing.state).toBe('ready');
      expect(renditionsIn(await masterOf(t, admin, ready.hls_url))).toEqual(['0.m3u8', '1.m3u8']);
      const row = await rowOf(t, added._id);
      expect(row.processingRun).not.toBe(dead);
      // Only the new run's ladder and poster are left.
      const left = await storedOnceSettled(t);
      expect(left.work).toEqual([]);
      expect(left.hls).toEqual([row.hlsKey!.slice('hls/'.length)]);
      expect(left.posters).toEqual([row.posterKey!.slice('posters/'.length)]);
    } finally {
      await t.close();
    }
  }, 90_000);
});

describe('a replacement', () => {
  it('is not shown before it is whole: the current ladder plays while the new one has its 360p step, then it is swapped in whole', async () => {
    const { t, gate, admin, courseId } = await gatedServer();
    try {
      await fs.writeFile(gate, '');
      const added = await upload(t, admin, courseId, clip);
      const first = await until(() => lectureAsAdmin(t, admin, courseId, added._id), settled);
      await fs.rm(gate);

      const form = await multipart({ lectures: { bytes: clip, filename: 'new take.mp4', type: 'video/mp4' } });
      const replaced = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/courses/${courseId}/lectures/${added._id}/video`,
        payload: form.payload,
        headers: { ...form.headers, cookie: admin },
      });
      expect(replaced.statusCode, replaced.body).toBe(200);
      // The replacement's run stores its 360p step under its own folder, then waits at the gate.
      const replacementRun = (await rowOf(t, added._id)).processingRun!;
      const replacementFolder = path.join(mediaRoot(t.dataDir), videoRunKeys(replacementRun).hlsKey);
      for (let tries = 0; tries < 200; tries++) {
        if ((await fs.readdir(replacementFolder).catch((): string[] => [])).includes('master.m3u8')) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await fs.readdir(replacementFolder)).toContain('0.m3u8');
      const during = await lectureAsAdmin(t, admin, courseId, added._id);
      expect(folderOf(during.hls_url)).toBe(folderOf(first.hls_url));
      expect(renditionsIn(await masterOf(t, admin, during.hls_url))).toEqual(['0.m3u8', '1.m3u8']);
      expect(during.replacement?.state).toBe('processing');

      await fs.writeFile(gate, '');
      const swapped = await until(
        () => lectureAsAdmin(t, admin, courseId, added._id),
        (lecture) => lecture.replacement === null && settled(lecture),
      );
      expect(folderOf(swapped.hls_url)).toBe(videoRunKeys(replacementRun).hlsKey.slice('hls/'.length));
      expect(renditionsIn(await masterOf(t, admin, swapped.hls_url))).toEqual(['0.m3u8', '1.m3u8']);
      // The current ladder's files go once the new one is swapped in, the run's last step, after the
      // row says so: waited for (10 s at most), not raced.
      let hls = (await storedOnceSettled(t)).hls;
      for (let tries = 0; tries < 100 && hls.length > 1; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        hls = await mediaFiles(t.dataDir, 'hls');
      }
      expect(hls).toEqual([folderOf(swapped.hls_url)]);
    } finally {
      await t.close();
    }
  }, 90_000);
});
