import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import Fastify, { type LightMyRequestResponse } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import type { Context } from '../../context.ts';
import { sessions } from '../../db/schema.ts';
import { mailedResetToken } from '../../test/mail.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { login, sessionCookie, signUp } from '../../test/http.ts';
import { hashToken } from '../auth/sessions.ts';
import { createOrPromoteAdmin } from '../users/users.service.ts';
import { ONE_READ_BYTES, privateMediaRoutes } from './media.routes.ts';

const SIZE = 300_000;
const video = randomBytes(SIZE);
const newVideoKey = (extension = 'mp4') => `videos/${randomBytes(16).toString('hex')}.${extension}`;
/** Past the one-hour cache cap, so max-age is exactly 3600. */
const inTwoHours = () => new Date(Date.now() + 2 * 60 * 60 * 1000);

let t: TestApp;
let key: string;
/** An administrator (may watch lectures), a second one, and a plain user (no subscription). */
let admin: { id: string; cookie: string };
let otherAdmin: { id: string; cookie: string };
let plain: { id: string; cookie: string };

async function newAdmin() {
  const { email, password, fullName } = await signUp(t.app);
  const { user } = await createOrPromoteAdmin(t.app.ctx, { email, password, fullName });
  // Promotion ends the user's sessions; log in again as the administrator.
  return { id: user.id, email, password, cookie: sessionCookie(await login(t.app, email, password)) };
}

beforeAll(async () => {
  t = await createTestApp();
  key = newVideoKey();
  await t.app.ctx.media.put(key, video, 'video/mp4');
  admin = await newAdmin();
  otherAdmin = await newAdmin();
  const signup = await signUp(t.app);
  plain = { id: signup.user._id, cookie: signup.cookie };
});
afterAll(() => t?.close());

const urlFor = (viewerId: string, options: { key?: string; expiresAt?: Date } = {}) =>
  t.app.ctx.media.privateUrl({ key: options.key ?? key, viewerId, expiresAt: options.expiresAt ?? inTwoHours() });

const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  t.app.inject({ method, url, headers: { cookie: admin.cookie, ...headers } });

/** A file outside the media folder, as the video pipeline leaves one to be moved in. */
async function temporaryFile(text: string): Promise<string> {
  const file = path.join(t.dataDir, `${randomBytes(8).toString('hex')}.tmp`);
  await fs.writeFile(file, text);
  return file;
}

/** The same URL with one query parameter replaced. */
function withQuery(url: string, name: string, value: string) {
  const parsed = new URL(url, 'http://test.invalid');
  parsed.searchParams.set(name, value);
  return `${parsed.pathname}${parsed.search}`;
}

/** A GET whose path goes out byte for byte, without the ".." folding of inject, fetch and browsers. */
function rawGet(port: number, rawPath: string, cookie: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: rawPath, headers: { cookie } }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body }));
      })
      .on('error', reject);
  });
}

function expectRefused(response: LightMyRequestResponse, message: string = answers.videoLinkInvalid) {
  expect(response.statusCode).toBe(403);
  expect(response.json()).toEqual({ success: false, message });
}

