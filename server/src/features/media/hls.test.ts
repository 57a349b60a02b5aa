import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { signUp, signUpAdmin } from '../../test/http.ts';
import { beside, lectureWithLadder, MASTER, RENDITION, SEGMENTS } from '../../test/ladder.ts';
import { startTestS3 } from '../../test/s3.ts';
import { hlsMasterUrl } from './hls-urls.ts';
import { ANY_VIEWER } from './signed-urls.ts';
import { hlsFileKey, newHlsFolderKey } from './storage.ts';

const inTwoHours = () => new Date(Date.now() + 2 * 3600 * 1000);

describe('HLS with local storage', () => {
  let t: TestApp;
  let admin: string;
  let subscriber: { id: string; cookie: string };
  let learner: { id: string; cookie: string };
  let ladder: Awaited<ReturnType<typeof lectureWithLadder>>;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signUpAdmin(t.app)).cookie;
    const paying = await signUp(t.app);
    await t.app.ctx.db
      .update(users)
      .set({ subscriptionEndsAt: new Date(Date.now() + 30 * 24 * 3600 * 1000) })
      .where(eq(users.id, paying.user._id));
    subscriber = { id: paying.user._id, cookie: paying.cookie };
    const plain = await signUp(t.app);
    learner = { id: plain.user._id, cookie: plain.cookie };
    ladder = await lectureWithLadder(t, admin);
    // A learner's player holds a playback lease before it asks for the ladder (features/protection).
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/playback',
      payload: { lectureId: ladder.lectureId },
      headers: { cookie: subscriber.cookie },
    });
    expect(started.statusCode).toBe(201);
  });
  afterAll(() => t?.close());

  const urlFor = (viewerId: string, expiresAt = inTwoHours(), key = ladder.folder) => hlsMasterUrl(t.config.sessionSecret, { key, viewerId, expiresAt });
  const get = (url: string, cookie?: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers: { ...(cookie && { cookie }), ...headers } });

  it('gives the subscriber the lecture list’s URL, and every playlist and segment it leads to, as a player follows them', async () => {
    const listed = (await get(`/api/v1/courses/${ladder.courseId}`, subscriber.cookie)).json();
    const master = listed.lectures[0].hls_url as string;
    expect(master).toMatch(/^\/media\/hls\//);

    const first = await get(master, subscriber.cookie);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(first.headers['cache-control']).toBe('private, no-store');
    expect(first.body).toBe(MASTER);

    const renditionUrl = beside(master, '0.m3u8');
    const rendition = await get(renditionUrl, subscriber.cookie);
    expect(rendition.body).toBe(RENDITION);
    for (const [index, bytes] of SEGMENTS.entries()) {
      const segment = await get(beside(renditionUrl, `0_0000${index}.ts`), subscriber.cookie);
      expect(segment.statusCode).toBe(200);
      expect(segment.headers['content-type']).toBe('video/mp2t');
      expect(segment.rawPayload).toEqual(bytes);
    }
  });

  it('answers Range and conditional requests, for the browser’s cache only', async () => {
    const segment = beside(urlFor(subscriber.id), '0_00000.ts');
    const ranged = await get(segment, subscriber.cookie, { range: 'bytes=100-199' });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-range']).toBe(`bytes 100-199/${SEGMENTS[0]!.length}`);
    expect(ranged.rawPayload).toEqual(SEGMENTS[0]!.subarray(100, 200));
    const etag = (await get(segment, subscriber.cookie)).headers.etag as string;
    expect((await get(segment, subscriber.cookie, { 'if-none-match': etag })).statusCode).toBe(304);
    expect((await get(segment, subscriber.cookie, { range: 'bytes=999999-' })).statusCode).toBe(416);
    expect((await get(segment, subscriber.cookie)).headers['cache-control']).toBe('private, max-age=3600');
  });

  it('refuses a visitor, another user, a lapsed subscriber, an expired or altered link: 403 every time', async () => {
    const url = urlFor(subscriber.id);
    const refused = async (response: Awaited<ReturnType<typeof get>>, message: string = answers.videoLinkInvalid) => {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ success: false, message });
    };
    await refused(await get(url));
    await refused(await get(beside(url, '0_00000.ts')));
    await refused(await get(url, learner.cookie));
    // The learner's own link: signed for them, but they may not watch.
    await refused(await get(urlFor(learner.id), learner.cookie), answers.notAllowed);
    await refused(await get(urlFor(subscriber.id, new Date(Date.now() - 1000)), subscriber.cookie));

    const [grant, folder, name] = url.slice('/media/hls/'.length).split('/') as [string, string, string];
    const [viewer, expires, signature] = grant.split('.') as [string, string, string];
    const flip = (text: string) => `${text.slice(0, -1)}${text.endsWith('A') ? 'B' : 'A'}`;
    for (const altered of [
      `/media/hls/${viewer}.${expires}.${flip(signature)}/${folder}/${name}`,
      `/media/hls/${viewer}.${Number(expires) + 3600}.${signature}/${folder}/${name}`,
      `/media/hls/${learner.id}.${expires}.${signature}/${folder}/${name}`,
      `/media/hls/${viewer}.${expires}.${signature}/${newHlsFolderKey().slice(4)}/${name}`,
      `/media/hls/${viewer}.${expires}.${signature}/${folder}/../../videos/x.mp4`,
      `/media/hls/${viewer}.${expires}.${signature}/${folder}/master.m3u8/more`,
      `/media/hls/${viewer}.${expires}.${signature}/${folder}/Master.M3U8`,
      `/media/hls/${grant}`,
    ]) {
      await refused(await get(altered, subscriber.cookie));
    }

    // A subscriber whose paid period has ended.
    const lapsed = await signUp(t.app);
    await t.app.ctx.db
      .update(users)
      .set({ subscriptionEndsAt: new Date(Date.now() - 1000) })
      .where(eq(users.id, lapsed.user._id));
    await refused(await get(urlFor(lapsed.user._id), lapsed.cookie), answers.notAllowed);
  });

  it('answers 404 for a file the folder does not have', async () => {
    const response = await get(beside(urlFor(subscriber.id), '7_00000.ts'), subscriber.cookie);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ success: false, message: answers.notFound });
  });

  it('plays a free preview to anyone, until it stops being one', async () => {
    const patch = (preview: boolean) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/v1/courses/${ladder.courseId}/lectures/${ladder.lectureId}`,
        payload: { preview },
        headers: { cookie: admin },
      });
    await patch(true);
    const curriculum = (await get(`/api/v1/courses/${ladder.courseId}/curriculum`)).json();
    const url = curriculum.lectures[0].hls_url as string;
    expect(url).toContain(`/media/hls/${ANY_VIEWER}.`);
    expect((await get(url)).statusCode).toBe(200);
    expect((await get(beside(url, '0_00001.ts'))).rawPayload).toEqual(SEGMENTS[1]);

    await patch(false);
    expect((await get(url)).statusCode).toBe(403);
    expect((await get(`/api/v1/courses/${ladder.courseId}/curriculum`)).json().lectures[0].hls_url).toBeUndefined();
  });

  it('deleting the lecture, or its course, removes its ladder', async () => {
    const other = await lectureWithLadder(t, admin);
    await t.app.inject({ method: 'DELETE', url: `/api/v1/courses?courseId=${other.courseId}&lectureId=${other.lectureId}`, headers: { cookie: admin } });
    expect(await t.app.ctx.media.stat(hlsFileKey(other.folder, '0_00000.ts'))).toBeUndefined();
    expect(await t.app.ctx.media.stat(hlsFileKey(other.folder, 'master.m3u8'))).toBeUndefined();

    const third = await lectureWithLadder(t, admin);
    await t.app.inject({ method: 'DELETE', url: `/api/v1/courses/${third.courseId}`, headers: { cookie: admin } });
    expect(await t.app.ctx.media.stat(hlsFileKey(third.folder, '0.m3u8'))).toBeUndefined();
  });
});

describe('HLS with S3 storage', () => {
  it('serves playlists through the server as stored, and redirects each segment to a bucket URL that lives a minute', async () => {
    const s3 = await startTestS3();
    const t = await createTestApp({ env: s3.env });
    try {
      const admin = await signUpAdmin(t.app);
      const ladder = await lectureWithLadder(t, admin.cookie);
      const master = (await t.app.inject({ url: `/api/v1/courses/${ladder.courseId}`, headers: { cookie: admin.cookie } })).json().lectures[0]
        .hls_url as string;
      const first = await t.app.inject({ url: master, headers: { cookie: admin.cookie } });
      expect(first.statusCode).toBe(200);
      expect(first.body).toBe(MASTER);
      const rendition = await t.app.inject({ url: beside(master, '0.m3u8'), headers: { cookie: admin.cookie } });
      // The playlist is the bucket's as stored: its segments come back here, and are redirected.
      const segmentNames = rendition.body.split('\n').filter((line) => line && !line.startsWith('#'));
      expect(segmentNames).toEqual(['0_00000.ts', '0_00001.ts']);
      for (const [index, name] of segmentNames.entries()) {
        const redirected = await t.app.inject({ url: beside(master, name), headers: { cookie: admin.cookie } });
        expect(redirected.statusCode).toBe(302);
        const url = redirected.headers.location as string;
        expect(url.startsWith(s3.settings.endpoint!)).toBe(true);
        // A minute's life: a device signed out or stopped fetches nothing through it for longer.
        expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('60');
        expect(Buffer.from(await (await fetch(url)).arrayBuffer())).toEqual(SEGMENTS[index]);
      }
      expect((await t.app.inject({ url: master })).statusCode).toBe(403);
    } finally {
      await t.close();
      await s3.close();
    }
  });
});
