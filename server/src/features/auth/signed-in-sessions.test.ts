import { randomBytes, randomUUID } from 'node:crypto';
import { eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { auditLog, lifecycleMails, playbacks, sessions, signInLinks, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { login, sessionCookie, signUp, signUpAdmin } from '../../test/http.ts';
import { mailTo, outbox, waitForJobs, waitForMails, waitForParsedMails } from '../../test/mail.ts';
import { canWatchLectures } from '../users/users.service.ts';
import { noteSight, SIGHT_INTERVAL_MS } from './last-sight.ts';
import { hashToken, newToken } from './sessions.ts';

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

type Account = Awaited<ReturnType<typeof signUp>>;

/** Signs the account in from a browser and an address of its own; answers the session cookie. */
async function signIn(app: TestApp, account: Account, { userAgent = CHROME_WINDOWS, address = '203.0.113.7' } = {}) {
  const response = await app.app.inject({
    method: 'POST',
    url: '/api/v1/user/login',
    payload: { email: account.email, password: account.password },
    headers: { 'user-agent': userAgent },
    remoteAddress: address,
  });
  expect(response.statusCode).toBe(200);
  return sessionCookie(response);
}

const me = (cookie: string, app = t) => app.app.inject({ url: '/api/v1/user/me', headers: { cookie } });
const list = (cookie: string, app = t) => app.app.inject({ url: '/api/v1/user/sessions', headers: { cookie } });
const signOut = (cookie: string, id: string) => t.app.inject({ method: 'DELETE', url: `/api/v1/user/sessions/${id}`, headers: { cookie } });
const signOutOthers = (cookie: string, app = t) => app.app.inject({ method: 'POST', url: '/api/v1/user/sessions/sign-out-others', headers: { cookie } });

type Listed = { id: string; browser: string; os: string; deviceType: string; place: string; current: boolean; firstSeenAt: string; lastSeenAt: string };
const sessionsOf = async (cookie: string, app = t): Promise<Listed[]> => (await list(cookie, app)).json().sessions;
const currentId = async (cookie: string) => (await sessionsOf(cookie)).find((session) => session.current)!.id;

/** A playback row of the session, as the player's lease would write it. */
async function playbackOf(app: TestApp, userId: string, sessionId: string) {
  const [row] = await app.database.db
    .insert(playbacks)
    .values({
      code: randomBytes(4).toString('hex').toUpperCase(),
      userId,
      sessionId,
      addressBlock: '203.0.113.0/24',
      device: 'Chrome on Windows',
      endsAt: new Date(Date.now() + 75_000),
    })
    .returning();
  return row!.id;
}
const stoppedAt = async (app: TestApp, id: string) =>
  (await app.database.db.select({ stoppedAt: playbacks.stoppedAt }).from(playbacks).where(eq(playbacks.id, id)))[0]!.stoppedAt;

describe('GET /api/v1/user/sessions', () => {
  it('lists every signed-in browser with its browser, system, device type and address block, this one marked and first', async () => {
    const account = await signUp(t.app);
    const laptop = await signIn(t, account, { userAgent: CHROME_WINDOWS, address: '203.0.113.7' });
    const phone = await signIn(t, account, { userAgent: SAFARI_IPHONE, address: '2001:db8:85a3::8a2e:370:7334' });
    const response = await list(laptop);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true, message: answers.sessionsFetched });
    const listed: Listed[] = response.json().sessions;
    expect(listed).toHaveLength(3);
    expect(listed[0]).toMatchObject({ browser: 'Chrome 131', os: 'Windows 10', deviceType: 'desktop', place: '203.0.113.0/24', current: true });
    expect(listed.filter((session) => session.current)).toHaveLength(1);
    expect(listed).toContainEqual(
      expect.objectContaining({ browser: 'Safari 18', os: 'iOS 18.1', deviceType: 'mobile', place: '2001:db8:85a3::/48', current: false }),
    );
    // The sign-up's own session: app.inject's client, from the loopback address.
    expect(listed).toContainEqual(expect.objectContaining({ browser: 'Unknown browser', place: 'Local network', current: false }));
    for (const session of listed) expect(Date.parse(session.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(session.firstSeenAt) - 1000);
    // The phone's list marks the phone.
    expect((await sessionsOf(phone)).find((session) => session.current)).toMatchObject({ browser: 'Safari 18' });
  });

  it('keeps at most USER_AGENT_MAX characters of a User-Agent, and never shows another account’s sessions', async () => {
    const account = await signUp(t.app);
    const other = await signUp(t.app);
    await signIn(t, other);
    await signIn(t, account, { userAgent: `${FIREFOX_LINUX} ${'x'.repeat(5000)}` });
    const rows = await t.database.db.select({ userAgent: sessions.userAgent }).from(sessions).where(eq(sessions.userId, account.user._id));
    expect(Math.max(...rows.map((row) => row.userAgent?.length ?? 0))).toBe(300);
    expect(await sessionsOf(account.cookie)).toHaveLength(2);
  });

  it('is 401 without a session', async () => {
    expect((await t.app.inject({ url: '/api/v1/user/sessions' })).statusCode).toBe(401);
  });
});

describe('DELETE /api/v1/user/sessions/:id', () => {
  it('signs out another of the account’s browsers: its next call is 401, this one stays signed in, its playbacks stop', async () => {
    const account = await signUp(t.app);
    const phone = await signIn(t, account, { userAgent: SAFARI_IPHONE });
    const phoneId = await currentId(phone);
    const phonePlayback = await playbackOf(t, account.user._id, phoneId);
    const herePlayback = await playbackOf(t, account.user._id, await currentId(account.cookie));
    expect((await me(phone)).statusCode).toBe(200);

    const response = await signOut(account.cookie, phoneId);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: answers.sessionSignedOut });
    expect(response.cookies.find((cookie) => cookie.name === 'lms_session')).toBeUndefined();
    expect((await me(phone)).statusCode).toBe(401);
    expect((await me(account.cookie)).statusCode).toBe(200);
    expect(await stoppedAt(t, phonePlayback)).not.toBeNull();
    expect(await stoppedAt(t, herePlayback)).toBeNull();
    expect((await sessionsOf(account.cookie)).map((session) => session.id)).not.toContain(phoneId);
  });

  it('signs out this browser too, clearing its cookie', async () => {
    const account = await signUp(t.app);
    const response = await signOut(account.cookie, await currentId(account.cookie));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: answers.loggedOut });
    expect(response.cookies.find((cookie) => cookie.name === 'lms_session')!.value).toBe('');
    expect((await me(account.cookie)).statusCode).toBe(401);
  });

  it('answers 404 for another account’s session, an unknown one and a malformed id, ending nothing', async () => {
    const account = await signUp(t.app);
    const other = await signUp(t.app);
    const othersId = await currentId(other.cookie);
    for (const id of [othersId, randomUUID(), 'not-a-session']) {
      const response = await signOut(account.cookie, id);
      expect(response.statusCode, id).toBeGreaterThanOrEqual(400);
      expect(response.json()).toEqual({ success: false, message: answers.notFound });
    }
    expect((await signOut(account.cookie, othersId)).statusCode).toBe(404);
    expect((await me(other.cookie)).statusCode).toBe(200);
  });
  it('logs the signed-out browser out on every instance, not only the one that ended it', async () => {
    const second = await createTestApp({ database: t.database });
    try {
      const account = await signUp(t.app);
      const phone = await signIn(t, account, { userAgent: SAFARI_IPHONE });
      // The other instance has the session in its cache.
      expect((await me(phone, second)).statusCode).toBe(200);
      expect((await me(phone, second)).statusCode).toBe(200);
      expect((await signOut(account.cookie, await currentId(phone))).statusCode).toBe(200);
      expect((await me(phone, second)).statusCode).toBe(401);
      expect((await me(account.cookie, second)).statusCode).toBe(200);
    } finally {
      await second.close();
    }
  });
});

