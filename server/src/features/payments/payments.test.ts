import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { payments, sandboxPayments, sandboxRefunds, subscriptions, users, webhookEvents } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { publishCourseDirectly } from '../../test/courses.ts';
import { rowCount } from '../../test/db.ts';
import { mp4Video, multipart, pngImage, signUp, signUpAdmin } from '../../test/http.ts';
import { deliverSandboxWebhook } from '../../test/payments.ts';
import { hmacHex, isSignedBy } from './signatures.ts';

let t: TestApp;
let admin: string;
let courseId: string;

const SUCCESS_CARD = '4111 1111 1111 1111';
const DECLINED_CARD = '4000 0000 0000 0002';
const DAY = 24 * 3600 * 1000;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signUpAdmin(t.app)).cookie;
  const course = await multipart({
    title: 'Paid Course',
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
afterAll(() => t?.close());

const api = (method: 'GET' | 'POST', url: string, cookie: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: { cookie }, ...(payload && { payload }) });
const sandboxAuth = () => `Basic ${Buffer.from(`${t.config.payments.keyId}:${t.config.payments.keySecret}`).toString('base64')}`;
const pay = (subscriptionId: string, card: string) =>
  t.app.inject({ method: 'POST', url: `/sandbox/v1/subscriptions/${subscriptionId}/pay`, payload: { card_number: card } });
const me = async (cookie: string) => (await api('GET', '/user/me', cookie)).json().user;
const endsAt = async (userId: string) => (await t.database.db.select().from(users).where(eq(users.id, userId)))[0]!.subscriptionEndsAt;
const paymentsOf = (userId: string) => t.database.db.select().from(payments).where(eq(payments.userId, userId));

/** The sandbox delivers its webhooks after answering, as Razorpay does; wait until they are handled. */
async function webhooksSettled(count: number) {
  for (let i = 0; i < 100 && (await rowCount(t.database, webhookEvents)) < count; i++) await new Promise((r) => setTimeout(r, 20));
}

/** A new user who has subscribed and paid with the success card, as Checkout would, and verified. */
async function subscriber() {
  const account = await signUp(t.app);
  const events = await rowCount(t.database, webhookEvents);
  const subscriptionId = (await api('POST', '/payments/subscribe', account.cookie)).json().subscription_id as string;
  const paid = await pay(subscriptionId, SUCCESS_CARD);
  expect(paid.statusCode).toBe(200);
  const verified = await api('POST', '/payments/verify', account.cookie, paid.json());
  expect(verified.statusCode, verified.body).toBe(200);
  await webhooksSettled(events + 2);
  return { ...account, subscriptionId, handler: paid.json() as Record<string, string> };
}

describe('signatures', () => {
  it("match Razorpay's published vector", () => {
    const message = 'pay_IDZNwZZFtnjyym|sub_ID6MOhgkcoHj9I';
    const expected = '601f383334975c714c91a7d97dd723eb56520318355863dcf3821c0d07a17693';
    expect(hmacHex('EnLs21M47BllR3X8PSFtjtbd', message)).toBe(expected);
    expect(isSignedBy('EnLs21M47BllR3X8PSFtjtbd', message, expected)).toBe(true);
    expect(isSignedBy('EnLs21M47BllR3X8PSFtjtbd', message, expected.replace(/^6/, '7'))).toBe(false);
    expect(isSignedBy('EnLs21M47BllR3X8PSFtjtbd', message, 'not hex')).toBe(false);
    expect(isSignedBy('EnLs21M47BllR3X8PSFtjtbd', message, expected.slice(0, 62))).toBe(false);
  });
});

describe('GET /payments/razorpay-key', () => {
  it('gives a logged-in user the key, the Checkout script and the price', async () => {
    const { cookie } = await signUp(t.app);
    const response = await api('GET', '/payments/razorpay-key', cookie);
    expect(response.json()).toMatchObject({ success: true, key: t.config.payments.keyId, checkoutScript: '/sandbox/checkout.js', price: 99 });
    expect((await api('GET', '/payments/razorpay-key', '')).statusCode).toBe(401);
  });
});

describe('GET /payments/plan', () => {
  it("tells anyone, signed in or not, the bundle's price per month and refund window, and nothing secret", async () => {
    const visitor = await api('GET', '/payments/plan', '');
    expect(visitor.statusCode).toBe(200);
    expect(visitor.json()).toEqual({
      success: true,
      message: answers.subscriptionPlan,
      price: t.config.payments.pricePaise / 100,
      currency: 'INR',
      refundWindowDays: t.config.payments.refundWindowDays,
    });
    expect(visitor.json().price).toBe(99);
    const { cookie } = await signUp(t.app);
    expect((await api('GET', '/payments/plan', cookie)).json()).toEqual(visitor.json());
  });
});

describe('POST /payments/subscribe', () => {
  it('creates a provider subscription for a user, reusing it until it is paid', async () => {
    const { cookie, user } = await signUp(t.app);
    const first = await api('POST', '/payments/subscribe', cookie);
    expect(first.statusCode).toBe(200);
    expect(first.json().subscription_id).toMatch(/^sub_[A-Za-z0-9]{14}$/);
    const second = await api('POST', '/payments/subscribe', cookie);
    expect(second.json().subscription_id).toBe(first.json().subscription_id);
    const stored = await t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, user._id));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ status: 'created', providerSubscriptionId: first.json().subscription_id });
  });

  it('gives concurrent calls one and the same unpaid subscription', async () => {
    const { cookie, user } = await signUp(t.app);
    const answers = await Promise.all([1, 2, 3].map(() => api('POST', '/payments/subscribe', cookie)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((answer) => answer.json().subscription_id)).size).toBe(1);
    const unpaid = await t.database.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, user._id), eq(subscriptions.status, 'created')));
    expect(unpaid).toHaveLength(1);
    expect(unpaid[0]!.providerSubscriptionId).toBe(answers[0]!.json().subscription_id);
  });

  it('refuses admins (403), active subscribers (409) and logged-out callers (401)', async () => {
    const adminAnswer = await api('POST', '/payments/subscribe', admin);
    expect(adminAnswer.statusCode).toBe(403);
    expect(adminAnswer.json().message).toBe(messages.adminCannotSubscribe);
    const paid = await subscriber();
    const again = await api('POST', '/payments/subscribe', paid.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(messages.alreadySubscribed);
    expect((await api('POST', '/payments/subscribe', '')).statusCode).toBe(401);
  });
});