describe('GET /media/private/* (signed lecture video)', () => {
  it('serves the whole video to its viewer with video headers', async () => {
    const response = await get(await urlFor(admin.id));

    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(video)).toBe(true);
    expect(response.headers['content-type']).toBe('video/mp4');
    expect(response.headers['content-length']).toBe(String(SIZE));
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.headers.etag).toMatch(/^(W\/)?"[^"]+"$/);
    expect(new Date(response.headers['last-modified'] as string).getTime()).not.toBeNaN();
    expect(response.headers['cache-control']).toBe('private, max-age=3600');
    // The app's security headers stay.
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it.each([
    ['first bytes', 'bytes=0-1023', 0, 1023],
    ['a middle slice', 'bytes=100000-165535', 100_000, 165_535],
    ['a suffix', 'bytes=-500', SIZE - 500, SIZE - 1],
    ['an open end', 'bytes=1000-', 1000, SIZE - 1],
    ['a range past the end, cut to the size', `bytes=${SIZE - 10}-${SIZE + 5000}`, SIZE - 10, SIZE - 1],
  ])('answers %s with 206 and exactly those bytes', async (_name, range, start, end) => {
    const response = await get(await urlFor(admin.id), { range });

    expect(response.statusCode).toBe(206);
    expect(response.headers['content-range']).toBe(`bytes ${start}-${end}/${SIZE}`);
    expect(response.headers['content-length']).toBe(String(end - start + 1));
    expect(response.headers['content-type']).toBe('video/mp4');
    expect(response.rawPayload.equals(video.subarray(start, end + 1))).toBe(true);
  });

  it('answers an unsatisfiable range with 416 and the size', async () => {
    const response = await get(await urlFor(admin.id), { range: 'bytes=999999999-' });

    expect(response.statusCode).toBe(416);
    expect(response.headers['content-range']).toBe(`bytes */${SIZE}`);
    expect(response.json()).toEqual({ success: false, message: answers.invalidRequest });
  });

  it('answers HEAD with the headers and no body, for the whole file and for a range', async () => {
    const url = await urlFor(admin.id);
    const whole = await get(url, {}, 'HEAD');
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-length']).toBe(String(SIZE));
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.length).toBe(0);

    const range = await get(url, { range: 'bytes=0-99' }, 'HEAD');
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-range']).toBe(`bytes 0-99/${SIZE}`);
    expect(range.rawPayload.length).toBe(0);
  });

  it('answers a conditional request for an unchanged video with 304', async () => {
    const url = await urlFor(admin.id);
    const first = await get(url);
    const etag = first.headers.etag as string;

    const again = await get(url, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('private, max-age=3600');

    const since = await get(url, { 'if-modified-since': first.headers['last-modified'] as string });
    expect(since.statusCode).toBe(304);

    const changed = await get(url, { 'if-none-match': '"something-else"' });
    expect(changed.statusCode).toBe(200);
    expect(changed.rawPayload.equals(video)).toBe(true);

    const mismatch = await get(url, { 'if-match': '"something-else"' });
    expect(mismatch.statusCode).toBe(412);
    expect(mismatch.json()).toEqual({ success: false, message: answers.invalidRequest });
  });

  it('honours If-Range: the range while the video is unchanged, the whole video otherwise', async () => {
    const url = await urlFor(admin.id);
    const first = await get(url, { range: 'bytes=0-9' });

    const byDate = await get(url, { range: 'bytes=10-19', 'if-range': first.headers['last-modified'] as string });
    expect(byDate.statusCode).toBe(206);
    expect(byDate.rawPayload.equals(video.subarray(10, 20))).toBe(true);

    const byTag = await get(url, { range: 'bytes=10-19', 'if-range': first.headers.etag as string });
    expect(byTag.statusCode).toBe(206);

    const stale = await get(url, { range: 'bytes=10-19', 'if-range': '"another-version"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.equals(video)).toBe(true);
  });

  it('lets caches keep the answer only until the link expires, and at most an hour', async () => {
    const soon = await get(await urlFor(admin.id, { expiresAt: new Date(Date.now() + 10 * 60 * 1000) }));
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(soon.headers['cache-control'] as string)?.[1]);
    expect(maxAge).toBeGreaterThanOrEqual(598);
    expect(maxAge).toBeLessThanOrEqual(600);

    const late = await get(await urlFor(admin.id, { expiresAt: new Date(Date.now() + 24 * 60 * 60 * 1000) }));
    expect(late.headers['cache-control']).toBe('private, max-age=3600');
  });

  it.each([
    ['mp4', 'video/mp4'],
    ['m4v', 'video/mp4'],
    ['webm', 'video/webm'],
    ['mov', 'video/quicktime'],
    ['mkv', 'video/x-matroska'],
    ['ogv', 'video/ogg'],
  ])('gives a .%s video the type %s', async (extension, type) => {
    const other = newVideoKey(extension);
    await t.app.ctx.media.put(other, Buffer.from('tiny video'), type);
    const response = await get(await urlFor(admin.id, { key: other }));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(type);
    expect(response.body).toBe('tiny video');
  });

  it('serves a replaced video as it is now, and 404 once it is deleted', async () => {
    const replaced = newVideoKey();
    await t.app.ctx.media.put(replaced, Buffer.from('first upload'), 'video/mp4');
    const url = await urlFor(admin.id, { key: replaced });
    expect((await get(url)).body).toBe('first upload');
    expect((await get(url, { range: 'bytes=0-4' })).body).toBe('first');

    await t.app.ctx.media.put(replaced, Buffer.from('second upload, longer'), 'video/mp4');
    expect((await get(url)).body).toBe('second upload, longer');
    const range = await get(url, { range: 'bytes=7-12' });
    expect(range.headers['content-range']).toBe('bytes 7-12/21');
    expect(range.body).toBe('upload');

    await t.app.ctx.media.remove(replaced);
    const gone = await get(url, { range: 'bytes=0-4' });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ success: false, message: answers.notFound });
  });

  it('answers a plain request and the same one with a condition that holds alike: status, headers and bytes', async () => {
    const url = await urlFor(admin.id);
    const { etag } = (await get(url)).headers;
    const without = (response: LightMyRequestResponse) => {
      const { date: _date, ...headers } = response.headers;
      return { status: response.statusCode, headers, body: response.rawPayload };
    };
    // A player's plain requests are read from the storage's open files (this small video, after the
    // first, from its contents kept in memory); a conditional one goes through send.
    for (const range of [undefined, 'bytes=0-1023', 'bytes=1000-', `bytes=${SIZE - 10}-${SIZE + 5000}`]) {
      const plain = await get(url, range ? { range } : {});
      const conditional = await get(url, range ? { range, 'if-range': etag as string } : { 'if-none-match': '"another"' });
      expect(without(plain)).toEqual(without(conditional));
      expect(Object.keys(plain.headers)).toEqual(Object.keys(conditional.headers));
    }
  });

  it('serves a video larger than one read, whole and as a large range', async () => {
    const large = randomBytes(ONE_READ_BYTES * 2 + 12_345);
    const largeKey = newVideoKey();
    await t.app.ctx.media.put(largeKey, large, 'video/mp4');
    const url = await urlFor(admin.id, { key: largeKey });

    const whole = await get(url);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-length']).toBe(String(large.length));
    expect(whole.rawPayload.equals(large)).toBe(true);

    const range = await get(url, { range: `bytes=100-${ONE_READ_BYTES + 200}` });
    expect(range.statusCode).toBe(206);
    expect(range.rawPayload.equals(large.subarray(100, ONE_READ_BYTES + 201))).toBe(true);
    // And again, from the same open file, once the first stream is done with it.
    expect((await get(url, { range: 'bytes=5-9' })).rawPayload.equals(large.subarray(5, 10))).toBe(true);
  });

  it('serves a video deleted and stored again under its key as it is now', async () => {
    const again = newVideoKey();
    await t.app.ctx.media.put(again, Buffer.from('before'), 'video/mp4');
    const url = await urlFor(admin.id, { key: again });
    expect((await get(url)).body).toBe('before');
    await t.app.ctx.media.remove(again);
    expect((await get(url)).statusCode).toBe(404);
    await t.app.ctx.media.moveIn(again, await temporaryFile('after, moved in'), 'video/mp4');
    expect((await get(url, { range: 'bytes=0-4' })).body).toBe('after');
  });

  it('answers 404 for a correctly signed link to a video that is not there', async () => {
    const response = await get(await urlFor(admin.id, { key: newVideoKey() }));
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ success: false, message: answers.notFound });
  });
});

