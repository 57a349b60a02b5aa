import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import type { Site } from '@lms/contract/settings';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { users } from './db/schema.ts';
import { hlsMasterUrl } from './features/media/hls-urls.ts';
import { siteOf } from './features/settings/site-settings.ts';
import { headTags, siteTags } from './features/storefront/page-head.ts';
import { defaultHead } from './features/storefront/storefront.service.ts';
import { withSecrets } from './secrets.ts';
import { PAGE_MODULES } from './web-app.ts';
import { createTestApp, openTestDatabase, TEST_ENV, type TestApp } from './test/app.ts';
import { rowCount } from './test/db.ts';
import { recordLogs } from './test/logs.ts';
import { login, multipart, newSignup, pngImage, signUp, signUpAdmin } from './test/http.ts';

/** Everything the app logged, to check that no secret ends up there. */
const { lines: logLines, stream: logStream } = recordLogs();

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { LOG_LEVEL: 'info' }, logStream });
  t.app.get('/api/v1/test-only/boom', async () => {
    throw new Error('database password is hunter2');
  });
});
afterAll(() => t?.close());

describe('GET /healthz', () => {
  it('answers 200 once the database answers', async () => {
    const response = await t.app.inject({ url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });
});

describe('security headers', () => {
  it.each(['/healthz', '/', '/courses', '/api/docs', '/api/docs/json'])("are helmet's whole set on the page or document %s", async (url) => {
    const response = await t.app.inject({ url });
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'cross-origin-resource-policy': 'same-origin',
      'cross-origin-opener-policy': 'same-origin',
      'referrer-policy': 'no-referrer',
    });
    expect(response.headers['x-powered-by']).toBeUndefined();
  });

  it.each(['/api/v1/courses', '/api/v1/user/me', '/api/v1/no-such-route'])(
    'on the JSON of %s are the ones JSON needs, and a policy that allows nothing',
    async (url) => {
      const response = await t.app.inject({ url });
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers).toMatchObject({
        'content-security-policy': "default-src 'none';frame-ancestors 'none'",
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'cross-origin-resource-policy': 'same-origin',
        'referrer-policy': 'no-referrer',
      });
      // Headers only a page acts on are left out.
      for (const pageOnly of [
        'cross-origin-opener-policy',
        'origin-agent-cluster',
        'x-dns-prefetch-control',
        'x-download-options',
        'x-permitted-cross-domain-policies',
        'x-xss-protection',
        'x-powered-by',
      ]) {
        expect(response.headers[pageOnly], pageOnly).toBeUndefined();
      }
    },
  );
});

describe('OpenAPI', () => {
  it('describes the account routes at /api/docs from the same schemas', async () => {
    const spec = (await t.app.inject({ url: '/api/docs/json' })).json();
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(['/api/v1/user/register', '/api/v1/user/login', '/api/v1/user/me', '/api/v1/user/update/{id}', '/api/v1/user/reset/{token}']),
    );
    expect(spec.paths['/api/v1/user/login'].post.requestBody.content['application/json'].schema.required).toEqual(['email', 'password']);
    const ui = await t.app.inject({ url: '/api/docs' });
    expect(ui.statusCode).toBeLessThan(400);
  });
});

