import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { users } from './db/schema.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './test/app.ts';
import { publishCourseDirectly } from './test/courses.ts';
import { multipart, pngImage, signUp, signUpAdmin } from './test/http.ts';

/**
 * Two instances on one database, as behind a load balancer (decision 0019). Neither waits before a
 * request to have heard the other's changes, as tests otherwise do: what one changes must reach
 * the other by itself, within a second.
 */
let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  a = await createTestApp({ catchUpOnEveryRequest: false });
  b = await createTestApp({ database: a.database, catchUpOnEveryRequest: false });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const AGREEMENT_MS = 1000;

/** Polls `check` every 20 ms until it holds; fails if it still does not after `ms`. */
async function eventually(ms: number, check: () => Promise<boolean>): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`still not so ${ms} ms later`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const within1s = (check: () => Promise<boolean>) => eventually(AGREEMENT_MS, check);

const me = (t: TestApp, cookie: string) => t.app.inject({ url: '/api/v1/user/me', headers: { cookie } });

describe('a signed-in request is answered from the cache', () => {
  it('reads the session once, then answers GET /user/me from memory', async () => {
    const account = await signUp(a.app);
    const { hits, misses } = b.app.ctx.sessions.stats;
    for (let i = 0; i < 5; i++) expect((await me(b, account.cookie)).statusCode).toBe(200);
    expect(b.app.ctx.sessions.stats).toEqual({ hits: hits + 4, misses: misses + 1 });
  });

  it('never caches a session that does not exist', async () => {
    const { misses } = b.app.ctx.sessions.stats;
    for (let i = 0; i < 3; i++) expect((await me(b, 'lms_session=no-such-session')).statusCode).toBe(401);
    expect(b.app.ctx.sessions.stats.misses).toBe(misses + 3);
  });
});