describe('GET /media/private/* refuses links that are not good for this request', () => {
  it('refuses an expired link', async () => {
    const response = await get(await urlFor(admin.id, { expiresAt: new Date(Date.now() - 1000) }));
    expectRefused(response);
  });

  it('refuses a link without a signature, or without any query', async () => {
    const url = await urlFor(admin.id);
    expectRefused(await get(url.split('?')[0]!));
    const parsed = new URL(url, 'http://test.invalid');
    parsed.searchParams.delete('signature');
    expectRefused(await get(`${parsed.pathname}${parsed.search}`));
  });

  it('refuses a tampered signature, and one signed with another secret', async () => {
    const url = await urlFor(admin.id);
    const signature = new URL(url, 'http://test.invalid').searchParams.get('signature')!;
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    expectRefused(await get(withQuery(url, 'signature', flipped)));
    expectRefused(await get(withQuery(url, 'signature', randomBytes(32).toString('base64url'))));
  });

  it('refuses a link moved to another video', async () => {
    const other = newVideoKey();
    await t.app.ctx.media.put(other, Buffer.from('another lecture'), 'video/mp4');
    const url = await urlFor(admin.id);
    expectRefused(await get(url.replace(key, other)));
  });

  it('refuses a link whose expiry was stretched', async () => {
    const url = await urlFor(admin.id);
    const expires = Number(new URL(url, 'http://test.invalid').searchParams.get('expires'));
    expectRefused(await get(withQuery(url, 'expires', String(expires + 3600))));
  });

  it('refuses a link handed to someone else, even with the viewer rewritten to them', async () => {
    const url = await urlFor(admin.id);
    expectRefused(await get(url, { cookie: otherAdmin.cookie }));
    expectRefused(await get(withQuery(url, 'viewer', otherAdmin.id), { cookie: otherAdmin.cookie }));
    // The rightful viewer still gets it.
    expect((await get(url)).statusCode).toBe(200);
  });

  it('refuses a logged-out request with 403: the link is no good without its viewer', async () => {
    const url = await urlFor(admin.id);
    expectRefused(await t.app.inject({ url }));
    expectRefused(await get(url, { cookie: 'lms_session=not-a-session' }));
  });

  it('refuses a viewer who may not watch lectures (no subscription), even with their own link', async () => {
    expectRefused(await get(await urlFor(plain.id), { cookie: plain.cookie }), answers.notAllowed);
  });

  it.each([
    ['a duplicated parameter', (url: string) => `${url}&viewer=${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}`],
    ['a non-numeric expiry', (url: string) => withQuery(url, 'expires', 'tomorrow')],
    ['an absurd expiry', (url: string) => withQuery(url, 'expires', '9'.repeat(40))],
    ['a viewer that is no id', (url: string) => withQuery(url, 'viewer', 'admin')],
    ['a signature of the wrong length', (url: string) => withQuery(url, 'signature', 'abc')],
  ])('refuses a malformed link (%s) with 403, not 400 or 500', async (_name, change) => {
    expectRefused(await get(change(await urlFor(admin.id))));
  });
});

