import { randomUUID } from 'node:crypto';
import { and, count, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { accessGrants, auditLog, lifecycleMails, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { signUp, signUpAdmin } from '../../test/http.ts';
import { waitForParsedMails } from '../../test/mail.ts';
import { formatIndiaDate } from '../billing/format.ts';
import { newCourse, newLecture } from '../quizzes/test-fixtures.ts';
import { endOfIndiaDay, expireGrants } from './access.service.ts';

const DAY_MS = 24 * 3600 * 1000;

let t: TestApp;
let admin: Awaited<ReturnType<typeof signUpAdmin>>;
let courseId: string;
let lectureId: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signUpAdmin(t.app);
  courseId = await newCourse(t, admin.cookie);
  lectureId = await newLecture(t, admin.cookie, courseId);
});
afterAll(() => t?.close());

type Account = Awaited<ReturnType<typeof signUp>>;

const post = (app: TestApp, url: string, cookie: string, payload: object) =>
  app.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: { cookie }, payload });
const grant = (userId: string, body: object, cookie = admin.cookie, app = t) => post(app, `/admin/learners/${userId}/access`, cookie, body);
const revoke = (userId: string, body: object = { note: 'Scholarship withdrawn' }, cookie = admin.cookie, app = t) =>
  post(app, `/admin/learners/${userId}/access/revocation`, cookie, body);
const lecturesOf = (account: Account, app = t) => app.app.inject({ url: `/api/v1/courses/${courseId}`, headers: { cookie: account.cookie } });
const me = (account: Account, app = t) => app.app.inject({ url: '/api/v1/user/me', headers: { cookie: account.cookie } });
const auditOf = (userId: string) => t.database.db.select().from(auditLog).where(eq(auditLog.targetId, userId)).orderBy(auditLog.id);
const grantsOf = (userId: string) => t.database.db.select().from(accessGrants).where(eq(accessGrants.userId, userId)).orderBy(accessGrants.createdAt);
const userRow = async (userId: string) => (await t.database.db.select().from(users).where(eq(users.id, userId)))[0]!;

/** How many rows a refusal must leave as they were: grants, audit entries and mails of the account. */
async function writtenFor(userId: string) {
  const [grants] = await t.database.db.select({ n: count() }).from(accessGrants).where(eq(accessGrants.userId, userId));
  const [audit] = await t.database.db.select({ n: count() }).from(auditLog).where(eq(auditLog.targetId, userId));
  const [mails] = await t.database.db.select({ n: count() }).from(lifecycleMails).where(eq(lifecycleMails.userId, userId));
  return { grants: grants!.n, audit: audit!.n, mails: mails!.n, complimentaryUntil: (await userRow(userId)).complimentaryUntil };
}

