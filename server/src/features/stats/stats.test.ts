import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { MONTH_NAMES } from '@lms/contract/stats';
import { payments, subscriptions, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { signUp, signUpAdmin } from '../../test/http.ts';
import { apiCaller, subscriber } from '../../test/payments.ts';
import { getPaymentRecords } from './stats.service.ts';

const DAY = 24 * 3600 * 1000;
const random = () => randomBytes(6).toString('hex');

/** A user (or admin) row with the given end of their paid period. */
async function insertUser(t: TestApp, { role = 'USER', subscriptionEndsAt = null }: { role?: 'USER' | 'ADMIN'; subscriptionEndsAt?: Date | null } = {}) {
  const [user] = await t.database.db
    .insert(users)
    .values({ fullName: `Payer ${random()}`, email: `payer.${random()}@example.com`, passwordHash: 'not-a-hash', role, subscriptionEndsAt })
    .returning();
  return user!;
}

/** A subscriptions row for `userId`, which the user's payments belong to. */
async function insertSubscription(t: TestApp, userId: string) {
  const [subscription] = await t.database.db
    .insert(subscriptions)
    .values({ userId, providerSubscriptionId: `sub_${random()}`, providerPlanId: 'plan_x', status: 'active' })
    .returning();
  return subscription!;
}

async function insertPayment(
  t: TestApp,
  payer: { userId: string; subscriptionId: string },
  { paidAt, amountPaise = 9900, refundedPaise = 0 }: { paidAt: Date; amountPaise?: number; refundedPaise?: number },
) {
  const [payment] = await t.database.db
    .insert(payments)
    .values({
      ...payer,
      providerPaymentId: `pay_${random()}`,
      amountPaise,
      refundedPaise,
      status: refundedPaise === amountPaise ? 'refunded' : 'captured',
      paidAt,
      ...(refundedPaise > 0 && { providerRefundId: `rfnd_${random()}`, refundedAt: paidAt }),
    })
    .returning();
  return payment!;
}

/** A paying user with a subscription, ready for payments. */
async function insertPayer(t: TestApp) {
  const user = await insertUser(t);
  const subscription = await insertSubscription(t, user.id);
  return { user, subscription, pays: { userId: user.id, subscriptionId: subscription.id } };
}

describe('GET /api/v1/admin/status/users', () => {
  let t: TestApp;
  let admin: string;
  let user: string;
  const stats = (cookie = admin) => t.app.inject({ url: '/api/v1/admin/status/users', headers: { cookie } });

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signUpAdmin(t.app)).cookie;
    user = (await signUp(t.app)).cookie;
  });
  afterAll(() => t?.close());

  it('counts users, and of them those whose paid period has not ended; admins never', async () => {
    const now = Date.now();
    await insertUser(t, { subscriptionEndsAt: new Date(now + 30 * DAY) });
    await insertUser(t, { subscriptionEndsAt: new Date(now + 60_000) });
    await insertUser(t, { subscriptionEndsAt: new Date(now - 60_000) });
    await insertUser(t, { subscriptionEndsAt: new Date(now - 40 * DAY) });
    await insertUser(t, { role: 'ADMIN', subscriptionEndsAt: new Date(now + 30 * DAY) });
    await insertUser(t, { role: 'ADMIN' });

    const response = await stats();
    expect(response.statusCode).toBe(200);
    // Users: the signed-up one (never paid) and four inserted; admins: the signed-up one and two inserted.
    expect(response.json()).toEqual({ success: true, message: answers.userStats, allUsersCount: 5, subscribedUsersCount: 2 });
  });

  it('is for admins only: 401 logged out, 403 for a user', async () => {
    const loggedOut = await t.app.inject({ url: '/api/v1/admin/status/users' });
    expect(loggedOut.statusCode).toBe(401);
    expect(loggedOut.json()).toEqual({ success: false, message: answers.notLoggedIn });
    const forbidden = await stats(user);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ success: false, message: answers.notAllowed });
  });
});