describe('the whole journey through the sandbox', () => {
  it('subscribe → pay → verify → watch → renewal → unsubscribe with a refund → refused again', async () => {
    const account = await signUp(t.app);
    expect((await api('GET', `/courses/${courseId}`, account.cookie)).statusCode).toBe(403);

    const paid = await subscriber();
    expect((await me(paid.cookie)).subscription.status).toBe('active');
    const lectures = await api('GET', `/courses/${courseId}`, paid.cookie);
    expect(lectures.statusCode).toBe(200);
    // The player holds a playback lease before it asks for the video (features/protection).
    expect((await api('POST', '/playback', paid.cookie, { lectureId: lectures.json().lectures[0]._id })).statusCode).toBe(201);
    const video = await t.app.inject({ url: lectures.json().lectures[0].secure_url, headers: { cookie: paid.cookie, range: 'bytes=0-31' } });
    expect(video.statusCode).toBe(206);
    expect(video.rawPayload.subarray(4, 8).toString()).toBe('ftyp');

    const firstEnd = (await endsAt(paid.user._id))!;
    expect(firstEnd.getTime() - Date.now()).toBeGreaterThan(27 * DAY);
    expect(firstEnd.getTime() - Date.now()).toBeLessThan(32 * DAY);
    expect(await paymentsOf(paid.user._id)).toHaveLength(1);

    // A renewal: the sandbox charges again and sends a signed subscription.charged webhook.
    const renewal = await t.app.inject({
      method: 'POST',
      url: `/sandbox/v1/subscriptions/${paid.subscriptionId}/charge`,
      headers: { authorization: sandboxAuth() },
    });
    expect(renewal.statusCode).toBe(200);
    const renewedEnd = (await endsAt(paid.user._id))!;
    expect(renewedEnd.getTime() - firstEnd.getTime()).toBeGreaterThan(27 * DAY);
    expect(await paymentsOf(paid.user._id)).toHaveLength(2);

    const cancelled = await api('POST', '/payments/unsubscribe', paid.cookie);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toEqual({ success: true, refunded: true, message: answers.unsubscribedRefunded });
    expect((await me(paid.cookie)).subscription.status).toBe('inactive');
    expect((await api('GET', `/courses/${courseId}`, paid.cookie)).statusCode).toBe(403);
    const stillPlaying = await t.app.inject({ url: lectures.json().lectures[0].secure_url, headers: { cookie: paid.cookie } });
    expect(stillPlaying.statusCode).toBe(403);

    const records = await paymentsOf(paid.user._id);
    const refunded = records.sort((a, b) => b.paidAt.getTime() - a.paidAt.getTime() || b.createdAt.getTime() - a.createdAt.getTime())[0]!;
    expect(refunded).toMatchObject({ status: 'refunded', refundedPaise: 9900 });
    const [atProvider] = await t.database.db.select().from(sandboxPayments).where(eq(sandboxPayments.id, refunded.providerPaymentId));
    expect(atProvider).toMatchObject({ status: 'refunded', amountRefunded: 9900 });

    const again = await api('POST', '/payments/unsubscribe', paid.cookie);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(answers.noActiveSubscription);
  });

  it('does not refund a payment older than the refund window, and keeps access to the end of the paid period', async () => {
    const paid = await subscriber();
    const end = await endsAt(paid.user._id);
    await t.database.db
      .update(payments)
      .set({ paidAt: new Date(Date.now() - 15 * DAY) })
      .where(eq(payments.userId, paid.user._id));
    const cancelled = await api('POST', '/payments/unsubscribe', paid.cookie);
    expect(cancelled.json()).toEqual({ success: true, refunded: false, message: answers.unsubscribedNoRefund });
    expect((await me(paid.cookie)).subscription).toEqual({ status: 'active', currentPeriodEnd: end!.toISOString(), cancelAtPeriodEnd: true });
    expect((await api('GET', `/courses/${courseId}`, paid.cookie)).statusCode).toBe(200);
    const [record] = await paymentsOf(paid.user._id);
    expect(record).toMatchObject({ status: 'captured', refundedPaise: 0 });
    const [atProvider] = await t.database.db.select().from(sandboxPayments).where(eq(sandboxPayments.id, record!.providerPaymentId));
    expect(atProvider!.status).toBe('captured');
    // Renewals stop at the provider: it stays active to the cycle's end, with no charge to come.
    const subscription = await t.app.ctx.razorpay.fetchSubscription(paid.subscriptionId);
    expect(subscription).toMatchObject({ status: 'active', charge_at: null });
  });

  it('leaves a user whose card is declined inactive, with nothing recorded', async () => {
    const account = await signUp(t.app);
    const subscriptionId = (await api('POST', '/payments/subscribe', account.cookie)).json().subscription_id;
    const declined = await pay(subscriptionId, DECLINED_CARD);
    expect(declined.statusCode).toBe(400);
    expect(declined.json().error).toMatchObject({ code: 'BAD_REQUEST_ERROR', reason: 'payment_declined' });
    expect((await me(account.cookie)).subscription.status).toBe('inactive');
    expect(await paymentsOf(account.user._id)).toHaveLength(0);
    expect((await api('GET', `/courses/${courseId}`, account.cookie)).statusCode).toBe(403);
  });
});

