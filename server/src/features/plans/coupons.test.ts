import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { billingDocuments, couponRedemptions, coupons, payments, subscriptions, webhookEvents } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { rowCount } from '../../test/db.ts';
import { signUp, signUpAdmin } from '../../test/http.ts';
import { apiCaller, makeCoupon, makePlan, payAndVerify, providerSubscription, sandboxTrigger, subscriber, webhooksSettled } from '../../test/payments.ts';
import { COUPON_FAILURES_PER_WINDOW } from '../../rate-limit.ts';
import { changeProviderPlan } from '../payments/charges.service.ts';
import { dropAbandonedCheckouts } from '../payments/checkout.service.ts';
import { getRevenue } from '../stats/revenue.service.ts';

let t: TestApp;
let admin: string;
let bundleId: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await signUpAdmin(t.app)).cookie;
  bundleId = (await apiCaller(t)('GET', '/payments/plans', '')).json().plans[0].id;
});
afterAll(() => t?.close());

const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t)(...args);
const subscribe = (cookie: string, body?: object) => api('POST', '/payments/subscribe', cookie, body);
const paidAmounts = async (userId: string) =>
  (await t.database.db.select().from(payments).where(eq(payments.userId, userId)).orderBy(payments.paidAt, payments.createdAt)).map(
    (payment) => payment.amountPaise,
  );
const couponRow = async (id: string) => (await t.database.db.select().from(coupons).where(eq(coupons.id, id)))[0]!;
const subscriptionRow = async (providerId: string) =>
  (await t.database.db.select().from(subscriptions).where(eq(subscriptions.providerSubscriptionId, providerId)))[0]!;
const inDays = (days: number) => new Date(Date.now() + days * 24 * 3600 * 1000).toISOString();

/** Runs the plan-change jobs a charge queued, as the queue would (tests do not wait for the queue's polling). */
async function runPlanChange(providerId: string) {
  await changeProviderPlan(t.app.ctx, { subscriptionId: (await subscriptionRow(providerId)).id });
}

describe('admin coupons', () => {
  it('are for admins only', async () => {
    const learner = await signUp(t.app);
    expect((await api('GET', '/admin/coupons', learner.cookie)).statusCode).toBe(403);
    expect((await api('POST', '/admin/coupons', learner.cookie, { code: 'MINE', kind: 'percent', amount: 90 })).statusCode).toBe(403);
    expect((await api('GET', '/admin/coupons', '')).statusCode).toBe(401);
  });

  it.each([
    [{ code: 'AB', kind: 'percent', amount: 10 }, answers.couponCodeInvalid],
    [{ code: 'SPACE BAR', kind: 'percent', amount: 10 }, answers.couponCodeInvalid],
    [{ code: 'X'.repeat(21), kind: 'percent', amount: 10 }, answers.couponCodeInvalid],
    [{ code: 'GIFT', kind: 'free', amount: 10 }, answers.couponKindInvalid],
    [{ code: 'GIFT', kind: 'percent', amount: 0 }, answers.couponAmountInvalid],
    [{ code: 'GIFT', kind: 'percent', amount: 100 }, answers.couponPercentInvalid],
    [{ code: 'GIFT', kind: 'percent', amount: 12.5 }, answers.couponPercentInvalid],
    [{ code: 'GIFT', kind: 'amount', amount: 15000.5 }, answers.couponAmountInvalid],
    [{ code: 'GIFT', kind: 'amount', amount: 10, charges: 0 }, answers.couponChargesInvalid],
    [{ code: 'GIFT', kind: 'amount', amount: 10, charges: 25 }, answers.couponChargesInvalid],
    [{ code: 'GIFT', kind: 'amount', amount: 10, validFrom: '2026-12-01T00:00:00Z', validUntil: '2026-11-01T00:00:00Z' }, messages.couponDatesInvalid],
    [{ code: 'GIFT', kind: 'amount', amount: 10, validUntil: 'next week' }, messages.couponDatesInvalid],
    [{ code: 'GIFT', kind: 'amount', amount: 10, maxRedemptions: 0 }, answers.couponMaxInvalid],
    [{ code: 'GIFT', kind: 'amount', amount: 10, plans: ['00000000-0000-4000-8000-000000000000'] }, messages.planNotFound],
  ])('refuses %j with a message, and makes nothing', async (input, message) => {
    const before = await rowCount(t.database, coupons);
    const answer = await api('POST', '/admin/coupons', admin, input);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ success: false, message });
    expect(await rowCount(t.database, coupons)).toBe(before);
  });

  it('creates a coupon with its code in capitals, refuses the code twice, and edits only what buyers were not promised', async () => {
    const coupon = await makeCoupon(t, admin, { code: 'welcome-10', kind: 'amount', amount: 10.5, charges: 3, maxRedemptions: 100 });
    expect(coupon).toEqual({
      id: expect.any(String),
      code: 'WELCOME-10',
      kind: 'amount',
      amount: 10.5,
      charges: 3,
      validFrom: null,
      validUntil: null,
      maxRedemptions: 100,
      redemptions: 0,
      plans: [],
      saveOffer: false,
      archived: false,
      createdAt: expect.any(String),
    });
    const again = await api('POST', '/admin/coupons', admin, { code: 'Welcome-10', kind: 'percent', amount: 5 });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ success: false, message: answers.couponCodeTaken });

    const edited = await api('PATCH', `/admin/coupons/${coupon.id}`, admin, { validUntil: inDays(30), maxRedemptions: 10, plans: [bundleId], archived: true });
    expect(edited.json()).toMatchObject({
      success: true,
      message: answers.couponUpdated,
      coupon: { maxRedemptions: 10, plans: [bundleId], archived: true, amount: 10.5, charges: 3 },
    });
    // The discount itself is not editable: a body with only it changes nothing.
    expect((await api('PATCH', `/admin/coupons/${coupon.id}`, admin, { amount: 50 })).json()).toEqual({ success: false, message: answers.nothingToUpdate });
    expect((await api('PATCH', '/admin/coupons/00000000-0000-4000-8000-000000000000', admin, { archived: true })).statusCode).toBe(404);
    const listed = (await api('GET', '/admin/coupons', admin)).json();
    expect(listed.coupons.find((entry: { id: string }) => entry.id === coupon.id)).toMatchObject({ code: 'WELCOME-10', archived: true });
  });
});

