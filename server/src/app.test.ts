import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@lms/contract/messages';
import { users } from './db/schema.ts';
import { createTestApp, type TestApp } from './test/app.ts';
import { rowCount } from './test/db.ts';
import { login, multipart, newSignup, pngImage, signUp } from './test/http.ts';

/** Everything the app logged, to check that no secret ends up there. */
const logLines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(String(chunk));
    done();
  },
});

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
  it.each(['/healthz', '/api/v1/user/me', '/api/v1/no-such-route', '/', '/api/docs/json'])('are on %s', async (url) => {
    const response = await t.app.inject({ url });
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-powered-by']).toBeUndefined();
  });
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
    expect(response.json()).toEqual({ success: false, message: messages.notFound });
  });

  it('hides the detail of an unexpected failure behind a 500, and logs it', async () => {
    const response = await t.app.inject({ url: '/api/v1/test-only/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ success: false, message: messages.internalError });
    expect(logLines.join('')).toContain('hunter2');
  });
});

describe('bad input', () => {
  const post = (payload: string | Buffer, contentType: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/user/login', payload, headers: { 'content-type': contentType } });

  it('answers malformed JSON with 400', async () => {
    const response = await post('{"email": "a@b.co", "password": ', 'application/json');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: messages.invalidJson });
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
    expect(response.json()).toEqual({ success: false, message: messages.requestTooLarge });
  });

  it('refuses __proto__ and constructor keys (400) and writes nothing', async () => {
    const before = await rowCount(t.database, users);
    for (const payload of ['{"email":"a@b.co","password":"x","__proto__":{"role":"ADMIN"}}', '{"constructor":{"prototype":{"x":1}},"email":"a@b.co","password":"x"}']) {
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
    for (const email of ["' OR '1'='1' --@x.co", 'a@b.co\' OR 1=1--', '{"$gt":""}']) {
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
    await t.app.inject({ method: 'POST', url: '/api/v1/user/change-password', headers: { cookie: `lms_session=${token}` }, payload: { oldPassword: 'Sekr3t!pass', newPassword: 'Sekr3t!pass2' } });

    const logs = logLines.join('');
    expect(logs).toContain('/api/v1/user/login');
    expect(logs).toContain('/api/v1/user/reset/[redacted]');
    for (const secret of ['Sekr3t!pass', token, 'SuperSecretResetToken1234567', 'Other#pass1', 'lms_session=']) {
      expect(logs).not.toContain(secret);
    }
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
