import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { publishCourseDirectly } from '../../test/courses.ts';
import { pdfFile } from '../../test/files.ts';
import { mp4Video, multipart, pngImage, signUpAdmin, type Upload } from '../../test/http.ts';
import { startTestS3 } from '../../test/s3.ts';
import { sweepMediaLeftovers } from '../media/leftovers.ts';
import { saveLectureResource } from '../media/storage.ts';

/** Everything older than this is a leftover to the sweep here; S3 dates objects to the second. */
const OLDER_THAN_MS = 1500;
const AGEING_MS = 2500;
const quietLog = { info: () => undefined, warn: () => undefined } as unknown as Parameters<typeof sweepMediaLeftovers>[1]['log'];

// The same files on both storage back ends: on disk behind our download route, and in a bucket behind presigned URLs.
describe.each(['local', 's3'] as const)('lecture files with %s storage', (kind) => {
  let s3: Awaited<ReturnType<typeof startTestS3>> | undefined;
  let t: TestApp;
  let admin: string;
  let courseId: string;
  let lectureId: string;

  beforeAll(async () => {
    if (kind === 's3') s3 = await startTestS3();
    t = await createTestApp({ env: s3?.env ?? {} });
    admin = (await signUpAdmin(t.app)).cookie;
    const course = await multipart({
      title: 'Cloud Course',
      description: 'Stored in a bucket.',
      category: 'Cloud',
      createdBy: 'Asha Verma',
      thumbnail: { bytes: await pngImage(), filename: 'c.png' },
    });
    courseId = (await t.app.inject({ method: 'POST', url: '/api/v1/courses', ...course, headers: { ...course.headers, cookie: admin } })).json().course._id;
    await publishCourseDirectly(t.app.ctx, courseId);
    const lecture = await multipart({ title: 'Intro', description: 'First steps.', lectures: { bytes: mp4Video(4000), filename: 'intro.mp4' } });
    lectureId = (await t.app.inject({ method: 'POST', url: `/api/v1/courses/${courseId}`, ...lecture, headers: { ...lecture.headers, cookie: admin } })).json()
      .course.lectures[0]._id;
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  async function attach(file: Upload) {
    const form = await multipart({ file });
    return t.app.inject({
      method: 'POST',
      url: `/api/v1/courses/${courseId}/lectures/${lectureId}/resources`,
      ...form,
      headers: { ...form.headers, cookie: admin },
    });
  }

  /** The file behind a download link as the browser gets it: from our route, or from the bucket. */
  async function fetchDownload(url: string): Promise<{ status: number; headers: (name: string) => string | undefined; body: Buffer }> {
    if (kind === 's3') {
      const response = await fetch(url);
      return { status: response.status, headers: (name) => response.headers.get(name) ?? undefined, body: Buffer.from(await response.arrayBuffer()) };
    }
    const response = await t.app.inject({ url, headers: { cookie: admin } });
    return { status: response.statusCode, headers: (name) => response.headers[name] as string | undefined, body: response.rawPayload };
  }

  async function storedResources(): Promise<string[]> {
    const keys: string[] = [];
    for await (const { key } of t.app.ctx.media.listStored()) if (key.startsWith('resources/')) keys.push(key);
    return keys.sort();
  }
  const keyOf = (url: string) => `resources/${new URL(url, 'http://x').pathname.split('/').pop()}`;

  it('stores a file and hands out a link that downloads it as an attachment with its name and type, for no shared cache', async () => {
    const text = Buffer.from('Débit, crédit, balance.\n');
    const added = await attach({ bytes: text, filename: 'Résumé.txt' });
    expect(added.statusCode, added.body).toBe(201);
    const { url } = added.json().resource;
    if (kind === 's3') expect(url).toContain('X-Amz-Signature=');
    expect(await storedResources()).toEqual([keyOf(url)]);

    const file = await fetchDownload(url);
    expect(file.status).toBe(200);
    expect(file.body.equals(text)).toBe(true);
    expect(file.headers('content-type')).toBe('text/plain; charset=utf-8');
    expect(file.headers('content-disposition')).toBe(`attachment; filename="Resume.txt"; filename*=UTF-8''R%C3%A9sum%C3%A9.txt`);
    expect(file.headers('cache-control')).toBe('private, no-store');
  });

  it('leaves nothing in storage when text turns out not to be text part-way through', async () => {
    const before = await storedResources();
    const broken = Buffer.concat([Buffer.from('a'.repeat(200_000)), Buffer.from([0xff]), Buffer.from('b'.repeat(10_000))]);
    const refused = await attach({ bytes: broken, filename: 'notes.txt' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(answers.resourceType);
    expect(await storedResources()).toEqual(before);
  });

  it('keeps the files that rows name when sweeping leftovers, and removes one no row names', async () => {
    const kept = (await attach({ bytes: pdfFile(), filename: 'kept.pdf' })).json().resource.url;
    const orphan = await saveLectureResource(t.app.ctx.media, Readable.from([pdfFile()]), { ext: 'pdf', mime: 'application/pdf' });
    await sleep(AGEING_MS);

    const swept = await sweepMediaLeftovers(t.app.ctx, { olderThanMs: OLDER_THAN_MS, log: quietLog });
    expect(swept.stored).toBe(1);
    const left = await storedResources();
    expect(left).toContain(keyOf(kept));
    expect(left).not.toContain(orphan);
    expect((await fetchDownload(kept)).status).toBe(200);
  });

  it('removes every file of a lecture from storage with the lecture', async () => {
    expect((await storedResources()).length).toBeGreaterThan(0);
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/v1/courses?courseId=${courseId}&lectureId=${lectureId}`, headers: { cookie: admin } });
    expect(deleted.statusCode).toBe(200);
    expect(await storedResources()).toEqual([]);
  });
});
