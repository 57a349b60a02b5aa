import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { billingDocuments, payments, plans, subscriptions, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { signUp, signUpAdmin } from '../../test/http.ts';
import { apiCaller, makePlan, payAndVerify, providerSubscription, sandboxTrigger, subscriber, webhooksSettled } from '../../test/payments.ts';
import { rowCount } from '../../test/db.ts';
import { webhookEvents } from '../../db/schema.ts';
import { getRevenue } from '../stats/revenue.service.ts';
import { gstinCheckCharacter } from '@lms/contract/billing';
import { ensureDefaultPlan } from './plans.service.ts';

const withCheck = (first14: string) => first14 + gstinCheckCharacter(first14);

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await signUpAdmin(t.app)).cookie;
});
afterAll(() => t?.close());

const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t)(...args);
const publicPlans = async (cookie = '') => (await api('GET', '/payments/plans', cookie)).json();
const paymentsOf = (userId: string) => t.database.db.select().from(payments).where(eq(payments.userId, userId));
const endsAt = async (userId: string) => (await t.database.db.select().from(users).where(eq(users.id, userId)))[0]!.subscriptionEndsAt!;

/** Subscribes to `plan` with the pay card and verifies; answers the account, its subscription and the checkout's quote. */
async function buyer(plan?: string) {
  const account = await signUp(t.app);
  const events = await rowCount(t.database, webhookEvents);
  const answer = await api('POST', '/payments/subscribe', account.cookie, plan ? { plan } : undefined);
  expect(answer.statusCode, answer.body).toBe(200);
  const verified = await payAndVerify(t, account.cookie, answer.json().subscription_id);
  expect(verified.statusCode, verified.body).toBe(200);
  await webhooksSettled(t, events + 2);
  return { ...account, subscriptionId: answer.json().subscription_id as string, quote: answer.json().checkout };
}

describe('the default plan', () => {
  it('is the spec’s bundle, made once from SUBSCRIPTION_PRICE: monthly at ₹99, first in the list, sold by a subscribe without a body', async () => {
    await ensureDefaultPlan(t.app.ctx);
    await ensureDefaultPlan(t.app.ctx);
    expect(await t.database.db.select().from(plans).where(eq(plans.isDefault, true))).toHaveLength(1);
    const listed = await publicPlans();
    expect(listed).toMatchObject({ success: true, message: answers.plansFetched, trialAvailable: true, refundWindowDays: 14 });
    expect(listed.plans[0]).toEqual({ id: expect.any(String), name: 'Subscription Bundle', interval: 'monthly', price: 99, trialDays: 0, default: true });
    // The storefront's price and the key call's stay what they were.
    expect((await api('GET', '/payments/plan', '')).json()).toMatchObject({ price: 99 });

    const learner = await buyer();
    expect(learner.quote).toEqual({
      plan: listed.plans[0],
      coupon: null,
      dueNow: 99,
      authorisationOnly: false,
      firstCharge: { amount: 99, date: expect.any(String) },
      discountedCharges: 0,
      regularPrice: 99,
      trialDays: 0,
      trialUnavailable: false,
    });
    expect((await paymentsOf(learner.user._id)).map((payment) => payment.amountPaise)).toEqual([9900]);
  });

  it('cannot be archived', async () => {
    const [bundle] = (await publicPlans()).plans;
    const answer = await api('PATCH', `/admin/plans/${bundle.id}`, admin, { archived: true });
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toEqual({ success: false, message: answers.defaultPlanArchived });
  });

  it('has one name everywhere, the bundle card’s: it cannot be renamed, and one made as "Monthly" is renamed at start', async () => {
    const [bundle] = (await publicPlans()).plans;
    expect(bundle.name).toBe(messages.bundleTitle);
    const renamed = await api('PATCH', `/admin/plans/${bundle.id}`, admin, { name: 'Monthly' });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json()).toEqual({ success: false, message: answers.defaultPlanRenamed });
    // Its own name, sent back with a new price (as the admin's form may), is no rename.
    const repriced = await api('PATCH', `/admin/plans/${bundle.id}`, admin, { name: messages.bundleTitle, trialDays: 0 });
    expect(repriced.statusCode, repriced.body).toBe(200);
    expect((await api('GET', '/admin/plans', admin)).json().plans.find((plan: { id: string }) => plan.id === bundle.id).name).toBe(messages.bundleTitle);

    // A database from before: the default plan was made as "Monthly".
    await t.database.db.update(plans).set({ name: 'Monthly' }).where(eq(plans.id, bundle.id));
    await ensureDefaultPlan(t.app.ctx);
    expect((await publicPlans()).plans[0]).toMatchObject({ id: bundle.id, name: messages.bundleTitle, default: true });
  });
});

