import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { lifecycleMails, payments, users, webhookEvents } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { publishCourseDirectly } from '../../test/courses.ts';
import { rowCount } from '../../test/db.ts';
import { mp4Video, multipart, pngImage, signUp, signUpAdmin } from '../../test/http.ts';
import { apiCaller, CARDS, deliverSandboxWebhook, makePlan, payAndVerify, providerSubscription, sandboxTrigger, webhooksSettled } from '../../test/payments.ts';
import { queueRenewalReminders } from '../billing/lifecycle-mail.ts';

let t: TestApp;
let admin: string;
let courseId: string;
let trialPlan: { id: string };
const DAY = 24 * 3600 * 1000;

// A database each: one free trial per card, and the sandbox has two cards that pay.
beforeEach(async () => {
  t = await createTestApp();
  admin = (await signUpAdmin(t.app)).cookie;
  trialPlan = await makePlan(t, admin, { name: 'Yearly with trial', interval: 'yearly', price: 999, trialDays: 7 });
  const course = await multipart({
    title: 'Trial Course',
    description: 'Behind the paywall.',
    category: 'Tests',
    createdBy: 'Asha Verma',
    thumbnail: { bytes: await pngImage(), filename: 'c.png' },
  });
  courseId = (await t.app.inject({ method: 'POST', url: '/api/v1/courses', payload: course.payload, headers: { ...course.headers, cookie: admin } })).json()
    .course._id;
  const lecture = await multipart({ title: 'Lesson', description: 'The first one.', lectures: { bytes: mp4Video(), filename: 'l.mp4' } });
  await t.app.inject({ method: 'POST', url: `/api/v1/courses/${courseId}`, payload: lecture.payload, headers: { ...lecture.headers, cookie: admin } });
  await publishCourseDirectly(t.app.ctx, courseId);
});
afterEach(() => t?.close());

const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t)(...args);
const me = async (cookie: string) => (await api('GET', '/user/me', cookie)).json().user;
const paymentsOf = (userId: string) => t.database.db.select().from(payments).where(eq(payments.userId, userId));
const canWatch = async (cookie: string) => (await api('GET', `/courses/${courseId}`, cookie)).statusCode === 200;

/** A learner who starts the free trial with `card`; answers the account, the checkout and the verify's answer. */
async function startTrial(card: string = CARDS.pays) {
  const account = await signUp(t.app);
  const checkout = await api('POST', '/payments/subscribe', account.cookie, { plan: trialPlan.id });
  expect(checkout.statusCode, checkout.body).toBe(200);
  const paid = await t.app.inject({ method: 'POST', url: `/sandbox/v1/subscriptions/${checkout.json().subscription_id}/pay`, payload: { card_number: card } });
  expect(paid.statusCode, paid.body).toBe(200);
  const verified = await api('POST', '/payments/verify', account.cookie, paid.json());
  return { ...account, subscriptionId: checkout.json().subscription_id as string, quote: checkout.json().checkout, verified, handler: paid.json() as object };
}