describe('errors', () => {
  it('answers unknown API paths with a JSON 404', async () => {
    const response = await t.app.inject({ url: '/api/v1/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ success: false, message: answers.notFound });
  });

  it('hides the detail of an unexpected failure behind a 500, and logs it', async () => {
    const response = await t.app.inject({ url: '/api/v1/test-only/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ success: false, message: answers.internalError });
    expect(logLines.join('')).toContain('hunter2');
  });
});

describe('bad input', () => {
  const post = (payload: string | Buffer, contentType: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/user/login', payload, headers: { 'content-type': contentType } });

  it('answers malformed JSON with 400', async () => {
    const response = await post('{"email": "a@b.co", "password": ', 'application/json');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: answers.invalidJson });
  });

  it('answers a wrong content type with 415', async () => {
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded']) {
      const response = await post('email=a@b.co&password=x', type);
      expect(response.statusCode).toBe(415);
      expect(response.json().success).toBe(false);
    }
  });

  it('answers an oversized body with 413', async () => {
    const response = await post(JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(400 * 1024) }), 'application/json');
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ success: false, message: answers.requestTooLarge });
  });

  it('refuses __proto__ and constructor keys (400) and writes nothing', async () => {
    const before = await rowCount(t.database, users);
    for (const payload of [
      '{"email":"a@b.co","password":"x","__proto__":{"role":"ADMIN"}}',
      '{"constructor":{"prototype":{"x":1}},"email":"a@b.co","password":"x"}',
    ]) {
      const response = await post(payload, 'application/json');
      expect(response.statusCode).toBe(400);
    }
    expect(({} as Record<string, unknown>).role).toBeUndefined();
    expect(await rowCount(t.database, users)).toBe(before);
  });

  it('answers 100 KB strings with 400, writing nothing', async () => {
    const long = 'a'.repeat(100 * 1024);
    const before = await rowCount(t.database, users);
    expect((await post(JSON.stringify({ email: `${long}@b.co`, password: 'x' }), 'application/json')).statusCode).toBe(400);
    const signup = await multipart({ ...newSignup({ fullName: long }), avatar: { bytes: await pngImage(), filename: 'a.png' } });
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/user/register', ...signup });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(await rowCount(t.database, users)).toBe(before);
  });

  it('treats injection-looking strings as plain data', async () => {
    const account = await signUp(t.app, { fullName: "Robert'); DROP TABLE users;--" });
    expect(account.user.fullName).toBe("Robert'); DROP TABLE users;--");
    for (const email of ["' OR '1'='1' --@x.co", "a@b.co' OR 1=1--", '{"$gt":""}']) {
      const response = await login(t.app, email, "' OR '1'='1");
      expect([400, 401]).toContain(response.statusCode);
    }
    const typed = await t.app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { email: { $gt: '' }, password: ['x'] } });
    expect(typed.statusCode).toBe(400);
    expect((await login(t.app, account.email, account.password)).statusCode).toBe(200);
  });

  it('answers a broken multipart body with 400', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/register',
      payload: '--xyz\r\nContent-Disposition: form-data; name="fullName"\r\n\r\nAsha',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
    });
    expect(response.statusCode).toBe(400);
  });

  it('keeps serving after all of the above', async () => {
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });
});

