import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { signUpAdmin } from '../../test/http.ts';
import { ONE_READ_BYTES } from './media.routes.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t?.close());

/** A GET over a real socket, abandoned by the client as soon as the first bytes of the answer arrive: what a browser's player does. */
function abandonedGet(port: number, url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: url, headers }, (response) => {
      response.once('data', () => {
        request.destroy();
        resolve(response.statusCode ?? 0);
      });
    });
    request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
  });
}

it('serves a video again after a player abandoned a streamed range of it: the file kept open stays open', async () => {
  const admin = await signUpAdmin(t.app);
  const large = randomBytes(ONE_READ_BYTES * 2 + 12_345);
  const key = `videos/${randomBytes(16).toString('hex')}.mp4`;
  await t.app.ctx.media.put(key, large, 'video/mp4');
  const url = await t.app.ctx.media.privateUrl({ key, viewerId: admin.user._id, expiresAt: new Date(Date.now() + 60 * 60 * 1000) });
  const { port } = t.app.server.address() as AddressInfo;

  for (let round = 0; round < 3; round++) {
    expect(await abandonedGet(port, url, { cookie: admin.cookie, range: 'bytes=0-' })).toBe(206);
    // The server sees the socket close and ends its stream of the file.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await t.app.inject({ url, headers: { cookie: admin.cookie, range: 'bytes=1000-1999' } });
    expect(again.statusCode, again.body.slice(0, 200)).toBe(206);
    expect(again.rawPayload.equals(large.subarray(1000, 2000))).toBe(true);
    const whole = await t.app.inject({ url, headers: { cookie: admin.cookie } });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(large)).toBe(true);
  }
});