describe('a coupon at checkout', () => {
  it('discounts the first payments — the charge, the invoice and the revenue — then the price comes back', async () => {
    const coupon = await makeCoupon(t, admin, { code: 'HALF2', kind: 'percent', amount: 50, charges: 2 });
    const learner = await signUp(t.app);
    const answer = await subscribe(learner.cookie, { coupon: ' half2 ' });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().checkout).toMatchObject({
      coupon: { code: 'HALF2', kind: 'percent', amount: 50, charges: 2 },
      dueNow: 49.5,
      firstCharge: { amount: 49.5 },
      discountedCharges: 2,
      regularPrice: 99,
    });
    const subscriptionId = answer.json().subscription_id;
    const events = await rowCount(t.database, webhookEvents);
    expect((await payAndVerify(t, learner.cookie, subscriptionId)).statusCode).toBe(200);
    await webhooksSettled(t, events + 2);
    expect(await paidAmounts(learner.user._id)).toEqual([4950]);
    const [invoice] = await t.database.db.select().from(billingDocuments).where(eq(billingDocuments.userId, learner.user._id));
    expect(invoice!.totalPaise).toBe(4950);
    expect((await couponRow(coupon.id)).redemptions).toBe(1);
    const [redemption] = await t.database.db.select().from(couponRedemptions).where(eq(couponRedemptions.couponId, coupon.id));
    expect(redemption!.confirmedAt).not.toBeNull();
    // The second payment is discounted too: the MRR says so.
    const mrrOf = async () => (await getRevenue(t.app.ctx)).plans.find((plan) => plan.id === bundleId)!;
    const before = await mrrOf();
    expect((await subscriptionRow(subscriptionId)).monthlyValuePaise).toBe(4950);

    await sandboxTrigger(t, subscriptionId, 'charge');
    expect(await paidAmounts(learner.user._id)).toEqual([4950, 4950]);
    // After the last discounted payment the provider's subscription moves to the full price from its next cycle.
    expect((await subscriptionRow(subscriptionId)).monthlyValuePaise).toBe(9900);
    expect((await mrrOf()).mrr).toBeCloseTo(before.mrr + 49.5, 2);
    await runPlanChange(subscriptionId);
    expect(await providerSubscription(t, subscriptionId)).toMatchObject({ has_scheduled_changes: true });
    await sandboxTrigger(t, subscriptionId, 'charge');
    expect(await paidAmounts(learner.user._id)).toEqual([4950, 4950, 9900]);
    await sandboxTrigger(t, subscriptionId, 'charge');
    expect(await paidAmounts(learner.user._id)).toEqual([4950, 4950, 9900, 9900]);
    // Asking again changes nothing.
    await runPlanChange(subscriptionId);
    expect(await providerSubscription(t, subscriptionId)).toMatchObject({ has_scheduled_changes: false });
  });

  it('takes a fixed amount off a yearly plan for the first payment only', async () => {
    const yearly = await makePlan(t, admin, { name: 'Year', interval: 'yearly', price: 999 });
    await makeCoupon(t, admin, { code: 'YEAR200', kind: 'amount', amount: 200, plans: [yearly.id] });
    const learner = await signUp(t.app);
    const answer = await subscribe(learner.cookie, { plan: yearly.id, coupon: 'YEAR200' });
    expect(answer.json().checkout).toMatchObject({ dueNow: 799, discountedCharges: 1, regularPrice: 999, plan: { interval: 'yearly' } });
    expect((await payAndVerify(t, learner.cookie, answer.json().subscription_id)).statusCode).toBe(200);
    expect(await paidAmounts(learner.user._id)).toEqual([79900]);
    // The next charge takes the full price: the job the payment queued tells the provider, by itself.
    await vi.waitFor(async () => expect(await providerSubscription(t, answer.json().subscription_id)).toMatchObject({ has_scheduled_changes: true }), {
      timeout: 15_000,
      interval: 250,
    });
    await sandboxTrigger(t, answer.json().subscription_id, 'charge');
    expect(await paidAmounts(learner.user._id)).toEqual([79900, 99900]);
  });

  it.each([
    ['an unknown code', () => ({ code: 'NOSUCH' }), messages.couponUnknown],
    [
      'an archived coupon',
      async () => ({ code: (await makeCoupon(t, admin, { code: 'GONE', kind: 'percent', amount: 10 })).code, archive: true }),
      messages.couponUnknown,
    ],
    [
      'an expired coupon',
      async () => ({ code: (await makeCoupon(t, admin, { code: 'OLD', kind: 'percent', amount: 10, validUntil: inDays(-1) })).code }),
      messages.couponExpired,
    ],
    [
      'a coupon not valid yet',
      async () => ({ code: (await makeCoupon(t, admin, { code: 'SOON', kind: 'percent', amount: 10, validFrom: inDays(2) })).code }),
      messages.couponNotYetValid,
    ],
    [
      'a coupon for another plan',
      async () => ({
        code: (
          await makeCoupon(t, admin, {
            code: 'OTHERPLAN',
            kind: 'percent',
            amount: 10,
            plans: [(await makePlan(t, admin, { name: 'Other', interval: 'monthly', price: 50 })).id],
          })
        ).code,
      }),
      messages.couponOtherPlan,
    ],
    [
      'a discount below ₹1',
      async () => ({ code: (await makeCoupon(t, admin, { code: 'TOOMUCH', kind: 'amount', amount: 98.5 })).code }),
      messages.couponBelowMinimum,
    ],
  ])('refuses %s with a clear 400, keeping the checkout the buyer had', async (_what, make, message) => {
    const { code, archive } = (await make()) as { code: string; archive?: boolean };
    if (archive) {
      const [row] = await t.database.db.select().from(coupons).where(eq(coupons.code, code));
      await api('PATCH', `/admin/coupons/${row!.id}`, admin, { archived: true });
    }
    const learner = await signUp(t.app);
    const plain = (await subscribe(learner.cookie)).json().subscription_id;
    const answer = await subscribe(learner.cookie, { coupon: code });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ success: false, message });
    // Still the one unpaid subscription, without a coupon; it can be paid.
    const rows = await t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, learner.user._id));
    expect(rows.map((row) => [row.providerSubscriptionId, row.status, row.couponId])).toEqual([[plain, 'created', null]]);
    expect((await payAndVerify(t, learner.cookie, plain)).statusCode).toBe(200);
  });

  it('is one per account: the checkout that holds it may ask again or change plan, a paid one is used', async () => {
    const coupon = await makeCoupon(t, admin, { code: 'ONCE', kind: 'percent', amount: 20 });
    const yearly = await makePlan(t, admin, { name: 'Yearly once', interval: 'yearly', price: 1000 });
    const learner = await signUp(t.app);
    const first = await subscribe(learner.cookie, { coupon: 'ONCE' });
    // The same again: the same checkout, still one use.
    expect((await subscribe(learner.cookie, { coupon: 'ONCE' })).json().subscription_id).toBe(first.json().subscription_id);
    // Another plan with it: a new checkout, the old one dropped with its use, one use in all.
    const second = await subscribe(learner.cookie, { plan: yearly.id, coupon: 'ONCE' });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().checkout).toMatchObject({ dueNow: 800 });
    expect((await providerSubscription(t, first.json().subscription_id)).status).toBe('cancelled');
    expect((await couponRow(coupon.id)).redemptions).toBe(1);
    // Without it: the use is given back.
    await subscribe(learner.cookie);
    expect((await couponRow(coupon.id)).redemptions).toBe(0);
    const paid = await subscribe(learner.cookie, { coupon: 'ONCE' });
    expect((await payAndVerify(t, learner.cookie, paid.json().subscription_id)).statusCode).toBe(200);
    // Refunded and gone, they come back: the coupon was used.
    expect((await api('POST', '/payments/unsubscribe', learner.cookie)).json().refunded).toBe(true);
    const again = await subscribe(learner.cookie, { coupon: 'ONCE' });
    expect(again.json()).toEqual({ success: false, message: messages.couponAlreadyUsed });
    expect((await couponRow(coupon.id)).redemptions).toBe(1);
  });

  it('has as many uses as it allows: a held use counts, and comes back when the checkout is left for a day', async () => {
    const coupon = await makeCoupon(t, admin, { code: 'LASTONE', kind: 'percent', amount: 10, maxRedemptions: 1 });
    const [first, second] = [await signUp(t.app), await signUp(t.app)];
    const held = await subscribe(first.cookie, { coupon: 'LASTONE' });
    expect(held.statusCode).toBe(200);
    expect((await subscribe(second.cookie, { coupon: 'LASTONE' })).json()).toEqual({ success: false, message: messages.couponExhausted });

    // A day later the hourly sweep drops the unpaid checkout, at the provider too, and the use is free again.
    expect(await dropAbandonedCheckouts(t.app.ctx, { log: t.app.log, now: new Date(Date.now() + 25 * 3600 * 1000) })).toBeGreaterThanOrEqual(1);
    expect((await providerSubscription(t, held.json().subscription_id)).status).toBe('cancelled');
    expect((await couponRow(coupon.id)).redemptions).toBe(0);
    // The limit may not go below the uses taken.
    expect((await api('PATCH', `/admin/coupons/${coupon.id}`, admin, { maxRedemptions: 1 })).statusCode).toBe(200);
    const taken = await subscribe(second.cookie, { coupon: 'LASTONE' });
    expect(taken.statusCode, taken.body).toBe(200);
    expect((await payAndVerify(t, second.cookie, taken.json().subscription_id)).statusCode).toBe(200);
    expect((await couponRow(coupon.id)).redemptions).toBe(1);
    expect((await api('PATCH', `/admin/coupons/${coupon.id}`, admin, { maxRedemptions: 0 })).json()).toEqual({
      success: false,
      message: answers.couponMaxInvalid,
    });
    await api('PATCH', `/admin/coupons/${coupon.id}`, admin, { maxRedemptions: null });
    await subscribe((await signUp(t.app)).cookie, { coupon: 'LASTONE' });
    expect((await api('PATCH', `/admin/coupons/${coupon.id}`, admin, { maxRedemptions: 1 })).json()).toEqual({
      success: false,
      message: answers.couponMaxBelowUses,
    });
    // The first buyer's old checkout cannot be paid now.
    const late = await t.app.inject({
      method: 'POST',
      url: `/sandbox/v1/subscriptions/${held.json().subscription_id}/pay`,
      payload: { card_number: '4111 1111 1111 1111' },
    });
    expect(late.statusCode).toBe(400);
  });

  it('gives its last use to one of two buyers asking at the same moment', async () => {
    const coupon = await makeCoupon(t, admin, { code: 'RACE', kind: 'percent', amount: 30, maxRedemptions: 1 });
    const buyers = await Promise.all([signUp(t.app), signUp(t.app), signUp(t.app)]);
    const answers = await Promise.all(buyers.map((buyer) => subscribe(buyer.cookie, { coupon: 'RACE' })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400, 400]);
    for (const answer of answers.filter((a) => a.statusCode === 400)) expect(answer.json()).toEqual({ success: false, message: messages.couponExhausted });
    expect((await couponRow(coupon.id)).redemptions).toBe(1);
    expect(await t.database.db.select().from(couponRedemptions).where(eq(couponRedemptions.couponId, coupon.id))).toHaveLength(1);
    // The losers hold no subscription with it, and nothing at the provider they could pay.
    const withCoupon = await t.database.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.couponId, coupon.id), eq(subscriptions.status, 'created')));
    expect(withCoupon).toHaveLength(1);
  });

  it('is not guessed: after a few refused codes an account must wait', async () => {
    const learner = await signUp(t.app);
    const statuses: number[] = [];
    for (let i = 0; i <= COUPON_FAILURES_PER_WINDOW; i++) statuses.push((await subscribe(learner.cookie, { coupon: `GUESS${i}` })).statusCode);
    expect(statuses).toEqual([...Array(COUPON_FAILURES_PER_WINDOW).fill(400), 429]);
    // Subscribing without a coupon still works.
    expect((await subscribe(learner.cookie)).statusCode).toBe(200);
  });
});

