import { randomUUID } from 'node:crypto';
import { and, eq, sum } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { adminRefunds, auditLog, billingDocuments, paymentMonths, payments, sandboxPayments, sandboxRefunds, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { publishCourseDirectly } from '../../test/courses.ts';
import { mp4Video, multipart, pngImage, signUp, signUpAdmin } from '../../test/http.ts';
import { waitForParsedMails } from '../../test/mail.ts';
import { apiCaller, providerSubscription, sandboxAuth, subscriber } from '../../test/payments.ts';
import { reconcilePendingRefunds } from './refunds.service.ts';

/*
 * An administrator's refunds, through the sandbox's imitation of Razorpay's refund API: in full and
 * in part, once per key however often it is asked, refused by the provider, and left pending when the
 * provider does not answer (then settled by the sweep).
 */

let t: TestApp;
let admin: { cookie: string; fullName: string; user: { _id: string } };
let courseId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signUpAdmin(t.app);
  const course = await multipart({
    title: 'Paid Course',
    description: 'Behind the paywall.',
    category: 'Tests',
    createdBy: 'Asha Verma',
    thumbnail: { bytes: await pngImage(), filename: 'c.png' },
  });
  courseId = (
    await t.app.inject({ method: 'POST', url: '/api/v1/courses', payload: course.payload, headers: { ...course.headers, cookie: admin.cookie } })
  ).json().course._id;
  const lecture = await multipart({ title: 'Lesson', description: 'The first one.', lectures: { bytes: mp4Video(), filename: 'l.mp4' } });
  await t.app.inject({ method: 'POST', url: `/api/v1/courses/${courseId}`, payload: lecture.payload, headers: { ...lecture.headers, cookie: admin.cookie } });
  await publishCourseDirectly(t.app.ctx, courseId);
});
afterAll(() => t?.close());

const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t)(...args);
const db = () => t.database.db;
const paymentOf = async (userId: string) => (await db().select().from(payments).where(eq(payments.userId, userId)))[0]!;
const refund = (paymentId: string, body: { key?: string; amount: number; access?: 'now' | 'period_end'; note?: string }, cookie = admin.cookie) =>
  api('POST', `/admin/payments/${paymentId}/refunds`, cookie, { key: randomUUID(), access: 'period_end', note: 'Goodwill', ...body });
const creditNotesOf = (paymentId: string) =>
  db()
    .select()
    .from(billingDocuments)
    .where(and(eq(billingDocuments.paymentId, paymentId), eq(billingDocuments.kind, 'credit_note')));
const providerRefundsOf = (providerPaymentId: string) => db().select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentId, providerPaymentId));
const refundRowsOf = (paymentId: string) => db().select().from(adminRefunds).where(eq(adminRefunds.paymentId, paymentId));
const userRow = async (userId: string) => (await db().select().from(users).where(eq(users.id, userId)))[0]!;
const netOfPaymentMonths = async () =>
  Number(
    (
      await db()
        .select({ net: sum(paymentMonths.netPaise) })
        .from(paymentMonths)
    )[0]!.net,
  );
const log = { warn: () => undefined, error: () => undefined };

