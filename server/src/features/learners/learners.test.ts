import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { LEARNER_STATES, learnerStateOf, type LearnerRow, type StateColumns } from '@lms/contract/learners';
import { certificates, courseProgress, quizAttempts, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { signUp, signUpAdmin } from '../../test/http.ts';
import { apiCaller, subscriber } from '../../test/payments.ts';
import { recordAudit } from '../audit/audit.ts';
import { noteSight, SIGHT_INTERVAL_MS } from '../auth/last-sight.ts';
import { insertQuiz, newCourse, newLecture, sampleQuiz } from '../quizzes/test-fixtures.ts';
import { stateSql } from './learners-list.service.ts';

const DAY_MS = 24 * 3600 * 1000;

let t: TestApp;
let admin: Awaited<ReturnType<typeof signUpAdmin>>;
let api: ReturnType<typeof apiCaller>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signUpAdmin(t.app);
  api = apiCaller(t);
});
afterAll(() => t?.close());

/** A learner written straight into users: fast, and with whatever columns the case needs. */
async function insertLearner(values: Partial<typeof users.$inferInsert> & { fullName: string; email: string }) {
  const [row] = await t.app.ctx.db
    .insert(users)
    .values({ passwordHash: 'x', ...values })
    .returning();
  return row!;
}

const list = async (query: Record<string, string | number>) => {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const answer = await api('GET', `/admin/learners?${search}`, admin.cookie);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as { learners: LearnerRow[]; nextCursor: string | null };
};
const emailsOf = (rows: LearnerRow[]) => rows.map((row) => row.email).sort();

describe('search', () => {
  // A word no other test's accounts carry, so each search here sees only these.
  const tag = `q${randomUUID().slice(0, 6)}`;
  beforeAll(async () => {
    await insertLearner({ fullName: `Priya Raman ${tag}`, email: `priya.${tag}@example.com` });
    await insertLearner({ fullName: `Rohan Mehta ${tag}`, email: `rohan_${tag}@mail.example.in` });
    await insertLearner({ fullName: `Kavya 100% ${tag}`, email: `kavya.${tag}@example.org` });
  });

  it('finds any part of a name or an email, whatever the case', async () => {
    expect(emailsOf((await list({ q: `RAMAN ${tag}` })).learners)).toEqual([`priya.${tag}@example.com`]);
    expect(emailsOf((await list({ q: `mail.example.in` })).learners)).toEqual([`rohan_${tag}@mail.example.in`]);
    expect(emailsOf((await list({ q: tag.toUpperCase() })).learners)).toHaveLength(3);
    expect(emailsOf((await list({ q: `ohan ME` })).learners)).toContain(`rohan_${tag}@mail.example.in`);
  });

  it('one or two characters match the start of a name or email', async () => {
    const tagged = async (q: string) => emailsOf((await list({ q, limit: 100 })).learners).filter((email) => email.includes(tag));
    expect(await tagged('pr')).toEqual([`priya.${tag}@example.com`]);
    expect(await tagged('K')).toEqual([`kavya.${tag}@example.org`]);
    // "av" is inside Kavya and not at the start of anything here.
    expect(await tagged('av')).toEqual([]);
  });

  it('% and _ are searched as written, not as wildcards', async () => {
    expect(emailsOf((await list({ q: `100% ${tag}` })).learners)).toEqual([`kavya.${tag}@example.org`]);
    expect(emailsOf((await list({ q: `_${tag}` })).learners)).toEqual([`rohan_${tag}@mail.example.in`]);
    expect((await list({ q: `%%%` })).learners).toEqual([]);
    expect((await list({ q: `${tag.slice(0, 3)}_${tag.slice(4)}` })).learners).toEqual([]);
  });

  it('lists learners only, not administrators', async () => {
    expect((await list({ q: admin.email })).learners).toEqual([]);
  });
});