describe('admin plans', () => {
  it('are for admins only', async () => {
    const learner = await signUp(t.app);
    expect((await api('GET', '/admin/plans', learner.cookie)).statusCode).toBe(403);
    expect((await api('POST', '/admin/plans', learner.cookie, { name: 'Sneaky', interval: 'monthly', price: 1 })).statusCode).toBe(403);
    expect((await api('GET', '/admin/plans', '')).statusCode).toBe(401);
    expect(await rowCount(t.database, plans)).toBeGreaterThanOrEqual(1);
    expect(await t.database.db.select().from(plans).where(eq(plans.name, 'Sneaky'))).toHaveLength(0);
  });

  it.each([
    [{ name: '', interval: 'monthly', price: 99 }, answers.planNameInvalid],
    [{ name: 'x'.repeat(41), interval: 'monthly', price: 99 }, answers.planNameInvalid],
    [{ name: 'Weekly', interval: 'weekly', price: 99 }, answers.planIntervalInvalid],
    [{ name: 'Free', interval: 'monthly', price: 0 }, answers.planPriceTooLow],
    [{ name: 'Cheap', interval: 'monthly', price: 0.99 }, answers.planPriceTooLow],
    [{ name: 'Negative', interval: 'monthly', price: -5 }, answers.planPriceTooLow],
    [{ name: 'Dear', interval: 'yearly', price: 15000.01 }, answers.planPriceTooHigh],
    [{ name: 'Fraction', interval: 'monthly', price: 99.999 }, answers.planPriceInvalid],
    [{ name: 'Text', interval: 'monthly', price: 'ninety' }, answers.planPriceInvalid],
    [{ name: 'NaN', interval: 'monthly', price: 'NaN' }, answers.planPriceInvalid],
    [{ name: 'Long trial', interval: 'monthly', price: 99, trialDays: 91 }, answers.planTrialDaysInvalid],
    [{ name: 'Half day', interval: 'monthly', price: 99, trialDays: 1.5 }, answers.planTrialDaysInvalid],
  ])('refuses %j with a message, and makes nothing', async (input, message) => {
    const before = await rowCount(t.database, plans);
    const answer = await api('POST', '/admin/plans', admin, input);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ success: false, message });
    expect(await rowCount(t.database, plans)).toBe(before);
  });

  it('creates, renames, sets a trial, archives and brings back a plan; an archived one is not sold', async () => {
    const plan = await makePlan(t, admin, { name: 'Quarterly-ish', interval: 'monthly', price: 149.5 });
    expect(plan).toMatchObject({
      name: 'Quarterly-ish',
      interval: 'monthly',
      price: 149.5,
      listPrice: 149.5,
      trialDays: 0,
      default: false,
      archived: false,
      subscribers: 0,
    });
    expect((await publicPlans()).plans.map((listed: { id: string }) => listed.id)).toContain(plan.id);

    const renamed = await api('PATCH', `/admin/plans/${plan.id}`, admin, { name: 'Monthly plus', trialDays: 7 });
    expect(renamed.json()).toMatchObject({ success: true, message: answers.planUpdated, plan: { name: 'Monthly plus', trialDays: 7, price: 149.5 } });
    // What is left out stays as it was.
    expect((await api('PATCH', `/admin/plans/${plan.id}`, admin, { name: 'Monthly plus+' })).json().plan).toMatchObject({ trialDays: 7, price: 149.5 });
    expect((await api('PATCH', `/admin/plans/${plan.id}`, admin, {})).json()).toEqual({ success: false, message: answers.nothingToUpdate });

    expect((await api('PATCH', `/admin/plans/${plan.id}`, admin, { archived: true })).json().plan.archived).toBe(true);
    expect((await publicPlans()).plans.map((listed: { id: string }) => listed.id)).not.toContain(plan.id);
    const learner = await signUp(t.app);
    const refused = await api('POST', '/payments/subscribe', learner.cookie, { plan: plan.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ success: false, message: messages.planNotFound });
    expect(await t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, learner.user._id))).toEqual([]);

    expect((await api('PATCH', `/admin/plans/${plan.id}`, admin, { archived: false })).json().plan.archived).toBe(false);
    expect((await publicPlans()).plans.map((listed: { id: string }) => listed.id)).toContain(plan.id);
    expect((await api('PATCH', '/admin/plans/00000000-0000-4000-8000-000000000000', admin, { name: 'Ghost' })).statusCode).toBe(404);
    expect((await api('PATCH', '/admin/plans/not-a-uuid', admin, { name: 'Ghost' })).statusCode).toBe(400);
  });

  it('refuses a plan id that is not for sale at checkout, and a malformed body', async () => {
    const learner = await signUp(t.app);
    for (const body of [{ plan: 'nope' }, { plan: '00000000-0000-4000-8000-000000000000' }]) {
      const answer = await api('POST', '/payments/subscribe', learner.cookie, body);
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({ success: false, message: messages.planNotFound });
    }
    expect((await api('POST', '/payments/subscribe', learner.cookie, { trial: 'yes' })).json()).toEqual({
      success: false,
      message: answers.trialChoiceInvalid,
    });
    expect((await api('POST', '/payments/subscribe', learner.cookie, { coupon: 'X'.repeat(41) })).json()).toEqual({
      success: false,
      message: messages.couponUnknown,
    });
    expect(await t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, learner.user._id))).toEqual([]);
  });
});

