import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { eq } from 'drizzle-orm';
import { cancellations, payments, planPrices, plans, subscriptions, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { signUpAdmin } from '../../test/http.ts';
import { apiCaller, subscriber } from '../../test/payments.ts';
import { EXPORTS_PER_MINUTE } from '../../rate-limit.ts';
import { csvCell } from './revenue-export.ts';
import { getRevenue } from './revenue.service.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await signUpAdmin(t.app)).cookie;
});
afterAll(() => t?.close());

const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t)(...args);
const at = (iso: string) => new Date(iso);
const PLAN = 'plan_revenuetest01';

async function defaultPlanOf(db: TestApp['database']['db']) {
  const [row] = await db
    .select({ planId: plans.id, planPriceId: planPrices.id })
    .from(plans)
    .innerJoin(planPrices, eq(planPrices.planId, plans.id))
    .where(eq(plans.isDefault, true));
  return row!;
}

/**
 * A subscriber as the payments flow would leave them: their subscription, their payments (each a
 * month), and a cancellation if they cancelled. Written directly, with dates in the past.
 */
async function seedSubscriber(name: string, history: { paid: string[]; refundedAt?: string; cancelledAt?: string; accessUntil: string }) {
  const db = t.database.db;
  const [user] = await db
    .insert(users)
    .values({
      fullName: name,
      email: `${name.toLowerCase()}-${Math.random().toString(36).slice(2)}@example.com`,
      passwordHash: 'x',
      subscriptionEndsAt: at(history.accessUntil),
      subscriptionCancelledAt: history.cancelledAt && !history.refundedAt ? at(history.cancelledAt) : null,
      firstPaidAt: at(history.paid[0]!),
    })
    .returning();
  const [subscription] = await db
    .insert(subscriptions)
    .values({
      userId: user!.id,
      providerSubscriptionId: `sub_${name}${Math.random().toString(36).slice(2, 8)}`,
      providerPlanId: PLAN,
      status: history.refundedAt ? 'cancelled' : 'active',
      currentEnd: at(history.accessUntil),
      cancelledAt: history.cancelledAt ? at(history.cancelledAt) : null,
      // The default plan (the bundle), each renewal ₹99, as recordPayment keeps them.
      ...(await defaultPlanOf(db)),
      paidCount: history.paid.length,
      nextChargePaise: 9900,
      monthlyValuePaise: 9900,
    })
    .returning();
  for (const [index, paidAt] of history.paid.entries()) {
    const refunded = history.refundedAt && index === history.paid.length - 1;
    await db.insert(payments).values({
      userId: user!.id,
      subscriptionId: subscription!.id,
      providerPaymentId: `pay_${name}${index}${Math.random().toString(36).slice(2, 8)}`,
      amountPaise: 9900,
      status: refunded ? 'refunded' : 'captured',
      refundedPaise: refunded ? 9900 : 0,
      refundedAt: refunded ? at(history.refundedAt!) : null,
      paidAt: at(paidAt),
    });
  }
  if (history.cancelledAt) {
    await db.insert(cancellations).values({
      key: `seed:${user!.id}`,
      userId: user!.id,
      reason: 'other',
      refunded: Boolean(history.refundedAt),
      accessUntil: at(history.accessUntil),
      createdAt: at(history.cancelledAt),
    });
  }
  return user!;
}

