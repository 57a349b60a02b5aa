import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { cancellations, payments } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { signUpAdmin } from '../../test/http.ts';
import { apiCaller, subscriber } from '../../test/payments.ts';

const DAY = 24 * 3600 * 1000;
let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await signUpAdmin(t.app)).cookie;
});
afterAll(() => t?.close());

const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t)(...args);

describe('GET /admin/cancellations', () => {
  it('counts the reasons given in the last 90 days, most given first, and lists the latest with their notes', async () => {
    const cancel = async (body?: object, { paidDaysAgo = 0 } = {}) => {
      const learner = await subscriber(t);
      if (paidDaysAgo)
        await t.database.db
          .update(payments)
          .set({ paidAt: new Date(Date.now() - paidDaysAgo * DAY) })
          .where(eq(payments.userId, learner.user._id));
      expect((await api('POST', '/payments/unsubscribe', learner.cookie, body)).statusCode).toBe(200);
      return learner;
    };
    const old = await cancel({ reason: 'technical' });
    await t.database.db
      .update(cancellations)
      .set({ createdAt: new Date(Date.now() - 91 * DAY) })
      .where(eq(cancellations.userId, old.user._id));
    await cancel({ reason: 'too_expensive' });
    await cancel({ reason: 'not_using', note: 'No time this quarter.' }, { paidDaysAgo: 20 });
    await cancel();
    const last = await cancel({ reason: 'too_expensive', note: 'Half the price and I would stay.' });

    const response = await api('GET', '/admin/cancellations', admin);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ success: true, message: answers.cancellationsFetched, total: 4 });
    expect(body.reasons).toEqual([
      { reason: 'too_expensive', count: 2 },
      { reason: 'not_using', count: 1 },
      { reason: null, count: 1 },
    ]);
    expect(body.latest).toHaveLength(4);
    expect(body.latest[0]).toEqual({
      date: expect.any(String),
      fullName: last.user.fullName,
      email: last.user.email,
      reason: 'too_expensive',
      note: 'Half the price and I would stay.',
      refunded: true,
    });
    expect(body.latest.map((row: { reason: string | null; refunded: boolean }) => [row.reason, row.refunded])).toEqual([
      ['too_expensive', true],
      [null, true],
      ['not_using', false],
      ['too_expensive', true],
    ]);
  });

  it('is for admins only', async () => {
    const learner = await subscriber(t);
    expect((await api('GET', '/admin/cancellations', learner.cookie)).statusCode).toBe(403);
    expect((await api('GET', '/admin/cancellations', '')).statusCode).toBe(401);
  });
});