describe('GET /api/v1/payments', () => {
  let t: TestApp;
  let admin: string;
  let user: string;
  const records = (query = '', cookie = admin) => t.app.inject({ url: `/api/v1/payments${query}`, headers: { cookie } });

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signUpAdmin(t.app)).cookie;
    user = (await signUp(t.app)).cookie;
  });
  afterAll(() => t?.close());

  it('answers zeros and no payments before anyone has paid', async () => {
    const response = await records();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: answers.paymentRecords,
      allPayments: [],
      finalMonths: Object.fromEntries(MONTH_NAMES.map((name) => [name, 0])),
      monthlySalesRecord: Array(12).fill(0),
      subscriptionCount: 0,
      totalRevenue: 0,
    });
  });

  it('lists the latest payments first with their payer, in rupees, and the totals over all of them', async () => {
    const asha = await insertPayer(t);
    const ravi = await insertPayer(t);
    const start = Date.now() - 10 * DAY;
    const paid = [];
    // Oldest first: 9 payments of ₹99, a day apart, Asha and Ravi in turn.
    for (let i = 0; i < 9; i++) paid.push(await insertPayment(t, (i % 2 ? ravi : asha).pays, { paidAt: new Date(start + i * DAY) }));
    // The newest one, ₹149.50, refunded ₹49.50 of it.
    const newest = await insertPayment(t, asha.pays, { paidAt: new Date(start + 9 * DAY), amountPaise: 14950, refundedPaise: 4950 });

    const response = await records('?count=3');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.allPayments).toHaveLength(3);
    expect(body.allPayments.map((p: { _id: string }) => p._id)).toEqual([newest.id, paid[8]!.id, paid[7]!.id]);
    expect(body.allPayments[0]).toEqual({
      _id: newest.id,
      payment_id: newest.providerPaymentId,
      subscription_id: asha.subscription.providerSubscriptionId,
      payer: { fullName: asha.user.fullName, email: asha.user.email },
      amount: 149.5,
      currency: 'INR',
      status: 'captured',
      date: newest.paidAt.toISOString(),
    });
    expect(body.allPayments[2]).toMatchObject({
      payment_id: paid[7]!.providerPaymentId,
      subscription_id: ravi.subscription.providerSubscriptionId,
      payer: { fullName: ravi.user.fullName, email: ravi.user.email },
      amount: 99,
    });
    // Totals count every payment, not only the listed ones.
    expect(body.subscriptionCount).toBe(10);
    expect(body.totalRevenue).toBe(9 * 99 + 149.5 - 49.5);

    // The default is 100, which here is all ten.
    expect((await records()).json().allPayments).toHaveLength(10);
  });

  it('lists a payment refunded in full, but counts it neither as sold nor in the revenue', async () => {
    const before = (await records()).json();
    const payer = await insertPayer(t);
    await insertPayment(t, payer.pays, { paidAt: new Date(), amountPaise: 9900, refundedPaise: 9900 });
    const after = (await records()).json();
    expect(after.allPayments[0]).toMatchObject({ status: 'refunded', amount: 99 });
    expect(after.subscriptionCount).toBe(before.subscriptionCount);
    expect(after.monthlySalesRecord).toEqual(before.monthlySalesRecord);
    expect(after.totalRevenue).toBe(before.totalRevenue);
  });

  it('counts the payments of this year by month, month names in calendar order', async () => {
    const body = (await records()).json();
    expect(Object.keys(body.finalMonths)).toEqual([...MONTH_NAMES]);
    expect(Object.values(body.finalMonths)).toEqual(body.monthlySalesRecord);
    expect(body.monthlySalesRecord).toHaveLength(12);
    // The payments above were made over the last ten days; those in this Indian calendar year, and not refunded, are counted.
    const thisYear = new Intl.DateTimeFormat('en', { timeZone: 'Asia/Kolkata', year: 'numeric' }).format(new Date());
    const inThisYear = body.allPayments.filter(
      (p: { date: string; status: string }) =>
        p.status !== 'refunded' && new Intl.DateTimeFormat('en', { timeZone: 'Asia/Kolkata', year: 'numeric' }).format(new Date(p.date)) === thisYear,
    ).length;
    expect(body.monthlySalesRecord.reduce((a: number, b: number) => a + b, 0)).toBe(inThisYear);
  });

  it('refuses a count that is not a whole number from 1 to 500 (400)', async () => {
    for (const count of ['0', '501', 'abc', '2.5', '-1']) {
      const response = await records(`?count=${count}`);
      expect(response.statusCode, count).toBe(400);
      expect(response.json()).toEqual({ success: false, message: answers.countInvalid });
    }
    expect((await records('?count=500')).statusCode).toBe(200);
    expect((await records('?count=1')).json().allPayments).toHaveLength(1);
  });

  it('is for admins only: 401 logged out, 403 for a user', async () => {
    const loggedOut = await t.app.inject({ url: '/api/v1/payments' });
    expect(loggedOut.statusCode).toBe(401);
    expect(loggedOut.json()).toEqual({ success: false, message: answers.notLoggedIn });
    const forbidden = await records('', user);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ success: false, message: answers.notAllowed });
  });
});

