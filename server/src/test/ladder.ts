import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { lectures } from '../db/schema.ts';
import { hlsFileKey, newHlsFolderKey } from '../features/media/storage.ts';
import type { TestApp } from './app.ts';
import { mp4Video, multipart, pngImage } from './http.ts';

export const MASTER = '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=640x360\n0.m3u8\n';
export const RENDITION = '#EXTM3U\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:6.0,\n0_00000.ts\n#EXTINF:2.0,\n0_00001.ts\n#EXT-X-ENDLIST\n';
export const SEGMENTS = [randomBytes(50_000), randomBytes(20_000)];

/** A published course with one lecture (a free preview with `preview`) whose ladder is ready: a fake, but stored as the pipeline stores one. */
export async function lectureWithLadder(t: TestApp, admin: string, { preview = false } = {}) {
  const form = await multipart({
    title: 'HLS',
    description: 'd',
    category: 'c',
    createdBy: 'i',
    thumbnail: { bytes: await pngImage(), filename: 'c.png', type: 'image/png' },
  });
  const courseId = (await t.app.inject({ method: 'POST', url: '/api/v1/courses', payload: form.payload, headers: { ...form.headers, cookie: admin } })).json()
    .course._id;
  const lectureForm = await multipart({ title: 'L', description: 'd', lectures: { bytes: mp4Video(20_000), filename: 'l.mp4', type: 'video/mp4' } });
  const added = await t.app.inject({
    method: 'POST',
    url: `/api/v1/courses/${courseId}`,
    payload: lectureForm.payload,
    headers: { ...lectureForm.headers, cookie: admin },
  });
  expect((await t.app.inject({ method: 'POST', url: `/api/v1/courses/${courseId}/publish`, payload: {}, headers: { cookie: admin } })).statusCode).toBe(200);
  const lectureId = added.json().course.lectures[0]._id as string;
  const folder = newHlsFolderKey();
  await t.app.ctx.media.put(hlsFileKey(folder, 'master.m3u8'), Buffer.from(MASTER), 'application/vnd.apple.mpegurl');
  await t.app.ctx.media.put(hlsFileKey(folder, '0.m3u8'), Buffer.from(RENDITION), 'application/vnd.apple.mpegurl');
  for (const [index, bytes] of SEGMENTS.entries()) await t.app.ctx.media.put(hlsFileKey(folder, `0_0000${index}.ts`), bytes, 'video/mp2t');
  await t.app.ctx.db.update(lectures).set({ videoState: 'ready', hlsKey: folder, isPreview: preview }).where(eq(lectures.id, lectureId));
  return { courseId, lectureId, folder };
}

/** The URL a player would ask for next: `name` beside `url`. */
export const beside = (url: string, name: string) => `${url.slice(0, url.lastIndexOf('/'))}/${name}`;