describe('logs', () => {
  it('never contain passwords, session tokens, cookies or reset tokens', async () => {
    const account = await signUp(t.app, { password: 'Sekr3t!pass' });
    const loggedIn = await login(t.app, account.email, account.password);
    const token = loggedIn.cookies.find((c) => c.name === 'lms_session')!.value;
    await t.app.inject({ url: '/api/v1/user/me', headers: { cookie: `lms_session=${token}` } });
    await t.app.inject({ method: 'POST', url: '/api/v1/user/reset/SuperSecretResetToken1234567', payload: { password: 'Other#pass1' } });
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/change-password',
      headers: { cookie: `lms_session=${token}` },
      payload: { oldPassword: 'Sekr3t!pass', newPassword: 'Sekr3t!pass2' },
    });

    const logs = logLines.join('');
    expect(logs).toContain('/api/v1/user/login');
    expect(logs).toContain('/api/v1/user/reset/[redacted]');
    for (const secret of ['Sekr3t!pass', token, 'SuperSecretResetToken1234567', 'Other#pass1', 'lms_session=']) {
      expect(logs).not.toContain(secret);
    }
  });

  it('mask the token of every link and the grant of every video URL a request carries', async () => {
    const before = logLines.length;
    const tokens = Array.from({ length: 5 }, (_, i) => `Link${i}Token${randomBytes(16).toString('base64url')}`);
    const grant = { key: `hls/${randomBytes(16).toString('hex')}`, viewerId: randomUUID(), expiresAt: new Date(Date.now() + 3600_000) };
    const hlsUrl = hlsMasterUrl(t.config.sessionSecret, grant);
    const mp4Url = await t.app.ctx.media.privateUrl({ ...grant, key: `videos/${randomBytes(16).toString('hex')}.mp4` });
    const signatures = [/\.([A-Za-z0-9_-]{43})\//.exec(hlsUrl)![1]!, new URL(mp4Url, 'http://x').searchParams.get('signature')!];
    // The pages a mail links to (any letter case, as the web app's router reads them), the API they post to, a lecture's videos.
    await t.app.inject({ url: `/reset-password/${tokens[0]}` });
    await t.app.inject({ url: `/Reset-Password/${tokens[1]}?from=mail` });
    await t.app.inject({ method: 'POST', url: `/api/v1/user/reset/${tokens[2]}`, payload: { password: 'Other#pass1' } });
    await t.app.inject({ url: `/sign-in/${tokens[3]}` });
    await t.app.inject({ method: 'POST', url: `/api/v1/user/sign-in/${tokens[4]}` });
    await t.app.inject({ url: hlsUrl });
    await t.app.inject({ url: mp4Url });

    const logged = logLines.slice(before).map((line) => JSON.parse(line).req?.url);
    expect(logged).toEqual([
      '/reset-password/[redacted]',
      '/Reset-Password/[redacted]',
      '/api/v1/user/reset/[redacted]',
      '/sign-in/[redacted]',
      '/api/v1/user/sign-in/[redacted]',
      `/media/hls/[redacted]/${grant.key.slice('hls/'.length)}/master.m3u8`,
      mp4Url.split('?')[0],
    ]);
    const all = logLines.join('');
    for (const secret of [...tokens, ...signatures]) expect(all).not.toContain(secret);
  });

  it('mask a secret logged by mistake at the top level, in a body or in headers', async () => {
    const before = logLines.length;
    const secrets = {
      password: 'Top#Secret1',
      token: 'tok-top-level-secret',
      body: { password: 'Body#Secret1', oldPassword: 'Old#Secret1', newPassword: 'New#Secret1', email: 'asha@example.com' },
      headers: { cookie: 'lms_session=cookie-secret', authorization: 'Bearer auth-secret', accept: 'application/json' },
    };
    t.app.log.info(secrets, 'careless line');
    const [line] = logLines.slice(before).map((text) => JSON.parse(text));
    expect(line).toMatchObject({
      msg: 'careless line',
      password: '[redacted]',
      token: '[redacted]',
      body: { password: '[redacted]', oldPassword: '[redacted]', newPassword: '[redacted]', email: 'asha@example.com' },
      headers: { cookie: '[redacted]', authorization: '[redacted]', accept: 'application/json' },
    });
  });

  it('are one line per answered request, with the method, the path without its query, the status and the time taken', async () => {
    const before = logLines.length;
    await t.app.inject({ url: '/api/v1/courses?search=secret-search' });
    const lines = logLines.slice(before).map((line) => JSON.parse(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: '/api/v1/courses' }, statusCode: 200 });
    expect(lines[0].responseTime).toBeGreaterThan(0);
  });
});

describe('content security policy by payment mode', () => {
  it("allows Razorpay's Checkout script and frames only in razorpay mode", async () => {
    const sandboxCsp = (await t.app.inject({ url: '/healthz' })).headers['content-security-policy'] as string;
    expect(sandboxCsp).toContain("script-src 'self';");
    expect(sandboxCsp).toContain("frame-src 'none'");
    const live = await createTestApp({ env: { PAYMENTS_MODE: 'razorpay' } });
    try {
      const csp = (await live.app.inject({ url: '/healthz' })).headers['content-security-policy'] as string;
      expect(csp).toContain("script-src 'self' https://checkout.razorpay.com");
      expect(csp).toContain('frame-src https://api.razorpay.com https://checkout.razorpay.com');
      expect((await live.app.inject({ url: '/sandbox/v1/plans', method: 'POST' })).statusCode).toBe(404);
    } finally {
      await live.close();
    }
  });
});