describe('the refund rule: one refund in any 12 months', () => {
  it('closes the loop of subscribe, watch, cancel for a refund, repeat; the second cancellation keeps access and can be resumed', async () => {
    // First round: cancelled inside the window, refunded, access ends now.
    const paid = await subscriber();
    const first = await api('POST', '/payments/unsubscribe', paid.cookie);
    expect(first.json()).toEqual({ success: true, refunded: true, message: answers.unsubscribedRefunded });
    expect((await me(paid.cookie)).subscription).toEqual({ status: 'inactive' });

    // Second round, days later: the same, but no refund this time; access lasts the month paid for.
    const events = await rowCount(t.database, webhookEvents);
    const second = (await api('POST', '/payments/subscribe', paid.cookie)).json().subscription_id as string;
    const verified = await api('POST', '/payments/verify', paid.cookie, (await pay(second, SUCCESS_CARD)).json());
    expect(verified.statusCode).toBe(200);
    await webhooksSettled(events + 2);
    const paidUntil = (await endsAt(paid.user._id))!;
    const cancelled = await api('POST', '/payments/unsubscribe', paid.cookie);
    expect(cancelled.json()).toEqual({ success: true, refunded: false, message: answers.unsubscribedRefundUsed });
    expect((await me(paid.cookie)).subscription).toEqual({ status: 'active', currentPeriodEnd: paidUntil.toISOString(), cancelAtPeriodEnd: true });
    expect((await api('GET', `/courses/${courseId}`, paid.cookie)).statusCode).toBe(200);
    const records = await paymentsOf(paid.user._id);
    expect(records.map((record) => record.status).sort()).toEqual(['captured', 'refunded']);
    // Cancelling again changes nothing and refunds nothing.
    expect((await api('POST', '/payments/unsubscribe', paid.cookie)).json()).toMatchObject({ refunded: false });
    expect((await paymentsOf(paid.user._id)).map((record) => record.status).sort()).toEqual(['captured', 'refunded']);

    // Resuming: a new subscription that starts when the paid month ends; Checkout only authorises the card.
    const resumed = await api('POST', '/payments/subscribe', paid.cookie);
    expect(resumed.statusCode).toBe(200);
    const resumedId = resumed.json().subscription_id as string;
    const atProvider = await t.app.ctx.razorpay.fetchSubscription(resumedId);
    expect(atProvider.start_at).toBe(Math.floor(paidUntil.getTime() / 1000));
    const authorised = await pay(resumedId, SUCCESS_CARD);
    expect(authorised.statusCode).toBe(200);
    expect((await t.app.ctx.razorpay.fetchPayment(authorised.json().razorpay_payment_id)).status).toBe('refunded');
    expect((await api('POST', '/payments/verify', paid.cookie, authorised.json())).statusCode).toBe(200);
    expect((await me(paid.cookie)).subscription).toEqual({ status: 'active', currentPeriodEnd: paidUntil.toISOString(), cancelAtPeriodEnd: false });
    expect(await paymentsOf(paid.user._id)).toHaveLength(2);
    expect((await api('POST', '/payments/subscribe', paid.cookie)).statusCode).toBe(409);

    // The paid month ends (the sandbox's clock jumps): the old subscription ends, the resumed one charges its first month.
    const ended = await t.app.inject({ method: 'POST', url: `/sandbox/v1/subscriptions/${second}/charge`, headers: { authorization: sandboxAuth() } });
    expect(ended.json()).toMatchObject({ subscription: { status: 'cancelled' }, webhook: { status: 200 } });
    const charged = await t.app.inject({ method: 'POST', url: `/sandbox/v1/subscriptions/${resumedId}/charge`, headers: { authorization: sandboxAuth() } });
    expect(charged.json()).toMatchObject({ subscription: { status: 'active' }, payment: { status: 'captured', amount: 9900 }, webhook: { status: 200 } });
    const renewedUntil = (await endsAt(paid.user._id))!;
    expect(renewedUntil.getTime() - paidUntil.getTime()).toBeGreaterThan(27 * DAY);
    expect(renewedUntil.getTime() - paidUntil.getTime()).toBeLessThan(32 * DAY);
    expect((await me(paid.cookie)).subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    expect(await paymentsOf(paid.user._id)).toHaveLength(3);
  });

  it('refunds again once the last refund is more than 12 months old', async () => {
    const paid = await subscriber();
    await api('POST', '/payments/unsubscribe', paid.cookie);
    await t.database.db
      .update(payments)
      .set({ refundedAt: new Date(Date.now() - 366 * DAY) })
      .where(eq(payments.userId, paid.user._id));
    const events = await rowCount(t.database, webhookEvents);
    const again = (await api('POST', '/payments/subscribe', paid.cookie)).json().subscription_id as string;
    await api('POST', '/payments/verify', paid.cookie, (await pay(again, SUCCESS_CARD)).json());
    await webhooksSettled(events + 2);
    expect((await api('POST', '/payments/unsubscribe', paid.cookie)).json()).toMatchObject({ refunded: true });
  });

  it('keeps the refund id when two cancellations race, refunding once', async () => {
    const paid = await subscriber();
    const answers = await Promise.all([api('POST', '/payments/unsubscribe', paid.cookie), api('POST', '/payments/unsubscribe', paid.cookie)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const [record] = await paymentsOf(paid.user._id);
    expect(record).toMatchObject({ status: 'refunded', refundedPaise: 9900 });
    expect(record!.providerRefundId).toMatch(/^rfnd_/);
    const refunds = await t.database.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentId, record!.providerPaymentId));
    expect(refunds).toHaveLength(1);
  });
});

describe('POST /payments/verify', () => {
  it('records a replayed verify only once and keeps the period', async () => {
    const paid = await subscriber();
    const before = await endsAt(paid.user._id);
    const replay = await api('POST', '/payments/verify', paid.cookie, paid.handler);
    expect(replay.statusCode).toBe(200);
    expect(await paymentsOf(paid.user._id)).toHaveLength(1);
    expect(await endsAt(paid.user._id)).toEqual(before);
  });

  it("refuses another user's subscription, a bad signature and malformed input, recording nothing", async () => {
    const paid = await subscriber();
    const other = await signUp(t.app);
    const before = await rowCount(t.database, payments);
    const stolen = await api('POST', '/payments/verify', other.cookie, paid.handler);
    expect(stolen.statusCode).toBe(403);
    expect(stolen.json().message).toBe(answers.subscriptionNotYours);
    expect((await me(other.cookie)).subscription.status).toBe('inactive');

    const otherSubscription = (await api('POST', '/payments/subscribe', other.cookie)).json().subscription_id;
    const forged = await api('POST', '/payments/verify', other.cookie, {
      razorpay_payment_id: paid.handler.razorpay_payment_id,
      razorpay_subscription_id: otherSubscription,
      razorpay_signature: hmacHex('guessed-secret', `${paid.handler.razorpay_payment_id}|${otherSubscription}`),
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().message).toBe(answers.paymentSignatureInvalid);

    for (const body of [
      {},
      { ...paid.handler, razorpay_signature: 'xyz' },
      { ...paid.handler, razorpay_payment_id: "pay_1' OR 1=1" },
      { ...paid.handler, razorpay_subscription_id: 42 },
    ]) {
      const response = await api('POST', '/payments/verify', other.cookie, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(answers.paymentDetailsInvalid);
    }
    expect((await api('POST', '/payments/verify', '', paid.handler)).statusCode).toBe(401);
    expect(await rowCount(t.database, payments)).toBe(before);
    expect((await me(other.cookie)).subscription.status).toBe('inactive');
  });
});

describe('POST /payments/unsubscribe never stops half-way', () => {
  it('changes nothing when the provider cannot cancel, and finishes when called again', async () => {
    const paid = await subscriber();
    const cancel = t.app.ctx.razorpay.cancelSubscription;
    t.app.ctx.razorpay.cancelSubscription = async () => {
      throw new TypeError('fetch failed');
    };
    try {
      const failed = await api('POST', '/payments/unsubscribe', paid.cookie);
      expect(failed.statusCode).toBe(502);
      expect(failed.json().message).toBe(answers.providerUnavailable);
    } finally {
      t.app.ctx.razorpay.cancelSubscription = cancel;
    }
    expect((await me(paid.cookie)).subscription.status).toBe('active');
    expect((await paymentsOf(paid.user._id))[0]!.status).toBe('captured');
    const retried = await api('POST', '/payments/unsubscribe', paid.cookie);
    expect(retried.json()).toMatchObject({ refunded: true });
  });

  it('ends access and says so when the refund fails after the provider cancelled', async () => {
    const paid = await subscriber();
    const refund = t.app.ctx.razorpay.refundPayment;
    t.app.ctx.razorpay.refundPayment = async () => {
      throw new TypeError('fetch failed');
    };
    try {
      const answer = await api('POST', '/payments/unsubscribe', paid.cookie);
      expect(answer.json()).toEqual({ success: true, refunded: false, message: messages.unsubscribedRefundFailed });
    } finally {
      t.app.ctx.razorpay.refundPayment = refund;
    }
    expect((await me(paid.cookie)).subscription.status).toBe('inactive');
    const subscription = await t.app.ctx.razorpay.fetchSubscription(paid.subscriptionId);
    expect(subscription.status).toBe('cancelled');
  });
});

describe('POST /payments/webhook', () => {
  /** The subscription and its latest payment as the provider has them, for hand-made deliveries. */
  async function providerState(subscriptionId: string, paymentId: string) {
    const auth = { authorization: sandboxAuth() };
    const subscription = (await t.app.inject({ url: `/sandbox/v1/subscriptions/${subscriptionId}`, headers: auth })).json();
    const payment = (await t.app.inject({ url: `/sandbox/v1/payments/${paymentId}`, headers: auth })).json();
    return { subscription, payment };
  }

  it('records a duplicated delivery only once', async () => {
    const paid = await subscriber();
    const renewal = (
      await t.app.inject({ method: 'POST', url: `/sandbox/v1/subscriptions/${paid.subscriptionId}/charge`, headers: { authorization: sandboxAuth() } })
    ).json();
    const before = { payments: await paymentsOf(paid.user._id), endsAt: await endsAt(paid.user._id), events: await rowCount(t.database, webhookEvents) };
    const { subscription, payment } = await providerState(paid.subscriptionId, renewal.payment.id);

    const eventId = 'evt_Duplicated0001';
    const first = await deliverSandboxWebhook(t.app, { event: 'subscription.charged', subscription, payment, eventId });
    const second = await deliverSandboxWebhook(t.app, { event: 'subscription.charged', subscription, payment, eventId });
    expect(first.json()).toMatchObject({ success: true, duplicate: false });
    expect(second.json()).toMatchObject({ success: true, duplicate: true });
    expect(await paymentsOf(paid.user._id)).toHaveLength(before.payments.length);
    expect(await endsAt(paid.user._id)).toEqual(before.endsAt);
    expect(await rowCount(t.database, webhookEvents)).toBe(before.events + 1);
  });

  it('ends access when the provider halts the subscription, and keeps it on pending', async () => {
    const paid = await subscriber();
    const { subscription } = await providerState(paid.subscriptionId, paid.handler.razorpay_payment_id!);
    await deliverSandboxWebhook(t.app, { event: 'subscription.pending', subscription: { ...subscription, status: 'pending' } });
    expect((await me(paid.cookie)).subscription.status).toBe('active');

    const halted = await t.app.inject({
      method: 'POST',
      url: `/sandbox/v1/subscriptions/${paid.subscriptionId}/halt`,
      headers: { authorization: sandboxAuth() },
    });
    expect(halted.statusCode).toBe(200);
    expect((await me(paid.cookie)).subscription.status).toBe('inactive');
    expect((await api('GET', `/courses/${courseId}`, paid.cookie)).statusCode).toBe(403);
  });

  it('is not fooled by a stale event arriving after a newer charge', async () => {
    const paid = await subscriber();
    const { subscription } = await providerState(paid.subscriptionId, paid.handler.razorpay_payment_id!);
    // An old "halted" (from before the card was fixed) delivered late; the provider says active now.
    await deliverSandboxWebhook(t.app, { event: 'subscription.halted', subscription: { ...subscription, status: 'halted' } });
    expect((await me(paid.cookie)).subscription.status).toBe('active');
  });

  it('acknowledges events about subscriptions it does not know, changing nothing', async () => {
    const paid = await subscriber();
    const { subscription, payment } = await providerState(paid.subscriptionId, paid.handler.razorpay_payment_id!);
    const before = await rowCount(t.database, payments);
    const response = await deliverSandboxWebhook(t.app, {
      event: 'subscription.charged',
      subscription: { ...subscription, id: 'sub_NotOursAtAll01' },
      payment: { ...payment, id: 'pay_NotOursAtAll01' },
    });
    expect(response.statusCode).toBe(200);
    expect(await rowCount(t.database, payments)).toBe(before);
  });

  it('acknowledges and logs a signed event about a subscription or payment the provider does not know', async () => {
    const account = await signUp(t.app);
    // Ours, but unknown at the provider (made in another account, or deleted there).
    await t.database.db
      .insert(subscriptions)
      .values({ userId: account.user._id, providerSubscriptionId: 'sub_GoneAtProvider1', providerPlanId: 'plan_x', status: 'active' });
    const paid = await subscriber();
    const { subscription } = await providerState(paid.subscriptionId, paid.handler.razorpay_payment_id!);
    const before = { payments: await rowCount(t.database, payments), endsAt: await endsAt(paid.user._id) };
    const unknownSubscription = await deliverSandboxWebhook(t.app, {
      event: 'subscription.halted',
      subscription: { ...subscription, id: 'sub_GoneAtProvider1' },
    });
    const unknownPayment = await deliverSandboxWebhook(t.app, {
      event: 'subscription.charged',
      subscription,
      payment: { ...(await providerState(paid.subscriptionId, paid.handler.razorpay_payment_id!)).payment, id: 'pay_GoneAtProvider1' },
    });
    for (const response of [unknownSubscription, unknownPayment]) {
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ success: true, duplicate: false });
    }
    expect(await rowCount(t.database, payments)).toBe(before.payments);
    expect(await endsAt(paid.user._id)).toEqual(before.endsAt);
  });

  it('reads signatures strictly: 64 lowercase hex digits and nothing else', async () => {
    const body = JSON.stringify({ entity: 'event', event: 'subscription.charged', payload: {} });
    const signature = hmacHex(t.config.payments.webhookSecret, body);
    for (const forged of [`${signature}zz`, `${signature}00`, signature.toUpperCase(), ` ${signature}`]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/payments/webhook',
        payload: body,
        headers: { 'content-type': 'application/json', 'x-razorpay-event-id': `evt_${randomBytes(6).toString('hex')}`, 'x-razorpay-signature': forged },
      });
      expect(response.statusCode, forged).toBe(400);
    }
    expect(isSignedBy(t.config.payments.webhookSecret, body, signature)).toBe(true);
    expect(isSignedBy(t.config.payments.webhookSecret, body, `${signature}zz`)).toBe(false);
  });

  it('refuses a bad signature, a missing event id and a malformed body (400), recording nothing', async () => {
    const before = await rowCount(t.database, webhookEvents);
    const body = JSON.stringify({ entity: 'event', event: 'subscription.charged', payload: {} });
    const secret = t.config.payments.webhookSecret;
    const send = (payload: string, headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/v1/payments/webhook', payload, headers: { 'content-type': 'application/json', ...headers } });

    const unsigned = await send(body, { 'x-razorpay-event-id': 'evt_A' });
    const forged = await send(body, { 'x-razorpay-event-id': 'evt_B', 'x-razorpay-signature': hmacHex('not-the-secret', body) });
    const reserialised = await send(JSON.stringify(JSON.parse(body), null, 2), {
      'x-razorpay-event-id': 'evt_C',
      'x-razorpay-signature': hmacHex(secret, body),
    });
    const noEventId = await send(body, { 'x-razorpay-signature': hmacHex(secret, body) });
    const notJson = await send('{nope', { 'x-razorpay-event-id': 'evt_D', 'x-razorpay-signature': hmacHex(secret, '{nope') });
    for (const response of [unsigned, forged, reserialised]) {
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(answers.webhookSignatureInvalid);
    }
    expect(noEventId.statusCode).toBe(400);
    expect(notJson.statusCode).toBe(400);
    expect(await rowCount(t.database, webhookEvents)).toBe(before);
  });
});

