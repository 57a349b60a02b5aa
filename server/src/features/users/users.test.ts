import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { mediaFiles, rowCount } from '../../test/db.ts';
import { jpgImage, multipart, newSignup, pngImage, sessionCookie, signUp, svgImage, type Upload } from '../../test/http.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { IMAGE_MAX_BYTES: String(200 * 1024) } });
});
afterAll(() => t?.close());

const png = async (): Promise<Upload> => ({ bytes: await pngImage(), filename: 'me.png', type: 'image/png' });

async function register(fields: Record<string, string | Upload>) {
  return t.app.inject({ method: 'POST', url: '/api/v1/user/register', ...(await multipart(fields)) });
}

/** Asserts a refused request wrote nothing: no user row, no avatar file. */
async function expectNothingWritten(request: () => Promise<LightMyRequestResponse>) {
  const before = { users: await rowCount(t.database, users), files: await mediaFiles(t.dataDir, 'avatars') };
  const response = await request();
  expect(response.statusCode).toBeGreaterThanOrEqual(400);
  expect(response.statusCode).toBeLessThan(500);
  expect(await rowCount(t.database, users)).toBe(before.users);
  expect(await mediaFiles(t.dataDir, 'avatars')).toEqual(before.files);
  return response;
}

describe('POST /api/v1/user/register', () => {
  it('creates the account, logs the user in and answers the user without secrets', async () => {
    const signup = newSignup({ email: 'Mixed.Case@Example.com' });
    const response = await register({ ...signup, avatar: await png() });

    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      success: true,
      message: answers.accountCreated,
      user: { fullName: 'Asha Verma', email: 'mixed.case@example.com', role: 'USER', subscription: { status: 'inactive' } },
    });
    expect(body.user._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(body.user).sort()).toEqual(['_id', 'avatar', 'email', 'fullName', 'role', 'subscription']);
    expect(response.body).not.toContain('scrypt');

    const me = await t.app.inject({ url: '/api/v1/user/me', headers: { cookie: sessionCookie(response) } });
    expect(me.statusCode).toBe(200);
    expect(me.json().user._id).toBe(body.user._id);
  });

  it('serves the re-encoded avatar from a stable URL with long cache headers', async () => {
    const { user } = await signUp(t.app);
    expect(user.avatar.secure_url).toMatch(/^\/media\/avatars\/[0-9a-f]{32}\.webp$/);
    const avatar = await t.app.inject({ url: user.avatar.secure_url });
    expect(avatar.statusCode).toBe(200);
    expect(avatar.headers['content-type']).toBe('image/webp');
    expect(avatar.headers['cache-control']).toContain('max-age=31536000');
    expect(avatar.headers['cache-control']).toContain('immutable');
    expect(avatar.rawPayload.subarray(8, 12).toString()).toBe('WEBP');
  });

  it('accepts jpg and svg avatars, rasterising the svg so its script is gone', async () => {
    const jpg = await register({ ...newSignup(), avatar: { bytes: await jpgImage(), filename: 'a.jpeg' } });
    expect(jpg.statusCode).toBe(201);
    const svg = await register({
      ...newSignup(),
      avatar: { bytes: svgImage('<script>alert(1)</script>'), filename: 'a.svg', type: 'image/svg+xml' },
    });
    expect(svg.statusCode).toBe(201);
    const stored = await t.app.inject({ url: svg.json().user.avatar.secure_url });
    expect(stored.headers['content-type']).toBe('image/webp');
    expect(stored.body).not.toContain('script');
  });

  it('accepts an svg that starts with a declaration, comments and a doctype', async () => {
    const svg = Buffer.from(
      '\uFEFF<?xml version="1.0"?>\n<!-- drawn by hand --> <!-- a > inside -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n' +
        '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>',
    );
    const response = await register({ ...newSignup(), avatar: { bytes: svg, filename: 'a.svg', type: 'image/svg+xml' } });
    expect(response.statusCode).toBe(201);
  });

  // The pattern that judged SVGs backtracked exponentially on repeated comments: 30 took seconds, 40 took hours.
  it('refuses a run of comments that is not an svg at once, whatever its length', async () => {
    for (const comments of [30, 40, 10_000]) {
      const bytes = Buffer.from(`${'<!---->'.repeat(comments)}x`);
      const started = performance.now();
      const response = await expectNothingWritten(() => register({ ...newSignup(), avatar: { bytes, filename: 'a.svg', type: 'image/svg+xml' } }));
      const elapsed = performance.now() - started;
      expect(response.json()).toEqual({ success: false, message: messages.avatarType });
      expect(elapsed, `${comments} comments`).toBeLessThan(1000);
    }
  });

  it('answers "Please fill all the details" for each missing field, the avatar included', async () => {
    const full = { ...newSignup(), avatar: await png() };
    for (const missing of ['fullName', 'email', 'password', 'avatar'] as const) {
      const { [missing]: _, ...rest } = full;
      const response = await expectNothingWritten(() => register(rest));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ success: false, message: messages.fillAllDetails });
    }
    const blank = await expectNothingWritten(() => register({ ...full, fullName: '   ' }));
    expect(blank.json().message).toBe(messages.fillAllDetails);
  });

  it.each([
    ['fullName', 'Asha', messages.nameTooShort],
    ['email', 'not-an-email', messages.invalidEmailId],
    ['email', 'a@b', messages.invalidEmailId],
    ['password', 'abc#1', messages.passwordRule],
    ['password', 'abcdefg1', messages.passwordRule],
    ['password', 'abcdefg#', messages.passwordRule],
    ['password', 'abc#12345678901234', messages.passwordRule],
    ['password', 'abc 123#', messages.passwordRule],
  ])('refuses %s %j with the spec text', async (field, value, message) => {
    const response = await expectNothingWritten(async () => register({ ...newSignup(), [field]: value, avatar: await png() }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message });
  });

  it('refuses a second account with the same email in any case (409), keeping no avatar file', async () => {
    const { email } = await signUp(t.app);
    const response = await expectNothingWritten(async () => register({ ...newSignup({ email: email.toUpperCase() }), avatar: await png() }));
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(answers.emailTaken);
  });

  it('lets only one of two simultaneous signups with one email through', async () => {
    const signup = newSignup();
    const answers = await Promise.all([register({ ...signup, avatar: await png() }), register({ ...signup, avatar: await png() })]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expect(await mediaFiles(t.dataDir, 'avatars')).toHaveLength(await rowCount(t.database, users));
  });

  it('judges the avatar by its bytes: a text file named .png is refused', async () => {
    const response = await expectNothingWritten(() =>
      register({ ...newSignup(), avatar: { bytes: 'just some text', filename: 'photo.png', type: 'image/png' } }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(messages.avatarType);
  });

  it('refuses other image types, broken images and empty files', async () => {
    const gif = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
    const truncated = (await pngImage()).subarray(0, 60);
    for (const [bytes, message] of [
      [gif, messages.avatarType],
      [truncated, messages.avatarType],
      [Buffer.alloc(0), messages.fillAllDetails],
    ] as const) {
      const response = await expectNothingWritten(() => register({ ...newSignup(), avatar: { bytes, filename: 'a.png' } }));
      expect(response.json().message).toBe(message);
    }
  });

  it('refuses an avatar over the size limit with 413', async () => {
    const huge = await pngImage(2000, 2000).then(() => Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'binary'), Buffer.alloc(300 * 1024)]));
    const response = await expectNothingWritten(() => register({ ...newSignup(), avatar: { bytes: huge, filename: 'big.png' } }));
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe(answers.imageTooLarge);
  });

  it('ignores a file sent under another field name, and unknown fields', async () => {
    const wrongField = await expectNothingWritten(async () => register({ ...newSignup(), picture: await png() }));
    expect(wrongField.json().message).toBe(messages.fillAllDetails);

    const extra = await register({ ...newSignup(), role: 'ADMIN', __proto__: 'x', avatar: await png() } as Record<string, string | Upload>);
    expect(extra.statusCode).toBe(201);
    expect(extra.json().user.role).toBe('USER');
  });

  it('refuses JSON where a form is expected (415)', async () => {
    const response = await expectNothingWritten(() => t.app.inject({ method: 'POST', url: '/api/v1/user/register', payload: newSignup() }));
    expect(response.statusCode).toBe(415);
  });
});

