import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { mp4Video, multipart, pngImage, signUpAdmin } from '../../test/http.ts';
import { startTestS3 } from '../../test/s3.ts';

// The same course flow as courses.test.ts, with media in an S3-compatible bucket (s3rver).
let s3: Awaited<ReturnType<typeof startTestS3>>;
let t: TestApp;
let admin: string;

beforeAll(async () => {
  s3 = await startTestS3();
  t = await createTestApp({ env: s3.env });
  admin = (await signUpAdmin(t.app)).cookie;
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

const keyOf = (url: string) => new URL(url, 'http://x').pathname.split('/').slice(-2).join('/');

describe('courses with STORAGE=s3', () => {
  it('stores thumbnails and videos in the bucket, hands out presigned video URLs, and deletes the objects with the course', async () => {
    const course = await multipart({
      title: 'Cloud Course',
      description: 'Stored in a bucket.',
      category: 'Cloud',
      createdBy: 'Asha Verma',
      thumbnail: { bytes: await pngImage(), filename: 'c.png' },
    });
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/courses', payload: course.payload, headers: { ...course.headers, cookie: admin } });
    expect(created.statusCode).toBe(201);
    const { _id: courseId, thumbnail } = created.json().course;
    expect(thumbnail.secure_url.startsWith(s3.settings.endpoint!)).toBe(true);
    const image = await fetch(thumbnail.secure_url);
    expect(image.status).toBe(200);

    const video = mp4Video(300 * 1024);
    const lecture = await multipart({ title: 'Intro', description: 'First steps.', lectures: { bytes: video, filename: 'intro.mp4' } });
    const added = await t.app.inject({
      method: 'POST',
      url: `/api/v1/courses/${courseId}`,
      payload: lecture.payload,
      headers: { ...lecture.headers, cookie: admin },
    });
    expect(added.statusCode).toBe(201);
    const url: string = added.json().course.lectures[0].secure_url;
    expect(url).toContain('X-Amz-Signature=');
    const played = await fetch(url, { headers: { range: 'bytes=0-99' } });
    expect(played.status).toBe(206);
    expect(Buffer.from(await played.arrayBuffer())).toEqual(video.subarray(0, 100));

    const csp = (await t.app.inject({ url: '/healthz' })).headers['content-security-policy'] as string;
    expect(csp).toContain(`media-src 'self' blob: data: ${new URL(s3.settings.endpoint!).origin}`);
    // hls.js fetches presigned segments from the bucket itself.
    expect(csp).toContain(`connect-src 'self' ${new URL(s3.settings.endpoint!).origin}`);
    expect(csp).toContain("worker-src 'self' blob:");

    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/v1/courses/${courseId}`, headers: { cookie: admin } });
    expect(deleted.statusCode).toBe(200);
    expect(await t.app.ctx.media.stat(keyOf(thumbnail.secure_url))).toBeUndefined();
    expect(await t.app.ctx.media.stat(keyOf(url))).toBeUndefined();
  });
});