describe('prices', () => {
  it('change for new buyers only: a subscriber keeps paying the price they bought at, renewal after renewal', async () => {
    const plan = await makePlan(t, admin, { name: 'Pro', interval: 'monthly', price: 199 });
    const early = await buyer(plan.id);
    expect((await paymentsOf(early.user._id)).map((payment) => payment.amountPaise)).toEqual([19900]);

    const repriced = await api('PATCH', `/admin/plans/${plan.id}`, admin, { price: 249 });
    expect(repriced.json().plan).toMatchObject({ price: 249, subscribers: 1 });
    expect(repriced.json().plan.prices).toEqual([
      { price: 249, listPrice: 249, since: expect.any(String), subscribers: 0, current: true },
      { price: 199, listPrice: 199, since: expect.any(String), subscribers: 1, current: false },
    ]);
    const late = await buyer(plan.id);
    expect(late.quote).toMatchObject({ dueNow: 249, regularPrice: 249 });
    expect((await paymentsOf(late.user._id)).map((payment) => payment.amountPaise)).toEqual([24900]);

    // The early buyer renews twice at their price, the late one at theirs.
    for (const who of [early, early, late]) expect((await sandboxTrigger(t, who.subscriptionId, 'charge')).json().webhook.status).toBe(200);
    expect((await paymentsOf(early.user._id)).map((payment) => payment.amountPaise)).toEqual([19900, 19900, 19900]);
    expect((await paymentsOf(late.user._id)).map((payment) => payment.amountPaise)).toEqual([24900, 24900]);

    // Archived, it sells no more, and its subscribers renew as before.
    await api('PATCH', `/admin/plans/${plan.id}`, admin, { archived: true });
    await sandboxTrigger(t, early.subscriptionId, 'charge');
    expect((await paymentsOf(early.user._id)).map((payment) => payment.amountPaise)).toEqual([19900, 19900, 19900, 19900]);
    const listed = (await api('GET', '/admin/plans', admin)).json().plans.find((entry: { id: string }) => entry.id === plan.id);
    expect(listed).toMatchObject({ archived: true, subscribers: 2 });
    expect(listed.prices.map((price: { subscribers: number }) => price.subscribers)).toEqual([1, 1]);
  });

  it('a price unchanged makes no new version', async () => {
    const plan = await makePlan(t, admin, { name: 'Steady', interval: 'monthly', price: 120 });
    const same = await api('PATCH', `/admin/plans/${plan.id}`, admin, { price: 120 });
    expect(same.json().plan.prices).toHaveLength(1);
  });
});

describe('prices entered before GST', () => {
  it('charge the price with GST added, keep both, and refuse one whose charge would pass ₹15,000', async () => {
    const taxed = await createTestApp({
      env: { SELLER_STATE: '29', SELLER_GSTIN: withCheck('29AAACL1234C1Z'), PRICES_INCLUDE_TAX: 'no', SUBSCRIPTION_PRICE: '99' },
    });
    try {
      const taxedAdmin = (await signUpAdmin(taxed.app)).cookie;
      const listed = (await apiCaller(taxed)('GET', '/admin/plans', taxedAdmin)).json();
      expect(listed.tax).toEqual({ pricesAddTax: true, gstRate: 18 });
      // The default plan: ₹99 before GST, ₹116.82 charged.
      expect(listed.plans[0]).toMatchObject({ listPrice: 99, price: 116.82 });
      const plan = await makePlan(taxed, taxedAdmin, { name: 'Year', interval: 'yearly', price: 1000 });
      expect(plan).toMatchObject({ listPrice: 1000, price: 1180 });
      const dear = await apiCaller(taxed)('POST', '/admin/plans', taxedAdmin, { name: 'Dear', interval: 'yearly', price: 13000 });
      expect(dear.json()).toEqual({ success: false, message: messages.planPriceWithTaxTooHigh });
    } finally {
      await taxed.close();
    }
  });
});