describe("a subscriber's remembered video session is forgotten when the subscription ends", () => {
  /** The signed link of the course's first lecture, as the course page gives it to `cookie`, with the playback lease its player holds. */
  async function lectureUrl(cookie: string): Promise<string> {
    const course = await api('GET', `/courses/${courseId}`, cookie);
    expect(course.statusCode).toBe(200);
    expect((await api('POST', '/playback', cookie, { lectureId: course.json().lectures[0]._id })).statusCode).toBe(201);
    return course.json().lectures[0].secure_url;
  }
  /** The first bytes of the lecture, as a player asks for them; a 206 once the link and session pass. */
  const play = (url: string, cookie: string) => t.app.inject({ url, headers: { cookie, range: 'bytes=0-31' } });
  /** A sandbox-only action on a subscription, as the provider's side would take it. */
  const atSandbox = (url: string, payload?: object) =>
    t.app.inject({ method: 'POST', url: `/sandbox/v1${url}`, headers: { authorization: sandboxAuth() }, ...(payload && { payload }) });

  it('refuses the link at once after unsubscribe', async () => {
    const paid = await subscriber();
    const url = await lectureUrl(paid.cookie);
    expect((await play(url, paid.cookie)).statusCode).toBe(206);

    expect((await api('POST', '/payments/unsubscribe', paid.cookie)).statusCode).toBe(200);
    const refused = await play(url, paid.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(answers.notAllowed);
  });

  it.each([
    [
      'halts the subscription after failed renewals',
      async (subscriptionId: string) => {
        const halted = await atSandbox(`/subscriptions/${subscriptionId}/halt`);
        expect(halted.json().webhook.status).toBe(200);
      },
    ],
    [
      'cancels the subscription from its dashboard',
      async (subscriptionId: string) => {
        const cancelled = await atSandbox(`/subscriptions/${subscriptionId}/cancel`, { cancel_at_cycle_end: 0 });
        expect(cancelled.statusCode).toBe(200);
        const delivered = await deliverSandboxWebhook(t.app, { event: 'subscription.cancelled', subscription: cancelled.json() });
        expect(delivered.statusCode).toBe(200);
      },
    ],
  ])('refuses the link at once when the provider %s and says so by webhook', async (_name, endAtProvider) => {
    const paid = await subscriber();
    const url = await lectureUrl(paid.cookie);
    expect((await play(url, paid.cookie)).statusCode).toBe(206);

    await endAtProvider(paid.subscriptionId);
    const refused = await play(url, paid.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(answers.notAllowed);
  });
});