describe('a free trial', () => {
  it('opens every course now, takes only a card check, and says when the first payment comes', async () => {
    const learner = await startTrial();
    expect(learner.quote).toMatchObject({
      dueNow: 5,
      authorisationOnly: true,
      trialDays: 7,
      trialUnavailable: false,
      firstCharge: { amount: 999 },
      regularPrice: 999,
    });
    const firstCharge = new Date(learner.quote.firstCharge.date);
    expect(Math.abs(firstCharge.getTime() - (Date.now() + 7 * DAY))).toBeLessThan(60_000);
    expect(learner.verified.statusCode, learner.verified.body).toBe(200);

    expect((await me(learner.cookie)).subscription).toEqual({
      status: 'active',
      currentPeriodEnd: firstCharge.toISOString(),
      cancelAtPeriodEnd: false,
      trialEndsAt: firstCharge.toISOString(),
    });
    expect(await canWatch(learner.cookie)).toBe(true);
    expect(await paymentsOf(learner.user._id)).toEqual([]);
    expect(await providerSubscription(t, learner.subscriptionId)).toMatchObject({ status: 'authenticated', paid_count: 0 });
    const history = (await api('GET', '/billing/history', learner.cookie)).json();
    expect(history).toMatchObject({
      entries: [],
      renewal: {
        renewsOn: firstCharge.toISOString(),
        trialEndsAt: firstCharge.toISOString(),
        nextAmount: 999,
        plan: { name: 'Yearly with trial', interval: 'yearly' },
      },
    });
    // Verifying again changes nothing.
    const again = await api('POST', '/payments/verify', learner.cookie, learner.handler);
    expect(again.statusCode, again.body).toBe(200);
    expect((await me(learner.cookie)).subscription.trialEndsAt).toBe(firstCharge.toISOString());
  });

  it('is reminded of 3 days before the first payment, once, and then charged: access for the plan’s period from the trial’s end', async () => {
    const learner = await startTrial();
    expect(learner.verified.statusCode).toBe(200);
    const trialEnd = new Date(learner.quote.firstCharge.date);
    const mailsOf = () => t.database.db.select().from(lifecycleMails).where(eq(lifecycleMails.userId, learner.user._id));
    await queueRenewalReminders(t.app.ctx, new Date(trialEnd.getTime() - 5 * DAY));
    expect(await mailsOf()).toEqual([]);
    await queueRenewalReminders(t.app.ctx, new Date(trialEnd.getTime() - 2 * DAY));
    await queueRenewalReminders(t.app.ctx, new Date(trialEnd.getTime() - 1 * DAY));
    expect((await mailsOf()).map((mail) => [mail.kind, mail.data])).toEqual([
      ['trial_reminder', { renewsOn: trialEnd.toISOString(), amountPaise: 99900, period: 'year' }],
    ]);

    // The trial ends: the sandbox's trigger is the first charge (subscription.activated, .charged).
    const events = await rowCount(t.database, webhookEvents);
    const charged = await sandboxTrigger(t, learner.subscriptionId, 'charge');
    expect(charged.json().webhook.status).toBe(200);
    await webhooksSettled(t, events + 2);
    expect((await paymentsOf(learner.user._id)).map((payment) => payment.amountPaise)).toEqual([99900]);
    const aYearOn = new Date(trialEnd);
    aYearOn.setUTCFullYear(aYearOn.getUTCFullYear() + 1);
    expect((await me(learner.cookie)).subscription).toEqual({ status: 'active', currentPeriodEnd: aYearOn.toISOString(), cancelAtPeriodEnd: false });
    expect((await t.database.db.select().from(users).where(eq(users.id, learner.user._id)))[0]!.trialEndsAt).toBeNull();
  });

  it('is one per account: a second one is refused (400) and the plan sells without it, charged today', async () => {
    const learner = await startTrial();
    expect(learner.verified.statusCode, learner.verified.body).toBe(200);
    expect((await api('POST', '/payments/unsubscribe', learner.cookie)).json()).toMatchObject({ refunded: false, message: answers.unsubscribedTrial });
    // Cancelled in the trial: nothing charged, access until it ends, the provider's subscription cancelled.
    expect((await me(learner.cookie)).subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    expect((await providerSubscription(t, learner.subscriptionId)).status).toBe('cancelled');
    // The provider's own word of the cancellation does not cut the trial short.
    await deliverSandboxWebhook(t.app, { event: 'subscription.cancelled', subscription: (await providerSubscription(t, learner.subscriptionId)) as never });
    expect(await canWatch(learner.cookie)).toBe(true);
    expect(await paymentsOf(learner.user._id)).toEqual([]);

    // Access ended (it is a week later), they come back.
    await t.database.db
      .update(users)
      .set({ subscriptionEndsAt: new Date(Date.now() - 1000), subscriptionCancelledAt: null })
      .where(eq(users.id, learner.user._id));
    const insisted = await api('POST', '/payments/subscribe', learner.cookie, { plan: trialPlan.id, trial: true });
    expect(insisted.statusCode).toBe(400);
    expect(insisted.json()).toEqual({ success: false, message: answers.trialUsed });
    expect((await api('GET', '/payments/plans', learner.cookie)).json().trialAvailable).toBe(false);
    const plain = await api('POST', '/payments/subscribe', learner.cookie, { plan: trialPlan.id });
    expect(plain.json().checkout).toMatchObject({ trialDays: 0, trialUnavailable: true, authorisationOnly: false, dueNow: 999 });
    expect((await payAndVerify(t, learner.cookie, plain.json().subscription_id)).statusCode).toBe(200);
    expect((await paymentsOf(learner.user._id)).map((payment) => payment.amountPaise)).toEqual([99900]);
  });

  it('is one per card: another account with the same card is refused, cancelled at the provider before it can charge; another card is welcome', async () => {
    const first = await startTrial(CARDS.pays);
    expect(first.verified.statusCode).toBe(200);
    const second = await startTrial(CARDS.pays);
    expect(second.verified.statusCode).toBe(400);
    expect(second.verified.json()).toEqual({ success: false, message: answers.trialCardUsed });
    expect((await me(second.cookie)).subscription).toEqual({ status: 'inactive' });
    expect(await canWatch(second.cookie)).toBe(false);
    expect((await providerSubscription(t, second.subscriptionId)).status).toBe('cancelled');
    // Their next checkout starts with a payment.
    expect((await api('POST', '/payments/subscribe', second.cookie, { plan: trialPlan.id })).json().checkout).toMatchObject({
      trialDays: 0,
      trialUnavailable: true,
    });

    const third = await startTrial(CARDS.alsoPays);
    expect(third.verified.statusCode, third.verified.body).toBe(200);
    expect((await me(third.cookie)).subscription.trialEndsAt).toEqual(expect.any(String));
  });

  it('can be declined for a payment today, and a plan without one refuses it', async () => {
    const learner = await signUp(t.app);
    const now = await api('POST', '/payments/subscribe', learner.cookie, { plan: trialPlan.id, trial: false });
    expect(now.json().checkout).toMatchObject({ trialDays: 0, trialUnavailable: false, authorisationOnly: false, dueNow: 999 });
    const bundle = await api('POST', '/payments/subscribe', learner.cookie, { trial: true });
    expect(bundle.json()).toEqual({ success: false, message: answers.planHasNoTrial });
  });
});