describe('yearly plans', () => {
  it('give a year of access from the payment, renew a year later, and count a twelfth in MRR', async () => {
    const plan = await makePlan(t, admin, { name: 'Yearly', interval: 'yearly', price: 999 });
    expect((await publicPlans()).plans.map((listed: { interval: string }) => listed.interval).indexOf('yearly')).toBeGreaterThan(0);
    const learner = await buyer(plan.id);
    const [payment] = await paymentsOf(learner.user._id);
    expect(payment!.amountPaise).toBe(99900);
    const paidAt = payment!.paidAt;
    const aYearOn = new Date(paidAt);
    aYearOn.setUTCFullYear(aYearOn.getUTCFullYear() + 1);
    expect((await endsAt(learner.user._id)).toISOString()).toBe(aYearOn.toISOString());
    const me = (await api('GET', '/user/me', learner.cookie)).json().user;
    expect(me.subscription).toEqual({ status: 'active', currentPeriodEnd: aYearOn.toISOString(), cancelAtPeriodEnd: false });
    const provider = await providerSubscription(t, learner.subscriptionId);
    expect(provider.current_end).toBe(Math.floor(aYearOn.getTime() / 1000));
    // The invoice names the plan and the year it pays for.
    const [invoice] = await t.database.db.select().from(billingDocuments).where(eq(billingDocuments.userId, learner.user._id));
    expect(invoice!.description).toMatch(/^Subscription Bundle, Yearly plan, \d{1,2} \w{3} \d{4} to \d{1,2} \w{3} \d{4}$/);

    // The renewal: another year, from the end of the first.
    await sandboxTrigger(t, learner.subscriptionId, 'charge');
    const twoYearsOn = new Date(aYearOn);
    twoYearsOn.setUTCFullYear(twoYearsOn.getUTCFullYear() + 1);
    expect((await endsAt(learner.user._id)).toISOString()).toBe(twoYearsOn.toISOString());

    const figures = (await getRevenue(t.app.ctx)).plans.find((entry) => entry.id === plan.id);
    expect(figures).toEqual({ id: plan.id, name: 'Yearly', interval: 'yearly', archived: false, subscribers: 1, mrr: 83.25 });
  });
});

describe('MRR by plan', () => {
  it('adds up each renewing subscription’s next charge a month, and leaves out cancelled ones', async () => {
    const fresh = await createTestApp();
    try {
      const freshAdmin = (await signUpAdmin(fresh.app)).cookie;
      const yearly = await makePlan(fresh, freshAdmin, { name: 'Annual', interval: 'yearly', price: 1188 });
      const monthly = [await subscriber(fresh), await subscriber(fresh)];
      const annual = await signUp(fresh.app);
      const subscribed = await apiCaller(fresh)('POST', '/payments/subscribe', annual.cookie, { plan: yearly.id });
      expect((await payAndVerify(fresh, annual.cookie, subscribed.json().subscription_id)).statusCode).toBe(200);
      // One of the monthly ones cancels outside the refund window: no longer renewing.
      await fresh.database.db
        .update(payments)
        .set({ paidAt: new Date(Date.now() - 20 * 24 * 3600 * 1000) })
        .where(eq(payments.userId, monthly[1]!.user._id));
      expect((await apiCaller(fresh)('POST', '/payments/unsubscribe', monthly[1]!.cookie)).json().refunded).toBe(false);

      const revenue = await getRevenue(fresh.app.ctx);
      expect(revenue.mrr).toBe(99 + 99);
      expect(revenue.renewingSubscribers).toBe(2);
      // Largest part first; equal parts by name.
      expect(revenue.plans).toEqual([
        { id: yearly.id, name: 'Annual', interval: 'yearly', archived: false, subscribers: 1, mrr: 99 },
        { id: expect.any(String), name: 'Subscription Bundle', interval: 'monthly', archived: false, subscribers: 1, mrr: 99 },
      ]);
      const answer = await apiCaller(fresh)('GET', '/admin/revenue', freshAdmin);
      expect(answer.json().plans).toEqual(revenue.plans);
    } finally {
      await fresh.close();
    }
  });
});