describe('POST /api/v1/user/sessions/sign-out-others', () => {
  it('ends every other session of the account and its playbacks, and answers how many', async () => {
    const account = await signUp(t.app);
    const phone = await signIn(t, account, { userAgent: SAFARI_IPHONE });
    const laptop = await signIn(t, account);
    const playback = await playbackOf(t, account.user._id, await currentId(phone));
    const response = await signOutOthers(laptop);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: answers.otherSessionsSignedOut(2), ended: 2 });
    expect((await me(phone)).statusCode).toBe(401);
    expect((await me(account.cookie)).statusCode).toBe(401);
    expect((await me(laptop)).statusCode).toBe(200);
    expect(await stoppedAt(t, playback)).not.toBeNull();
    expect((await signOutOthers(laptop)).json()).toMatchObject({ ended: 0, message: answers.otherSessionsSignedOut(0) });
  });
});

describe('playbacks end with their session', () => {
  it('on logout', async () => {
    const account = await signUp(t.app);
    const playback = await playbackOf(t, account.user._id, await currentId(account.cookie));
    await t.app.inject({ method: 'POST', url: '/api/v1/user/logout', headers: { cookie: account.cookie } });
    expect(await stoppedAt(t, playback)).not.toBeNull();
  });

  it('on a password change, which ends every session', async () => {
    const account = await signUp(t.app);
    const phone = await signIn(t, account, { userAgent: SAFARI_IPHONE });
    const playback = await playbackOf(t, account.user._id, await currentId(phone));
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/change-password',
      payload: { oldPassword: account.password, newPassword: 'another#456' },
      headers: { cookie: account.cookie },
    });
    expect(response.statusCode).toBe(200);
    expect(await stoppedAt(t, playback)).not.toBeNull();
    expect((await me(phone)).statusCode).toBe(401);
  });
});