describe('Subscribed Users and Subscription Count after a refund', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signUpAdmin(t.app)).cookie;
  });
  afterAll(() => t?.close());

  /** The dashboard's four cards and this month's bar, as the admin reads them. */
  const dashboard = async () => {
    const api = apiCaller(t);
    const users = (await api('GET', '/admin/status/users', admin)).json();
    const records = (await api('GET', '/payments?count=100', admin)).json();
    const month = Number(new Intl.DateTimeFormat('en', { timeZone: 'Asia/Kolkata', month: 'numeric' }).format(new Date()));
    return {
      subscribedUsers: users.subscribedUsersCount,
      subscriptionCount: records.subscriptionCount,
      totalRevenue: records.totalRevenue,
      salesThisMonth: records.monthlySalesRecord[month - 1],
    };
  };

  it('agree: a refund takes the buyer out of both, and the sale out of the chart and the revenue; a cancellation without one leaves them in', async () => {
    expect(await dashboard()).toEqual({ subscribedUsers: 0, subscriptionCount: 0, totalRevenue: 0, salesThisMonth: 0 });
    const refunded = await subscriber(t);
    const kept = await subscriber(t);
    expect(await dashboard()).toEqual({ subscribedUsers: 2, subscriptionCount: 2, totalRevenue: 198, salesThisMonth: 2 });

    // Inside the refund window: refunded in full, access ends now.
    expect((await apiCaller(t)('POST', '/payments/unsubscribe', refunded.cookie)).json()).toMatchObject({ refunded: true });
    expect(await dashboard()).toEqual({ subscribedUsers: 1, subscriptionCount: 1, totalRevenue: 99, salesThisMonth: 1 });
    // The payment is still listed, as refunded.
    const { allPayments } = (await apiCaller(t)('GET', '/payments?count=100', admin)).json();
    expect(allPayments.map((payment: { payer: { email: string }; status: string }) => [payment.payer.email, payment.status]).sort()).toEqual(
      [
        [kept.email, 'captured'],
        [refunded.email, 'refunded'],
      ].sort(),
    );

    // Outside the window: no refund, access (and the sale) stand until the period ends.
    await t.database.db
      .update(payments)
      .set({ paidAt: new Date(Date.now() - 20 * DAY) })
      .where(eq(payments.userId, kept.user._id));
    expect((await apiCaller(t)('POST', '/payments/unsubscribe', kept.cookie)).json()).toMatchObject({ refunded: false });
    expect(await dashboard()).toMatchObject({ subscribedUsers: 1, subscriptionCount: 1, totalRevenue: 99 });
  });
});

describe('monthly sales (Asia/Kolkata calendar)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('counts by the Indian month and year, across the year boundary and at midnight IST', async () => {
    const payer = await insertPayer(t);
    const pay = (iso: string) => insertPayment(t, payer.pays, { paidAt: new Date(iso) });
    await pay('2026-06-15T12:00:00Z'); // last year
    await pay('2026-12-31T18:29:59Z'); // IST 2026-12-31 23:59:59: last year
    await pay('2026-12-31T18:30:00Z'); // IST 2027-01-01 00:00:00: January
    await pay('2027-01-15T09:00:00Z'); // January
    await pay('2027-01-31T18:29:59Z'); // IST 2027-01-31 23:59:59: January
    await pay('2027-01-31T18:30:00Z'); // IST 2027-02-01 00:00:00: February
    await pay('2027-06-30T18:30:00Z'); // IST 2027-07-01: July
    await pay('2027-12-31T18:29:59Z'); // IST 2027-12-31 23:59:59: December
    await pay('2027-12-31T18:30:00Z'); // IST 2028-01-01: next year

    const pinned = await getPaymentRecords(t.app.ctx, { count: 100, now: new Date('2027-01-15T10:00:00Z') });
    expect(pinned.monthlySalesRecord).toEqual([3, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    expect(Object.keys(pinned.finalMonths)).toEqual([...MONTH_NAMES]);
    expect(pinned.finalMonths).toMatchObject({ January: 3, February: 1, July: 1, December: 1, March: 0 });
    expect(Object.values(pinned.finalMonths)).toEqual(pinned.monthlySalesRecord);
    // The totals are over all time, whatever the year.
    expect(pinned.subscriptionCount).toBe(9);
    expect(pinned.totalRevenue).toBe(9 * 99);

    // "Now" is in India's 2027 from 18:30 UTC on 31 December 2026.
    const lastMoment2026 = await getPaymentRecords(t.app.ctx, { count: 1, now: new Date('2026-12-31T18:29:59Z') });
    expect(lastMoment2026.monthlySalesRecord).toEqual([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1]);
    const firstMoment2027 = await getPaymentRecords(t.app.ctx, { count: 1, now: new Date('2026-12-31T18:30:00Z') });
    expect(firstMoment2027.monthlySalesRecord).toEqual(pinned.monthlySalesRecord);
    expect(firstMoment2027.allPayments).toHaveLength(1);
    expect(firstMoment2027.allPayments[0]!.date).toBe('2027-12-31T18:30:00.000Z');
  });
});

