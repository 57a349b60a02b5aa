import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import type { Lecture } from '@lms/contract/lectures';
import { messages } from '@lms/contract/messages';
import { lectures, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { mediaFiles } from '../../test/db.ts';
import { mp4Video, multipart, pngImage, signUp, signUpAdmin, type Upload } from '../../test/http.ts';
import { newCourse, upload } from '../../test/video.ts';
import { hlsFileKey, newHlsFolderKey } from '../media/storage.ts';

// Replacing a lecture's video where no video is processed (tests run with VIDEO_PROCESSING=off):
// the HTTP rules, and the new video taking the old one's place at once. The pipeline's side, with
// a real ffmpeg, is in features/video/replacement.test.ts.

let t: TestApp;
let admin: string;
/** Logged in, no subscription. */
let learner: string;
let subscriber: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signUpAdmin(t.app)).cookie;
  learner = (await signUp(t.app)).cookie;
  const paying = await signUp(t.app);
  await t.app.ctx.db
    .update(users)
    .set({ subscriptionEndsAt: new Date(Date.now() + 30 * 24 * 3600 * 1000) })
    .where(eq(users.id, paying.user._id));
  subscriber = paying.cookie;
});
afterAll(() => t?.close());

const newVideo = (size = 50_000): Upload => ({ bytes: mp4Video(size), filename: 'better take.mp4', type: 'video/mp4' });

async function replaceVideo(courseId: string, lectureId: string, file: Upload | null, cookie = admin): Promise<LightMyRequestResponse> {
  const form = await multipart(file ? { lectures: file } : { note: 'no file' });
  return t.app.inject({
    method: 'PUT',
    url: `/api/v1/courses/${courseId}/lectures/${lectureId}/video`,
    payload: form.payload,
    headers: { ...form.headers, ...(cookie && { cookie }) },
  });
}

const listed = async (courseId: string, cookie = admin): Promise<Lecture[]> =>
  (await t.app.inject({ url: `/api/v1/courses/${courseId}`, headers: { cookie } })).json().lectures;

const row = async (lectureId: string) => (await t.app.ctx.db.select().from(lectures).where(eq(lectures.id, lectureId)))[0]!;

/** Every stored file, folder by folder. */
const storedFiles = async () => ({
  videos: (await mediaFiles(t.dataDir, 'videos')).sort(),
  hls: (await mediaFiles(t.dataDir, 'hls')).sort(),
  posters: (await mediaFiles(t.dataDir, 'posters')).sort(),
});

/** As the pipeline leaves a lecture it processed: a ladder, a poster and a length. */
async function processed(lectureId: string, durationSeconds: number) {
  const hlsKey = newHlsFolderKey();
  await t.app.ctx.media.put(hlsFileKey(hlsKey, 'master.m3u8'), Buffer.from('#EXTM3U\n'), 'application/vnd.apple.mpegurl');
  const posterKey = `posters/${hlsKey.slice('hls/'.length)}.webp`;
  await t.app.ctx.media.put(posterKey, Buffer.from('a poster'), 'image/webp');
  await t.app.ctx.db.update(lectures).set({ videoState: 'ready', hlsKey, posterKey, durationSeconds }).where(eq(lectures.id, lectureId));
  return { hlsKey, posterKey };
}

const savePosition = (lectureId: string, position: number, cookie = subscriber) =>
  t.app.inject({ method: 'POST', url: `/api/v1/progress/lectures/${lectureId}`, payload: { position, watched: 60, at: Date.now() }, headers: { cookie } });