describe('revenue figures', () => {
  it('are exact on a seeded history (months in India’s calendar)', async () => {
    // The seeded subscriptions' plan is not one this server made: MRR counts it at the configured price.
    // 15 Nov 2026, 11:30 in India. November began at 2026-10-31T18:30Z.
    const now = at('2026-11-15T06:00:00Z');
    await seedSubscriber('Anil', { paid: ['2026-09-10T06:00:00Z', '2026-10-10T06:00:00Z', '2026-11-10T06:00:00Z'], accessUntil: '2026-12-10T06:00:00Z' });
    await seedSubscriber('Bela', { paid: ['2026-11-02T06:00:00Z'], accessUntil: '2026-12-02T06:00:00Z' });
    // Cancelled in November without a refund: access (not renewal) until the period ends.
    await seedSubscriber('Chen', { paid: ['2026-10-20T06:00:00Z'], cancelledAt: '2026-11-05T06:00:00Z', accessUntil: '2026-11-20T06:00:00Z' });
    // Refunded in November: no access, a refund this month.
    await seedSubscriber('Devi', {
      paid: ['2026-11-03T06:00:00Z'],
      refundedAt: '2026-11-04T06:00:00Z',
      cancelledAt: '2026-11-04T06:00:00Z',
      accessUntil: '2026-11-04T06:00:00Z',
    });
    // Refunded in October: not active when November began.
    await seedSubscriber('Esha', {
      paid: ['2026-10-25T06:00:00Z'],
      refundedAt: '2026-10-26T06:00:00Z',
      cancelledAt: '2026-10-26T06:00:00Z',
      accessUntil: '2026-10-26T06:00:00Z',
    });
    // Paid in October, renewed this morning.
    await seedSubscriber('Gita', { paid: ['2026-10-15T06:00:00Z', '2026-11-15T05:00:00Z'], accessUntil: '2026-12-15T05:00:00Z' });
    // A subscriber of last year: outside the twelve months.
    await seedSubscriber('Faiz', { paid: ['2025-10-01T06:00:00Z'], accessUntil: '2025-11-01T06:00:00Z' });
    // 31 October, 23:00 in India: October's, though it is 1 November in UTC... and the other way round.
    await seedSubscriber('Hari', { paid: ['2026-10-31T17:30:00Z'], accessUntil: '2026-11-01T00:00:00Z' });

    const revenue = await getRevenue(t.app.ctx, now);
    expect(revenue).toMatchObject({
      month: '2026-11',
      // Anil, Bela and Gita renew: 3 × ₹99. Chen keeps access without renewing.
      mrr: 297,
      plans: [{ id: expect.any(String), name: 'Subscription Bundle', interval: 'monthly', archived: false, subscribers: 3, mrr: 297 }],
      activeSubscribers: 4,
      renewingSubscribers: 3,
      newSubscribers: 2, // Bela, Devi
      cancellations: 2, // Chen, Devi
      activeAtMonthStart: 4, // Anil, Chen, Gita, Hari (Esha was refunded before)
      churnRate: 50,
      refunds: { count: 1, amount: 99 },
      grossRevenue: 396, // Anil, Bela, Devi, Gita
      netRevenue: 297,
    });
    expect(revenue.months).toHaveLength(12);
    expect(revenue.months[0]).toEqual({ month: '2025-12', newSubscribers: 0, cancellations: 0 });
    expect(revenue.months.slice(-3)).toEqual([
      { month: '2026-09', newSubscribers: 1, cancellations: 0 },
      { month: '2026-10', newSubscribers: 4, cancellations: 1 },
      { month: '2026-11', newSubscribers: 2, cancellations: 2 },
    ]);
    expect(revenue.payments[0]).toMatchObject({ fullName: 'Gita', amount: 99, status: 'paid', invoice: null, creditNote: null });
    expect(revenue.payments.find((payment) => payment.fullName === 'Devi')).toMatchObject({ status: 'refunded' });

    // The route answers the same figures for today, to admins only.
    const answer = await api('GET', '/admin/revenue', admin);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ success: true, message: answers.revenueFetched, months: expect.any(Array) });
    const learner = await subscriber(t);
    expect((await api('GET', '/admin/revenue', learner.cookie)).statusCode).toBe(403);
    expect((await api('GET', '/admin/revenue', '')).statusCode).toBe(401);
  });
});

