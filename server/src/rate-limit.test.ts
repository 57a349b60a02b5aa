import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addressKey } from './rate-limit.ts';
import { createTestApp, type TestApp } from './test/app.ts';
import { login, multipart, newSignup, pngImage, signUp } from './test/http.ts';

describe('addressKey', () => {
  it('counts an IPv4 address as itself, and as itself when written as IPv6', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::FFFF:cb00:7109')).toBe('203.0.113.9');
    expect(addressKey('0:0:0:0:0:ffff:203.0.113.9')).toBe('203.0.113.9');
  });

  it('counts an IPv6 address as its /64, however it is written', () => {
    const key = addressKey('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    for (const same of ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0DB8:0001:0002:0:0:0:9', '2001:db8:1:2:a:b:c:d%eth0', '2001:db8:1:2::203.0.113.9']) {
      expect(addressKey(same)).toBe(key);
    }
    for (const other of ['2001:db8:1:3::1', '2001:db8::1', '2001:db9:1:2::1', '::1', '::']) expect(addressKey(other)).not.toBe(key);
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1')).toBe('fe80:0:0:0::/64');
  });

  it('leaves anything else as it is', () => {
    expect(addressKey('not an address')).toBe('not an address');
    expect(addressKey('')).toBe('');
  });
});

/** Each per-address limit, with a request that counts against it from `remoteAddress`. */
const perAddressLimits: { name: string; env: Record<string, string>; limit: number; hit(t: TestApp, remoteAddress: string): Promise<number> }[] = [
  {
    name: 'logins',
    env: { LOGIN_MAX_PER_IP: '3' },
    limit: 3,
    hit: async (t, remoteAddress) =>
      (await t.app.inject({ method: 'POST', url: '/api/v1/user/login', remoteAddress, payload: { email: 'nobody@example.com', password: 'wrong#123' } }))
        .statusCode,
  },
  {
    name: 'sign-ups',
    env: { SIGNUP_MAX_PER_IP: '2' },
    limit: 2,
    hit: async (t, remoteAddress) => {
      const form = await multipart({ ...newSignup(), avatar: { bytes: await pngImage(), filename: 'me.png', type: 'image/png' } });
      return (await t.app.inject({ method: 'POST', url: '/api/v1/user/register', remoteAddress, ...form })).statusCode;
    },
  },
  {
    name: 'forgot-password requests',
    env: {},
    limit: 20,
    hit: async (t, remoteAddress) =>
      (await t.app.inject({ method: 'POST', url: '/api/v1/user/reset', remoteAddress, payload: { email: newSignup().email } })).statusCode,
  },
  {
    name: 'reset links tried',
    env: {},
    limit: 10,
    hit: async (t, remoteAddress) =>
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/v1/user/reset/${randomBytes(32).toString('base64url')}`,
          remoteAddress,
          payload: { password: 'fresh#789' },
        })
      ).statusCode,
  },
  {
    name: 'sign-in links tried',
    env: {},
    limit: 10,
    hit: async (t, remoteAddress) =>
      (await t.app.inject({ method: 'POST', url: `/api/v1/user/sign-in/${randomBytes(32).toString('base64url')}`, remoteAddress })).statusCode,
  },
  {
    name: 'contact messages',
    env: {},
    limit: 5,
    hit: async (t, remoteAddress) =>
      (await t.app.inject({ method: 'POST', url: '/api/v1/contact', remoteAddress, payload: { name: 'Asha', email: 'asha@example.com', message: 'Hello' } }))
        .statusCode,
  },
];

// Each test starts an app of its own: on a machine busy with other work that alone can take seconds.
describe('every per-address limit', { timeout: 90_000 }, () => {
  it.each(perAddressLimits)('counts $name by IPv6 /64 and by IPv4 address, however written', async ({ env, limit, hit }) => {
    const t = await createTestApp({ env });
    try {
      // Every address of one /64 is one client: the limit is spent across them.
      for (let i = 1; i <= limit; i++) expect(await hit(t, `2001:db8:5:6::${i.toString(16)}`)).not.toBe(429);
      expect(await hit(t, '2001:db8:5:6:ffff:1:2:3')).toBe(429);
      // The next /64 is someone else.
      expect(await hit(t, '2001:db8:5:7::1')).not.toBe(429);
      // An IPv4 client is the same client however the socket writes its address.
      for (let i = 0; i < limit; i++) expect(await hit(t, i % 2 ? '203.0.113.9' : '::ffff:203.0.113.9')).not.toBe(429);
      expect(await hit(t, '203.0.113.9')).toBe(429);
      expect(await hit(t, '203.0.113.10')).not.toBe(429);
    } finally {
      await t.close();
    }
  });
});

describe('the default per-address limits', { timeout: 180_000 }, () => {
  it('let a class of 40 sign up and log in from one address (one carrier NAT), and stop a flood from it', async () => {
    // The defaults, not the test suite's raised ones.
    const t = await createTestApp({ env: { SIGNUP_MAX_PER_IP: '', LOGIN_MAX_PER_IP: '' } });
    try {
      const classroom = '100.64.12.34';
      const signUpFrom = async (remoteAddress: string) => {
        const signup = newSignup();
        const form = await multipart({ ...signup, avatar: { bytes: await pngImage(), filename: 'me.png', type: 'image/png' } });
        const response = await t.app.inject({ method: 'POST', url: '/api/v1/user/register', remoteAddress, ...form });
        return { ...signup, status: response.statusCode };
      };
      const pupils = [];
      for (let i = 0; i < 40; i++) pupils.push(await signUpFrom(classroom));
      expect(pupils.map((pupil) => pupil.status)).toEqual(Array(40).fill(201));
      // The next lesson: everyone logs in, a few mistype first.
      for (const pupil of pupils.slice(0, 10))
        expect(
          (await t.app.inject({ method: 'POST', url: '/api/v1/user/login', remoteAddress: classroom, payload: { email: pupil.email, password: 'typo#123' } }))
            .statusCode,
        ).toBe(401);
      for (const pupil of pupils) {
        expect(
          (
            await t.app.inject({
              method: 'POST',
              url: '/api/v1/user/login',
              remoteAddress: classroom,
              payload: { email: pupil.email, password: pupil.password },
            })
          ).statusCode,
        ).toBe(200);
      }
      // A flood from the same address stops at SIGNUP_MAX_PER_IP (60).
      const more = [];
      for (let i = 0; i < 21; i++) more.push((await signUpFrom(classroom)).status);
      expect(more).toEqual([...Array(20).fill(201), 429]);
      const elsewhere = await signUp(t.app);
      expect((await login(t.app, elsewhere.email, elsewhere.password)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
