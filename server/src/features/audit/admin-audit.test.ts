import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, apiEndpoints, type ApiEndpoint } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { AUDIT_ACTIONS } from '@lms/contract/audit';
import { API_PREFIX } from '@lms/contract/http';
import { auditLog } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { multipart, pngImage, signUp, signUpAdmin } from '../../test/http.ts';
import { AUDITED_BY_SERVICE, isAuditedByRoute, recordAdminAction, targetOf } from './admin-actions.ts';

/** Actions no endpoint is named after: written by services (a restore, a confirmed email) or by the queue. */
const WRITTEN_BY_SERVICES_ONLY = ['access.expire', 'email.confirm', 'protection.restore'];

const adminEndpoints = apiEndpoints.filter((endpoint) => endpoint.access === 'admin');
const adminWrites = adminEndpoints.filter((endpoint) => endpoint.method !== 'GET');

/** The endpoint's URL with well-formed values for its path and query, so that only the access guard can refuse it. */
function urlOf(endpoint: ApiEndpoint): string {
  const path = endpoint.path.replace(/:(\w+)/g, (_match, name: string) => {
    if (name === 'page') return 'terms';
    if (name === 'code') return 'ABCD2345';
    return randomUUID();
  });
  const query = endpoint.name === 'lectures.delete' ? `?courseId=${randomUUID()}&lectureId=${randomUUID()}` : '';
  return `${API_PREFIX}${path}${query}`;
}

describe('the names of the audit trail', () => {
  it('has an action for every administrator’s write the route records, and the services record the others', () => {
    expect(adminWrites.length).toBeGreaterThan(40);
    const unnamed = adminWrites.filter((endpoint) => !AUDITED_BY_SERVICE.has(endpoint.name) && !(endpoint.name in AUDIT_ACTIONS));
    expect(unnamed.map((endpoint) => endpoint.name)).toEqual([]);
    expect(adminWrites.filter(isAuditedByRoute).length + AUDITED_BY_SERVICE.size).toBe(adminWrites.length);
  });

  it('names no endpoint that is gone, nor one that is not an administrator’s write', () => {
    const writes = new Set(adminWrites.map((endpoint) => endpoint.name));
    const stale = Object.keys(AUDIT_ACTIONS).filter((action) => !writes.has(action) && !WRITTEN_BY_SERVICES_ONLY.includes(action));
    expect(stale).toEqual([]);
    expect([...AUDITED_BY_SERVICE].filter((name) => !writes.has(name))).toEqual([]);
    // Every learner's write is recorded by its service, with the reason given.
    expect(adminWrites.filter((endpoint) => endpoint.name.startsWith('learners.') && !AUDITED_BY_SERVICE.has(endpoint.name))).toEqual([]);
  });
});

describe('what an administrator’s write was done to', () => {
  const courseId = randomUUID();
  const lectureId = randomUUID();
  const made = randomUUID();
  const request = (params: object = {}, query: object = {}) => ({ params, query }) as unknown as FastifyRequest;

  it('is the thing the path names, called as the answer calls it, else by its id', () => {
    expect(targetOf(api.lectures.update, request({ courseId, lectureId }), { lecture: { _id: lectureId, title: 'Kerning' } })).toEqual({
      type: 'lecture',
      id: lectureId,
      label: 'Kerning',
    });
    // The answer is the course; the lecture is gone.
    expect(targetOf(api.lectures.delete, request({}, { courseId, lectureId }), { course: { _id: courseId, title: 'Type' } })).toEqual({
      type: 'lecture',
      id: lectureId,
      label: lectureId,
    });
  });

  it('is the thing made, when the answer carries one the path does not name', () => {
    expect(targetOf(api.quizzes.create, request({ courseId }), { quiz: { _id: made, title: 'Check yourself' } })).toEqual({
      type: 'quiz',
      id: made,
      label: 'Check yourself',
    });
    expect(targetOf(api.settings.update, request(), { settings: { name: 'Acme' } })).toEqual({ type: 'settings', id: null, label: 'Site settings' });
  });

  it('leaves the change made when its entry cannot be written, and says so in the log', async () => {
    const error = vi.fn();
    const failing = {
      params: { id: courseId },
      query: {},
      user: { id: randomUUID(), fullName: 'Asha', email: 'asha@example.com' },
      log: { error },
      server: { ctx: { db: { insert: () => ({ values: () => Promise.reject(new Error('the database went away')) }) } } },
    } as unknown as FastifyRequest;
    await expect(recordAdminAction(failing, api.courses.unpublish, { course: { _id: courseId, title: 'Type' } })).resolves.toBeUndefined();
    expect(error).toHaveBeenCalledOnce();
    expect(error.mock.calls[0]![0]).toMatchObject({ action: 'courses.unpublish' });
  });
});

