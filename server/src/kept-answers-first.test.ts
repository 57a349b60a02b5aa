import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courses } from './db/schema.ts';
import { createTestApp, type TestApp } from './test/app.ts';
import { signUp } from './test/http.ts';
import { recordLogs } from './test/logs.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
const BROWSER = 'gzip, deflate, br, zstd';

let t: TestApp;
let port: number;
let learner: string;
const logs = recordLogs();
/** The answers the listener gave before Fastify, as the metrics are told of them. */
const answeredFirst: { route: string | undefined; statusCode: number }[] = [];

beforeAll(async () => {
  // Every request waits for changes only in tests that write behind the app's back; these do not.
  // At debug: a kept page's access log line is written there (at info, none is).
  t = await createTestApp({ env: { LOG_LEVEL: 'debug', METRICS_TOKEN: TOKEN }, logStream: logs.stream, catchUpOnEveryRequest: false });
  learner = (await signUp(t.app)).cookie;
  const now = Date.now();
  // Enough courses for a page that goes out compressed.
  await t.app.ctx.db.insert(courses).values(
    Array.from({ length: 30 }, (_, n) => ({
      title: `Course ${n}: a practical introduction`,
      description: `Lesson plan ${n}. `.repeat(12),
      category: 'Design',
      createdBy: 'Asha Verma',
      thumbnailKey: 'thumbnails/none.png',
      status: 'published' as const,
      publishedAt: new Date(now - n * 1000),
    })),
  );
  await t.app.ctx.changes.caughtUp();
  t.app.ctx.catalogue.invalidate();
  t.app.answeredFirst.push((_method, route, statusCode) => answeredFirst.push({ route, statusCode }));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t?.close());

/** One request on a connection of its own, and the answer's bytes exactly as they came. */
function rawRequest(method: string, url: string, headers: Record<string, string> = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks)));
    socket.on('error', reject);
    const lines = [
      `${method} ${url} HTTP/1.1`,
      `host: 127.0.0.1:${port}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      'connection: close',
    ];
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}

/** An answer's head (the Date line's value left out: it changes each second) and its body. */
function parts(answer: Buffer) {
  const end = answer.indexOf('\r\n\r\n');
  const head = answer
    .subarray(0, end)
    .toString('latin1')
    .replace(/^date: .*$/im, 'date: (any)');
  return { head, body: answer.subarray(end + 4) };
}

const lastLogLine = () =>
  logs
    .entries()
    .filter((entry) => entry.msg === 'request completed')
    .at(-1)!;

describe("a visitor's kept page, answered by the server's listener before Fastify", () => {
  it("is the route's answer, byte for byte: status, headers in their order, body; with its log line and its metrics", async () => {
    for (const url of ['/api/v1/courses', '/api/v1/courses?limit=5']) {
      const first = answeredFirst.length;
      const byRoute = parts(await rawRequest('GET', url, { 'accept-encoding': BROWSER }));
      const routeLine = lastLogLine();
      expect(answeredFirst.length).toBe(first);
      const hits = t.app.ctx.catalogue.stats.hits;
      const kept = parts(await rawRequest('GET', url, { 'accept-encoding': BROWSER }));
      expect(answeredFirst.slice(first)).toEqual([{ route: '/api/v1/courses', statusCode: 200 }]);
      expect(t.app.ctx.catalogue.stats.hits).toBe(hits + 1);
      expect(byRoute.head).toMatch(/^HTTP\/1.1 200 OK\r\n/);
      expect(byRoute.head).toContain('content-encoding: br');
      expect(kept.head).toBe(byRoute.head);
      expect(kept.body.equals(byRoute.body)).toBe(true);

      // The access log line: the same fields in the same order, its own request id, at debug where the route's is at info.
      const keptLine = lastLogLine();
      expect(Object.keys(keptLine)).toEqual(Object.keys(routeLine));
      expect(routeLine.level).toBe(30);
      expect(keptLine).toMatchObject({ req: routeLine.req, statusCode: 200, level: 20 });
      expect(keptLine.reqId).toMatch(/^req-[0-9a-z]+$/);
      expect(keptLine.reqId).not.toBe(routeLine.reqId);
      expect(typeof keptLine.responseTime).toBe('number');
    }
    const scrape = (await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
    expect(scrape).toMatch(/^http_requests_total\{method="GET",route="\/api\/v1\/courses",status_code="200"\} [4-9]\d*$/m);
  });

  it('writes no access log line at info, and counts the answer in the metrics all the same', async () => {
    const url = '/api/v1/courses?limit=4';
    await rawRequest('GET', url, { 'accept-encoding': BROWSER });
    t.app.log.level = 'info';
    try {
      const lines = logs.entries().length;
      const accessLines = () =>
        logs
          .entries()
          .slice(lines)
          .filter((entry) => entry.msg === 'request completed');
      const first = answeredFirst.length;
      const kept = parts(await rawRequest('GET', url, { 'accept-encoding': BROWSER }));
      expect(kept.head).toMatch(/^HTTP\/1.1 200 OK\r\n/);
      expect(answeredFirst.slice(first)).toEqual([{ route: '/api/v1/courses', statusCode: 200 }]);
      expect(accessLines()).toEqual([]);
      // A signed-in learner's read goes the route's way, and its line is written at info.
      await rawRequest('GET', url, { 'accept-encoding': BROWSER, cookie: learner });
      expect(accessLines()).toMatchObject([{ level: 30, req: { url: '/api/v1/courses' } }]);
    } finally {
      t.app.log.level = 'debug';
    }
  });

  it("answers a visitor who holds the page with the route's 304", async () => {
    const url = '/api/v1/courses?limit=7';
    const page = parts(await rawRequest('GET', url, { 'accept-encoding': BROWSER }));
    const etag = /^etag: (.*)$/m.exec(page.head)![1]!;
    const headers = { 'accept-encoding': BROWSER, 'if-none-match': etag };
    // A signed-in learner's request goes the route's way.
    const first = answeredFirst.length;
    const byRoute = parts(await rawRequest('GET', url, { ...headers, cookie: learner }));
    expect(answeredFirst.length).toBe(first);
    const kept = parts(await rawRequest('GET', url, headers));
    expect(answeredFirst.slice(first)).toEqual([{ route: '/api/v1/courses', statusCode: 304 }]);
    expect(byRoute.head).toMatch(/^HTTP\/1.1 304 Not Modified\r\n/);
    expect(kept.head).toBe(byRoute.head);
    expect(kept.body.length).toBe(0);
    expect(lastLogLine()).toMatchObject({ statusCode: 304 });
  });

  it('leaves to Fastify a HEAD, a request naming the session cookie, and every request while the app stops', async () => {
    const url = '/api/v1/courses?limit=9';
    await rawRequest('GET', url, { 'accept-encoding': BROWSER });
    const first = answeredFirst.length;
    const head = parts(await rawRequest('HEAD', url, { 'accept-encoding': BROWSER }));
    expect(head.head).toMatch(/^HTTP\/1.1 200 OK\r\n/);
    await rawRequest('GET', url, { 'accept-encoding': BROWSER, cookie: learner });
    t.app.draining = true;
    try {
      const draining = parts(await rawRequest('GET', url, { 'accept-encoding': BROWSER }));
      expect(draining.head).toMatch(/^connection: close$/im);
    } finally {
      t.app.draining = false;
    }
    expect(answeredFirst.length).toBe(first);
    await rawRequest('GET', url, { 'accept-encoding': BROWSER });
    expect(answeredFirst.length).toBe(first + 1);
  });

  it('stops giving a page once a write changed it', async () => {
    const url = '/api/v1/courses?limit=3';
    const before = parts(await rawRequest('GET', url, { 'accept-encoding': BROWSER }));
    await t.app.ctx.db.insert(courses).values({
      title: 'Added since',
      description: 'New.',
      category: 'Design',
      createdBy: 'Asha Verma',
      thumbnailKey: 'thumbnails/none.png',
      status: 'published',
      publishedAt: new Date(),
    });
    await t.app.ctx.changes.caughtUp();
    const first = answeredFirst.length;
    const after = parts(await rawRequest('GET', url, { 'accept-encoding': BROWSER }));
    expect(answeredFirst.length).toBe(first);
    expect(brotliDecompressSync(after.body).toString()).toContain('Added since');
    expect(before.head).not.toBe(after.head);
  });
});