describe('CSV export', () => {
  const exportCsv = (query: Record<string, string>, cookie = admin) => api('GET', `/admin/revenue/export?${new URLSearchParams(query)}`, cookie);
  const lines = (csv: string) => csv.trimEnd().split('\r\n');
  const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Kolkata' }).format(new Date());

  it('lists the payments of a range of days, and the documents issued in it, for an accountant', async () => {
    // Up to the 20th: the subscribers these tests make pay today.
    const payments = await exportCsv({ kind: 'payments', from: '2026-11-01', to: '2026-11-20' });
    expect(payments.statusCode, payments.body).toBe(200);
    expect(payments.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(payments.headers['content-disposition']).toBe('attachment; filename="lms-payments-2026-11-01-to-2026-11-20.csv"');
    const rows = lines(payments.body);
    expect(rows[0]).toBe('Date (IST),Payment ID,Name,Email,Amount,Currency,Status,Refunded,Refunded on (IST),Invoice,Credit note');
    // November in India: Bela, Devi, Anil, Gita (oldest first); Hari paid on 31 October there.
    expect(rows.slice(1).map((row) => row.split(',')[2])).toEqual(['Bela', 'Devi', 'Anil', 'Gita']);
    expect(rows[2]).toMatch(/^2026-11-03 11:30:00,pay_Devi0\w+,Devi,devi-\w+@example\.com,99\.00,INR,refunded,99\.00,2026-11-04 11:30:00,,$/);

    const learner = await subscriber(t, { businessName: 'Verma Tutors, LLP', stateCode: '27' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const documents = await exportCsv({ kind: 'documents', from: today, to: today });
    expect(documents.statusCode).toBe(200);
    const [header, ...issued] = lines(documents.body);
    expect(header).toBe('Number,Document,Date (IST),Against invoice,Buyer,Business name,Buyer GSTIN,Email,Place of supply,Rate %,Taxable,CGST,SGST,IGST,Total');
    const mine = issued.find((row) => row.includes(learner.user.email))!;
    // The test seller has no GSTIN: a receipt, no tax; the comma in the name is quoted.
    expect(mine).toMatch(
      new RegExp(
        `^LMS/\\d{2}-\\d{2}/\\d{6},Receipt,${today} \\d{2}:\\d{2}:\\d{2},,${learner.user.fullName},"Verma Tutors, LLP",,${learner.user.email},27 Maharashtra,0,99\\.00,0\\.00,0\\.00,0\\.00,99\\.00$`,
      ),
    );
  });

  it('defuses cells a spreadsheet would run as formulas, and quotes what needs it', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+91 98765')).toBe("'+91 98765");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell(-12.5)).toBe('-12.5');
    expect(csvCell(null)).toBe('');
  });

  it('refuses a bad kind, bad dates, a reversed or too long range, anyone but an admin, and too many at once', async () => {
    const refused = async (query: Record<string, string>, message: string) => {
      const response = await exportCsv(query);
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      expect(response.json()).toEqual({ success: false, message });
    };
    await refused({ kind: 'users', from: '2026-11-01', to: '2026-11-30' }, answers.exportKindInvalid);
    await refused({ kind: 'payments', from: '1/11/2026', to: '2026-11-30' }, answers.exportDateInvalid);
    await refused({ kind: 'payments', from: '2026-02-30', to: '2026-11-30' }, answers.exportDateInvalid);
    await refused({ kind: 'payments', from: '2026-12-01', to: '2026-11-30' }, answers.exportRangeInvalid);
    await refused({ kind: 'payments', from: '2025-01-01', to: '2026-11-30' }, answers.exportRangeTooLong);
    const learner = await subscriber(t);
    expect((await exportCsv({ kind: 'payments', from: '2026-11-01', to: '2026-11-30' }, learner.cookie)).statusCode).toBe(403);

    const other = (await signUpAdmin(t.app)).cookie;
    const statuses = [];
    for (let i = 0; i <= EXPORTS_PER_MINUTE; i++)
      statuses.push((await exportCsv({ kind: 'payments', from: '2026-11-01', to: '2026-11-01' }, other)).statusCode);
    expect(statuses).toEqual([...Array(EXPORTS_PER_MINUTE).fill(200), 429]);
  });
});