describe('last sight', () => {
  it('is written at most once an interval per session, with the address block it was seen from', async () => {
    const account = await signUp(t.app);
    const id = await currentId(account.cookie);
    const seen = async () => (await t.database.db.select().from(sessions).where(eq(sessions.id, id)))[0]!;
    const log = { error: () => {} };
    // Signing in wrote the first sight: within the interval after it, nothing more is.
    noteSight(t.app.ctx, id, '198.51.100.20', log, Date.now() + 1000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await seen()).addressBlock).toBe('Local network');
    const start = Date.now() + SIGHT_INTERVAL_MS;
    noteSight(t.app.ctx, id, '198.51.100.20', log, start);
    await expect.poll(async () => (await seen()).addressBlock).toBe('198.51.100.0/24');
    noteSight(t.app.ctx, id, '192.0.2.1', log, start + SIGHT_INTERVAL_MS - 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await seen()).addressBlock).toBe('198.51.100.0/24');
    noteSight(t.app.ctx, id, '192.0.2.1', log, start + SIGHT_INTERVAL_MS);
    await expect.poll(async () => (await seen()).addressBlock).toBe('192.0.2.0/24');
    expect((await seen()).lastSeenAt.getTime()).toBe(start + SIGHT_INTERVAL_MS);
  });

  it('is written by the requests of a session another instance has not seen yet, and shows in the list', async () => {
    const second = await createTestApp({ database: t.database });
    try {
      const account = await signUp(t.app);
      const laptop = await signIn(t, account, { address: '203.0.113.7' });
      const id = await currentId(laptop);
      const response = await second.app.inject({ url: '/api/v1/user/me', headers: { cookie: laptop }, remoteAddress: '198.51.100.20' });
      expect(response.statusCode).toBe(200);
      await expect.poll(async () => (await sessionsOf(account.cookie)).find((session) => session.id === id)?.place).toBe('198.51.100.0/24');
    } finally {
      await second.close();
    }
  });
});

describe('the cap on signed-in devices', () => {
  let capped: TestApp;
  beforeAll(async () => {
    capped = await createTestApp({ env: { MAX_DEVICES: '2' } });
  });
  afterAll(() => capped?.close());

  it('ends the session used longest ago, with its playbacks, and mails the learner once', async () => {
    const account = await signUp(capped.app);
    const phone = await signIn(capped, account, { userAgent: SAFARI_IPHONE, address: '198.51.100.20' });
    const phoneId = (await sessionsOf(phone, capped)).find((session) => session.current)!.id;
    const phonePlayback = await playbackOf(capped, account.user._id, phoneId);
    // The phone was used longest ago, the sign-up's browser since.
    await capped.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 3 * 3600_000) })
      .where(eq(sessions.id, phoneId));
    await capped.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 60_000) })
      .where(ne(sessions.id, phoneId));

    const laptop = await signIn(capped, account, { userAgent: FIREFOX_LINUX, address: '203.0.113.7' });
    expect((await me(phone, capped)).statusCode).toBe(401);
    expect((await me(account.cookie, capped)).statusCode).toBe(200);
    expect((await me(laptop, capped)).statusCode).toBe(200);
    expect(await stoppedAt(capped, phonePlayback)).not.toBeNull();
    expect(await sessionsOf(laptop, capped)).toHaveLength(2);

    const [mail] = await waitForMails(capped.dataDir, (text) => mailTo(account.email)(text) && text.includes('signed out'));
    const flat = mail!.replace(/=\r?\n/g, '');
    expect(flat).toContain('Firefox 133 on Linux, 203.0.113.0/24');
    expect(flat).toContain('Safari 18 on iOS 18.1, 198.51.100.0/24');
    await waitForJobs(capped.database);
    expect((await outbox(capped.dataDir)).filter((text) => mailTo(account.email)(text) && text.includes('signed out'))).toHaveLength(1);
  });

  it('ends nothing and mails nothing within the cap, and does not limit administrators', async () => {
    const account = await signUp(capped.app);
    await signIn(capped, account);
    const admin = await signUpAdmin(capped.app);
    const cookies = [await signIn(capped, admin), await signIn(capped, admin), await signIn(capped, admin)];
    for (const cookie of [account.cookie, ...cookies, admin.cookie]) expect((await me(cookie, capped)).statusCode).toBe(200);
    await waitForJobs(capped.database);
    expect((await outbox(capped.dataDir)).filter((text) => mailTo(account.email)(text) || mailTo(admin.email)(text))).toHaveLength(0);
  });
});

