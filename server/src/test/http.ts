import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { users } from '../db/schema.ts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export type Upload = { bytes: Buffer | string; filename: string; type?: string };

/** A multipart body for app.inject, encoded by the platform's own FormData. */
export async function multipart(fields: Record<string, string | Upload>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.append(name, value);
    else
      form.append(
        name,
        new Blob([typeof value.bytes === 'string' ? value.bytes : new Uint8Array(value.bytes)], { type: value.type ?? 'application/octet-stream' }),
        value.filename,
      );
  }
  const request = new Request('http://test.invalid', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

export const pngImage = (width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: '#3b82f6' } })
    .png()
    .toBuffer();
export const jpgImage = () =>
  sharp({ create: { width: 40, height: 40, channels: 3, background: '#f97316' } })
    .jpeg()
    .toBuffer();
export const svgImage = (extra = '') =>
  Buffer.from(
    `<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32">${extra}<rect width="32" height="32" fill="green"/></svg>`,
  );

let counter = 0;
/** A fresh, valid signup; each call gets its own email. */
export function newSignup(overrides: Partial<Record<'fullName' | 'email' | 'password', string>> = {}) {
  counter += 1;
  return {
    fullName: 'Asha Verma',
    email: `asha.${process.pid}.${Date.now()}.${counter}@example.com`,
    password: 'secret#123',
    ...overrides,
  };
}

/** The `name=value` pair of the session cookie a response set, ready to send back. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'lms_session');
  if (!cookie) throw new Error(`no session cookie in response ${response.statusCode}: ${response.body}`);
  return `lms_session=${cookie.value}`;
}

/** Signs a new user up through the API; answers the user JSON and its session cookie. */
export async function signUp(app: FastifyInstance, overrides: Parameters<typeof newSignup>[0] = {}) {
  const signup = newSignup(overrides);
  const body = await multipart({ ...signup, avatar: { bytes: await pngImage(), filename: 'me.png', type: 'image/png' } });
  const response = await app.inject({ method: 'POST', url: '/api/v1/user/register', ...body });
  if (response.statusCode !== 201) throw new Error(`signup failed: ${response.statusCode} ${response.body}`);
  return { ...signup, user: response.json().user, cookie: sessionCookie(response) };
}

export const login = (app: FastifyInstance, email: string, password: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { email, password }, headers });

/** Signs a new user up and makes them an administrator. */
export async function signUpAdmin(app: FastifyInstance) {
  const account = await signUp(app);
  await app.ctx.db.update(users).set({ role: 'ADMIN' }).where(eq(users.id, account.user._id));
  return account;
}

/** The first bytes of an MP4 (an `ftyp` box), which is all content sniffing looks at, then `size` bytes of payload. */
export function mp4Video(size = 64 * 1024): Buffer {
  const box = Buffer.alloc(32);
  box.writeUInt32BE(32, 0);
  box.write('ftypisom', 4, 'latin1');
  box.writeUInt32BE(512, 12);
  box.write('isomiso2avc1mp41', 16, 'latin1');
  const payload = Buffer.alloc(size);
  for (let i = 0; i < size; i++) payload[i] = (i * 31 + 7) & 0xff;
  return Buffer.concat([box, payload]);
}
