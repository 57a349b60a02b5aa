import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import type { CancellationTerms } from '@lms/contract/payments';
import { payments, users, webhookEvents } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { rowCount } from '../../test/db.ts';
import { signUp, signUpAdmin } from '../../test/http.ts';
import { apiCaller, makePlan, payAndVerify, subscriber, webhooksSettled } from '../../test/payments.ts';

/*
 * GET /payments/cancellation says what cancelling now would do; POST /payments/unsubscribe must then
 * do exactly that. Each case asks first, cancels, and compares. The refund window is 10 days here
 * (not the default 14), so the answer is seen to come from the configuration.
 */

let t: TestApp;
let admin: string;
const DAY = 24 * 3600 * 1000;
const WINDOW_DAYS = 10;

beforeAll(async () => {
  t = await createTestApp({ env: { REFUND_WINDOW_DAYS: String(WINDOW_DAYS) } });
  admin = (await signUpAdmin(t.app)).cookie;
});
afterAll(() => t?.close());

const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t)(...args);
const terms = async (cookie: string) => {
  const answer = await api('GET', '/payments/cancellation', cookie);
  expect(answer.statusCode, answer.body).toBe(200);
  expect(answer.json()).toMatchObject({ success: true, message: answers.cancellationTerms });
  return answer.json().cancellation as CancellationTerms;
};
const userRow = async (userId: string) => (await t.database.db.select().from(users).where(eq(users.id, userId)))[0]!;
const paymentsOf = (userId: string) => t.database.db.select().from(payments).where(eq(payments.userId, userId));
const near = (iso: string | null, expected: number) => {
  expect(iso).not.toBeNull();
  expect(Math.abs(new Date(iso!).getTime() - expected)).toBeLessThan(60_000);
};

describe('the refund window the cards state', () => {
  it('is the configured one, in the plans on sale, for anyone', async () => {
    expect((await api('GET', '/payments/plans', '')).json()).toMatchObject({ success: true, refundWindowDays: WINDOW_DAYS });
    expect((await api('GET', '/payments/plan', '')).json()).toMatchObject({ success: true, refundWindowDays: WINDOW_DAYS });
  });
});