describe('administrators: ending an account’s sessions, suspending it', () => {
  const endSessions = (cookie: string, id: string) => t.app.inject({ method: 'DELETE', url: `/api/v1/admin/users/${id}/sessions`, headers: { cookie } });
  /** Suspending gives a reason unless one is given (null: none at all). */
  const suspend = (cookie: string, id: string, suspended: unknown, reason: string | null = suspended === true ? 'Shared with a whole class' : null) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/v1/admin/users/${id}/suspension`,
      headers: { cookie },
      payload: { suspended, ...(reason !== null && { reason }) },
    });
  const auditOf = (targetId: string) => t.database.db.select().from(auditLog).where(eq(auditLog.targetId, targetId)).orderBy(auditLog.id);

  it('ends every session of the account, and its playbacks', async () => {
    const admin = await signUpAdmin(t.app);
    const account = await signUp(t.app);
    const phone = await signIn(t, account, { userAgent: SAFARI_IPHONE });
    const playback = await playbackOf(t, account.user._id, await currentId(phone));
    const response = await endSessions(admin.cookie, account.user._id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: answers.accountSessionsEnded(2), ended: 2 });
    expect((await me(phone)).statusCode).toBe(401);
    expect((await me(account.cookie)).statusCode).toBe(401);
    expect(await stoppedAt(t, playback)).not.toBeNull();
    // Not suspended: its owner signs in again.
    await signIn(t, account);
    expect((await endSessions(admin.cookie, randomUUID())).statusCode).toBe(404);
    // Audited, with who did it and how many sessions ended.
    const [entry, ...more] = await auditOf(account.user._id);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      action: 'protection.endSessions',
      actorId: admin.user._id,
      actorEmail: admin.email,
      summary: 'Ended 2 sessions',
      targetType: 'user',
    });
  });

  it('suspending needs a reason, kept with the account, mailed to its owner and audited; restoring clears it, mails and audits too', async () => {
    const admin = await signUpAdmin(t.app);
    const account = await signUp(t.app);
    for (const reason of [null, '', ' x ']) {
      const refused = await suspend(admin.cookie, account.user._id, true, reason);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ success: false, message: answers.suspensionReasonNeeded });
    }
    const tooLong = await suspend(admin.cookie, account.user._id, true, 'x'.repeat(501));
    expect(tooLong.json()).toEqual({ success: false, message: answers.suspensionReasonInvalid });
    // Refused: nothing written.
    expect(await auditOf(account.user._id)).toEqual([]);
    expect(await t.database.db.select().from(lifecycleMails).where(eq(lifecycleMails.userId, account.user._id))).toEqual([]);
    expect((await me(account.cookie)).statusCode).toBe(200);

    const suspended = await suspend(admin.cookie, account.user._id, true, 'Shared the account on a forum');
    expect(suspended.statusCode, suspended.body).toBe(200);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, account.user._id));
    expect(row!.suspensionReason).toBe('Shared the account on a forum');
    const [mail] = await waitForParsedMails(t.dataDir, account.email, /Your account is suspended/);
    expect(mail!.text).toContain('The reason: Shared the account on a forum');

    const restored = await suspend(admin.cookie, account.user._id, false);
    expect(restored.statusCode, restored.body).toBe(200);
    const [after] = await t.database.db.select().from(users).where(eq(users.id, account.user._id));
    expect(after!.suspensionReason).toBeNull();
    await waitForParsedMails(t.dataDir, account.email, /Your account is restored/);

    const entries = await auditOf(account.user._id);
    expect(entries.map((entry) => [entry.action, entry.reason, entry.actorId])).toEqual([
      ['protection.suspend', 'Shared the account on a forum', admin.user._id],
      ['protection.restore', null, admin.user._id],
    ]);
    expect(entries[0]!.targetLabel).toContain(account.email);
  });

  it('suspends: sessions and playbacks end, the right password is refused (403), a wrong one gets the usual answer; restoring lets it sign in', async () => {
    const admin = await signUpAdmin(t.app);
    const account = await signUp(t.app);
    const phone = await signIn(t, account, { userAgent: SAFARI_IPHONE });
    const playback = await playbackOf(t, account.user._id, await currentId(phone));

    const response = await suspend(admin.cookie, account.user._id, true);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: answers.suspensionSaved(true),
      account: { _id: account.user._id, fullName: account.fullName, email: account.email, role: 'USER', suspended: true, activeSessions: 0 },
    });
    expect((await me(phone)).statusCode).toBe(401);
    expect((await me(account.cookie)).statusCode).toBe(401);
    expect(await stoppedAt(t, playback)).not.toBeNull();

    const right = await login(t.app, account.email, account.password);
    expect(right.statusCode).toBe(403);
    expect(right.json()).toEqual({ success: false, message: answers.accountSuspended });
    expect(right.cookies.find((cookie) => cookie.name === 'lms_session')).toBeUndefined();
    const wrong = await login(t.app, account.email, 'wrong#123');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ success: false, message: answers.wrongCredentials });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, account.user._id));
    expect(row!.suspendedAt).not.toBeNull();
    expect(canWatchLectures({ ...row!, role: 'ADMIN' })).toBe(false);
    expect(canWatchLectures({ ...row!, role: 'ADMIN', suspendedAt: null })).toBe(true);

    // Suspended again, it keeps the time it was first suspended.
    await suspend(admin.cookie, account.user._id, true);
    const [again] = await t.database.db.select().from(users).where(eq(users.id, account.user._id));
    expect(again!.suspendedAt).toEqual(row!.suspendedAt);

    const restored = await suspend(admin.cookie, account.user._id, false);
    expect(restored.json()).toMatchObject({ message: answers.suspensionSaved(false), account: { suspended: false, activeSessions: 0 } });
    const back = await login(t.app, account.email, account.password);
    expect(back.statusCode).toBe(200);
    expect((await me(sessionCookie(back))).statusCode).toBe(200);
  });

  it('refuses an administrator suspending themself (400), an unknown account (404) and a body without `suspended`', async () => {
    const admin = await signUpAdmin(t.app);
    const self = await suspend(admin.cookie, admin.user._id, true);
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({ success: false, message: answers.cannotSuspendSelf });
    expect((await me(admin.cookie)).statusCode).toBe(200);
    const unknown = await suspend(admin.cookie, randomUUID(), true);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ success: false, message: answers.notFound });
    const account = await signUp(t.app);
    for (const body of ['yes', undefined]) {
      const response = await suspend(admin.cookie, account.user._id, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ success: false, message: answers.invalidRequest });
    }
    expect((await me(account.cookie)).statusCode).toBe(200);
  });

  it('is for administrators only (403), and logged-out callers get 401', async () => {
    const account = await signUp(t.app);
    const victim = await signUp(t.app);
    for (const response of [await endSessions(account.cookie, victim.user._id), await suspend(account.cookie, victim.user._id, true)]) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ success: false, message: answers.notAllowed });
    }
    expect(
      (await t.app.inject({ method: 'PUT', url: `/api/v1/admin/users/${victim.user._id}/suspension`, payload: { suspended: true, reason: 'Shared' } }))
        .statusCode,
    ).toBe(401);
    expect((await me(victim.cookie)).statusCode).toBe(200);
  });

  it('a suspended account cannot sign in with a mailed sign-in link either', async () => {
    const admin = await signUpAdmin(t.app);
    const account = await signUp(t.app);
    await suspend(admin.cookie, account.user._id, true);
    const token = newToken();
    await t.database.db.insert(signInLinks).values({ tokenHash: hashToken(token), userId: account.user._id, expiresAt: new Date(Date.now() + 600_000) });
    const response = await t.app.inject({ method: 'POST', url: `/api/v1/user/sign-in/${token}` });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ success: false, message: answers.accountSuspended });
    expect(response.cookies.find((cookie) => cookie.name === 'lms_session')).toBeUndefined();
  });
});