describe('POST /admin/payments/:id/refunds', () => {
  it('refunds in full, ending access now: credit note, payment refunded, subscription cancelled, learner mailed, audited', async () => {
    const paid = await subscriber(t);
    const payment = await paymentOf(paid.user._id);
    expect((await api('GET', `/courses/${courseId}`, paid.cookie)).statusCode).toBe(200);

    const answer = await refund(payment.id, { amount: 99, access: 'now', note: 'Charged twice' });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json()).toMatchObject({
      success: true,
      message: answers.refundIssued('₹99.00'),
      refund: { amount: 99, state: 'processed', failure: null, note: 'Charged twice', access: 'now', by: admin.fullName },
    });

    expect(await paymentOf(paid.user._id)).toMatchObject({ status: 'refunded', refundedPaise: 9900 });
    expect((await db().select().from(sandboxPayments).where(eq(sandboxPayments.id, payment.providerPaymentId)))[0]).toMatchObject({
      status: 'refunded',
      amountRefunded: 9900,
    });
    const [creditNote] = await creditNotesOf(payment.id);
    expect(creditNote).toMatchObject({ adminRefundId: answer.json().refund._id, totalPaise: 9900 });
    const [row] = await refundRowsOf(payment.id);
    expect(row).toMatchObject({ state: 'processed', creditNoteId: creditNote!.id, actorId: admin.user._id });
    expect(row!.providerRefundId).toMatch(/^rfnd_/);

    expect((await userRow(paid.user._id)).subscriptionEndsAt!.getTime()).toBeLessThanOrEqual(Date.now());
    expect((await api('GET', `/courses/${courseId}`, paid.cookie)).statusCode).toBe(403);
    expect((await providerSubscription(t, paid.subscriptionId)).status).toBe('cancelled');

    const [mail] = await waitForParsedMails(t.dataDir, paid.email, /^Refund issued: ₹99\.00/, { timeoutMs: 30_000 });
    expect(mail!.text).toContain('Your access to the courses has ended with this refund.');
    expect(mail!.attachments.map((file) => file.contentType)).toEqual(['application/pdf']);

    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'learners.refund'), eq(auditLog.targetId, paid.user._id)));
    expect(entry).toMatchObject({
      actorId: admin.user._id,
      area: 'money',
      targetType: 'user',
      targetLabel: `${paid.fullName} <${paid.email}>`,
      reason: 'Charged twice',
      details: expect.objectContaining({ paymentId: payment.id }),
    });
    expect(entry!.summary).toMatch(/^₹99\.00 of the ₹99\.00 paid on .+, access ended now$/);
  });

  it('refunds in part twice, then refuses more than what remains (400, nothing written); access to the period’s end stays', async () => {
    const paid = await subscriber(t);
    const payment = await paymentOf(paid.user._id);
    const endsAt = (await userRow(paid.user._id)).subscriptionEndsAt;
    const revenueBefore = (await api('GET', '/admin/revenue', admin.cookie)).json();
    const netBefore = await netOfPaymentMonths();

    const first = await refund(payment.id, { amount: 49.5, note: 'Half the month' });
    expect(first.statusCode, first.body).toBe(201);
    expect(await paymentOf(paid.user._id)).toMatchObject({ status: 'captured', refundedPaise: 4950 });
    // The month's refunds and net count a partial refund's amount, as the payments' monthly totals do.
    const revenueAfter = (await api('GET', '/admin/revenue', admin.cookie)).json();
    expect(revenueAfter.refunds.amount - revenueBefore.refunds.amount).toBeCloseTo(49.5);
    expect(revenueAfter.refunds.count - revenueBefore.refunds.count).toBe(1);
    expect(revenueAfter.netRevenue - revenueBefore.netRevenue).toBeCloseTo(-49.5);
    expect(netBefore - (await netOfPaymentMonths())).toBe(4950);

    expect((await refund(payment.id, { amount: 30 })).statusCode).toBe(201);
    const tooMuch = await refund(payment.id, { amount: 20 });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json()).toEqual({ success: false, message: answers.refundTooLarge('₹19.50') });
    expect(await refundRowsOf(payment.id)).toHaveLength(2);
    expect(await providerRefundsOf(payment.providerPaymentId)).toHaveLength(2);
    expect(await paymentOf(paid.user._id)).toMatchObject({ status: 'captured', refundedPaise: 7950 });

    // Access runs to the paid period's end, and the subscription renews as before.
    expect((await userRow(paid.user._id)).subscriptionEndsAt).toEqual(endsAt);
    expect((await api('GET', `/courses/${courseId}`, paid.cookie)).statusCode).toBe(200);
    expect((await providerSubscription(t, paid.subscriptionId)).status).toBe('active');

    const history = (await api('GET', '/billing/history', paid.cookie)).json();
    expect(history.entries[0]).toMatchObject({ status: 'partly_refunded', amount: 99, refunded: 79.5 });
    expect(history.entries[0].creditNotes).toHaveLength(2);
    const mails = await waitForParsedMails(t.dataDir, paid.email, /^Refund issued/, { count: 2, timeoutMs: 30_000 });
    expect(mails.map((mail) => mail.text).join('\n')).toContain('We refunded ₹49.50 of your payment of ₹99.00');

    expect((await refund(payment.id, { amount: 19.5 })).statusCode).toBe(201);
    const after = (await api('GET', '/billing/history', paid.cookie)).json();
    expect(after.entries[0]).toMatchObject({ status: 'refunded', refunded: 99 });
    expect(after.entries[0].creditNotes).toHaveLength(3);
    const notes = await creditNotesOf(payment.id);
    expect(notes.map((note) => note.totalPaise).sort((a, b) => a - b)).toEqual([1950, 3000, 4950]);
  });

  it('is one refund per key: two at once make one provider refund and one credit note; the key again answers it', async () => {
    const paid = await subscriber(t);
    const payment = await paymentOf(paid.user._id);
    const key = randomUUID();
    const both = await Promise.all([refund(payment.id, { key, amount: 10 }), refund(payment.id, { key, amount: 10 })]);
    const statuses = both.map((answer) => answer.statusCode).sort();
    // The second either waited for the first and found it made, or found it still being made.
    expect([
      [201, 201],
      [201, 409],
    ]).toContainEqual(statuses);
    expect(await providerRefundsOf(payment.providerPaymentId)).toHaveLength(1);
    expect(await creditNotesOf(payment.id)).toHaveLength(1);
    expect(await refundRowsOf(payment.id)).toHaveLength(1);

    const again = await refund(payment.id, { key, amount: 50 });
    expect(again.statusCode).toBe(201);
    expect(again.json().refund).toMatchObject({ _id: both.find((answer) => answer.statusCode === 201)!.json().refund._id, amount: 10 });
    expect(await providerRefundsOf(payment.providerPaymentId)).toHaveLength(1);
    expect(await paymentOf(paid.user._id)).toMatchObject({ refundedPaise: 1000 });
  });

  it('shows the provider’s words when it refuses, and records nothing as refunded', async () => {
    const paid = await subscriber(t);
    const payment = await paymentOf(paid.user._id);
    // Refunded at the provider behind our back: it has less left than we think.
    const direct = await t.app.inject({
      method: 'POST',
      url: `/sandbox/v1/payments/${payment.providerPaymentId}/refund`,
      headers: { authorization: sandboxAuth(t) },
      payload: { amount: 6000 },
    });
    expect(direct.statusCode, direct.body).toBe(200);

    const key = randomUUID();
    const refused = await refund(payment.id, { key, amount: 50, access: 'now' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      success: false,
      message: answers.refundRefused('The total refund amount is greater than the refund payment amount'),
    });
    const [row] = await refundRowsOf(payment.id);
    expect(row).toMatchObject({ state: 'failed', failure: 'The total refund amount is greater than the refund payment amount', creditNoteId: null });
    expect(await paymentOf(paid.user._id)).toMatchObject({ status: 'captured', refundedPaise: 0 });
    expect(await creditNotesOf(payment.id)).toHaveLength(0);
    expect((await api('GET', `/courses/${courseId}`, paid.cookie)).statusCode).toBe(200);

    // The same key answers the same refusal, without asking the provider again.
    const again = await refund(payment.id, { key, amount: 50 });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(refused.json().message);
    expect(await providerRefundsOf(payment.providerPaymentId)).toHaveLength(1);
  });

  it('stays pending when the provider does not answer; the sweep settles it from the provider’s refunds, or fails it if none was made', async () => {
    const paid = await subscriber(t);
    const payment = await paymentOf(paid.user._id);
    const original = t.app.ctx.razorpay.refundPayment;
    const made: string[] = [];
    // The first call reaches the provider but its answer is lost; the second never reaches it.
    t.app.ctx.razorpay.refundPayment = async (paymentId, input) => {
      if (made.length === 0) {
        made.push((await original(paymentId, input)).id);
      }
      throw new Error('connect ECONNRESET');
    };
    const lostKey = randomUUID();
    const neverKey = randomUUID();
    try {
      const lost = await refund(payment.id, { key: lostKey, amount: 20, access: 'now' });
      expect(lost.statusCode).toBe(502);
      expect(lost.json().message).toBe(answers.refundProviderDown);
      const never = await refund(payment.id, { key: neverKey, amount: 30 });
      expect(never.statusCode).toBe(502);
    } finally {
      t.app.ctx.razorpay.refundPayment = original;
    }
    expect((await refundRowsOf(payment.id)).map((row) => row.state)).toEqual(['pending', 'pending']);
    expect((await refund(payment.id, { key: lostKey, amount: 20 })).json().message).toBe(answers.refundInProgress);
    // What pending refunds hold counts against what remains.
    expect((await refund(payment.id, { amount: 50 })).json().message).toBe(answers.refundTooLarge('₹49.00'));

    // Too recent for the sweep: the answer may still be on its way.
    expect(await reconcilePendingRefunds(t.app.ctx, { log })).toBe(0);
    expect(await reconcilePendingRefunds(t.app.ctx, { log }, new Date(Date.now() + 3 * 60_000))).toBe(2);
    const rows = await refundRowsOf(payment.id);
    expect(rows.find((row) => row.key === lostKey)).toMatchObject({ state: 'processed', providerRefundId: made[0] });
    expect(rows.find((row) => row.key === neverKey)).toMatchObject({ state: 'failed', failure: answers.refundNotMade });
    expect(await paymentOf(paid.user._id)).toMatchObject({ refundedPaise: 2000 });
    expect(await creditNotesOf(payment.id)).toHaveLength(1);
    expect((await api('GET', `/courses/${courseId}`, paid.cookie)).statusCode).toBe(403);
    expect((await refund(payment.id, { key: neverKey, amount: 30 })).json().message).toBe(answers.refundNotMade);
    // The administrator may try again with a new key.
    expect((await refund(payment.id, { amount: 30 })).statusCode).toBe(201);
    expect(await paymentOf(paid.user._id)).toMatchObject({ refundedPaise: 5000 });
  });

  it('refuses bad input, unknown payments and learners', async () => {
    const paid = await subscriber(t);
    const payment = await paymentOf(paid.user._id);
    const learner = await signUp(t.app);
    expect((await refund(payment.id, { amount: 10 }, learner.cookie)).statusCode).toBe(403);
    expect((await refund(payment.id, { amount: 10 }, paid.cookie)).statusCode).toBe(403);
    expect((await refund(payment.id, { amount: 0.001 })).json()).toEqual({ success: false, message: answers.refundAmountInvalid });
    expect((await refund(payment.id, { amount: -5 })).statusCode).toBe(400);
    expect((await refund(payment.id, { amount: 10, note: 'x' })).json().message).toBe(answers.refundNoteInvalid);
    expect(
      (await api('POST', `/admin/payments/${payment.id}/refunds`, admin.cookie, { key: randomUUID(), amount: 10, access: 'later', note: 'Goodwill' })).json()
        .message,
    ).toBe(answers.refundAccessInvalid);
    expect((await refund(randomUUID(), { amount: 10 })).statusCode).toBe(404);
    expect(await refundRowsOf(payment.id)).toHaveLength(0);
  });
});