describe('complimentary access', () => {
  it('granted for 30 days: every course opens, user/me says active and complimentary, the learner is mailed, the trail has who and why', async () => {
    const learner = await signUp(t.app);
    expect((await lecturesOf(learner)).statusCode).toBe(403);

    const before = Date.now();
    const response = await grant(learner.user._id, { days: 30, note: 'Scholarship' });
    expect(response.statusCode, response.body).toBe(200);
    const [row] = await grantsOf(learner.user._id);
    expect(row!.endsAt.getTime()).toBeGreaterThanOrEqual(before + 30 * DAY_MS);
    expect(row!.endsAt.getTime()).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS);
    expect(row).toMatchObject({ note: 'Scholarship', grantedById: admin.user._id, grantedByName: admin.fullName, endedAt: null, revokedAt: null });
    const until = formatIndiaDate(row!.endsAt);
    expect(response.json()).toEqual({ success: true, message: answers.accessGranted(until) });
    expect((await userRow(learner.user._id)).complimentaryUntil).toEqual(row!.endsAt);

    const lectures = await lecturesOf(learner);
    expect(lectures.statusCode, lectures.body).toBe(200);
    expect(lectures.json().lectures).toHaveLength(1);
    expect((await me(learner)).json().user.subscription).toEqual({
      status: 'active',
      currentPeriodEnd: row!.endsAt.toISOString(),
      cancelAtPeriodEnd: false,
      complimentary: true,
    });

    // Their progress is kept, and the administrator's course list counts them among those watching.
    const saved = await t.app.inject({
      method: 'POST',
      url: `/api/v1/progress/lectures/${lectureId}`,
      payload: { position: 12, watched: 12, duration: 60, at: Date.now() },
      headers: { cookie: learner.cookie },
    });
    expect(saved.statusCode, saved.body).toBeLessThan(300);
    await t.app.ctx.heldSaves.flush();
    const listed = (await t.app.inject({ url: '/api/v1/courses', headers: { cookie: admin.cookie } })).json().courses;
    expect(listed.find((course: { _id: string }) => course._id === courseId).subscribersWatching).toBe(1);

    const [mail] = await waitForParsedMails(t.dataDir, learner.email, new RegExp(`Complimentary access until ${until}`));
    expect(mail!.text).toContain(`complimentary access to every course until ${until}`);
    const [entry, ...more] = await auditOf(learner.user._id);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      action: 'learners.grantAccess',
      area: 'people',
      actorId: admin.user._id,
      actorName: admin.fullName,
      targetType: 'user',
      reason: 'Scholarship',
      summary: `30 days, until ${until}`,
    });
    expect(entry!.targetLabel).toContain(learner.email);
  });

  it('is not a subscription in the figures: subscribers, MRR and revenue stay as they were', async () => {
    const figures = async () => {
      const users = (await t.app.inject({ url: '/api/v1/admin/status/users', headers: { cookie: admin.cookie } })).json();
      const revenue = (await t.app.inject({ url: '/api/v1/admin/revenue', headers: { cookie: admin.cookie } })).json();
      return {
        subscribed: users.subscribedUsersCount,
        active: revenue.activeSubscribers,
        newSubscribers: revenue.newSubscribers,
        mrr: revenue.mrr,
        gross: revenue.grossRevenue,
      };
    };
    const learner = await signUp(t.app);
    const before = await figures();
    expect((await grant(learner.user._id, { days: 30, note: 'Scholarship' })).statusCode).toBe(200);
    expect((await lecturesOf(learner)).statusCode).toBe(200);
    expect(await figures()).toEqual(before);
  });

  it('revoked: refused at once (403), user/me inactive, mailed and audited; revoking again is 409 and writes nothing', async () => {
    const learner = await signUp(t.app);
    expect((await grant(learner.user._id, { days: 7, note: 'Goodwill' })).statusCode).toBe(200);
    expect((await lecturesOf(learner)).statusCode).toBe(200);

    const response = await revoke(learner.user._id, { note: 'Given by mistake' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ success: true, message: answers.accessRevoked });
    const refused = await lecturesOf(learner);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ success: false, message: answers.subscribeToWatch });
    expect((await me(learner)).json().user.subscription).toEqual({ status: 'inactive' });
    const [row] = await grantsOf(learner.user._id);
    expect(row).toMatchObject({ revokedById: admin.user._id, revokedByName: admin.fullName, revokeNote: 'Given by mistake' });
    expect(row!.endedAt).toEqual(row!.revokedAt);
    expect((await userRow(learner.user._id)).complimentaryUntil).toBeNull();
    await waitForParsedMails(t.dataDir, learner.email, /Your complimentary access has ended/);
    expect((await auditOf(learner.user._id)).map((entry) => [entry.action, entry.reason])).toEqual([
      ['learners.grantAccess', 'Goodwill'],
      ['learners.revokeAccess', 'Given by mistake'],
    ]);

    const written = await writtenFor(learner.user._id);
    const again = await revoke(learner.user._id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ success: false, message: answers.noAccessToRevoke });
    expect(await writtenFor(learner.user._id)).toEqual(written);
  });

  it('until a date: the end of that day in India; today is allowed, yesterday is 400; a new grant replaces the one in force', async () => {
    const learner = await signUp(t.app);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
    const response = await grant(learner.user._id, { until: today, note: 'Trial day' });
    expect(response.statusCode, response.body).toBe(200);
    expect(endOfIndiaDay(today).toISOString()).toBe(new Date(`${today}T23:59:59.999+05:30`).toISOString());
    expect((await userRow(learner.user._id)).complimentaryUntil).toEqual(endOfIndiaDay(today));
    expect((await auditOf(learner.user._id))[0]!.summary).toBe(`Until ${formatIndiaDate(endOfIndiaDay(today))}`);

    const written = await writtenFor(learner.user._id);
    const yesterday = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date(Date.now() - DAY_MS));
    const past = await grant(learner.user._id, { until: yesterday, note: 'Too late' });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toEqual({ success: false, message: answers.grantUntilPast });
    for (const [body, message] of [
      [{ days: 3, until: today, note: 'Both' }, answers.grantDaysOrUntil],
      [{ note: 'Neither' }, answers.grantDaysOrUntil],
      [{ days: 0, note: 'None' }, answers.grantDaysInvalid],
      [{ days: 3651, note: 'Too many' }, answers.grantDaysInvalid],
      [{ days: 3, note: 'x' }, answers.grantNoteInvalid],
      [{ until: '2026-02-30x', note: 'Bad date' }, answers.grantUntilInvalid],
    ] as const) {
      const refused = await grant(learner.user._id, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json()).toEqual({ success: false, message });
    }
    expect(await writtenFor(learner.user._id)).toEqual(written);

    expect((await grant(learner.user._id, { days: 90, note: 'Extended' })).statusCode).toBe(200);
    const [first, second] = await grantsOf(learner.user._id);
    expect(first!.endedAt).not.toBeNull();
    expect(first!.revokedAt).toBeNull();
    expect(second!.endedAt).toBeNull();
    expect((await userRow(learner.user._id)).complimentaryUntil).toEqual(second!.endsAt);
  });

  it('is refused to a suspended account and to an administrator (409), and for an unknown one (404), writing nothing', async () => {
    const learner = await signUp(t.app);
    const suspended = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/admin/users/${learner.user._id}/suspension`,
      headers: { cookie: admin.cookie },
      payload: { suspended: true, reason: 'Shared the account' },
    });
    expect(suspended.statusCode).toBe(200);
    const written = await writtenFor(learner.user._id);
    const response = await grant(learner.user._id, { days: 30, note: 'Scholarship' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ success: false, message: answers.grantToSuspended });
    expect(await writtenFor(learner.user._id)).toEqual(written);

    const other = await signUpAdmin(t.app);
    const toAdmin = await grant(other.user._id, { days: 30, note: 'Scholarship' });
    expect(toAdmin.statusCode).toBe(409);
    expect(toAdmin.json()).toEqual({ success: false, message: answers.grantToAdmin });
    expect(await writtenFor(other.user._id)).toEqual({ grants: 0, audit: 0, mails: 0, complimentaryUntil: null });

    expect((await grant(randomUUID(), { days: 30, note: 'Scholarship' })).statusCode).toBe(404);
    expect((await revoke(randomUUID())).statusCode).toBe(404);
  });

  it('ends through the queue once past its end: access stops at the end anyway, the job closes it, mails and audits with no actor; once', async () => {
    const learner = await signUp(t.app);
    expect((await grant(learner.user._id, { days: 1, note: 'One day' })).statusCode).toBe(200);
    const [row] = await grantsOf(learner.user._id);
    const ended = new Date(Date.now() - 60_000);
    await t.database.db.update(accessGrants).set({ endsAt: ended }).where(eq(accessGrants.id, row!.id));
    await t.database.db.update(users).set({ complimentaryUntil: ended }).where(eq(users.id, learner.user._id));
    // Before the job: the check compares with now.
    expect((await lecturesOf(learner)).statusCode).toBe(403);

    // The every-minute job, sent through the queue as its schedule would.
    await t.app.ctx.jobs.send('complimentary-expiry', {});
    await expect.poll(async () => (await grantsOf(learner.user._id))[0]!.endedAt, { timeout: 10_000 }).not.toBeNull();
    const [closed] = await grantsOf(learner.user._id);
    expect(closed!.endedAt).not.toBeNull();
    expect(closed!.revokedAt).toBeNull();
    expect((await userRow(learner.user._id)).complimentaryUntil).toBeNull();
    await waitForParsedMails(t.dataDir, learner.email, /Your complimentary access has ended/);
    const entries = await auditOf(learner.user._id);
    expect(entries.map((entry) => [entry.action, entry.actorId, entry.actorName])).toEqual([
      ['learners.grantAccess', admin.user._id, admin.fullName],
      ['access.expire', null, null],
    ]);

    // Run again: nothing left to close.
    const written = await writtenFor(learner.user._id);
    expect(await expireGrants(t.app.ctx)).toBe(0);
    expect(await writtenFor(learner.user._id)).toEqual(written);
    // Nothing to revoke once it has ended.
    expect((await revoke(learner.user._id)).statusCode).toBe(409);
  });

  it('a grant and a revocation at once: the last to commit stands, and the trail has both', async () => {
    const learner = await signUp(t.app);
    for (let round = 0; round < 3; round++) {
      expect((await grant(learner.user._id, { days: 10, note: `Round ${round}` })).statusCode).toBe(200);
      const [granted, revoked] = await Promise.all([grant(learner.user._id, { days: 60, note: `Longer ${round}` }), revoke(learner.user._id)]);
      expect(granted.statusCode, granted.body).toBe(200);
      expect(revoked.statusCode, revoked.body).toBe(200);
      const entries = await auditOf(learner.user._id);
      const lastTwo = entries.slice(-2).map((entry) => entry.action);
      expect(lastTwo.sort()).toEqual(['learners.grantAccess', 'learners.revokeAccess']);
      const last = entries.at(-1)!.action;
      const inForce = await t.database.db
        .select()
        .from(accessGrants)
        .where(and(eq(accessGrants.userId, learner.user._id), isNull(accessGrants.endedAt)));
      const { complimentaryUntil } = await userRow(learner.user._id);
      if (last === 'learners.revokeAccess') {
        expect(inForce).toEqual([]);
        expect(complimentaryUntil).toBeNull();
        expect((await lecturesOf(learner)).statusCode).toBe(403);
      } else {
        expect(inForce).toHaveLength(1);
        expect(inForce[0]!.note).toBe(`Longer ${round}`);
        expect(complimentaryUntil).toEqual(inForce[0]!.endsAt);
        expect((await lecturesOf(learner)).statusCode).toBe(200);
      }
      if (last !== 'learners.revokeAccess') expect((await revoke(learner.user._id)).statusCode).toBe(200);
    }
  });

  it('is for administrators only: a learner gets 403 on every route, and nothing is written', async () => {
    const learner = await signUp(t.app);
    const victim = await signUp(t.app);
    const attempts = [
      await grant(victim.user._id, { days: 30, note: 'Myself' }, learner.cookie),
      await revoke(victim.user._id, { note: 'Myself' }, learner.cookie),
      await t.app.inject({
        method: 'PUT',
        url: `/api/v1/admin/learners/${victim.user._id}/email`,
        headers: { cookie: learner.cookie },
        payload: { email: 'mine@example.com', note: 'Taking it' },
      }),
    ];
    for (const response of attempts) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ success: false, message: answers.notAllowed });
    }
    expect(await writtenFor(victim.user._id)).toEqual({ grants: 0, audit: 0, mails: 0, complimentaryUntil: null });
  });
});

describe('two instances on one database', () => {
  let b: TestApp;
  beforeAll(async () => {
    b = await createTestApp({ database: t.database, catchUpOnEveryRequest: false });
  });
  afterAll(() => b?.close());

  /** Polls `check` every 20 ms until it holds; fails if it still does not a second later. */
  async function within1s(check: () => Promise<boolean>): Promise<void> {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > 1000) throw new Error('still not so a second later');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('a grant on one opens the courses on the other; a revocation on one refuses them on the other', async () => {
    const learner = await signUp(t.app);
    // The other instance has the learner's session in its cache, without access.
    expect((await lecturesOf(learner, b)).statusCode).toBe(403);
    expect((await lecturesOf(learner, b)).statusCode).toBe(403);
    expect((await grant(learner.user._id, { days: 30, note: 'Scholarship' })).statusCode).toBe(200);
    await within1s(async () => (await lecturesOf(learner, b)).statusCode === 200);
    expect((await me(learner, b)).json().user.subscription).toMatchObject({ status: 'active', complimentary: true });

    expect((await revoke(learner.user._id)).statusCode).toBe(200);
    await within1s(async () => (await lecturesOf(learner, b)).statusCode === 403);
    expect((await me(learner, b)).json().user.subscription).toEqual({ status: 'inactive' });
    // And the other way round: revoked on the second, refused on the first at once.
    expect((await grant(learner.user._id, { days: 30, note: 'Again' }, admin.cookie, b)).statusCode).toBe(200);
    await within1s(async () => (await lecturesOf(learner)).statusCode === 200);
    expect((await revoke(learner.user._id, { note: 'Over' }, admin.cookie, b)).statusCode).toBe(200);
    expect((await lecturesOf(learner)).statusCode).toBe(403);
  });
});