describe('states', () => {
  const now = Date.now();
  const past = new Date(now - 5 * DAY_MS);
  const future = new Date(now + 5 * DAY_MS);
  const none: StateColumns = { subscriptionEndsAt: null, subscriptionCancelledAt: null, trialEndsAt: null, complimentaryUntil: null, firstPaidAt: null };
  // Every branch of the rule, and the cases at its seams.
  const cases: Record<string, StateColumns> = {
    subscribed: { ...none, subscriptionEndsAt: future, firstPaidAt: past },
    subscribedAfterTrial: { ...none, subscriptionEndsAt: future, trialEndsAt: past, firstPaidAt: past },
    subscribedAndComplimentary: { ...none, subscriptionEndsAt: future, complimentaryUntil: future, firstPaidAt: past },
    trial: { ...none, subscriptionEndsAt: future, trialEndsAt: future },
    cancelledTrial: { ...none, subscriptionEndsAt: future, trialEndsAt: future, subscriptionCancelledAt: past },
    cancelled: { ...none, subscriptionEndsAt: future, subscriptionCancelledAt: past, firstPaidAt: past },
    complimentary: { ...none, complimentaryUntil: future },
    complimentaryAfterLapse: { ...none, subscriptionEndsAt: past, complimentaryUntil: future, firstPaidAt: past },
    lapsed: { ...none, subscriptionEndsAt: past, firstPaidAt: past },
    lapsedComplimentaryOver: { ...none, subscriptionEndsAt: past, complimentaryUntil: past, firstPaidAt: past },
    lapsedCancelled: { ...none, subscriptionEndsAt: past, subscriptionCancelledAt: past, firstPaidAt: past },
    neverPaid: none,
    neverPaidTrialOver: { ...none, subscriptionEndsAt: past, trialEndsAt: past },
    neverPaidComplimentaryOver: { ...none, complimentaryUntil: past },
  };
  const tag = `s${randomUUID().slice(0, 6)}`;
  const ids = new Map<string, string>();
  beforeAll(async () => {
    for (const [name, columns] of Object.entries(cases)) {
      const row = await insertLearner({ fullName: `${name} ${tag}`, email: `${name.toLowerCase()}.${tag}@example.com`, ...columns });
      ids.set(row.id, name);
    }
  });

  it("each state's SQL finds exactly the accounts learnerStateOf puts in it", async () => {
    const at = new Date();
    for (const state of LEARNER_STATES) {
      const found = await t.app.ctx.db.execute(sql`select u.id from users as u where u.full_name like ${`% ${tag}`} and ${stateSql(state, at)}`);
      const names = (found as unknown as { rows: { id: string }[] }).rows.map((row) => ids.get(row.id)!).sort();
      const expected = Object.entries(cases)
        .filter(([, columns]) => learnerStateOf(columns, at) === state)
        .map(([name]) => name)
        .sort();
      expect(names, state).toEqual(expected);
      expect(expected.length, state).toBeGreaterThan(0);
    }
  });

  it('the list filters by state and shows the state of each row', async () => {
    for (const state of LEARNER_STATES) {
      const { learners } = await list({ q: tag, state, limit: 100 });
      expect(learners.length, state).toBeGreaterThan(0);
      for (const row of learners) expect(row.state).toBe(state);
      expect(learners.map((row) => ids.get(row._id)).sort()).toEqual(
        Object.entries(cases)
          .filter(([, columns]) => learnerStateOf(columns) === state)
          .map(([name]) => name)
          .sort(),
      );
    }
  });

  it('refuses a state, a sort or a cursor it does not know: 400', async () => {
    for (const [query, message] of [
      ['state=rich', answers.learnerStateInvalid],
      ['sort=name', answers.learnerSortInvalid],
      ['cursor=nonsense', answers.learnerCursorInvalid],
      [`cursor=${Buffer.from(JSON.stringify({ k: 'yesterday', id: randomUUID() })).toString('base64url')}`, answers.learnerCursorInvalid],
      [`cursor=${Buffer.from(JSON.stringify({ k: null, id: randomUUID() })).toString('base64url')}`, answers.learnerCursorInvalid],
      [`q=${'a'.repeat(101)}`, answers.learnerSearchTooLong],
    ] as const) {
      const answer = await api('GET', `/admin/learners?${query}`, admin.cookie);
      expect(answer.statusCode, query).toBe(400);
      expect(answer.json()).toMatchObject({ success: false, message });
    }
  });
});

