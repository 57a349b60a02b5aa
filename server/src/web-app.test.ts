import fs from 'node:fs/promises';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PAGE_ANSWERS_ID } from '@lms/contract/pages';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { lectures, users } from './db/schema.ts';
import { withSecrets } from './secrets.ts';
import { openTestDatabase, TEST_ENV, type TestApp } from './test/app.ts';
import { signUp, signUpAdmin } from './test/http.ts';
import { lectureWithLadder } from './test/ladder.ts';
import { answersScript } from './web-app.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const HLS_MANIFEST_KEY = '../node_modules/hls.js/dist/hls.mjs';
const HLS_CHUNK = 'assets/hls-T3st.js';
const HLS_FETCH = `<link rel="preload" as="script" crossorigin href="/${HLS_CHUNK}" />`;

/** A build of the web app as small as can be: its page ends its body as Vite's does. */
const page = '<!doctype html>\n<html>\n  <head>\n    <title>LMS</title>\n  </head>\n  <body>\n    <div id="root"></div>\n  </body>\n</html>\n';

let t: TestApp;
let webRoot: string;
let courseId: string;
let admin: string;
let subscriber: string;
/** Signed in, with no subscription: the lectures of a course are refused to them. */
let member: string;

beforeAll(async () => {
  webRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-web-'));
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-test-'));
  await fs.writeFile(path.join(webRoot, 'index.html'), page);
  // hls.js in the build's manifest, as Vite names an installed package, for the link that fetches it.
  await fs.mkdir(path.join(webRoot, '.vite'));
  await fs.writeFile(path.join(webRoot, '.vite', 'manifest.json'), JSON.stringify({ [HLS_MANIFEST_KEY]: { file: HLS_CHUNK, isDynamicEntry: true } }));
  const config = withSecrets(loadConfig({ ...TEST_ENV, DATA_DIR: dataDir }));
  const database = await openTestDatabase();
  const app = await buildApp(config, { database, webRoot });
  t = {
    app,
    config,
    database,
    dataDir,
    async close() {
      await app.close();
      await database.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
  admin = (await signUpAdmin(app)).cookie;
  ({ courseId } = await lectureWithLadder(t, admin));
  const learner = await signUp(app);
  await app.ctx.db
    .update(users)
    .set({ subscriptionEndsAt: new Date(Date.now() + 30 * DAY_MS) })
    .where(eq(users.id, learner.user._id));
  subscriber = learner.cookie;
  member = (await signUp(app)).cookie;
});
afterAll(async () => {
  await t?.close();
  await fs.rm(webRoot, { recursive: true, force: true });
});

const lecturePage = (cookie?: string, url = `/course/lecture?id=${courseId}`) =>
  t.app.inject({ url, headers: { 'accept-encoding': 'br', ...(cookie && { cookie }) } });
const htmlOf = (response: Awaited<ReturnType<typeof lecturePage>>) =>
  response.headers['content-encoding'] === 'br' ? zlib.brotliDecompressSync(response.rawPayload).toString() : response.body;

/** A GET on a connection of its own (so that the server's socket has written only this answer), read to its end. */
function getOnNewConnection(url: string, headers: Record<string, string>): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The answers written into a page, by URL below the API root; undefined when it carries none. */
function answersIn(html: string): Record<string, unknown> | undefined {
  const found = new RegExp(`<script type="application/json" id="${PAGE_ANSWERS_ID}">(.*?)</script>`).exec(html);
  return found ? (JSON.parse(found[1]!) as Record<string, unknown>) : undefined;
}

/**
 * An answer with its signed media URLs' expiry and signature left out: they are made anew by the
 * second, for every answer; the viewer and the file they name are kept.
 */
const unsigned = (body: unknown): unknown =>
  JSON.parse(
    JSON.stringify(body)
      .replace(/(\/media\/hls\/[^./]+)\.\d+\.[\w-]+\//g, '$1.…/')
      .replace(/expires=\d+&signature=[\w-]+/g, 'expires=…'),
  );

/** What the API answers `cookie`'s session to each of the lecture page's first reads. */
async function apiAnswers(cookie: string) {
  const urls = ['/user/me', `/courses?id=${courseId}`, `/courses/${courseId}`, `/progress/courses/${courseId}`];
  return Promise.all(
    urls.map(async (url) => {
      const response = await t.app.inject({ url: `/api/v1${url}`, headers: { cookie } });
      return { url, status: response.statusCode, body: response.json() as unknown };
    }),
  );
}

describe("the lecture page's first reads, sent with it", () => {
  it.each([
    ['a subscriber', () => subscriber],
    ['an administrator', () => admin],
  ])("carry, for %s, exactly the API's answers to that session, in a page no cache keeps", async (_who, cookieOf) => {
    const response = await lecturePage(cookieOf());
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.headers['vary']).toMatch(/cookie/i);
    const sent = answersIn(htmlOf(response));
    const expected = await apiAnswers(cookieOf());
    expect(expected.every((answer) => answer.status === 200)).toBe(true);
    expect(unsigned(sent)).toEqual(unsigned(Object.fromEntries(expected.map(({ url, body }) => [url, body]))));
    // The lectures and their video URLs: the session's own, as the API gives them.
    expect((sent![`/courses/${courseId}`] as { lectures: { hls_url: string | null }[] }).lectures[0]!.hls_url).toBeTruthy();
  });

  it('carry the user each session is: two viewers of one address get their own', async () => {
    const mine = answersIn(htmlOf(await lecturePage(subscriber)));
    const theirs = answersIn(htmlOf(await lecturePage(admin)));
    expect((mine!['/user/me'] as { user: { role: string } }).user.role).toBe('USER');
    expect((theirs!['/user/me'] as { user: { role: string } }).user.role).toBe('ADMIN');
  });

  it('leave out what the API refuses that session: a member without a subscription gets no lectures', async () => {
    const sent = answersIn(htmlOf(await lecturePage(member)));
    const expected = await apiAnswers(member);
    const refused = expected.filter((answer) => answer.status !== 200).map((answer) => answer.url);
    expect(refused).toContain(`/courses/${courseId}`);
    expect(unsigned(sent)).toEqual(unsigned(Object.fromEntries(expected.filter((answer) => answer.status === 200).map(({ url, body }) => [url, body]))));
  });

  it.each([
    ['a visitor', undefined],
    ['a visitor with cookies that are no session', 'theme=dark; lms_sessionx=1'],
  ])('are not sent to %s: the page is every visitor’s, as cached as theirs', async (_who, cookie) => {
    const response = await lecturePage(cookie);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['vary']).toMatch(/cookie/i);
    const html = htmlOf(response);
    expect(html).not.toContain(PAGE_ANSWERS_ID);
    expect(html).toBe(htmlOf(await t.app.inject({ url: '/courses', headers: { 'accept-encoding': 'br' } })));
  });

  it.each([
    ['br', (bytes: Buffer) => zlib.brotliDecompressSync(bytes)],
    ['gzip', (bytes: Buffer) => zlib.gunzipSync(bytes)],
    ['identity', (bytes: Buffer) => bytes],
  ])('are not sent for a session that has ended: the page is every visitor’s (%s)', async (encoding, decode) => {
    const response = await t.app.inject({
      url: `/course/lecture?id=${courseId}`,
      headers: { 'accept-encoding': encoding, cookie: 'lms_session=not-a-session' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
    expect(decode(response.rawPayload).toString()).toBe(htmlOf(await t.app.inject({ url: '/courses', headers: { 'accept-encoding': 'br' } })));
  });

  it('are not sent with other pages, nor for a lecture page that names no course', async () => {
    for (const url of ['/courses', `/course/description?id=${courseId}`, '/user/profile']) {
      const response = await t.app.inject({ url, headers: { cookie: subscriber } });
      expect(response.body, url).not.toContain(PAGE_ANSWERS_ID);
      expect(response.headers['cache-control']).toBe('no-cache');
    }
    const sent = answersIn(htmlOf(await lecturePage(subscriber, '/course/lecture')));
    expect(Object.keys(sent!)).toEqual(['/user/me']);
  });

  it('keep a title with markup in it inside the script, as the API wrote it', async () => {
    const title = 'Tags </script><script>alert(1)</script> & <!-- more';
    const lectureId = (answersIn(htmlOf(await lecturePage(subscriber)))![`/courses/${courseId}`] as { lectures: { _id: string }[] }).lectures[0]!._id;
    await t.app.ctx.db.update(lectures).set({ title }).where(eq(lectures.id, lectureId));
    try {
      const html = htmlOf(await lecturePage(subscriber));
      const script = html.slice(html.indexOf(`id="${PAGE_ANSWERS_ID}">`));
      expect(script.indexOf('</script>')).toBe(script.lastIndexOf('</script>', script.indexOf('</body>')));
      expect((answersIn(html)![`/courses/${courseId}`] as { lectures: { title: string }[] }).lectures[0]!.title).toBe(title);
    } finally {
      await t.app.ctx.db.update(lectures).set({ title: 'L' }).where(eq(lectures.id, lectureId));
    }
  });

  describe('with the link that fetches hls.js', () => {
    it('when the lecture the page plays first has a ladder: in the part sent with the answers, before them', async () => {
      const html = htmlOf(await lecturePage(subscriber));
      expect(html.split(HLS_FETCH)).toHaveLength(2);
      expect(html.indexOf(HLS_FETCH)).toBeGreaterThan(html.indexOf('<div id="root">'));
      expect(html.indexOf(HLS_FETCH)).toBeLessThan(html.indexOf(PAGE_ANSWERS_ID));
    });

    it('for the lecture the page plays (the one `?lecture=` names, else the first), not when it plays as MP4', async () => {
      const { lectures: sent } = answersIn(htmlOf(await lecturePage(subscriber)))![`/courses/${courseId}`] as { lectures: { _id: string }[] };
      const lectureId = sent[0]!._id;
      // Named by `?lecture=`, or unknown there (the page then plays the first): the ladder decides.
      expect(htmlOf(await lecturePage(subscriber, `/course/lecture?id=${courseId}&lecture=${lectureId}`))).toContain(HLS_FETCH);
      expect(htmlOf(await lecturePage(subscriber, `/course/lecture?id=${courseId}&lecture=no-such-lecture`))).toContain(HLS_FETCH);
      const [row] = await t.app.ctx.db.select({ hlsKey: lectures.hlsKey }).from(lectures).where(eq(lectures.id, lectureId));
      await t.app.ctx.db.update(lectures).set({ hlsKey: null }).where(eq(lectures.id, lectureId));
      try {
        const html = htmlOf(await lecturePage(subscriber));
        expect((answersIn(html)![`/courses/${courseId}`] as { lectures: { hls_url: string | null }[] }).lectures[0]!.hls_url).toBeNull();
        expect(html).not.toContain(HLS_FETCH);
      } finally {
        await t.app.ctx.db.update(lectures).set({ hlsKey: row!.hlsKey }).where(eq(lectures.id, lectureId));
      }
    });

    it('not without the lecture list: a member without a subscription, a visitor', async () => {
      expect(htmlOf(await lecturePage(member))).not.toContain(HLS_FETCH);
      expect(htmlOf(await lecturePage())).not.toContain(HLS_FETCH);
    });
  });

  describe('over a connection', () => {
    let origin: string;
    /** The server's end of each connection, in the order they came. */
    const sockets: net.Socket[] = [];
    beforeAll(async () => {
      t.app.server.on('connection', (socket: net.Socket) => sockets.push(socket));
      origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    });

    // The embedded database answers the reads on the server's own thread: while they run, nothing is
    // written, so the page's head (and the modules it names) must be out before they start.
    it.each(['br', 'gzip', 'identity'])('are asked only once the page up to them is on the wire (%s)', async (encoding) => {
      const ask = t.app.inject.bind(t.app) as unknown as (options: InjectOptions) => Promise<unknown>;
      let writtenWhenAsked: number | undefined;
      const spy = vi.spyOn(t.app, 'inject').mockImplementation(((options: InjectOptions) => {
        writtenWhenAsked ??= sockets.at(-1)!.bytesWritten;
        return ask(options);
      }) as unknown as typeof t.app.inject);
      try {
        const { headers, body } = await getOnNewConnection(`${origin}/course/lecture?id=${courseId}`, { cookie: subscriber, 'accept-encoding': encoding });
        expect(headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
        const html = (encoding === 'br' ? zlib.brotliDecompressSync(body) : encoding === 'gzip' ? zlib.gunzipSync(body) : body).toString();
        expect(Object.keys(answersIn(html)!)).toContain(`/courses/${courseId}`);
      } finally {
        spy.mockRestore();
      }
      expect(writtenWhenAsked).toBeGreaterThan(0);
    });
  });

  it('writes the answers as JSON text with no "<" in it', () => {
    expect(answersScript([['/a', '{"x":"</script>"}']])).toBe(
      `<script type="application/json" id="${PAGE_ANSWERS_ID}">{"/a":{"x":"\\u003c/script>"}}</script>`,
    );
  });
});