describe('the save offer', () => {
  it('is offered instead of cancelling, once: the next payments are discounted, then the price comes back', async () => {
    const offer = await makeCoupon(t, admin, { code: 'STAY50', kind: 'percent', amount: 50, charges: 2, saveOffer: true });
    // A second save offer replaces the first.
    const other = await makeCoupon(t, admin, { code: 'STAY10', kind: 'percent', amount: 10, saveOffer: true });
    expect((await couponRow(offer.id)).saveOffer).toBe(false);
    await api('PATCH', `/admin/coupons/${offer.id}`, admin, { saveOffer: true });
    expect((await couponRow(other.id)).saveOffer).toBe(false);

    // Not a checkout coupon.
    const newcomer = await signUp(t.app);
    expect((await subscribe(newcomer.cookie, { coupon: 'STAY50' })).json()).toEqual({ success: false, message: messages.couponUnknown });
    expect((await api('GET', '/payments/save-offer', newcomer.cookie)).json().offer).toBeNull();

    const learner = await subscriber(t);
    const shown = await api('GET', '/payments/save-offer', learner.cookie);
    expect(shown.json()).toEqual({
      success: true,
      message: answers.saveOfferFetched,
      offer: { discount: { code: 'STAY50', kind: 'percent', amount: 50, charges: 2 }, discountedPrice: 49.5, regularPrice: 99, interval: 'monthly' },
    });
    const taken = await api('POST', '/payments/save-offer', learner.cookie);
    expect(taken.json()).toMatchObject({ success: true, message: answers.saveOfferAccepted, offer: { discountedPrice: 49.5 } });
    expect(await providerSubscription(t, learner.subscriptionId)).toMatchObject({ has_scheduled_changes: true });
    expect((await api('POST', '/payments/save-offer', learner.cookie)).json()).toEqual({ success: false, message: answers.saveOfferNone });
    expect((await couponRow(offer.id)).redemptions).toBe(1);

    for (let charge = 0; charge < 2; charge++) await sandboxTrigger(t, learner.subscriptionId, 'charge');
    await runPlanChange(learner.subscriptionId);
    await sandboxTrigger(t, learner.subscriptionId, 'charge');
    expect(await paidAmounts(learner.user._id)).toEqual([9900, 4950, 4950, 9900]);
    // Once used, never offered again to this account.
    expect((await api('GET', '/payments/save-offer', learner.cookie)).json().offer).toBeNull();
  });
});