describe('a viewer once checked is cached, and forgotten when access ends', () => {
  /** The first kilobyte of `url` with `cookie`, as a player asks for it. */
  const play = (url: string, cookie: string) => get(url, { range: 'bytes=0-1023', cookie });
  const expectPlayed = (response: LightMyRequestResponse) => {
    expect(response.statusCode, response.body).toBe(206);
    expect(response.rawPayload.equals(video.subarray(0, 1024))).toBe(true);
  };
  const tokenOf = (cookie: string) => cookie.slice('lms_session='.length);

  it("refuses a session ended behind the app's back at once, though its viewer was cached", async () => {
    const viewer = await newAdmin();
    const url = await urlFor(viewer.id);
    expectPlayed(await play(url, viewer.cookie));
    expectPlayed(await play(url, viewer.cookie));
    // The session ends in the database, as it would through another instance.
    const deleted = await t.database.db
      .delete(sessions)
      .where(eq(sessions.tokenHash, hashToken(tokenOf(viewer.cookie))))
      .returning();
    expect(deleted).toHaveLength(1);
    await t.app.ctx.changes.caughtUp();
    expectRefused(await play(url, viewer.cookie));
  });

  it("never lets a remembered session open another viewer's link", async () => {
    const first = await newAdmin();
    const second = await newAdmin();
    const url = await urlFor(first.id);
    expectPlayed(await play(url, first.cookie));
    expectPlayed(await play(await urlFor(second.id), second.cookie));

    expectRefused(await play(url, second.cookie));
    expectRefused(await play(withQuery(url, 'viewer', second.id), second.cookie));
    expectRefused(await t.app.inject({ url, headers: { range: 'bytes=0-1023' } }));
    expectRefused(await play(url, 'lms_session=not-a-session'));
    expectPlayed(await play(url, first.cookie));
  });

  it('still checks the key, signature and expiry of every link a remembered session brings', async () => {
    const viewer = await newAdmin();
    const url = await urlFor(viewer.id);
    expectPlayed(await play(url, viewer.cookie));

    const signature = new URL(url, 'http://test.invalid').searchParams.get('signature')!;
    const expires = Number(new URL(url, 'http://test.invalid').searchParams.get('expires'));
    const other = newVideoKey();
    await t.app.ctx.media.put(other, video, 'video/mp4');
    const avatarKey = `avatars/${randomBytes(16).toString('hex')}.webp`;
    await t.app.ctx.media.put(avatarKey, Buffer.from('avatar bytes'), 'image/webp');

    expectRefused(await play(withQuery(url, 'signature', `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`), viewer.cookie));
    expectRefused(await play(withQuery(url, 'expires', String(expires + 3600)), viewer.cookie));
    expectRefused(await play(url.replace(key, other), viewer.cookie));
    expectRefused(await play(await urlFor(viewer.id, { expiresAt: new Date(Date.now() - 1000) }), viewer.cookie));
    expectRefused(await play(await urlFor(viewer.id, { key: avatarKey }), viewer.cookie));
    expectPlayed(await play(url, viewer.cookie));
  });

  it.each(['GET', 'POST'] as const)('refuses the old cookie at once after a %s logout', async (method) => {
    const viewer = await newAdmin();
    const url = await urlFor(viewer.id);
    expectPlayed(await play(url, viewer.cookie));

    const loggedOut = await t.app.inject({ method, url: '/api/v1/user/logout', headers: { cookie: viewer.cookie } });
    expect(loggedOut.statusCode).toBe(200);
    expectRefused(await play(url, viewer.cookie));
  });

  it("refuses every old cookie at once after a password change, and plays for the caller's new session", async () => {
    const viewer = await newAdmin();
    const otherDevice = sessionCookie(await login(t.app, viewer.email, viewer.password));
    const url = await urlFor(viewer.id);
    expectPlayed(await play(url, viewer.cookie));
    expectPlayed(await play(url, otherDevice));

    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/change-password',
      headers: { cookie: viewer.cookie },
      payload: { oldPassword: viewer.password, newPassword: 'better#456' },
    });
    expect(changed.statusCode).toBe(200);
    expectRefused(await play(url, viewer.cookie));
    expectRefused(await play(url, otherDevice));
    expectPlayed(await play(url, sessionCookie(changed)));
  });

  it('refuses the old cookie at once after a password reset through the mailed link', async () => {
    const viewer = await newAdmin();
    const url = await urlFor(viewer.id);
    expectPlayed(await play(url, viewer.cookie));

    expect((await t.app.inject({ method: 'POST', url: '/api/v1/user/reset', payload: { email: viewer.email } })).statusCode).toBe(200);
    const reset = await t.app.inject({
      method: 'POST',
      url: `/api/v1/user/reset/${await mailedResetToken(t.dataDir, viewer.email)}`,
      payload: { password: 'fresh#789' },
    });
    expect(reset.statusCode).toBe(200);
    expectRefused(await play(url, viewer.cookie));
  });
});