describe('GET /api/v1/user/me', () => {
  it('is 401 when logged out or with an unknown session', async () => {
    for (const headers of [{}, { cookie: 'lms_session=made-up-token' }]) {
      const response = await t.app.inject({ url: '/api/v1/user/me', headers });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ success: false, message: answers.notLoggedIn });
    }
  });
});

describe('PUT /api/v1/user/update/:id', () => {
  const update = async (id: string, cookie: string, fields: Record<string, string | Upload>) => {
    const form = await multipart(fields);
    return t.app.inject({ method: 'PUT', url: `/api/v1/user/update/${id}`, payload: form.payload, headers: { ...form.headers, cookie } });
  };

  it('changes the name and replaces the avatar, removing the old file', async () => {
    const { user, cookie } = await signUp(t.app);
    const oldFile = user.avatar.secure_url.split('/').pop();
    const form = await multipart({ fullName: 'Asha Verma Rao', avatar: { bytes: await jpgImage(), filename: 'new.jpg' } });
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/user/update/${user._id}`,
      payload: form.payload,
      headers: { ...form.headers, cookie },
    });
    expect(response.statusCode).toBe(200);
    const updated = response.json().user;
    expect(updated.fullName).toBe('Asha Verma Rao');
    expect(updated.avatar.secure_url).not.toBe(user.avatar.secure_url);
    expect(await mediaFiles(t.dataDir, 'avatars')).not.toContain(oldFile);
    expect((await t.app.inject({ url: user.avatar.secure_url })).statusCode).toBe(404);
    expect((await t.app.inject({ url: updated.avatar.secure_url })).statusCode).toBe(200);
  });

  it('keeps the avatar when only the name is sent', async () => {
    const { user, cookie } = await signUp(t.app);
    const form = await multipart({ fullName: 'Someone Else' });
    const response = await t.app.inject({ method: 'PUT', url: `/api/v1/user/update/${user._id}`, payload: form.payload, headers: { ...form.headers, cookie } });
    expect(response.json().user).toMatchObject({ fullName: 'Someone Else', avatar: user.avatar });
  });

  it('answers the edit-profile texts', async () => {
    const { user, cookie } = await signUp(t.app);
    const missing = await update(user._id, cookie, { avatar: await png() });
    expect(missing.json()).toEqual({ success: false, message: messages.allFieldsMandatory });
    const short = await update(user._id, cookie, { fullName: 'Abc' });
    expect(short.json()).toEqual({ success: false, message: messages.editNameTooShort });
    expect((await t.app.inject({ url: '/api/v1/user/me', headers: { cookie } })).json().user.fullName).toBe(user.fullName);
  });

  it("refuses another user's profile (403), logged-out callers (401) and malformed ids (400)", async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const other = await update(bob.user._id, alice.cookie, { fullName: 'Hijacked Name' });
    expect(other.statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/v1/user/me', headers: { cookie: bob.cookie } })).json().user.fullName).toBe(bob.fullName);

    expect((await update(alice.user._id, '', { fullName: 'Logged Out' })).statusCode).toBe(401);
    const malformed = await update("1' OR '1'='1", alice.cookie, { fullName: 'Whatever Name' });
    expect(malformed.statusCode).toBe(400);
  });
});