describe('what one instance changes, the other sees within a second', () => {
  it('a logout on one instance is refused on the other', async () => {
    const account = await signUp(a.app);
    expect((await me(b, account.cookie)).statusCode).toBe(200);
    expect((await me(b, account.cookie)).statusCode).toBe(200);
    const logout = await a.app.inject({ method: 'GET', url: '/api/v1/user/logout', headers: { cookie: account.cookie } });
    expect(logout.statusCode, logout.body).toBe(200);
    await within1s(async () => (await me(b, account.cookie)).statusCode === 401);
    expect((await me(b, account.cookie)).json()).toEqual({ success: false, message: answers.notLoggedIn });
  });

  it('a password change on one instance ends the old session on the other, and the new one works there', async () => {
    const account = await signUp(a.app);
    expect((await me(b, account.cookie)).statusCode).toBe(200);
    const changed = await a.app.inject({
      method: 'POST',
      url: '/api/v1/user/change-password',
      headers: { cookie: account.cookie },
      payload: { oldPassword: account.password, newPassword: 'another#456' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await within1s(async () => (await me(b, account.cookie)).statusCode === 401);
    const fresh = changed.cookies.find((cookie) => cookie.name === 'lms_session')!;
    expect((await me(b, `lms_session=${fresh.value}`)).statusCode).toBe(200);
  });

  it('a role change made elsewhere (the admin command) reaches both instances', async () => {
    const account = await signUp(a.app);
    const stats = (t: TestApp) => t.app.inject({ url: '/api/v1/admin/status/users', headers: { cookie: account.cookie } });
    expect((await stats(a)).statusCode).toBe(403);
    expect((await stats(b)).statusCode).toBe(403);
    await a.database.db.update(users).set({ role: 'ADMIN' }).where(eq(users.id, account.user._id));
    await within1s(async () => (await me(a, account.cookie)).json().user.role === 'ADMIN');
    await within1s(async () => (await stats(b)).statusCode === 200);
  });

  it('the end of a subscription, written by a job or a webhook on one instance, is seen by the other', async () => {
    const account = await signUp(a.app);
    const until = new Date(Date.now() + 30 * 24 * 3600 * 1000);
    await a.database.db.update(users).set({ subscriptionEndsAt: until }).where(eq(users.id, account.user._id));
    await within1s(async () => (await me(b, account.cookie)).json().user.subscription.status === 'active');
    await a.database.db
      .update(users)
      .set({ subscriptionEndsAt: new Date(Date.now() - 1000) })
      .where(eq(users.id, account.user._id));
    await within1s(async () => (await me(b, account.cookie)).json().user.subscription.status !== 'active');
  });

  it('a profile change through one instance shows on the other, and at once on its own', async () => {
    const account = await signUp(a.app);
    expect((await me(a, account.cookie)).json().user.fullName).toBe(account.fullName);
    expect((await me(b, account.cookie)).json().user.fullName).toBe(account.fullName);
    for (const name of ['Asha Rao', 'Asha Iyer', 'Asha Menon']) {
      const body = await multipart({ fullName: name });
      const updated = await a.app.inject({
        method: 'PUT',
        url: `/api/v1/user/update/${account.user._id}`,
        headers: { cookie: account.cookie, ...body.headers },
        payload: body.payload,
      });
      expect(updated.statusCode, updated.body).toBe(200);
      // The writer's own next request never meets the old copy.
      expect((await me(a, account.cookie)).json().user.fullName).toBe(name);
      await within1s(async () => (await me(b, account.cookie)).json().user.fullName === name);
    }
  });

  it('a course edited on one instance is listed changed by the other', async () => {
    const admin = await signUpAdmin(a.app);
    const form = await multipart({
      title: 'Agreed everywhere',
      description: 'A course that both instances must show the same way.',
      category: 'Testing',
      createdBy: 'Asha Verma',
      thumbnail: { bytes: await pngImage(), filename: 'thumb.png', type: 'image/png' },
    });
    const created = await a.app.inject({ method: 'POST', url: '/api/v1/courses', headers: { cookie: admin.cookie, ...form.headers }, payload: form.payload });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().course._id as string;
    await publishCourseDirectly(a.app.ctx, id);
    const titleOn = async (t: TestApp) => {
      const page = (await t.app.inject({ url: '/api/v1/courses?limit=50' })).json();
      return page.courses.find((course: { _id: string }) => course._id === id)?.title as string | undefined;
    };
    await within1s(async () => (await titleOn(b)) === 'Agreed everywhere');
    // Twice, so that b's answer comes from its cache before the edit.
    expect(await titleOn(b)).toBe('Agreed everywhere');
    const edit = await multipart({ title: 'Edited on the other instance' });
    const updated = await a.app.inject({
      method: 'PUT',
      url: `/api/v1/courses/${id}`,
      headers: { cookie: admin.cookie, ...edit.headers },
      payload: edit.payload,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(await titleOn(a)).toBe('Edited on the other instance');
    await within1s(async () => (await titleOn(b)) === 'Edited on the other instance');
  });
});

describe.runIf(testDatabaseKind === 'postgres')('when the changes cannot be heard (PostgreSQL)', () => {
  it('looks every session up while its listening connection is lost, and caches again once it is back', async () => {
    const account = await signUp(a.app);
    const [{ name }] = (await a.database.execute('SELECT current_database() AS name')).rows as [{ name: string }];
    // Both instances' listening connections are ended, as a network cut or a server restart would.
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const ended = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND query ILIKE 'LISTEN%'`, [name]);
      expect(ended.rowCount).toBeGreaterThanOrEqual(2);
    } finally {
      await admin.end();
    }
    // Once the instance notices (at once, on this machine), a request read twice is read from the database twice.
    await within1s(async () => {
      const misses = b.app.ctx.sessions.stats.misses;
      expect((await me(b, account.cookie)).statusCode).toBe(200);
      expect((await me(b, account.cookie)).statusCode).toBe(200);
      return b.app.ctx.sessions.stats.misses === misses + 2;
    });
    // It connects again a second later, and trusts what it keeps from then on: the request after a
    // request is answered from memory. Given longer here, as connecting again is slower on a machine
    // kept busy by the rest of the suite. Only the second request is counted: once the connection is
    // back, the first may find the session kept already (by the last request before this check).
    await eventually(15_000, async () => {
      expect((await me(b, account.cookie)).statusCode).toBe(200);
      const hits = b.app.ctx.sessions.stats.hits;
      expect((await me(b, account.cookie)).statusCode).toBe(200);
      return b.app.ctx.sessions.stats.hits === hits + 1;
    });
    // And hears again: a logout on a is refused on b.
    await a.app.inject({ method: 'GET', url: '/api/v1/user/logout', headers: { cookie: account.cookie } });
    await within1s(async () => (await me(b, account.cookie)).statusCode === 401);
  });
});