describe('GET /media/private/* serves only lecture videos', () => {
  const secret = 'not for the web';
  beforeAll(() => fs.writeFile(path.join(t.dataDir, 'secret.txt'), secret));
  const signedQuery = async () => new URL(await urlFor(admin.id), 'http://test.invalid').search;

  it.each([
    ['an encoded parent folder', '%2e%2e%2f%2e%2e%2fsecret.txt'],
    ['an encoded escape from videos', 'videos%2f%2e%2e%2f%2e%2e%2fsecret.txt'],
    ['an encoded escape after videos/', 'videos/..%2f..%2fsecret.txt'],
    ['a double-encoded parent folder', '%252e%252e%252fsecret.txt'],
    ['a folder', 'videos'],
    ['a folder with a slash', 'videos/'],
    ['a key with a null byte', 'videos/%00.mp4'],
    ['an uppercase key', `videos/${'A'.repeat(32)}.mp4`],
  ])('refuses %s with 403', async (_name, suffix) => {
    const response = await get(`/media/private/${suffix}${await signedQuery()}`);
    expectRefused(response);
  });

  it('never serves a file above the media folder when the path has literal ../ (inject folds them first)', async () => {
    // app.inject (like browsers) resolves "..", so the request never reaches the video route at all.
    const response = await get(`/media/private/videos/../../../secret.txt${await signedQuery()}`);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.body).not.toContain(secret);
  });

  it('refuses literal ../ sent as is over a real socket (as curl --path-as-is would)', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const query = await signedQuery();
    for (const rawPath of ['/media/private/../secret.txt', '/media/private/videos/../../secret.txt', '/media/private/videos/../videos/x.mp4']) {
      const { status, body } = await rawGet(port, `${rawPath}${query}`, admin.cookie);
      expect(status, rawPath).toBe(403);
      expect(body).not.toContain(secret);
    }
  });

  it('refuses a correctly signed link to a key outside the videos folder (an avatar)', async () => {
    const avatarKey = `avatars/${randomBytes(16).toString('hex')}.webp`;
    await t.app.ctx.media.put(avatarKey, Buffer.from('avatar bytes'), 'image/webp');
    const response = await get(await urlFor(admin.id, { key: avatarKey }));
    expectRefused(response);
  });

  it('never serves a video through the public media path', async () => {
    const response = await t.app.inject({ url: `/media/${key}`, headers: { cookie: admin.cookie } });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.rawPayload.equals(video)).toBe(false);
  });
});

describe('privateMediaRoutes with S3 storage', () => {
  async function routesFor(kind: 'local' | 's3') {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.decorate('ctx', { config: { storage: { kind }, dataDir: t.dataDir, sessionSecret: 'x' } } as unknown as Context);
    await app.register(privateMediaRoutes);
    await app.ready();
    const registered = app.hasRoute({ method: 'GET', url: '/media/private/*' });
    await app.close();
    return registered;
  }

  it('registers nothing, as the bucket serves videos through presigned URLs', async () => {
    expect(await routesFor('local')).toBe(true);
    expect(await routesFor('s3')).toBe(false);
  });
});