describe('order and pages', () => {
  const tag = `p${randomUUID().slice(0, 6)}`;
  const made: string[] = [];
  beforeAll(async () => {
    // Some share a sign-up moment and some their last activity, to the microsecond: the id breaks the tie.
    const base = Date.now() - 100 * DAY_MS;
    for (let i = 0; i < 23; i++) {
      const row = await insertLearner({
        fullName: `Paged ${i} ${tag}`,
        email: `paged${i}.${tag}@example.com`,
        createdAt: new Date(base + Math.floor(i / 3) * 1000),
        lastActiveAt: i % 4 === 0 ? null : new Date(base + (i % 5) * 1000),
      });
      made.push(row.id);
    }
  });

  async function walk(sort: string, limit: number) {
    const seen: LearnerRow[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 50; pages++) {
      const page: { learners: LearnerRow[]; nextCursor: string | null } = await list({ q: tag, sort, limit, ...(cursor && { cursor }) });
      seen.push(...page.learners);
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    return seen;
  }

  it('newest sign-ups first, every learner once across the pages', async () => {
    for (const limit of [1, 4, 23, 100]) {
      const seen = await walk('signed_up', limit);
      expect(new Set(seen.map((row) => row._id)).size).toBe(23);
      const keys = seen.map((row) => [row.signedUpAt, row._id] as const);
      expect(keys).toEqual([...keys].sort((a, b) => (a[0] === b[0] ? b[1].localeCompare(a[1]) : b[0].localeCompare(a[0]))));
    }
  });

  it('most recently active first, the never active last, every learner once across the pages', async () => {
    for (const limit of [1, 5, 6, 100]) {
      const seen = await walk('last_active', limit);
      expect(new Set(seen.map((row) => row._id)).size).toBe(23);
      const rank = (row: LearnerRow) => row.lastActiveAt ?? '';
      for (let i = 1; i < seen.length; i++) {
        const [a, b] = [seen[i - 1]!, seen[i]!];
        expect(rank(a) > rank(b) || (rank(a) === rank(b) && a._id > b._id), `${i}`).toBe(true);
      }
      expect(seen.at(-1)!.lastActiveAt).toBeNull();
    }
  });
});

describe('last activity', () => {
  it('is written at sign-in and with a session sight, as often as the sight', async () => {
    const learner = await signUp(t.app);
    const lastActive = async () => (await t.app.ctx.db.select().from(users).where(eq(users.id, learner.user._id)))[0]!.lastActiveAt;
    await expect.poll(lastActive).not.toBeNull();
    const [session] = await t.app.ctx.db
      .execute(sql`select id from sessions where user_id = ${learner.user._id}::uuid`)
      .then((r) => (r as unknown as { rows: { id: string }[] }).rows);
    const later = Date.now() + SIGHT_INTERVAL_MS + 1000;
    noteSight(t.app.ctx, session!.id, '198.51.100.7', { error: () => {} }, later);
    await expect.poll(async () => (await lastActive())?.getTime()).toBe(later);
  });
});

describe("a learner's page", () => {
  it('shows payments with their invoice and credit note, progress, quizzes, certificates, sessions, cancellations and activity', async () => {
    const paid = await subscriber(t);
    // A cancellation inside the refund window: refunded in full, with a credit note.
    const cancelled = await api('POST', '/payments/unsubscribe', paid.cookie, { reason: 'too_expensive', note: 'Later, maybe' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);

    const courseId = await newCourse(t, admin.cookie, { title: 'Statistics for the page' });
    const lectureId = await newLecture(t, admin.cookie, courseId);
    await newLecture(t, admin.cookie, courseId, 'Second');
    await t.app.ctx.db
      .insert(courseProgress)
      .values({ userId: paid.user._id, courseId, completedLectures: 1, lastLectureId: lectureId, lastWatchedAt: new Date() });
    const { quizId, version } = await insertQuiz(t, courseId, sampleQuiz({ title: 'Means and medians' }));
    await t.app.ctx.db.insert(quizAttempts).values([
      { quizId, versionId: version.id, userId: paid.user._id, courseId, number: 1, state: 'graded', questionOrder: [], score: 40, passed: false },
      { quizId, versionId: version.id, userId: paid.user._id, courseId, number: 2, state: 'graded', questionOrder: [], score: 90, passed: true },
    ]);
    await t.app.ctx.db.insert(certificates).values({
      code: `C${randomUUID().replaceAll('-', '').slice(0, 15).toUpperCase()}`,
      userId: paid.user._id,
      courseId,
      name: 'Asha',
      courseTitle: 'Statistics for the page',
      instructor: 'Meera',
      issuer: 'LMS',
    });
    await recordAudit(t.app.ctx.db, {
      actor: { id: admin.user._id, fullName: admin.fullName, email: admin.email },
      action: 'protection.endSessions',
      target: { type: 'user', id: paid.user._id, label: paid.email },
      summary: 'Ended 1 session',
    });

    const answer = await api('GET', `/admin/learners/${paid.user._id}`, admin.cookie);
    expect(answer.statusCode, answer.body).toBe(200);
    const { learner } = answer.json();
    expect(learner.profile).toMatchObject({ _id: paid.user._id, email: paid.email, role: 'USER', suspendedAt: null, pendingEmail: null });
    expect(learner.state).toBe('lapsed');
    expect(learner.access).toBeNull();
    expect(learner.subscriptions).toHaveLength(1);
    expect(learner.subscriptions[0]).toMatchObject({ plan: expect.any(String), paidCount: 1, coupon: null });
    expect(learner.payments).toHaveLength(1);
    expect(learner.payments[0]).toMatchObject({
      status: 'refunded',
      amount: 99,
      refunded: 99,
      invoice: { id: expect.any(String), number: expect.stringMatching(/^LMS\//), ready: expect.any(Boolean) },
      creditNotes: [{ id: expect.any(String), number: expect.stringMatching(/^CN\//), ready: expect.any(Boolean) }],
      refunds: [],
    });
    expect(learner.progress).toEqual([
      expect.objectContaining({ courseId, title: 'Statistics for the page', completedLectures: 1, lectureCount: 2, percent: 67, completed: false }),
    ]);
    expect(learner.quizzes).toEqual([
      { quizId, quizTitle: 'Means and medians', courseId, courseTitle: 'Statistics for the page', attempts: 2, bestScore: 90, passed: true },
    ]);
    expect(learner.certificates).toEqual([expect.objectContaining({ courseTitle: 'Statistics for the page', revokedAt: null })]);
    expect(learner.sessions.length).toBeGreaterThan(0);
    expect(learner.sessions.every((session: { current: boolean }) => !session.current)).toBe(true);
    expect(learner.cancellations).toEqual([expect.objectContaining({ reason: 'too_expensive', note: 'Later, maybe', refunded: true })]);
    expect(learner.activity).toEqual([
      expect.objectContaining({
        action: 'protection.endSessions',
        area: 'people',
        summary: 'Ended 1 session',
        actor: expect.objectContaining({ email: admin.email }),
      }),
    ]);
  });

  it('a subscriber with complimentary days beyond their period has access until the later end', async () => {
    const paid = await subscriber(t);
    const until = new Date(Date.now() + 400 * DAY_MS);
    await t.app.ctx.db.update(users).set({ complimentaryUntil: until }).where(eq(users.id, paid.user._id));
    const { learner } = (await api('GET', `/admin/learners/${paid.user._id}`, admin.cookie)).json();
    expect(learner.state).toBe('subscribed');
    expect(learner.access).toEqual({ until: until.toISOString(), source: 'complimentary' });
  });

  it('an unknown learner is 404', async () => {
    expect((await api('GET', `/admin/learners/${randomUUID()}`, admin.cookie)).statusCode).toBe(404);
    // Not an id at all: refused by its shape, as every other id in a path is.
    expect((await api('GET', `/admin/learners/not-an-id`, admin.cookie)).json()).toMatchObject({ success: false, message: answers.notFound });
  });
});

describe('the CSV', () => {
  const tag = `x${randomUUID().slice(0, 6)}`;
  it('streams every learner the search finds, the formulas defused', async () => {
    await insertLearner({ fullName: `=HYPERLINK("http://evil") ${tag}`, email: `evil.${tag}@example.com` });
    await insertLearner({ fullName: `+Plain ${tag}`, email: `plain.${tag}@example.com`, firstPaidAt: new Date() });
    const answer = await api('GET', `/admin/learners/export?q=${tag}`, admin.cookie);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/csv/);
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="learners-${new Date().toISOString().slice(0, 10)}.csv"`);
    const lines = answer.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Name,Email,State,Plan,Signed up,Last active,Lifetime paid (₹)');
    expect(lines).toHaveLength(3);
    expect(lines.find((line) => line.includes('evil'))).toMatch(/^"'=HYPERLINK\(""http:\/\/evil""\) x.{6}",evil\..*,Never paid,,\d{4}-.*,,0\.00$/);
    expect(lines.find((line) => line.includes('plain'))).toMatch(/^'\+Plain x.{6},plain\..*,Lapsed,/);
  });

  it('reads page after page: more learners than one page, each once', async () => {
    const many = `m${randomUUID().slice(0, 6)}`;
    const count = 2345;
    await t.app.ctx.db.execute(sql`
      insert into users (full_name, email, password_hash, created_at)
      select 'Many ' || ${many} || ' ' || i, 'many' || i || '.' || ${many} || '@example.com', 'x', now() - (i % 7) * interval '1 second'
      from generate_series(1, ${count}) as i`);
    const answer = await api('GET', `/admin/learners/export?q=${many}&state=never_paid`, admin.cookie);
    const lines = answer.body.trimEnd().split('\r\n').slice(1);
    expect(lines).toHaveLength(count);
    expect(new Set(lines.map((line) => line.split(',')[1])).size).toBe(count);
  });
});

describe('administrators only', () => {
  it('answers 403 to a learner on the list, the CSV and a learner', async () => {
    const learner = await signUp(t.app);
    for (const url of ['/admin/learners', '/admin/learners/export', `/admin/learners/${learner.user._id}`]) {
      expect((await api('GET', url, learner.cookie)).statusCode, url).toBe(403);
    }
  });
});
