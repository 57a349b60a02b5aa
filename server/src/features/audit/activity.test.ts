import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import type { AuditEntry } from '@lms/contract/audit';
import { eq } from 'drizzle-orm';
import { auditLog, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { signUp, signUpAdmin } from '../../test/http.ts';
import { recordAudit } from './audit.ts';

let t: TestApp;
let asha: Awaited<ReturnType<typeof signUpAdmin>>;
let ravi: Awaited<ReturnType<typeof signUpAdmin>>;
let learner: Awaited<ReturnType<typeof signUp>>;
const courseId = randomUUID();

const actorOf = (account: typeof asha) => ({ id: account.user._id, fullName: account.fullName, email: account.email });

beforeAll(async () => {
  t = await createTestApp();
  asha = await signUpAdmin(t.app);
  ravi = await signUpAdmin(t.app);
  await t.app.ctx.db.update(users).set({ fullName: 'Ravi Kumar' }).where(eq(users.id, ravi.user._id));
  learner = await signUp(t.app);
  const db = t.database.db;
  // Either side of midnight in India on 2 March 2026 (18:30 UTC the day before).
  await db.insert(auditLog).values([
    {
      at: new Date('2026-03-01T18:29:59Z'),
      actorId: asha.user._id,
      actorName: asha.fullName,
      actorEmail: asha.email,
      action: 'plans.create',
      area: 'money',
      targetType: 'plan',
      targetId: randomUUID(),
      targetLabel: 'Yearly',
      summary: 'Created plan: Yearly',
    },
    {
      at: new Date('2026-03-01T18:30:00Z'),
      actorId: ravi.user._id,
      actorName: 'Ravi Kumar',
      actorEmail: ravi.email,
      action: 'courses.update',
      area: 'content',
      targetType: 'course',
      targetId: courseId,
      targetLabel: 'Typography',
      summary: 'Edited course: Typography',
    },
  ]);
  await recordAudit(db, { actor: null, action: 'access.expire', target: { type: 'user', id: learner.user._id, label: learner.fullName }, summary: 'Ended' });
  for (let n = 1; n <= 5; n += 1)
    await recordAudit(db, {
      actor: actorOf(asha),
      action: 'learners.grantAccess',
      target: { type: 'user', id: learner.user._id, label: learner.fullName },
      reason: n === 5 ? '=HYPERLINK("http://evil.example","click")' : `scholarship ${n}`,
      summary: `${n * 10} days`,
    });
});
afterAll(() => t?.close());

const list = (query: string, cookie = asha.cookie) => t.app.inject({ url: `/api/v1/admin/activity${query}`, headers: { cookie } });
const entriesOf = async (query: string): Promise<AuditEntry[]> => {
  const answer = await list(query);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().entries;
};

describe('the Activity list', () => {
  it('answers the trail newest first, with who, what, on what, why, and the administrators in it', async () => {
    const answer = await list('');
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json();
    expect(body).toMatchObject({ success: true, message: answers.activityFetched, nextCursor: null });
    expect(body.entries).toHaveLength(8);
    const ids = body.entries.map((entry: AuditEntry) => Number(entry._id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(body.entries[0]).toEqual({
      _id: expect.any(String),
      at: expect.any(String),
      actor: { _id: asha.user._id, name: asha.fullName, email: asha.email },
      action: 'learners.grantAccess',
      area: 'people',
      target: { type: 'user', _id: learner.user._id, label: learner.fullName },
      reason: '=HYPERLINK("http://evil.example","click")',
      summary: '50 days',
    });
    expect(body.entries.find((entry: AuditEntry) => entry.action === 'access.expire').actor).toBeNull();
    expect(body.actors).toEqual(
      [
        { _id: asha.user._id, name: asha.fullName, email: asha.email },
        { _id: ravi.user._id, name: 'Ravi Kumar', email: ravi.email },
      ].sort((a, b) => a.name.localeCompare(b.name)),
    );
  });

  it('pages by cursor: every entry once, none twice', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const answer = await list(`?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(answer.statusCode, answer.body).toBe(200);
      const body = answer.json();
      seen.push(...body.entries.map((entry: AuditEntry) => entry._id));
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(8);
    expect(new Set(seen).size).toBe(8);
    expect(seen).toEqual((await entriesOf('')).map((entry) => entry._id));
  });

  it('filters by area, action, administrator and target', async () => {
    expect((await entriesOf('?area=money')).map((entry) => entry.action)).toEqual(['plans.create']);
    expect(await entriesOf('?action=learners.grantAccess')).toHaveLength(5);
    expect((await entriesOf(`?actorId=${ravi.user._id}`)).map((entry) => entry.action)).toEqual(['courses.update']);
    expect((await entriesOf(`?targetId=${learner.user._id}`)).map((entry) => entry.action)).toEqual([
      ...Array(5).fill('learners.grantAccess'),
      'access.expire',
    ]);
    expect(await entriesOf(`?targetId=${learner.user._id}&area=content`)).toEqual([]);
  });

  it('reads days in India’s calendar, both ends included', async () => {
    expect((await entriesOf('?from=2026-03-02&to=2026-03-02')).map((entry) => entry.action)).toEqual(['courses.update']);
    expect((await entriesOf('?from=2026-03-01&to=2026-03-01')).map((entry) => entry.action)).toEqual(['plans.create']);
    expect((await entriesOf('?from=2026-03-01&to=2026-03-02')).map((entry) => entry.action)).toEqual(['courses.update', 'plans.create']);
    expect((await entriesOf('?to=2026-02-28')).length).toBe(0);
  });

  it('refuses a filter it cannot read, and anyone but an administrator', async () => {
    for (const query of ['?area=weather', '?action=courses.list', '?actorId=me', '?from=yesterday', '?cursor=abc']) {
      const answer = await list(query);
      expect(answer.statusCode, query).toBe(400);
      expect(answer.json()).toEqual({ success: false, message: answers.activityFilterInvalid });
    }
    expect((await list('', learner.cookie)).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/v1/admin/activity/export', headers: { cookie: learner.cookie } })).statusCode).toBe(403);
  });
});

describe('the Activity CSV', () => {
  const exported = (query: string) => t.app.inject({ url: `/api/v1/admin/activity/export${query}`, headers: { cookie: asha.cookie } });

  it('streams the trail the filters find, newest first, in India’s time, with no cell a spreadsheet would run', async () => {
    const answer = await exported(`?targetId=${learner.user._id}`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toMatch(/attachment; filename="?activity-\d{4}-\d{2}-\d{2}\.csv/);
    const lines = answer.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('When (IST),Administrator,Email,Area,Action,Target,Reason,Summary');
    expect(lines).toHaveLength(7);
    expect(lines[1]).toBe(
      `${lines[1]!.slice(0, 19)},${asha.fullName},${asha.email},People,Granted complimentary access,${learner.fullName},"'=HYPERLINK(""http://evil.example"",""click"")",50 days`,
    );
    expect(lines[1]!.slice(0, 19)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(lines[6]).toMatch(/,,,People,Complimentary access ended,/);
  });

  it('takes the dates as the list does', async () => {
    const answer = await exported('?from=2026-03-02&to=2026-03-02');
    expect(answer.body.trimEnd().split('\r\n')).toEqual([
      'When (IST),Administrator,Email,Area,Action,Target,Reason,Summary',
      `2026-03-02 00:00:00,Ravi Kumar,${ravi.email},Content,Edited course,Typography,,Edited course: Typography`,
    ]);
  });
});