describe('the monthly totals follow every change to payments (payment_months triggers)', () => {
  let t: TestApp;
  const now = new Date('2027-03-10T12:00:00Z');
  const figures = async () => {
    const { monthlySalesRecord, subscriptionCount, totalRevenue } = await getPaymentRecords(t.app.ctx, { count: 1, now });
    return { monthlySalesRecord, subscriptionCount, totalRevenue };
  };
  /** The same figures counted from the payments themselves (one refunded in full is no sale). */
  const countedFromPayments = async () => {
    const all = await t.database.db.select().from(payments);
    const rows = all.filter((row) => row.status !== 'refunded');
    const monthlySalesRecord = Array(12).fill(0);
    for (const row of rows) {
      const [year, month] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata', year: 'numeric', month: '2-digit' }).format(row.paidAt).split('-');
      if (year === '2027') monthlySalesRecord[Number(month) - 1]++;
    }
    const net = all.reduce((sum, row) => sum + row.amountPaise - row.refundedPaise, 0);
    return { monthlySalesRecord, subscriptionCount: rows.length, totalRevenue: net / 100 };
  };
  const months = (entries: Record<number, number>) => Array.from({ length: 12 }, (_, index) => entries[index + 1] ?? 0);

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('adds the rows of one multi-row insert to their months', async () => {
    const payer = await insertPayer(t);
    await t.database.db.insert(payments).values(
      ['2027-01-05T10:00:00Z', '2027-01-20T10:00:00Z', '2027-02-28T19:00:00Z'].map((iso) => ({
        ...payer.pays,
        providerPaymentId: `pay_${random()}`,
        amountPaise: 9900,
        status: 'captured',
        paidAt: new Date(iso),
      })),
    );
    // 28 February 19:00 UTC is 1 March in India.
    expect(await figures()).toEqual({ monthlySalesRecord: months({ 1: 2, 3: 1 }), subscriptionCount: 3, totalRevenue: 297 });
    expect(await figures()).toEqual(await countedFromPayments());
  });

  it('takes a refund out of the sales and the revenue, and moves a payment whose date changes', async () => {
    const payer = await insertPayer(t);
    const payment = await insertPayment(t, payer.pays, { paidAt: new Date('2027-02-10T10:00:00Z') });
    const moved = await insertPayment(t, payer.pays, { paidAt: new Date('2027-02-12T10:00:00Z') });
    expect(await figures()).toEqual({ monthlySalesRecord: months({ 1: 2, 2: 2, 3: 1 }), subscriptionCount: 5, totalRevenue: 495 });

    await t.database.db
      .update(payments)
      .set({ refundedPaise: 9900, status: 'refunded', refundedAt: new Date('2027-02-11T10:00:00Z') })
      .where(eq(payments.id, payment.id));
    expect(await figures()).toEqual({ monthlySalesRecord: months({ 1: 2, 2: 1, 3: 1 }), subscriptionCount: 4, totalRevenue: 396 });

    await t.database.db
      .update(payments)
      .set({ paidAt: new Date('2027-04-01T10:00:00Z') })
      .where(eq(payments.id, moved.id));
    expect(await figures()).toEqual({ monthlySalesRecord: months({ 1: 2, 3: 1, 4: 1 }), subscriptionCount: 4, totalRevenue: 396 });
    expect(await figures()).toEqual(await countedFromPayments());
  });

  it("drops a deleted user's payments (deleted by cascade), and everything on truncate", async () => {
    const payer = await insertPayer(t);
    await insertPayment(t, payer.pays, { paidAt: new Date('2027-03-01T10:00:00Z') });
    expect((await figures()).subscriptionCount).toBe(5);
    await t.database.db.delete(users).where(eq(users.id, payer.user.id));
    expect(await figures()).toEqual({ monthlySalesRecord: months({ 1: 2, 3: 1, 4: 1 }), subscriptionCount: 4, totalRevenue: 396 });
    expect(await figures()).toEqual(await countedFromPayments());

    await t.database.db.execute(sql`truncate billing_documents, admin_refunds, payments`);
    expect(await figures()).toEqual({ monthlySalesRecord: months({}), subscriptionCount: 0, totalRevenue: 0 });
  });
});