describe('the audit trail', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signUpAdmin>>;
  let learner: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signUpAdmin(t.app);
    learner = await signUp(t.app);
  });
  afterAll(() => t?.close());

  const call = (method: ApiEndpoint['method'], url: string, cookie: string, payload?: object) =>
    t.app.inject({ method, url: `${API_PREFIX}${url}`, headers: { cookie }, ...(payload && { payload }) });
  const entriesOf = (action: string) => t.database.db.select().from(auditLog).where(eq(auditLog.action, action));
  const entryCount = async () => (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(auditLog))[0]!.n;

  it('every administrator’s endpoint answers 403 to a learner and 401 to a visitor, whatever they send', async () => {
    expect(adminEndpoints.length).toBeGreaterThan(60);
    const before = await entryCount();
    for (const endpoint of adminEndpoints) {
      const url = urlOf(endpoint);
      // A body no form would take: the guard answers before validation reads it.
      const payload = endpoint.method === 'GET' ? undefined : { title: 7 };
      const asLearner = await t.app.inject({ method: endpoint.method, url, headers: { cookie: learner.cookie }, ...(payload && { payload }) });
      expect(asLearner.statusCode, `${endpoint.name} as a learner: ${asLearner.body}`).toBe(403);
      expect(asLearner.json()).toEqual({ success: false, message: answers.notAllowed });
      const asVisitor = await t.app.inject({ method: endpoint.method, url, ...(payload && { payload }) });
      expect(asVisitor.statusCode, `${endpoint.name} as a visitor: ${asVisitor.body}`).toBe(401);
    }
    // A learner's refused attempts are nobody's action.
    expect(await entryCount()).toBe(before);
  });

  it('records a course created: the administrator, the action, its area, the course and its title', async () => {
    const form = await multipart({
      title: 'Typography in practice',
      description: 'Letters, and how to set them.',
      category: 'Design',
      createdBy: 'Meera Iyer',
      thumbnail: { bytes: await pngImage(), filename: 'cover.png', type: 'image/png' },
    });
    const created = await t.app.inject({
      method: 'POST',
      url: `${API_PREFIX}/courses`,
      payload: form.payload,
      headers: { ...form.headers, cookie: admin.cookie },
    });
    expect(created.statusCode, created.body).toBe(201);
    const courseId: string = created.json().course._id;
    const entries = await entriesOf('courses.create');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorId: admin.user._id,
      actorName: admin.fullName,
      actorEmail: admin.email,
      area: 'content',
      targetType: 'course',
      targetId: courseId,
      targetLabel: 'Typography in practice',
      reason: null,
      summary: 'Created course: Typography in practice',
    });

    // A change takes its target from the path, and its label from the answer.
    const unpublished = await call('POST', `/courses/${courseId}/unpublish`, admin.cookie);
    expect(unpublished.statusCode, unpublished.body).toBe(200);
    expect(await entriesOf('courses.unpublish')).toMatchObject([{ targetType: 'course', targetId: courseId, targetLabel: 'Typography in practice' }]);
  });

  it('records the site’s settings changed', async () => {
    const changed = await call('PATCH', '/settings', admin.cookie, { shortName: 'Acme' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await entriesOf('settings.update')).toMatchObject([
      { actorId: admin.user._id, area: 'settings', targetType: 'settings', targetId: null, targetLabel: 'Site settings', summary: 'Changed site settings' },
    ]);
  });

  it('records a plan and a coupon created, with their names', async () => {
    const plan = await call('POST', '/admin/plans', admin.cookie, { name: 'Yearly', interval: 'yearly', price: 999 });
    expect(plan.statusCode, plan.body).toBe(201);
    expect(await entriesOf('plans.create')).toMatchObject([
      { actorId: admin.user._id, area: 'money', targetType: 'plan', targetId: plan.json().plan.id, targetLabel: 'Yearly', summary: 'Created plan: Yearly' },
    ]);
    const coupon = await call('POST', '/admin/coupons', admin.cookie, { code: 'WELCOME10', kind: 'percent', amount: 10 });
    expect(coupon.statusCode, coupon.body).toBe(201);
    expect(await entriesOf('coupons.create')).toMatchObject([
      { actorId: admin.user._id, area: 'money', targetType: 'coupon', targetId: coupon.json().coupon.id, targetLabel: 'WELCOME10' },
    ]);
  });

  it('records a legal page saved, and nothing for a write refused', async () => {
    const saved = await call('PUT', '/pages/terms', admin.cookie, { markdown: '# Terms\n\nBe kind.' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await entriesOf('legalPages.update')).toMatchObject([{ area: 'settings', targetType: 'page', targetId: null, targetLabel: 'terms' }]);

    const before = await entryCount();
    const refused = await call('POST', '/admin/plans', admin.cookie, { name: '', interval: 'monthly', price: 1 });
    expect(refused.statusCode).toBe(400);
    const missing = await call('DELETE', `/courses/${randomUUID()}`, admin.cookie);
    expect(missing.statusCode).toBe(404);
    expect(await entryCount()).toBe(before);
  });

  it('is append-only: the database refuses to change or delete an entry', async () => {
    const [entry] = await t.database.db.select().from(auditLog).limit(1);
    await expect(t.database.db.update(auditLog).set({ summary: 'nothing happened' }).where(eq(auditLog.id, entry!.id))).rejects.toThrow();
    await expect(t.database.db.delete(auditLog).where(eq(auditLog.id, entry!.id))).rejects.toThrow();
    expect((await t.database.db.select().from(auditLog).where(eq(auditLog.id, entry!.id)))[0]!.summary).toBe(entry!.summary);
  });
});
