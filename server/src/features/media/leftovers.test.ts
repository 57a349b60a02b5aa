import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { eq, getTableColumns, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { multipart, pngImage, signUp, signUpAdmin } from '../../test/http.ts';
import { startTestS3 } from '../../test/s3.ts';
import { MEDIA_KEY_COLUMNS, sweepMediaLeftovers, type SweepOptions } from './leftovers.ts';
import { ICON_SIZES, type StoredLogo } from '../settings/site-settings.ts';
import { hlsFileKey, mediaRoot, newHlsFolderKey, saveCaptionFile, saveLectureVideo, saveLogoPicture, savePoster, saveThumbnail } from './storage.ts';

/** What the sweep logged, line by line. */
function recordingLog() {
  const lines: { level: 'info' | 'warn'; fields: Record<string, unknown>; message: string }[] = [];
  const at = (level: 'info' | 'warn') => (first: unknown, second?: string) =>
    lines.push(typeof first === 'string' ? { level, fields: {}, message: first } : { level, fields: first as Record<string, unknown>, message: second ?? '' });
  return { lines, log: { info: at('info'), warn: at('warn') } as unknown as SweepOptions['log'] };
}

/** Everything older than this is a leftover in these tests; S3 dates objects to the second. */
const OLDER_THAN_MS = 1500;
const AGEING_MS = 2500;

describe.each(['local', 's3'] as const)('media leftovers with %s storage', (kind) => {
  let s3: Awaited<ReturnType<typeof startTestS3>> | undefined;
  let t: TestApp;

  beforeAll(async () => {
    if (kind === 's3') s3 = await startTestS3();
    t = await createTestApp({ env: s3?.env ?? {} });
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  /** What someone else keeps beside our media: never ours to delete. */
  async function putForeign(key: string) {
    if (kind === 'local') {
      await fs.mkdir(path.dirname(path.join(mediaRoot(t.dataDir), key)), { recursive: true });
      return fs.writeFile(path.join(mediaRoot(t.dataDir), key), 'not ours');
    }
    const { settings } = s3!;
    const client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    });
    await client.send(new PutObjectCommand({ Bucket: settings.bucket, Key: key, Body: 'not ours' }));
    client.destroy();
  }
  const foreignExists = async (key: string) => {
    if (kind === 'local')
      return fs.access(path.join(mediaRoot(t.dataDir), key)).then(
        () => true,
        () => false,
      );
    return (await fetch(`${s3!.settings.endpoint}/${s3!.settings.bucket}/${key}`)).status === 200;
  };

  /** A `.part` file as a server killed in the middle of an upload leaves it (local storage only). */
  const PART_PREFIX = `videos/${'e'.repeat(16)}`;
  async function leavePartFile() {
    const file = path.join(mediaRoot(t.dataDir), `${PART_PREFIX}${Date.now().toString(16).padStart(16, '0')}.mp4.0badcafe.part`);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, Buffer.alloc(4096));
    return file;
  }
  const exists = (file: string) =>
    fs.access(file).then(
      () => true,
      () => false,
    );

  it('removes old unfinished uploads and old files no row refers to; keeps what a row refers to, what is fresh and what is not ours', async () => {
    const media = t.app.ctx.media;
    const account = await signUp(t.app);
    const [{ avatarKey }] = (await t.database.db
      .select({ avatarKey: schema.users.avatarKey })
      .from(schema.users)
      .where(eq(schema.users.email, account.email))) as [{ avatarKey: string }];
    // Stored, then the request failed before a row named them (or the server died in between).
    const oldOrphans = [
      await saveThumbnail(media, await pngImage()),
      await saveThumbnail(media, await pngImage()),
      await saveLectureVideo(media, Readable.from([Buffer.alloc(2048)]), { ext: 'mp4', mime: 'video/mp4' }),
    ];
    const oldPart = kind === 'local' ? await leavePartFile() : undefined;
    await putForeign('videos/notes.txt');
    await putForeign('backups/db.tar');

    await sleep(AGEING_MS);
    // Old is stored before this second (a bucket's times are whole seconds), however slowly the
    // machine makes the fresh ones below.
    const cutoff = Date.now() - 1000;
    const olderThanCutoff = () => Date.now() - cutoff;
    const freshOrphan = await saveThumbnail(media, await pngImage());
    const freshPart = kind === 'local' ? await leavePartFile() : undefined;

    const { lines, log } = recordingLog();
    // Two at a time, so the referenced avatar and the orphans meet across several batches.
    const result = await sweepMediaLeftovers(t.app.ctx, { olderThanMs: olderThanCutoff(), log, batchSize: 2 });

    for (const key of oldOrphans) expect(await media.stat(key), key).toBeUndefined();
    expect(await media.stat(avatarKey)).toBeDefined();
    expect((await t.app.inject({ url: '/api/v1/user/me', headers: { cookie: account.cookie } })).json().user.avatar.secure_url).toContain(avatarKey);
    expect(await media.stat(freshOrphan)).toBeDefined();
    expect(await foreignExists('videos/notes.txt')).toBe(true);
    expect(await foreignExists('backups/db.tar')).toBe(true);
    const removedKeys = lines.filter((line) => line.level === 'info').flatMap((line) => (line.fields.keys as string[] | undefined) ?? []);
    // The unfinished uploads are logged by the key they were going to store; a random key starts with sixteen e's once in 2^64.
    expect(removedKeys.filter((key) => !key.startsWith(PART_PREFIX)).sort()).toEqual([...oldOrphans].sort());
    if (kind === 'local') {
      expect(await exists(oldPart!)).toBe(false);
      expect(await exists(freshPart!)).toBe(true);
      expect(result).toEqual({ temporary: 1, stored: 3 });
    } else {
      // s3rver cannot list multipart uploads: the sweep says what to do instead and goes on.
      expect(result).toEqual({ temporary: 0, stored: 3 });
      expect(lines).toContainEqual(expect.objectContaining({ level: 'info', message: expect.stringContaining('AbortIncompleteMultipartUpload') }));
    }
    expect(lines.filter((line) => line.level === 'warn')).toEqual([]);

    // Nothing more to do the second time.
    const again = recordingLog();
    expect(await sweepMediaLeftovers(t.app.ctx, { olderThanMs: olderThanCutoff(), log: again.log })).toEqual({ temporary: 0, stored: 0 });
  });

  it('removes an HLS folder and a poster no lecture names, whole; keeps the ones a lecture names', async () => {
    const media = t.app.ctx.media;
    const ladder = async () => {
      const folder = newHlsFolderKey();
      for (const name of ['master.m3u8', '0.m3u8', '0_00000.ts', '0_00001.ts'])
        await media.put(hlsFileKey(folder, name), Buffer.from(name), 'application/octet-stream');
      return folder;
    };
    const kept = { hlsKey: await ladder(), posterKey: await savePoster(media, Buffer.from('webp')) };
    const orphan = { hlsKey: await ladder(), posterKey: await savePoster(media, Buffer.from('webp')) };
    const admin = await signUpAdmin(t.app);
    const form = await multipart({
      title: 'Swept',
      description: 'd',
      category: 'c',
      createdBy: 'i',
      thumbnail: { bytes: await pngImage(), filename: 'c.png', type: 'image/png' },
    });
    const course = (
      await t.app.inject({ method: 'POST', url: '/api/v1/courses', payload: form.payload, headers: { ...form.headers, cookie: admin.cookie } })
    ).json().course;
    const video = await saveLectureVideo(media, Readable.from([Buffer.alloc(2048)]), { ext: 'mp4', mime: 'video/mp4' });
    await t.database.db.insert(schema.lectures).values({
      courseId: course._id,
      title: 't',
      description: 'd',
      videoKey: video,
      videoType: 'video/mp4',
      videoBytes: 2048,
      videoState: 'ready',
      rank: 'a0',
      ...kept,
    });

    await sleep(AGEING_MS);
    const { lines, log } = recordingLog();
    await sweepMediaLeftovers(t.app.ctx, { olderThanMs: OLDER_THAN_MS, log, batchSize: 3 });

    // The orphan ladder is removed once, as the folder it is, though its files came in two batches.
    const removedKeys = lines.flatMap((line) => (line.fields.keys as string[] | undefined) ?? []);
    expect(removedKeys.filter((key) => key === orphan.hlsKey || key === orphan.posterKey).sort()).toEqual([orphan.hlsKey, orphan.posterKey].sort());
    expect(removedKeys).not.toContain(kept.hlsKey);
    for (const name of ['master.m3u8', '0.m3u8', '0_00000.ts', '0_00001.ts']) {
      expect(await media.stat(hlsFileKey(orphan.hlsKey, name)), name).toBeUndefined();
      expect(await media.stat(hlsFileKey(kept.hlsKey, name)), name).toBeDefined();
    }
    expect(await media.stat(orphan.posterKey)).toBeUndefined();
    expect(await media.stat(kept.posterKey)).toBeDefined();
    if (kind === 'local') await expect(fs.access(path.join(mediaRoot(t.dataDir), orphan.hlsKey))).rejects.toThrow();
  });

  it('keeps the caption files that captions name, however old; removes one nothing names', async () => {
    const media = t.app.ctx.media;
    const webVtt = 'WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000\nHello\n';
    const kept = await saveCaptionFile(media, webVtt);
    // A file stored for captions whose row was never written (the server died in between).
    const orphan = await saveCaptionFile(media, webVtt);
    const admin = await signUpAdmin(t.app);
    const form = await multipart({
      title: 'Captioned',
      description: 'd',
      category: 'c',
      createdBy: 'i',
      thumbnail: { bytes: await pngImage(), filename: 'c.png', type: 'image/png' },
    });
    const course = (
      await t.app.inject({ method: 'POST', url: '/api/v1/courses', payload: form.payload, headers: { ...form.headers, cookie: admin.cookie } })
    ).json().course;
    const video = await saveLectureVideo(media, Readable.from([Buffer.alloc(2048)]), { ext: 'mp4', mime: 'video/mp4' });
    const [lecture] = await t.database.db
      .insert(schema.lectures)
      .values({ courseId: course._id, title: 't', description: 'd', videoKey: video, videoType: 'video/mp4', videoBytes: 2048, rank: 'a0' })
      .returning();
    await t.database.db
      .insert(schema.lectureCaptions)
      .values({ lectureId: lecture!.id, language: 'en', label: 'English', fileKey: kept, bytes: webVtt.length, cueCount: 1 });

    await sleep(AGEING_MS);
    const { lines, log } = recordingLog();
    await sweepMediaLeftovers(t.app.ctx, { olderThanMs: OLDER_THAN_MS, log, batchSize: 2 });

    const removedKeys = lines.flatMap((line) => (line.fields.keys as string[] | undefined) ?? []);
    expect(removedKeys).toContain(orphan);
    expect(removedKeys).not.toContain(kept);
    expect(await media.stat(orphan)).toBeUndefined();
    expect(await media.stat(kept)).toBeDefined();
  });

  it('keeps the logo the settings name and its icons, however old; removes an old logo file nothing names', async () => {
    const media = t.app.ctx.media;
    const admin = await signUpAdmin(t.app);
    const form = await multipart({ logo: { bytes: await pngImage(), filename: 'logo.png', type: 'image/png' } });
    const put = await t.app.inject({ method: 'PUT', url: '/api/v1/settings/logo', payload: form.payload, headers: { ...form.headers, cookie: admin.cookie } });
    expect(put.statusCode, put.body).toBe(200);
    const logo = (await t.app.ctx.settings.current()).logo as StoredLogo;
    const inUse = [logo.key, ...ICON_SIZES.map((size) => logo.icons[size])];
    // A logo whose request failed before its row was written.
    const orphan = await saveLogoPicture(media, await pngImage(), { ext: 'png', mime: 'image/png' });

    await sleep(AGEING_MS);
    const { lines, log } = recordingLog();
    await sweepMediaLeftovers(t.app.ctx, { olderThanMs: OLDER_THAN_MS, log, batchSize: 2 });

    const removedKeys = lines.flatMap((line) => (line.fields.keys as string[] | undefined) ?? []);
    expect(removedKeys).toContain(orphan);
    expect(await media.stat(orphan)).toBeUndefined();
    for (const key of inUse) {
      expect(removedKeys, key).not.toContain(key);
      expect(await media.stat(key), key).toBeDefined();
    }
  });
});

it('knows every column of the schema that holds a media key', () => {
  const keyColumns = Object.values(schema)
    .filter((table) => is(table, PgTable))
    .flatMap((table) => Object.entries(getTableColumns(table)))
    .filter(([name]) => /Key$/.test(name))
    .map(([, column]) => column);
  expect(keyColumns.length).toBeGreaterThan(0);
  expect(new Set(MEDIA_KEY_COLUMNS)).toEqual(new Set(keyColumns));
});