describe('the built web app', () => {
  // A folder laid out like web/dist after `npm run build`: hashed assets with their .br and .gz beside them.
  const script = 'export function greet(name) { return `Hello, ${name}, welcome back to your courses.`; }\n'.repeat(100);
  const page = `<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body>${'<div></div>'.repeat(200)}</body></html>`;
  /** Vite's manifest of that build: the entry, two pages' chunks, what they share, and hls.js as an installed package. */
  const manifest = {
    'index.html': { file: 'assets/app-abc123.js', isEntry: true, imports: ['_shared-111.js'] },
    '_shared-111.js': { file: 'assets/shared-111.js' },
    '_player-222.js': { file: 'assets/player-222.js', imports: ['_shared-111.js', '_captions-333.js'] },
    '_captions-333.js': { file: 'assets/captions-333.js' },
    'src/features/lectures/LecturePage.tsx': { file: 'assets/LecturePage-444.js', imports: ['index.html', '_shared-111.js', '_player-222.js'] },
    'src/features/home/HomePage.tsx': { file: 'assets/HomePage-555.js', imports: ['index.html'] },
    '../../node_modules/hls.js/dist/hls.mjs': { file: 'assets/hls-666.js' },
  };
  let webRoot: string;
  let dataDir: string;
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let app: Awaited<ReturnType<typeof buildApp>>;
  /** A fresh site: the product's name, and the seller the environment names. */
  let site: Site;

  beforeAll(async () => {
    webRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-web-'));
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-test-'));
    await fs.mkdir(path.join(webRoot, 'assets'));
    for (const [file, text] of [
      ['assets/app-abc123.js', script],
      ['index.html', page],
    ] as const) {
      await fs.writeFile(path.join(webRoot, file), text);
      await fs.writeFile(path.join(webRoot, `${file}.br`), zlib.brotliCompressSync(text));
      await fs.writeFile(path.join(webRoot, `${file}.gz`), zlib.gzipSync(text, { level: 9 }));
    }
    // Files under ~1 KB get no compressed copies at build time.
    await fs.writeFile(path.join(webRoot, 'assets/tiny-def456.js'), 'export const tiny = 1;\n');
    await fs.mkdir(path.join(webRoot, '.vite'));
    await fs.writeFile(path.join(webRoot, '.vite/manifest.json'), JSON.stringify(manifest));
    const config = withSecrets(loadConfig({ ...TEST_ENV, DATA_DIR: dataDir }));
    database = await openTestDatabase();
    app = await buildApp(config, { database, webRoot });
    site = await siteOf(app.ctx);
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await fs.rm(webRoot, { recursive: true, force: true });
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const getScript = (acceptEncoding?: string) =>
    app.inject({ url: '/assets/app-abc123.js', headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  it.each([
    { acceptEncoding: 'br', encoding: 'br', decompress: zlib.brotliDecompressSync },
    { acceptEncoding: 'gzip', encoding: 'gzip', decompress: zlib.gunzipSync },
    // What Chrome sends: brotli wins over gzip.
    { acceptEncoding: 'gzip, deflate, br, zstd', encoding: 'br', decompress: zlib.brotliDecompressSync },
  ])('sends a hashed asset as $encoding to accept-encoding $acceptEncoding, still cached for a year', async ({ acceptEncoding, encoding, decompress }) => {
    const response = await getScript(acceptEncoding);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe(encoding);
    expect(response.headers['content-type']).toMatch(/^application\/javascript/);
    expect(response.headers['vary']).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(response.headers['content-length'])).toBeLessThan(Buffer.byteLength(script) / 5);
    expect(decompress(response.rawPayload).toString()).toBe(script);
  });

  it('sends the raw file to a client that accepts no compression', async () => {
    for (const acceptEncoding of [undefined, 'identity']) {
      const response = await getScript(acceptEncoding);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers['content-type']).toMatch(/^application\/javascript/);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.body).toBe(script);
    }
  });

  it('sends the raw file when the build left no compressed copy', async () => {
    const response = await app.inject({ url: '/assets/tiny-def456.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['content-type']).toMatch(/^application\/javascript/);
    expect(response.body).toBe('export const tiny = 1;\n');
  });

  /**
   * The page as served: the picture limit the forms check against (IMAGE_MAX_BYTES, 5 MB by default), then the
   * default title, description and link preview tags, and a fresh site's settings (storefront/page-head.ts) end its head.
   */
  const withDefaultHead = (html: string) =>
    html.replace(
      '</head>',
      `  <meta name="lms-image-max-bytes" content="5242880" />\n${headTags(defaultHead(site))}${siteTags({ site, icons: null })}  </head>`,
    );
  const pageWithRibbon = () => withDefaultHead(page.replace('<body>', `<body>\n    <div class="test-mode-ribbon" role="note">${answers.testModeRibbon}</div>`));

  it('does not serve the .br and .gz files at URLs of their own', async () => {
    for (const url of ['/assets/app-abc123.js.br', '/assets/app-abc123.js.gz', '/index.html.br']) {
      expect((await app.inject({ url })).statusCode).toBe(404);
    }
  });

  it('answers page paths with index.html (compressed when accepted), never cached', async () => {
    const compressed = await app.inject({ url: '/courses?search=go', headers: { 'accept-encoding': 'br' } });
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers['content-type']).toMatch(/^text\/html/);
    expect(compressed.headers['cache-control']).toBe('no-cache');
    expect(zlib.brotliDecompressSync(compressed.rawPayload).toString()).toBe(pageWithRibbon());

    const gzipped = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzipped.rawPayload).toString()).toBe(pageWithRibbon());

    const raw = await app.inject({ url: '/user/profile' });
    expect(raw.statusCode).toBe(200);
    expect(raw.headers['content-encoding']).toBeUndefined();
    expect(raw.headers['cache-control']).toBe('no-cache');
    expect(raw.body).toBe(pageWithRibbon());
  });

  const preloadsOf = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)" \/>/g)].map((match) => match[1]);

  it.each(['/course/lecture?id=1&lecture=2', '/Course/Lecture/'])(
    'names in the lecture page %s the modules it loads after the entry, and none the entry loads nor hls.js',
    async (url) => {
      const response = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(response.statusCode).toBe(200);
      const html = zlib.brotliDecompressSync(response.rawPayload).toString();
      expect(preloadsOf(html).sort()).toEqual(['/assets/LecturePage-444.js', '/assets/captions-333.js', '/assets/player-222.js']);
      // The rest of the page is every page's.
      expect(html.replace(/ *<link rel="modulepreload"[^>]*>\n/g, '')).toBe(pageWithRibbon());
    },
  );

  it('names no modules in the pages that preload nothing of their own', async () => {
    for (const url of ['/', '/courses', '/course/lecturex', '/course/description']) {
      expect(preloadsOf((await app.inject({ url })).body)).toEqual([]);
    }
  });

  it('preloads sources the web app has: the pages named are in web/, the packages installed', async () => {
    const repository = path.resolve(import.meta.dirname, '../..');
    for (const source of PAGE_MODULES.flatMap((page) => page.sources)) {
      const file = path.join(repository, source.startsWith('node_modules/') ? '' : 'web', source);
      await expect(fs.access(file), source).resolves.toBeUndefined();
    }
  });

  it.each([
    // Every page of the app, as React Router matches them: any case, trailing slashes, escapes, a :token.
    ...[
      '/about',
      '/Signup',
      '/signup',
      '/SIGNUP/',
      '/course/lecture?id=1',
      '/admin/coupons',
      '/reset-password/abc_DEF-123',
      '/sign-in/abc_DEF-123',
      '/%61bout',
      '/checkout/fail/',
    ],
  ])('answers the app page %s with 200', async (url) => {
    const response = await app.inject({ url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
  });

  it.each(['/no/such/page', '/courses/some-course', '/about/team', '/reset-password/', '/reset-password/a/b', '/Signupp', '/user', '/api'])(
    'answers %s, a path the app has no page for, with 404 and the same page (where the app shows "Page not Found")',
    async (url) => {
      const compressed = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(compressed.statusCode).toBe(404);
      expect(compressed.headers['content-type']).toMatch(/^text\/html/);
      expect(compressed.headers['cache-control']).toBe('no-cache');
      expect(zlib.brotliDecompressSync(compressed.rawPayload).toString()).toBe(pageWithRibbon());
      const head = await app.inject({ url, method: 'HEAD' });
      expect(head.statusCode).toBe(404);
    },
  );

  it('still answers JSON 404 for the API, and 404 for a file that is not there', async () => {
    const api = await app.inject({ url: '/api/v1/no-such-thing' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ success: false, message: answers.notFound });
    expect((await app.inject({ url: '/assets/gone-123.js' })).statusCode).toBe(404);
  });

  it('tells the forms the picture limit the server runs with (IMAGE_MAX_BYTES)', async () => {
    const small = await buildApp(withSecrets(loadConfig({ ...TEST_ENV, DATA_DIR: dataDir, IMAGE_MAX_BYTES: '1048576' })), { database, webRoot });
    try {
      const page = (await small.inject({ url: '/Signup' })).body;
      expect(page).toContain('<meta name="lms-image-max-bytes" content="1048576" />');
      expect(page).not.toContain('5242880');
    } finally {
      await small.close();
    }
  });

  it('puts the test-mode ribbon first in the body of every page in sandbox mode, and nowhere with Razorpay', async () => {
    for (const url of ['/', '/index.html', '/checkout', '/user/profile']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain(`<body>\n    <div class="test-mode-ribbon" role="note">${answers.testModeRibbon}</div><div></div>`);
    }
    const live = await buildApp(withSecrets(loadConfig({ ...TEST_ENV, DATA_DIR: dataDir, PAYMENTS_MODE: 'razorpay' })), { database, webRoot });
    try {
      const response = await live.inject({ url: '/' });
      expect(response.body).toBe(withDefaultHead(page));
      expect(response.body).not.toContain(answers.testModeRibbon);
    } finally {
      await live.close();
    }
  });
});

describe('test mode', () => {
  it('is announced loudly in the start log in sandbox mode, and not with Razorpay', async () => {
    for (const mode of ['sandbox', 'razorpay']) {
      const logs = recordLogs();
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-test-'));
      const database = await openTestDatabase();
      const env = { ...TEST_ENV, LOG_LEVEL: 'info', PAYMENTS_MODE: mode, DATA_DIR: dataDir };
      const app = await buildApp(withSecrets(loadConfig(env)), { database, logStream: logs.stream });
      await app.close();
      await database.close();
      await fs.rm(dataDir, { recursive: true, force: true });
      const warning = logs.entries().find((entry) => String(entry.msg).startsWith('TEST MODE'));
      if (mode === 'sandbox') expect(warning).toMatchObject({ level: 40, msg: expect.stringContaining('test cards pay and nobody is charged') });
      else expect(warning).toBeUndefined();
    }
  });
});

describe('Cache-Control of API answers', () => {
  it('is no-store on every private or personal answer, errors included', async () => {
    const account = await signUp(t.app);
    const admin = await signUpAdmin(t.app);
    const answers = [
      await t.app.inject({ url: '/api/v1/user/me', headers: { cookie: account.cookie } }),
      await t.app.inject({ url: '/api/v1/user/me' }),
      await login(t.app, account.email, account.password),
      await t.app.inject({ url: '/api/v1/payments/razorpay-key', headers: { cookie: account.cookie } }),
      await t.app.inject({ url: '/api/v1/admin/status/users', headers: { cookie: admin.cookie } }),
      await t.app.inject({ url: '/api/v1/payments?count=5', headers: { cookie: admin.cookie } }),
      await t.app.inject({ url: '/api/v1/contact', headers: { cookie: admin.cookie } }),
      await t.app.inject({ url: `/api/v1/courses/${crypto.randomUUID()}`, headers: { cookie: admin.cookie } }),
    ];
    for (const response of answers) {
      expect(response.headers['content-type'], response.body).toMatch(/^application\/json/);
      expect(response.headers['cache-control'], response.body).toBe('no-store');
    }
    expect(answers.map((response) => response.statusCode)).toEqual([200, 401, 200, 200, 200, 200, 200, 404]);
  });
});