describe('GET /payments/cancellation', () => {
  it('inside the window: the last payment is refunded in full and access ends now, as the cancellation then does', async () => {
    const paid = await subscriber(t);
    const [payment] = await paymentsOf(paid.user._id);
    const said = await terms(paid.cookie);
    expect(said).toEqual({
      outcome: 'refund',
      payment: { amount: 99, paidAt: payment!.paidAt.toISOString() },
      refundWindowEndsAt: new Date(payment!.paidAt.getTime() + WINDOW_DAYS * DAY).toISOString(),
      refundWindowDays: WINDOW_DAYS,
      lastRefundAt: null,
      nextRefundFrom: null,
      accessUntil: expect.any(String),
    });
    near(said.accessUntil, Date.now());
    // Asking changes nothing.
    expect((await userRow(paid.user._id)).subscriptionCancelledAt).toBeNull();
    expect((await paymentsOf(paid.user._id))[0]!.status).toBe('captured');

    const cancelled = await api('POST', '/payments/unsubscribe', paid.cookie);
    expect(cancelled.json()).toEqual({ success: true, refunded: true, message: answers.unsubscribedRefunded });
    expect((await paymentsOf(paid.user._id))[0]!.refundedPaise).toBe(9900);
  });

  it('once the window has passed: nothing refunded, access to the end of the paid period, as the cancellation then does', async () => {
    const paid = await subscriber(t);
    const paidAt = new Date(Date.now() - (WINDOW_DAYS + 1) * DAY);
    await t.database.db.update(payments).set({ paidAt }).where(eq(payments.userId, paid.user._id));
    const periodEnd = (await userRow(paid.user._id)).subscriptionEndsAt!;
    expect(await terms(paid.cookie)).toEqual({
      outcome: 'window_passed',
      payment: { amount: 99, paidAt: paidAt.toISOString() },
      refundWindowEndsAt: new Date(paidAt.getTime() + WINDOW_DAYS * DAY).toISOString(),
      refundWindowDays: WINDOW_DAYS,
      lastRefundAt: null,
      nextRefundFrom: null,
      accessUntil: periodEnd.toISOString(),
    });

    const cancelled = await api('POST', '/payments/unsubscribe', paid.cookie);
    expect(cancelled.json()).toEqual({ success: true, refunded: false, message: answers.unsubscribedNoRefund });
    expect((await userRow(paid.user._id)).subscriptionEndsAt).toEqual(periodEnd);
  });

  it('a day inside the window still refunds; the window is the configured one, counted from the last payment', async () => {
    const paid = await subscriber(t);
    const paidAt = new Date(Date.now() - (WINDOW_DAYS - 1) * DAY);
    await t.database.db.update(payments).set({ paidAt }).where(eq(payments.userId, paid.user._id));
    expect(await terms(paid.cookie)).toMatchObject({ outcome: 'refund', refundWindowEndsAt: new Date(paidAt.getTime() + WINDOW_DAYS * DAY).toISOString() });
    expect((await api('POST', '/payments/unsubscribe', paid.cookie)).json()).toMatchObject({ refunded: true });
  });

  it('after a refund within 12 months: nothing refunded, with the date of that refund and of the next possible one', async () => {
    const paid = await subscriber(t);
    expect((await api('POST', '/payments/unsubscribe', paid.cookie)).json()).toMatchObject({ refunded: true });
    const [refunded] = await paymentsOf(paid.user._id);
    const events = await rowCount(t.database, webhookEvents);
    const again = (await api('POST', '/payments/subscribe', paid.cookie)).json().subscription_id as string;
    expect((await payAndVerify(t, paid.cookie, again)).statusCode).toBe(200);
    await webhooksSettled(t, events + 2);
    const periodEnd = (await userRow(paid.user._id)).subscriptionEndsAt!;

    const said = await terms(paid.cookie);
    const nextRefund = new Date(refunded!.refundedAt!);
    nextRefund.setUTCFullYear(nextRefund.getUTCFullYear() + 1);
    expect(said).toMatchObject({
      outcome: 'refund_used',
      payment: { amount: 99 },
      lastRefundAt: refunded!.refundedAt!.toISOString(),
      nextRefundFrom: nextRefund.toISOString(),
      accessUntil: periodEnd.toISOString(),
    });
    near(said.payment!.paidAt, Date.now());

    const cancelled = await api('POST', '/payments/unsubscribe', paid.cookie);
    expect(cancelled.json()).toEqual({ success: true, refunded: false, message: answers.unsubscribedRefundUsed });
  });

  it('in a free trial: nothing was paid, access to the trial’s end, as the cancellation then does', async () => {
    const plan = await makePlan(t, admin, { name: 'With a trial', interval: 'monthly', price: 149, trialDays: 7 });
    const learner = await signUp(t.app);
    const checkout = await api('POST', '/payments/subscribe', learner.cookie, { plan: plan.id });
    expect((await payAndVerify(t, learner.cookie, checkout.json().subscription_id)).statusCode).toBe(200);
    const trialEnd = (await userRow(learner.user._id)).trialEndsAt!;
    expect(await terms(learner.cookie)).toEqual({
      outcome: 'trial',
      payment: null,
      refundWindowEndsAt: null,
      refundWindowDays: WINDOW_DAYS,
      lastRefundAt: null,
      nextRefundFrom: null,
      accessUntil: trialEnd.toISOString(),
    });
    expect((await api('POST', '/payments/unsubscribe', learner.cookie)).json()).toEqual({ success: true, refunded: false, message: answers.unsubscribedTrial });
  });

  it('has nothing to say without a subscription (400, as cancelling), nor to a visitor (401)', async () => {
    const learner = await signUp(t.app);
    const answer = await api('GET', '/payments/cancellation', learner.cookie);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ success: false, message: answers.noActiveSubscription });
    expect((await api('GET', '/payments/cancellation', admin)).statusCode).toBe(400);
    expect((await api('GET', '/payments/cancellation', '')).statusCode).toBe(401);
  });
});