describe('PUT /api/v1/courses/:courseId/lectures/:lectureId/video without video processing', () => {
  it('puts the new video in place at once: the lecture keeps its id, place, title, preview and progress; the old files go', async () => {
    const courseId = await newCourse(t, admin);
    const first = await upload(t, admin, courseId, mp4Video(40_000), 'First');
    const second = await upload(t, admin, courseId, mp4Video(41_000), 'Second');
    await upload(t, admin, courseId, mp4Video(42_000), 'Third');
    await t.app.inject({ method: 'PATCH', url: `/api/v1/courses/${courseId}/lectures/${second._id}`, payload: { preview: true }, headers: { cookie: admin } });
    const old = { ...(await processed(second._id, 600)), videoKey: (await row(second._id)).videoKey };
    expect((await savePosition(second._id, 500)).statusCode).toBe(200);
    const before = await listed(courseId);

    const response = await replaceVideo(courseId, second._id, newVideo());
    expect(response.statusCode, response.body).toBe(200);
    const { lecture, ...answer } = response.json();
    expect(answer).toEqual({ success: true, message: answers.videoReplaced });
    // What the new video has not yet been measured for is unknown again; nothing describes the old one.
    expect(lecture).toMatchObject({
      _id: second._id,
      title: 'Second',
      preview: true,
      duration: null,
      processing: { state: 'waiting', percent: null, reason: null },
      replacement: null,
      hls_url: null,
      poster_url: null,
    });
    const played = await t.app.inject({ url: lecture.secure_url, headers: { cookie: admin } });
    expect(played.statusCode).toBe(200);
    expect(played.rawPayload.equals(mp4Video(50_000))).toBe(true);

    const after = await listed(courseId);
    expect(after.map((item) => [item._id, item.title])).toEqual(before.map((item) => [item._id, item.title]));
    // Signed URLs change with their expiry, by the second: the stored video each names is what counts.
    const videoOf = (url: string) => new URL(url, 'http://x').pathname;
    expect(after.map((item) => videoOf(item.secure_url))).toEqual([before[0]!, lecture, before[2]!].map((item) => videoOf(item.secure_url)));
    expect(after[0]!._id).toBe(first._id);

    // The old video, ladder and poster are gone from storage; the others' videos stay.
    expect(await t.app.ctx.media.stat(old.videoKey)).toBeUndefined();
    expect(await t.app.ctx.media.stat(hlsFileKey(old.hlsKey, 'master.m3u8'))).toBeUndefined();
    expect(await t.app.ctx.media.stat(old.posterKey)).toBeUndefined();
    expect(await storedFiles()).toMatchObject({ hls: [], posters: [] });
    expect((await storedFiles()).videos).toHaveLength(3);

    // The learner's place is kept: with no length known, there is nothing to clamp it to yet.
    const progress = (await t.app.inject({ url: `/api/v1/progress/courses/${courseId}`, headers: { cookie: subscriber } })).json();
    expect(progress.lectures).toEqual([expect.objectContaining({ lectureId: second._id, position: 500 })]);
  });

  it('drops a replacement that was waiting for processing when processing stopped', async () => {
    const courseId = await newCourse(t, admin);
    const added = await upload(t, admin, courseId, mp4Video(40_000), 'Waiting one');
    await processed(added._id, 120);
    const pendingKey = `videos/${'ab'.repeat(16)}.mp4`;
    await t.app.ctx.media.put(pendingKey, mp4Video(30_000), 'video/mp4');
    await t.app.ctx.db
      .update(lectures)
      .set({ replacementVideoKey: pendingKey, replacementVideoType: 'video/mp4', replacementVideoBytes: 30_032, videoState: 'waiting' })
      .where(eq(lectures.id, added._id));

    const response = await replaceVideo(courseId, added._id, newVideo(51_000));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().lecture).toMatchObject({ replacement: null, processing: { state: 'waiting' } });
    expect(await t.app.ctx.media.stat(pendingKey)).toBeUndefined();
    expect(await row(added._id)).toMatchObject({ replacementVideoKey: null, replacementVideoType: null, replacementVideoBytes: null, videoBytes: 51_032 });
  });

  it('tells the admin about a replacement on its way, while the current video and its ladder keep playing for everyone', async () => {
    const courseId = await newCourse(t, admin);
    const added = await upload(t, admin, courseId, mp4Video(40_000), 'Being replaced');
    const { hlsKey } = await processed(added._id, 95);
    // As a replacement's run leaves the row part-way through its transcode.
    await t.app.ctx.db
      .update(lectures)
      .set({
        replacementVideoKey: `videos/${'cd'.repeat(16)}.mp4`,
        replacementVideoType: 'video/mp4',
        replacementVideoBytes: 1,
        videoState: 'processing',
        processingPercent: 40,
      })
      .where(eq(lectures.id, added._id));

    const lease = await t.app.inject({ method: 'POST', url: '/api/v1/playback', payload: { lectureId: added._id }, headers: { cookie: subscriber } });
    expect(lease.statusCode).toBe(201);
    for (const cookie of [admin, subscriber]) {
      const [lecture] = await listed(courseId, cookie);
      // The ladder plays for learners: their secure_url is the playlist too; the administrator keeps the original.
      if (cookie === subscriber) expect(lecture!.secure_url).toBe(lecture!.hls_url);
      else expect(lecture!.secure_url).not.toBe(lecture!.hls_url);
      expect(lecture).toMatchObject({
        duration: 95,
        processing: { state: 'ready', percent: null, reason: null },
        replacement: { state: 'processing', percent: 40, reason: null },
        hls_url: expect.stringContaining(`/${hlsKey.slice('hls/'.length)}/master.m3u8`),
      });
      expect((await t.app.inject({ url: lecture!.hls_url!, headers: { cookie } })).statusCode).toBe(200);
      expect((await t.app.inject({ url: lecture!.secure_url, headers: { cookie } })).statusCode).toBe(200);
    }
    const curriculum = (await t.app.inject({ url: `/api/v1/courses/${courseId}/curriculum` })).json();
    expect(curriculum.lectures[0].duration).toBe(95);
  });

  it('refuses a file that is not a video with 400, storing nothing and changing nothing', async () => {
    const courseId = await newCourse(t, admin);
    const added = await upload(t, admin, courseId, mp4Video(40_000), 'Kept as it is');
    const rowBefore = await row(added._id);
    const filesBefore = await storedFiles();

    const picture = await replaceVideo(courseId, added._id, { bytes: await pngImage(), filename: 'not-a-video.mp4', type: 'video/mp4' });
    expect(picture.statusCode).toBe(400);
    expect(picture.json()).toEqual({ success: false, message: messages.videoType });
    const none = await replaceVideo(courseId, added._id, null);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ success: false, message: messages.allFieldsMandatory });

    expect(await row(added._id)).toEqual(rowBefore);
    expect(await storedFiles()).toEqual(filesBefore);
  });

  it('is 404 for an unknown lecture, or one of another course, and 403 for anyone but an admin; nothing is stored', async () => {
    const courseId = await newCourse(t, admin);
    const otherCourseId = await newCourse(t, admin);
    const added = await upload(t, admin, courseId, mp4Video(40_000), 'Not theirs to change');
    const rowBefore = await row(added._id);
    const filesBefore = await storedFiles();

    for (const [course, lecture] of [
      [courseId, crypto.randomUUID()],
      [otherCourseId, added._id],
      [crypto.randomUUID(), added._id],
    ]) {
      const response = await replaceVideo(course!, lecture!, newVideo());
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ success: false, message: answers.lectureNotFound });
    }
    for (const cookie of [learner, subscriber]) {
      const response = await replaceVideo(courseId, added._id, newVideo(), cookie);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ success: false, message: answers.notAllowed });
    }
    expect((await replaceVideo(courseId, added._id, newVideo(), '')).statusCode).toBe(401);

    expect(await row(added._id)).toEqual(rowBefore);
    expect(await storedFiles()).toEqual(filesBefore);
  });
});
