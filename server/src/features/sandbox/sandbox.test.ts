import { createHmac } from 'node:crypto';
import { Readable } from 'node:stream';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sandboxPayments } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { rowCount } from '../../test/db.ts';
import { deliverSandboxWebhook } from '../../test/payments.ts';
import type { PaymentEntity, SubscriptionEntity } from './entities.ts';
import { newId } from './ids.ts';
import { parseFormBody } from './inputs.ts';
import { subscriptionPaymentSignature } from './signing.ts';
import { SANDBOX_WEBHOOK_TARGET } from './webhooks.service.ts';
import { addMonths } from '../payments/provider.ts';
import { writeSettings } from '../settings/site-settings.ts';
import { hmacHex } from '../payments/signatures.ts';

interface Delivery {
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

let t: TestApp;
/** Webhooks sent to the test's own receiver. */
const received: Delivery[] = [];
/** Webhooks sent to the app's receiver, read on their way in. */
const toApp: Delivery[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.register(async (receiver) => {
    receiver.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    receiver.post('/test-only/webhook', async (request) => {
      received.push({ headers: request.headers, body: request.body as Buffer });
      return { ok: true };
    });
  });
  t.app.addHook('preParsing', async (request, _reply, payload) => {
    if (request.url !== SANDBOX_WEBHOOK_TARGET) return payload;
    const chunks: Buffer[] = [];
    for await (const chunk of payload) chunks.push(Buffer.from(chunk));
    const body = Buffer.concat(chunks);
    toApp.push({ headers: request.headers, body });
    return Readable.from([body]);
  });
});
afterAll(() => t?.close());

/** How long a check waits for what goes through the app (a webhook, a payment): a loaded machine takes more than vi.waitFor's one second. */
const ANSWERED = { timeout: 10_000 };
const ID = (prefix: string) => new RegExp(`^${prefix}_[A-Za-z0-9]{14}$`);
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const keys = () => basic(t.config.payments.keyId, t.config.payments.keySecret);

type Method = 'GET' | 'POST' | 'PATCH';
function call(method: Method, path: string, payload?: object | string, headers: Record<string, string> = {}) {
  return t.app.inject({
    method,
    url: `/sandbox/v1${path}`,
    headers: { authorization: keys(), ...headers },
    ...(payload !== undefined && { payload }),
  });
}
/** Checkout's call: no API keys. */
const pay = (subscriptionId: string, card: unknown) =>
  t.app.inject({ method: 'POST', url: `/sandbox/v1/subscriptions/${subscriptionId}/pay`, payload: { card_number: card } });

const errorBody = (description: string, extra: Record<string, unknown> = {}) => ({
  error: {
    code: 'BAD_REQUEST_ERROR',
    description,
    source: 'business',
    step: 'payment_initiation',
    reason: 'input_validation_failed',
    metadata: {},
    ...extra,
  },
});
const stateErrorBody = (description: string) => ({
  error: { code: 'BAD_REQUEST_ERROR', description, source: 'NA', step: 'NA', reason: 'NA', metadata: {} },
});

async function newPlan(amount = 9900) {
  const response = await call('POST', '/plans', { period: 'monthly', interval: 1, item: { name: 'LMS monthly bundle', amount, currency: 'INR' } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { id: string; item: { amount: number } };
}
async function newSubscription(body: Record<string, unknown> = {}, amount = 9900): Promise<SubscriptionEntity> {
  const plan = await newPlan(amount);
  const response = await call('POST', '/subscriptions', { plan_id: plan.id, total_count: 12, ...body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
async function paidSubscription() {
  const subscription = await newSubscription();
  const response = await pay(subscription.id, '4111 1111 1111 1111');
  expect(response.statusCode, response.body).toBe(200);
  const answer = response.json() as { razorpay_payment_id: string; razorpay_subscription_id: string; razorpay_signature: string };
  return { answer, subscriptionId: subscription.id, paymentId: answer.razorpay_payment_id };
}
const getSubscription = async (id: string): Promise<SubscriptionEntity> => (await call('GET', `/subscriptions/${id}`)).json();
const getPayment = async (id: string): Promise<PaymentEntity> => (await call('GET', `/payments/${id}`)).json();
const nowSeconds = () => Math.floor(Date.now() / 1000);
const envelopeOf = (delivery: Delivery) => JSON.parse(delivery.body.toString('utf8'));
const deliveriesFor = (subscriptionId: string) => toApp.map(envelopeOf).filter((envelope) => envelope.payload.subscription.entity.id === subscriptionId);

describe('pure pieces', () => {
  it("signs a subscription payment as Razorpay's documented vector does", () => {
    expect(subscriptionPaymentSignature('EnLs21M47BllR3X8PSFtjtbd', 'pay_IDZNwZZFtnjyym', 'sub_ID6MOhgkcoHj9I')).toBe(
      '601f383334975c714c91a7d97dd723eb56520318355863dcf3821c0d07a17693',
    );
    expect(hmacHex('EnLs21M47BllR3X8PSFtjtbd', 'pay_IDZNwZZFtnjyym|sub_ID6MOhgkcoHj9I')).toBe(
      '601f383334975c714c91a7d97dd723eb56520318355863dcf3821c0d07a17693',
    );
  });

  it('makes ids of a prefix and 14 base62 characters, all different', () => {
    const ids = Array.from({ length: 200 }, () => newId('sub'));
    for (const id of ids) expect(id).toMatch(ID('sub'));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('adds calendar months, clamping the day to the shorter month', () => {
    const at = (text: string) => new Date(`${text}T10:20:30Z`);
    expect(addMonths(at('2025-01-31'), 1)).toEqual(at('2025-02-28'));
    expect(addMonths(at('2024-01-31'), 1)).toEqual(at('2024-02-29'));
    expect(addMonths(at('2025-12-15'), 1)).toEqual(at('2026-01-15'));
    expect(addMonths(at('2025-03-31'), 1)).toEqual(at('2025-04-30'));
  });

  it("reads form bodies with Razorpay's bracket notation, and no prototype keys", () => {
    expect({ ...parseFormBody('item[name]=Gold&item[amount]=9900&period=monthly') }).toEqual({ period: 'monthly', item: { name: 'Gold', amount: '9900' } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const parsed = parseFormBody('__proto__[polluted]=yes');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(parsed)).toBeNull();
  });
});

describe('API keys', () => {
  const refused = {
    error: { code: 'BAD_REQUEST_ERROR', description: 'Authentication failed', source: 'NA', step: 'NA', reason: 'NA', metadata: {} },
  };
  const routes: [Method, string][] = [
    ['POST', '/plans'],
    ['POST', '/subscriptions'],
    ['GET', '/subscriptions/sub_00000000000000'],
    ['POST', '/subscriptions/sub_00000000000000/cancel'],
    ['POST', '/subscriptions/sub_00000000000000/charge'],
    ['POST', '/subscriptions/sub_00000000000000/fail'],
    ['POST', '/subscriptions/sub_00000000000000/halt'],
    ['GET', '/payments/pay_00000000000000'],
    ['POST', '/payments/pay_00000000000000/refund'],
    ['GET', '/payments/pay_00000000000000/refunds'],
  ];

  it.each(routes)('are required on %s %s, before the body is looked at', async (method, path) => {
    for (const authorization of [undefined, basic(t.config.payments.keyId, 'wrong-secret'), basic('rzp_test_other', t.config.payments.keySecret), 'Bearer x']) {
      const response = await t.app.inject({
        method,
        url: `/sandbox/v1${path}`,
        headers: authorization ? { authorization } : {},
        ...(method === 'POST' && { payload: { nonsense: true } }),
      });
      expect(response.statusCode, `${authorization}`).toBe(401);
      expect(response.json()).toEqual(refused);
    }
  });
});

describe('POST /sandbox/v1/plans', () => {
  it('creates a plan', async () => {
    const before = nowSeconds();
    const response = await call('POST', '/plans', { period: 'monthly', interval: 1, item: { name: 'LMS monthly bundle', amount: 9900, currency: 'INR' } });
    expect(response.statusCode).toBe(200);
    const plan = response.json();
    expect(plan).toEqual({
      id: expect.stringMatching(ID('plan')),
      entity: 'plan',
      interval: 1,
      period: 'monthly',
      item: {
        id: expect.stringMatching(ID('item')),
        active: true,
        name: 'LMS monthly bundle',
        description: null,
        amount: 9900,
        unit_amount: 9900,
        currency: 'INR',
        type: 'plan',
        created_at: plan.created_at,
        updated_at: plan.created_at,
      },
      notes: [],
      created_at: expect.any(Number),
    });
    expect(plan.created_at).toBeGreaterThanOrEqual(before);
    expect(plan.created_at).toBeLessThanOrEqual(nowSeconds());
  });

  it('takes a form body too', async () => {
    const response = await call('POST', '/plans', 'period=monthly&interval=1&item[name]=Gold&item[amount]=19900&item[currency]=INR', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ period: 'monthly', interval: 1, item: { name: 'Gold', amount: 19900 } });
  });

  it.each([
    [{ amount: 99 }, 'The amount must be at least INR 1.00.', 'amount'],
    [{ amount: 100.5 }, 'The amount must be an integer.', 'amount'],
    [{ amount: undefined }, 'The amount field is required.', 'amount'],
    [{ name: undefined }, 'The name field is required.', 'name'],
    [{ currency: 'USD' }, 'The sandbox accepts INR only.', 'currency'],
  ])('refuses an item with %o', async (change, description, field) => {
    const item = { name: 'Bundle', amount: 9900, currency: 'INR', ...change };
    const response = await call('POST', '/plans', { period: 'monthly', interval: 1, item });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(errorBody(description, { field }));
  });

  it('refuses a plan without an item, or with an unknown period', async () => {
    const noItem = await call('POST', '/plans', { period: 'monthly', interval: 1 });
    expect(noItem.statusCode).toBe(400);
    expect(noItem.json()).toEqual(errorBody('The item field is required.', { field: 'item' }));
    const badPeriod = await call('POST', '/plans', { period: 'hourly', interval: 1, item: { name: 'x', amount: 100, currency: 'INR' } });
    expect(badPeriod.json().error).toMatchObject({ field: 'period', reason: 'input_validation_failed' });
  });

  it('refuses a body that is not JSON, in the same error shape', async () => {
    const response = await call('POST', '/plans', '{"period":', { 'content-type': 'application/json' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'BAD_REQUEST_ERROR', description: expect.any(String), metadata: {} });
  });
});

describe('subscriptions', () => {
  it('creates one in created status, with the fields Razorpay sends', async () => {
    const plan = await newPlan();
    const before = nowSeconds();
    const response = await call('POST', '/subscriptions', { plan_id: plan.id, total_count: 12, customer_notify: 1, notes: { userId: 'u-1' } });
    expect(response.statusCode, response.body).toBe(200);
    const subscription = response.json();
    expect(subscription).toEqual({
      id: expect.stringMatching(ID('sub')),
      entity: 'subscription',
      plan_id: plan.id,
      status: 'created',
      current_start: null,
      current_end: null,
      ended_at: null,
      quantity: 1,
      notes: { userId: 'u-1' },
      charge_at: subscription.created_at,
      start_at: subscription.created_at,
      end_at: expect.any(Number),
      paid_count: 0,
      remaining_count: 12,
      total_count: 12,
      short_url: `${t.config.publicUrl}/sandbox/pay/${subscription.id}`,
      has_scheduled_changes: false,
      change_scheduled_at: null,
      created_at: expect.any(Number),
    });
    expect(subscription.created_at).toBeGreaterThanOrEqual(before);
    // Twelve monthly cycles: the last ends about a year on.
    expect(subscription.end_at - subscription.created_at).toBeGreaterThanOrEqual(365 * 24 * 3600);
    expect(subscription.end_at - subscription.created_at).toBeLessThanOrEqual(366 * 24 * 3600);
    expect(await getSubscription(subscription.id)).toEqual(subscription);
  });

  it('sends empty notes as [], as Razorpay does', async () => {
    expect((await newSubscription()).notes).toEqual([]);
  });

  it('refuses an unknown plan, a missing or zero total_count, and a quantity above one', async () => {
    const unknown = await call('POST', '/subscriptions', { plan_id: 'plan_00000000000000', total_count: 12 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual(errorBody('The id provided does not exist', { field: 'plan_id' }));
    const plan = await newPlan();
    for (const body of [{ plan_id: plan.id }, { plan_id: plan.id, total_count: 0 }, { plan_id: plan.id, total_count: 12, quantity: 2 }]) {
      const response = await call('POST', '/subscriptions', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error).toMatchObject({ reason: 'input_validation_failed', field: expect.stringMatching(/total_count|quantity/) });
    }
  });

  it('answers an unknown id with "The id provided does not exist"', async () => {
    for (const [method, path] of [
      ['GET', '/subscriptions/sub_00000000000000'],
      ['POST', '/subscriptions/sub_00000000000000/cancel'],
      ['POST', '/subscriptions/sub_00000000000000/charge'],
      ['POST', '/subscriptions/sub_00000000000000/fail'],
      ['POST', '/subscriptions/sub_00000000000000/halt'],
      ['GET', '/payments/pay_00000000000000'],
      ['POST', '/payments/pay_00000000000000/refund'],
      ['GET', '/payments/pay_00000000000000/refunds'],
    ] as [Method, string][]) {
      const response = await call(method, path);
      expect(response.statusCode, path).toBe(400);
      expect(response.json()).toEqual(errorBody('The id provided does not exist'));
    }
    const payUnknown = await pay('sub_00000000000000', '4111111111111111');
    expect(payUnknown.json()).toEqual(errorBody('The id provided does not exist'));
  });

  it('answers an unknown URL in the same shape', async () => {
    const response = await call('GET', '/no-such-thing');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(errorBody('The requested URL was not found on the server.'));
  });
});

describe('paying, cancelling', () => {
  it('activates a paid subscription for one calendar month and answers a signature Checkout would', async () => {
    const subscription = await newSubscription();
    const before = nowSeconds();
    const response = await pay(subscription.id, '4111 1111 1111 1111');
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json();
    expect(answer).toEqual({
      razorpay_payment_id: expect.stringMatching(ID('pay')),
      razorpay_subscription_id: subscription.id,
      razorpay_signature: createHmac('sha256', t.config.payments.keySecret).update(`${answer.razorpay_payment_id}|${subscription.id}`).digest('hex'),
    });

    const active = await getSubscription(subscription.id);
    expect(active).toMatchObject({ status: 'active', paid_count: 1, remaining_count: 11, charge_at: active.current_end });
    expect(active.current_start).toBeGreaterThanOrEqual(before);
    expect(active.current_start).toBeLessThanOrEqual(nowSeconds());
    const start = new Date(active.current_start! * 1000);
    const end = new Date(active.current_end! * 1000);
    const daysInNextMonth = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 2, 0)).getUTCDate();
    expect(end.getUTCMonth()).toBe((start.getUTCMonth() + 1) % 12);
    expect(end.getUTCDate()).toBe(Math.min(start.getUTCDate(), daysInNextMonth));
    expect(end.toISOString().slice(10)).toBe(start.toISOString().slice(10));

    const payment = await getPayment(answer.razorpay_payment_id);
    expect(payment).toEqual({
      id: answer.razorpay_payment_id,
      entity: 'payment',
      amount: 9900,
      currency: 'INR',
      status: 'captured',
      method: 'card',
      captured: true,
      amount_refunded: 0,
      refund_status: null,
      description: null,
      notes: [],
      error_code: null,
      error_description: null,
      error_source: null,
      error_step: null,
      error_reason: null,
      // The card is saved as the subscription's mandate.
      token_id: expect.stringMatching(ID('token')),
      created_at: active.current_start,
    });
  });

  it('delivers subscription.activated, then subscription.charged with the payment, after answering', async () => {
    const { subscriptionId, paymentId } = await paidSubscription();
    await vi.waitFor(() => expect(deliveriesFor(subscriptionId)).toHaveLength(2), ANSWERED);
    const [activated, charged] = deliveriesFor(subscriptionId);
    expect(activated).toMatchObject({ event: 'subscription.activated', contains: ['subscription'] });
    expect(activated.payload.payment).toBeUndefined();
    expect(charged).toMatchObject({ event: 'subscription.charged', contains: ['subscription', 'payment'] });
    expect(charged.payload.subscription.entity).toEqual(await getSubscription(subscriptionId));
    expect(charged.payload.payment.entity).toEqual(await getPayment(paymentId));
  });

  it('refuses to take a second first payment', async () => {
    const { subscriptionId } = await paidSubscription();
    const again = await pay(subscriptionId, '4111111111111111');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(stateErrorBody('Subscription cannot be paid for in active status.'));
  });

  it('records a declined card as a failed payment and answers the decline', async () => {
    const subscription = await newSubscription();
    const response = await pay(subscription.id, '4000 0000 0000 0002');
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error).toEqual({
      code: 'BAD_REQUEST_ERROR',
      description: expect.stringMatching(/^Your payment has been declined by your bank/),
      source: 'bank',
      step: 'payment_authorization',
      reason: 'payment_declined',
      metadata: { payment_id: expect.stringMatching(ID('pay')) },
    });
    expect(await getPayment(error.metadata.payment_id)).toMatchObject({
      status: 'failed',
      captured: false,
      amount: 9900,
      error_code: 'BAD_REQUEST_ERROR',
      error_description: error.description,
      error_reason: 'payment_declined',
    });
    expect(await getSubscription(subscription.id)).toMatchObject({ status: 'created', paid_count: 0 });
    const refund = await call('POST', `/payments/${error.metadata.payment_id}/refund`);
    expect(refund.statusCode).toBe(400);
    expect(refund.json()).toEqual(stateErrorBody('The payment status should be captured for action to be taken'));
  });

  it.each([['4242 4242 4242 4242'], ['4111'], [''], [4111111111111111], [undefined]])('refuses the card number %j, recording nothing', async (card) => {
    const subscription = await newSubscription();
    const before = await rowCount(t.database, sandboxPayments);
    const response = await pay(subscription.id, card);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(errorBody('Your card number is invalid', { field: 'card_number' }));
    expect(await rowCount(t.database, sandboxPayments)).toBe(before);
  });

  it('cancels at once, and refuses to cancel again', async () => {
    const { subscriptionId } = await paidSubscription();
    const before = nowSeconds();
    const response = await call('POST', `/subscriptions/${subscriptionId}/cancel`, { cancel_at_cycle_end: 0 });
    expect(response.statusCode, response.body).toBe(200);
    const cancelled = response.json();
    expect(cancelled).toMatchObject({ id: subscriptionId, status: 'cancelled', charge_at: null });
    expect(cancelled.ended_at).toBeGreaterThanOrEqual(before);
    expect(await getSubscription(subscriptionId)).toEqual(cancelled);

    const again = await call('POST', `/subscriptions/${subscriptionId}/cancel`, { cancel_at_cycle_end: 0 });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(stateErrorBody('Subscription is not cancellable in cancelled status.'));
  });

  it('takes an empty JSON body, an empty form body or none at all for a cancellation', async () => {
    const bodies: [string | undefined, Record<string, string>][] = [
      ['', { 'content-type': 'application/json' }],
      ['', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['cancel_at_cycle_end=0', { 'content-type': 'application/x-www-form-urlencoded' }],
      [undefined, {}],
    ];
    for (const [payload, headers] of bodies) {
      const subscription = await newSubscription();
      const response = await call('POST', `/subscriptions/${subscription.id}/cancel`, payload, headers);
      expect(response.statusCode, `${JSON.stringify(payload)} ${response.body}`).toBe(200);
      expect(response.json().status).toBe('cancelled');
    }
  });

  it('cancels at the end of the cycle: it stays active with no charge to come, and the cycle boundary ends it', async () => {
    const { subscriptionId } = await paidSubscription();
    await vi.waitFor(() => expect(deliveriesFor(subscriptionId)).toHaveLength(2), ANSWERED);
    const paid = await getSubscription(subscriptionId);
    const response = await call('POST', `/subscriptions/${subscriptionId}/cancel`, { cancel_at_cycle_end: 1 });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ status: 'active', charge_at: null, current_end: paid.current_end, ended_at: null });
    // Asked again, nothing changes.
    expect(
      (await call('POST', `/subscriptions/${subscriptionId}/cancel`, 'cancel_at_cycle_end=1', { 'content-type': 'application/x-www-form-urlencoded' }))
        .statusCode,
    ).toBe(200);

    const boundary = await call('POST', `/subscriptions/${subscriptionId}/charge`);
    expect(boundary.statusCode, boundary.body).toBe(200);
    expect(boundary.json().payment).toBeUndefined();
    expect(boundary.json().subscription).toMatchObject({ status: 'cancelled', paid_count: 1 });
    expect(deliveriesFor(subscriptionId).at(-1)).toMatchObject({ event: 'subscription.cancelled' });
  });

  it('takes a later start_at: Checkout authorises ₹5 and refunds it, the first charge comes at the start', async () => {
    const startAt = nowSeconds() + 10 * 24 * 3600;
    const subscription = await newSubscription({ start_at: startAt });
    expect(subscription).toMatchObject({ status: 'created', start_at: startAt, charge_at: startAt });
    const paid = await pay(subscription.id, '4111 1111 1111 1111');
    expect(paid.statusCode, paid.body).toBe(200);
    const authorisation = await getPayment(paid.json().razorpay_payment_id);
    expect(authorisation).toMatchObject({ amount: 500, status: 'refunded', amount_refunded: 500 });
    expect(paid.json().razorpay_signature).toBe(subscriptionPaymentSignature(t.config.payments.keySecret, authorisation.id, subscription.id));
    expect(await getSubscription(subscription.id)).toMatchObject({ status: 'authenticated', paid_count: 0, current_end: null, charge_at: startAt });
    await vi.waitFor(() => expect(deliveriesFor(subscription.id).map((envelope) => envelope.event)).toEqual(['subscription.authenticated']), ANSWERED);

    const first = await call('POST', `/subscriptions/${subscription.id}/charge`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().subscription).toMatchObject({ status: 'active', paid_count: 1, current_start: startAt });
    expect(first.json().subscription.current_end).toBe(addMonths(new Date(startAt * 1000), 1).getTime() / 1000);
    expect(first.json().payment).toMatchObject({ status: 'captured', amount: 9900 });
    expect(deliveriesFor(subscription.id).map((envelope) => envelope.event)).toEqual([
      'subscription.authenticated',
      'subscription.activated',
      'subscription.charged',
    ]);
  });

  it('refuses a start_at in the past', async () => {
    const plan = await newPlan();
    const response = await call('POST', '/subscriptions', { plan_id: plan.id, total_count: 12, start_at: nowSeconds() - 60 });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ field: 'start_at' });
  });

  it('refuses to take a payment for a cancelled subscription', async () => {
    const subscription = await newSubscription();
    await call('POST', `/subscriptions/${subscription.id}/cancel`);
    const response = await pay(subscription.id, '4111111111111111');
    expect(response.json()).toEqual(stateErrorBody('Subscription cannot be paid for in cancelled status.'));
  });
});

describe('refunds', () => {
  it('refunds in full when no amount is given, then refuses a second refund', async () => {
    const { paymentId } = await paidSubscription();
    const before = nowSeconds();
    const response = await call('POST', `/payments/${paymentId}/refund`, { speed: 'normal' });
    expect(response.statusCode, response.body).toBe(200);
    const refund = response.json();
    expect(refund).toEqual({
      id: expect.stringMatching(ID('rfnd')),
      entity: 'refund',
      amount: 9900,
      currency: 'INR',
      payment_id: paymentId,
      notes: [],
      receipt: null,
      status: 'processed',
      created_at: expect.any(Number),
    });
    expect(refund.created_at).toBeGreaterThanOrEqual(before);
    expect(await getPayment(paymentId)).toMatchObject({ status: 'refunded', captured: true, amount_refunded: 9900, refund_status: 'full' });

    const again = await call('POST', `/payments/${paymentId}/refund`);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(stateErrorBody('The payment has been fully refunded already'));
  });

  it('refunds part of a payment, never more than is left', async () => {
    const { paymentId } = await paidSubscription();
    const part = await call('POST', `/payments/${paymentId}/refund`, { amount: 4000 });
    expect(part.json()).toMatchObject({ amount: 4000, status: 'processed' });
    expect(await getPayment(paymentId)).toMatchObject({ status: 'captured', amount_refunded: 4000, refund_status: 'partial' });

    const tooMuch = await call('POST', `/payments/${paymentId}/refund`, { amount: 6000 });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json()).toEqual(errorBody('The total refund amount is greater than the refund payment amount', { field: 'amount' }));
    const overCaptured = await call('POST', `/payments/${paymentId}/refund`, { amount: 10000 });
    expect(overCaptured.json()).toEqual(errorBody('The refund amount provided is greater than amount captured', { field: 'amount' }));
    const tiny = await call('POST', `/payments/${paymentId}/refund`, { amount: 50 });
    expect(tiny.json()).toEqual(errorBody('The amount must be at least INR 1.00.', { field: 'amount' }));

    const rest = await call('POST', `/payments/${paymentId}/refund`);
    expect(rest.json()).toMatchObject({ amount: 5900 });
    expect(await getPayment(paymentId)).toMatchObject({ status: 'refunded', amount_refunded: 9900, refund_status: 'full' });
  });

  it('keeps a refund’s notes and receipt, and lists a payment’s refunds', async () => {
    const { paymentId } = await paidSubscription();
    const first = await call('POST', `/payments/${paymentId}/refund`, { amount: 1000, notes: { refund_key: 'k-1' }, receipt: 'r-1' });
    expect(first.json()).toMatchObject({ amount: 1000, notes: { refund_key: 'k-1' }, receipt: 'r-1' });
    await call('POST', `/payments/${paymentId}/refund`, { amount: 2000 });
    const listed = await call('GET', `/payments/${paymentId}/refunds`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json()).toMatchObject({
      entity: 'collection',
      count: 2,
      items: [
        { id: first.json().id, amount: 1000, notes: { refund_key: 'k-1' }, receipt: 'r-1', payment_id: paymentId },
        { amount: 2000, notes: [], receipt: null },
      ],
    });
  });
});

describe('webhook delivery', () => {
  it("sends Razorpay's envelope, signed over the exact bytes with the webhook secret", async () => {
    const { subscriptionId, paymentId } = await paidSubscription();
    const subscription = await getSubscription(subscriptionId);
    const payment = await getPayment(paymentId);
    const before = nowSeconds();
    const response = await deliverSandboxWebhook(
      t.app,
      { event: 'subscription.charged', subscription, payment, eventId: 'evt_Test000000001' },
      '/test-only/webhook',
    );
    expect(response.statusCode).toBe(200);

    const delivery = received.at(-1)!;
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['x-razorpay-event-id']).toBe('evt_Test000000001');
    expect(delivery.headers['x-razorpay-signature']).toBe(createHmac('sha256', t.config.payments.webhookSecret).update(delivery.body).digest('hex'));
    expect(delivery.headers['x-razorpay-signature']).not.toBe(createHmac('sha256', t.config.payments.keySecret).update(delivery.body).digest('hex'));
    const envelope = envelopeOf(delivery);
    expect(envelope).toEqual({
      entity: 'event',
      account_id: expect.stringMatching(ID('acc')),
      event: 'subscription.charged',
      contains: ['subscription', 'payment'],
      payload: { subscription: { entity: subscription }, payment: { entity: payment } },
      created_at: expect.any(Number),
    });
    expect(envelope.created_at).toBeGreaterThanOrEqual(before);
  });

  it('makes up an event id when none is given, a new one each time', async () => {
    const subscription = await newSubscription();
    await deliverSandboxWebhook(t.app, { event: 'subscription.updated', subscription }, '/test-only/webhook');
    await deliverSandboxWebhook(t.app, { event: 'subscription.updated', subscription }, '/test-only/webhook');
    const [first, second] = received.slice(-2).map((delivery) => delivery.headers['x-razorpay-event-id']);
    expect(first).toMatch(ID('evt'));
    expect(second).toMatch(ID('evt'));
    expect(first).not.toBe(second);
    expect(envelopeOf(received.at(-1)!)).toMatchObject({ contains: ['subscription'], payload: { subscription: { entity: subscription } } });
  });

  it("delivers to the app's receiver by default", async () => {
    const subscription = await newSubscription();
    const response = await deliverSandboxWebhook(t.app, { event: 'subscription.pending', subscription });
    expect(response.statusCode).toBeLessThan(500);
    expect(deliveriesFor(subscription.id).map((envelope) => envelope.event)).toEqual(['subscription.pending']);
  });
});

describe('plans beyond one monthly price', () => {
  async function yearlyPlan(amount: number) {
    const response = await call('POST', '/plans', { period: 'yearly', interval: 1, item: { name: 'LMS yearly bundle', amount, currency: 'INR' } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { id: string };
  }

  it('runs a yearly plan a year at a time', async () => {
    const plan = await yearlyPlan(99900);
    const subscription = (await call('POST', '/subscriptions', { plan_id: plan.id, total_count: 10 })).json();
    const paid = await pay(subscription.id, '4111 1111 1111 1111');
    const active = await getSubscription(paid.json().razorpay_subscription_id);
    const start = new Date(active.current_start! * 1000);
    const end = new Date(active.current_end! * 1000);
    expect(end.getUTCFullYear()).toBe(start.getUTCFullYear() + 1);
    expect((await getPayment(paid.json().razorpay_payment_id)).amount).toBe(99900);
  });

  it('moves a subscription to another plan from its next cycle only: the next charge takes the new amount, with subscription.updated first', async () => {
    const { subscriptionId } = await paidSubscription();
    const cheaper = await newPlan(4950);
    const now = await call('PATCH', `/subscriptions/${subscriptionId}`, { plan_id: cheaper.id, schedule_change_at: 'now' });
    expect(now.statusCode).toBe(400);
    expect(now.json()).toEqual(errorBody("Can't update subscription immediately when card mandate is applicable", { field: 'schedule_change_at' }));
    expect((await call('PATCH', `/subscriptions/${subscriptionId}`, { plan_id: 'plan_00000000000000', schedule_change_at: 'cycle_end' })).statusCode).toBe(400);

    const scheduled = await call('PATCH', `/subscriptions/${subscriptionId}`, { plan_id: cheaper.id, schedule_change_at: 'cycle_end', customer_notify: 0 });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    const entity = scheduled.json() as SubscriptionEntity;
    expect(entity).toMatchObject({ has_scheduled_changes: true, change_scheduled_at: entity.current_end });
    expect(entity.plan_id).not.toBe(cheaper.id);

    const charged = await call('POST', `/subscriptions/${subscriptionId}/charge`);
    expect(charged.json()).toMatchObject({ subscription: { plan_id: cheaper.id, has_scheduled_changes: false }, payment: { amount: 4950 } });
    const events = deliveriesFor(subscriptionId).map((envelope) => envelope.event);
    expect(events.slice(-2)).toEqual(['subscription.updated', 'subscription.charged']);
  });

  it('updates only authenticated or active subscriptions', async () => {
    const subscription = await newSubscription();
    const plan = await newPlan(5000);
    const answer = await call('PATCH', `/subscriptions/${subscription.id}`, { plan_id: plan.id, schedule_change_at: 'cycle_end' });
    expect(answer.json()).toEqual(stateErrorBody('Subscription cannot be updated in created status.'));
  });

  it('saves the card as the mandate: every payment carries its token, and the token leads to the card’s network reference', async () => {
    const { subscriptionId, paymentId } = await paidSubscription();
    const first = await getPayment(paymentId);
    expect(first.token_id).toMatch(ID('token'));
    const renewal = (await call('POST', `/subscriptions/${subscriptionId}/charge`)).json();
    expect(renewal.payment.token_id).toBe(first.token_id);

    const byToken = await call('POST', '/cards/fingerprints', { token: first.token_id });
    expect(byToken.json()).toEqual({ network: 'Visa', payment_account_reference: expect.stringMatching(/^V001[0-9A-Z]{25}$/), network_reference_id: null });
    const byNumber = await call('POST', '/cards/fingerprints', { number: '4111111111111111' });
    expect(byNumber.json()).toEqual(byToken.json());
    // The other card that pays has a reference of its own; so does a new checkout with the same card: the same one.
    const other = await newSubscription();
    const paidOther = await pay(other.id, '5267 3181 8797 5449');
    expect(paidOther.statusCode).toBe(200);
    const otherToken = (await getPayment(paidOther.json().razorpay_payment_id)).token_id;
    const otherReference = (await call('POST', '/cards/fingerprints', { token: otherToken })).json();
    expect(otherReference).toMatchObject({ network: 'Mastercard', payment_account_reference: expect.stringMatching(/^M001/) });
    expect(otherReference.payment_account_reference).not.toBe(byToken.json().payment_account_reference);
    expect((await call('POST', '/cards/fingerprints', { token: 'token_00000000000000' })).statusCode).toBe(400);
    expect((await call('POST', '/cards/fingerprints', {})).statusCode).toBe(400);
  });
});

describe('renewals for tests and demos', () => {
  it('charges the next cycle, delivering subscription.charged before answering', async () => {
    const { subscriptionId } = await paidSubscription();
    const first = await getSubscription(subscriptionId);
    await vi.waitFor(() => expect(deliveriesFor(subscriptionId)).toHaveLength(2), ANSWERED);

    const response = await call('POST', `/subscriptions/${subscriptionId}/charge`);
    expect(response.statusCode, response.body).toBe(200);
    const { subscription, payment, webhook } = response.json();
    expect(subscription).toMatchObject({ status: 'active', paid_count: 2, remaining_count: 10, current_start: first.current_end });
    expect(subscription.current_end).toBe(addMonths(new Date(first.current_end! * 1000), 1).getTime() / 1000);
    expect(payment).toMatchObject({ id: expect.stringMatching(ID('pay')), status: 'captured', amount: 9900 });
    expect(payment).toEqual(await getPayment(payment.id));
    expect(webhook).toEqual({ status: expect.any(Number) });

    const delivered = deliveriesFor(subscriptionId);
    expect(delivered).toHaveLength(3);
    expect(delivered[2]).toMatchObject({ event: 'subscription.charged', payload: { subscription: { entity: subscription }, payment: { entity: payment } } });
  });

  it('refuses to charge a subscription that was never paid', async () => {
    const subscription = await newSubscription();
    const response = await call('POST', `/subscriptions/${subscription.id}/charge`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(stateErrorBody('Subscription cannot be charged in created status.'));
  });

  it('halts, delivering subscription.halted before answering', async () => {
    const { subscriptionId } = await paidSubscription();
    await vi.waitFor(() => expect(deliveriesFor(subscriptionId)).toHaveLength(2), ANSWERED);
    const response = await call('POST', `/subscriptions/${subscriptionId}/halt`);
    expect(response.statusCode, response.body).toBe(200);
    const { subscription, webhook } = response.json();
    expect(subscription).toMatchObject({ id: subscriptionId, status: 'halted', charge_at: null });
    expect(webhook).toEqual({ status: expect.any(Number) });
    expect(deliveriesFor(subscriptionId).at(-1)).toMatchObject({ event: 'subscription.halted', payload: { subscription: { entity: subscription } } });

    const again = await call('POST', `/subscriptions/${subscriptionId}/halt`);
    expect(again.json()).toEqual(stateErrorBody('Subscription cannot be halted in halted status.'));
    const charge = await call('POST', `/subscriptions/${subscriptionId}/charge`);
    expect(charge.json()).toEqual(stateErrorBody('Subscription cannot be charged in halted status.'));
  });
});

// ── Checkout, run against the app in node:vm with just enough of a DOM ──

interface FakeEvent {
  type: string;
  key?: string;
  shiftKey?: boolean;
  inputType?: string;
  defaultPrevented: boolean;
  preventDefault(): void;
}
const event = (type: string, fields: Partial<FakeEvent> = {}): FakeEvent => ({
  type,
  defaultPrevented: false,
  preventDefault() {
    this.defaultPrevented = true;
  },
  ...fields,
});

class FakeElement {
  children: FakeElement[] = [];
  parentNode: FakeElement | null = null;
  attributes = new Map<string, string>();
  style: Record<string, string> = {};
  listeners = new Map<string, ((event: FakeEvent) => void)[]>();
  textContent = '';
  value = '';
  disabled = false;
  readOnly = false;
  hidden = false;
  selectionStart: number | undefined;
  constructor(
    readonly tagName: string,
    readonly document: FakeDocument,
  ) {}
  setAttribute(name: string, value: string) {
    this.attributes.set(name, String(value));
  }
  getAttribute(name: string) {
    return this.attributes.get(name) ?? null;
  }
  appendChild(child: FakeElement) {
    child.parentNode = this;
    this.children.push(child);
    return child;
  }
  remove() {
    if (this.parentNode) this.parentNode.children = this.parentNode.children.filter((child) => child !== this);
    this.parentNode = null;
  }
  addEventListener(type: string, listener: (event: FakeEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  /** Bubbles up to the root, as DOM events do (blur does not bubble, but nothing above listens for it). */
  dispatch(fired: FakeEvent) {
    for (const listener of this.listeners.get(fired.type) ?? []) listener(fired);
    this.parentNode?.dispatch(fired);
    return fired;
  }
  setSelectionRange(start: number) {
    this.selectionStart = start;
  }
  focus() {
    const previous = this.document.activeElement;
    this.document.activeElement = this;
    if (previous && previous !== this) previous.dispatch(event('blur'));
  }
  find(test: (element: FakeElement) => boolean): FakeElement | undefined {
    for (const child of this.children) {
      if (test(child)) return child;
      const found = child.find(test);
      if (found) return found;
    }
    return undefined;
  }
  findByAttribute(name: string, value: string) {
    return this.find((element) => element.getAttribute(name) === value);
  }
}

class FakeDocument {
  body = new FakeElement('body', this);
  activeElement: FakeElement | null = this.body;
  currentScript = null;
  createElement(tag: string) {
    return new FakeElement(tag, this);
  }
}

interface RazorpayLike {
  on(event: string, handler: (response: { error: Record<string, unknown> }) => void): RazorpayLike;
  open(): RazorpayLike;
}
type RazorpayConstructor = new (options: Record<string, unknown>) => RazorpayLike;
type FetchInit = { method?: string; credentials: string; headers?: Record<string, string>; body?: string };

async function loadCheckout() {
  const response = await t.app.inject({ url: '/sandbox/checkout.js' });
  const document = new FakeDocument();
  const requests: { url: string; init: FetchInit }[] = [];
  const window: Record<string, unknown> = {
    document,
    setTimeout,
    fetch: async (url: string, init: FetchInit) => {
      requests.push({ url, init });
      const answer = await t.app.inject({ method: (init.method ?? 'GET') as Method, url, headers: init.headers, payload: init.body });
      return { ok: answer.statusCode >= 200 && answer.statusCode < 300, status: answer.statusCode, json: async () => answer.json() };
    },
  };
  window.window = window;
  vm.runInNewContext(response.body, window);
  const opener = document.body.appendChild(document.createElement('button'));
  opener.focus();
  const payments = () => requests.filter((request) => request.url.endsWith('/pay'));
  return { Razorpay: window.Razorpay as RazorpayConstructor, document, opener, requests, payments };
}

/** A field of the card form: its input, its label and what the input names as its description. */
function fieldParts(dialog: FakeElement, id: string) {
  const input = dialog.findByAttribute('id', id)!;
  const described = (input.getAttribute('aria-describedby') ?? '').split(' ');
  return {
    input,
    label: dialog.find((element) => element.tagName === 'label' && element.getAttribute('for') === id)!.textContent,
    described,
    message: () => dialog.findByAttribute('id', described[0]!)!.textContent,
    invalid: () => input.getAttribute('aria-invalid'),
    /** As a user types: the value (with the caret where the browser leaves it), then the input event. */
    type(value: string, inputType = 'insertText', caret = value.length) {
      input.focus();
      input.value = value;
      input.selectionStart = caret;
      input.dispatch(event('input', { inputType }));
    },
  };
}

function modalParts(document: FakeDocument) {
  const dialog = document.body.findByAttribute('role', 'dialog');
  if (!dialog) return undefined;
  const card = fieldParts(dialog, 'rzp-sandbox-card');
  return {
    dialog,
    input: card.input,
    card,
    expiry: fieldParts(dialog, 'rzp-sandbox-expiry'),
    cvc: fieldParts(dialog, 'rzp-sandbox-cvc'),
    form: dialog.find((element) => element.tagName === 'form')!,
    heading: dialog.find((element) => element.tagName === 'h2')!,
    alert: dialog.findByAttribute('role', 'alert')!,
    close: dialog.findByAttribute('aria-label', 'Close')!,
    payButton: dialog.find((element) => element.tagName === 'button' && element.getAttribute('type') === 'submit')!,
    text: () => collectText(dialog),
  };
}
const collectText = (element: FakeElement): string => [element.textContent, ...element.children.map(collectText)].join(' ');

/** A month from now as MM/YY: an expiry date that is good. */
function futureExpiry() {
  const date = new Date();
  date.setDate(1);
  date.setMonth(date.getMonth() + 1);
  return `${String(date.getMonth() + 1).padStart(2, '0')}/${String(date.getFullYear() % 100).padStart(2, '0')}`;
}

describe('/sandbox/checkout.js', () => {
  it('is served as JavaScript that defines Razorpay, with nothing the CSP would block', async () => {
    const response = await t.app.inject({ url: '/sandbox/checkout.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.body).toContain('window.Razorpay = Razorpay');
    expect(response.body).not.toMatch(/innerHTML|eval\(|new Function|\son[a-z]+=/);
    const { Razorpay } = await loadCheckout();
    expect(typeof Razorpay).toBe('function');
    expect(() => new Razorpay({ subscription_id: 'sub_x' })).toThrow(/key/);
  });

  it('opens an accessible dialog with the amount on Pay, reports a decline through payment.failed, then pays', async () => {
    const subscription = await newSubscription({}, 14900);
    const { Razorpay, document, opener, requests, payments } = await loadCheckout();
    const paid: Record<string, string>[] = [];
    const failures: { error: Record<string, unknown> }[] = [];
    let dismissed = 0;
    const checkout = new Razorpay({
      key: t.config.payments.keyId,
      subscription_id: subscription.id,
      name: 'LMS',
      description: 'Monthly bundle',
      handler: (response: Record<string, string>) => paid.push(response),
      modal: { ondismiss: () => dismissed++ },
    });
    checkout.on('payment.failed', (response) => failures.push(response));
    checkout.open();

    const modal = modalParts(document)!;
    expect(modal.dialog.getAttribute('aria-modal')).toBe('true');
    expect(modal.heading.textContent).toBe('LMS');
    expect(modal.dialog.getAttribute('aria-labelledby')).toBe(modal.heading.getAttribute('id'));
    expect([modal.card.label, modal.expiry.label, modal.cvc.label]).toEqual(['Card number', 'Expiry (MM/YY)', 'CVC']);
    for (const part of [modal.card, modal.expiry, modal.cvc]) {
      expect(part.invalid()).toBe('false');
      expect(part.message()).toBe('');
    }
    // The card number's description carries the test cards as well as its message.
    expect(modal.card.described).toEqual(['rzp-sandbox-card-error', 'rzp-sandbox-hint']);
    expect(modal.text()).toContain('Monthly bundle');
    expect(modal.text()).toContain('4111 1111 1111 1111');
    expect(modal.text()).toContain('4000 0000 0000 0002');
    expect(document.activeElement).toBe(modal.input);
    // The amount comes from the subscription's plan, as Razorpay's Checkout learns it.
    await vi.waitFor(() => expect(modal.payButton.textContent).toBe('Pay ₹149'), ANSWERED);
    expect(requests[0]).toMatchObject({ url: `/sandbox/v1/subscriptions/${subscription.id}/checkout`, init: { credentials: 'same-origin' } });

    modal.card.type('4000 0000 0000 0002');
    modal.expiry.type(futureExpiry());
    modal.cvc.type('123');
    expect(modal.form.dispatch(event('submit')).defaultPrevented).toBe(true);
    await vi.waitFor(() => expect(failures).toHaveLength(1), ANSWERED);
    expect(failures[0]!.error).toMatchObject({ reason: 'payment_declined', metadata: { payment_id: expect.stringMatching(ID('pay')) } });
    expect(modal.alert.textContent).toBe(failures[0]!.error.description);
    expect(modalParts(document)).toBeDefined();
    expect(modal.payButton.textContent).toBe('Pay ₹149');
    // Only the card number leaves the page; the sandbox has no use for the expiry or the CVC.
    expect(payments()[0]).toMatchObject({
      url: `/sandbox/v1/subscriptions/${subscription.id}/pay`,
      init: {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ card_number: '4000 0000 0000 0002' }),
      },
    });

    modal.card.type('4111111111111111');
    expect(modal.input.value).toBe('4111 1111 1111 1111');
    modal.form.dispatch(event('submit'));
    await vi.waitFor(() => expect(paid).toHaveLength(1), ANSWERED);
    expect(paid[0]!.razorpay_subscription_id).toBe(subscription.id);
    expect(paid[0]!.razorpay_signature).toBe(subscriptionPaymentSignature(t.config.payments.keySecret, paid[0]!.razorpay_payment_id!, subscription.id));
    expect(modalParts(document)).toBeUndefined();
    expect(document.activeElement).toBe(opener);
    expect(dismissed).toBe(0);
    expect((await getSubscription(subscription.id)).status).toBe('active');
    expect((await getPayment(paid[0]!.razorpay_payment_id!)).amount).toBe(14900);
  });

  it('groups the card number in fours as it is typed, keeping the caret after the same digit', async () => {
    const { Razorpay, document } = await loadCheckout();
    new Razorpay({ key: 'k', subscription_id: 'sub_x' }).open();
    const { card } = modalParts(document)!;
    card.type('41111');
    expect(card.input.value).toBe('4111 1');
    expect(card.input.selectionStart).toBe(6);
    card.type('4111-1111 1111/11112222 33');
    expect(card.input.value).toBe('4111 1111 1111 1111 222'); // 19 digits at most
    // A digit typed into the middle: the groups move on, the caret stays after it.
    card.type('1234 56780 9012 3456', 'insertText', 10);
    expect(card.input.value).toBe('1234 5678 0901 2345 6');
    expect(card.input.selectionStart).toBe(11);
    // Backspace right after the space of "1234 |": the browser took the space; the digit before it goes instead.
    card.type('1234 5678 9012 3456');
    card.type('12345678 9012 3456', 'deleteContentBackward', 4);
    expect(card.input.value).toBe('1235 6789 0123 456');
    expect(card.input.selectionStart).toBe(3);
  });

  it('refuses a wrong card number, expiry or CVC inline, sending nothing', async () => {
    const subscription = await newSubscription();
    const { Razorpay, document, payments } = await loadCheckout();
    const failures: unknown[] = [];
    new Razorpay({ key: 'k', subscription_id: subscription.id }).on('payment.failed', (response) => failures.push(response)).open();
    const modal = modalParts(document)!;
    const { card, expiry, cvc } = modal;

    // Typing: a number is not judged before it could be whole; a whole one that fails Luhn at once.
    card.type('4111 1111 1111 111');
    expect([card.invalid(), card.message()]).toEqual(['false', '']);
    card.type('4111 1111 1111 1112');
    expect([card.invalid(), card.message()]).toEqual(['true', 'This card number is not valid: check the digits.']);
    card.type('4111 1111 1111 1111');
    expect([card.invalid(), card.message()]).toEqual(['false', '']);

    // Leaving a field judges it.
    card.type('4111 1111');
    expiry.type('13/30');
    expect(card.message()).toBe('This card number is too short: a card number has 12 to 19 digits.');
    cvc.type('12');
    expect([expiry.invalid(), expiry.message()]).toEqual(['true', 'Enter a month from 01 to 12.']);
    expiry.type('01/20');
    expect(expiry.message()).toBe('This card has expired.');
    expiry.type('4/');
    expect(expiry.input.value).toBe('04/');
    expiry.type('0430');
    expect(expiry.input.value).toBe('04/30');
    expect(expiry.message()).toBe('');

    // Pay: every wrong field says so, the first gets the focus, and nothing is sent.
    card.type('4111 1111 1111 1112');
    cvc.type('1a');
    expect(cvc.input.value).toBe('1');
    expiry.type('');
    modal.form.dispatch(event('submit'));
    expect(card.message()).toBe('This card number is not valid: check the digits.');
    expect(expiry.message()).toBe('Enter the expiry date as MM/YY.');
    expect([cvc.invalid(), cvc.message()]).toEqual(['true', 'Enter the 3 or 4 digit CVC.']);
    expect(document.activeElement).toBe(card.input);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(payments()).toHaveLength(0);
    expect(failures).toHaveLength(0);
    expect(modalParts(document)).toBeDefined();
    expect((await getSubscription(subscription.id)).status).toBe('created');
  });

  it('shows in the dialog a number the sandbox does not know (it passes Luhn), through payment.failed', async () => {
    const subscription = await newSubscription();
    const { Razorpay, document } = await loadCheckout();
    const failures: unknown[] = [];
    new Razorpay({ key: 'k', subscription_id: subscription.id }).on('payment.failed', (response) => failures.push(response)).open();
    const modal = modalParts(document)!;
    modal.card.type('5555 5555 5555 4444');
    modal.expiry.type(futureExpiry());
    modal.cvc.type('1234');
    modal.form.dispatch(event('submit'));
    await vi.waitFor(() => expect(modal.alert.textContent).toBe('Your card number is invalid'), ANSWERED);
    expect(failures).toHaveLength(1);
    expect(document.activeElement).toBe(modal.input);
  });

  it('shows the ₹5 card check of a subscription that starts later, and when the first charge comes', async () => {
    const startAt = nowSeconds() + 10 * 24 * 3600;
    const subscription = await newSubscription({ start_at: startAt });
    const { Razorpay, document } = await loadCheckout();
    new Razorpay({ key: 'k', subscription_id: subscription.id }).open();
    const modal = modalParts(document)!;
    await vi.waitFor(() => expect(modal.payButton.textContent).toBe('Pay ₹5'), ANSWERED);
    const first = new Date(startAt * 1000).toLocaleDateString('en-IN', { day: 'numeric', month: 'short', year: 'numeric' });
    expect(modal.text()).toContain(`₹5 checks your card and is refunded at once. ₹99 is charged from ${first}.`);
  });

  it('says just "Pay" when the subscription cannot be read', async () => {
    const { Razorpay, document, requests } = await loadCheckout();
    new Razorpay({ key: 'k', subscription_id: 'sub_00000000000000' }).open();
    const modal = modalParts(document)!;
    await vi.waitFor(() => expect(requests).toHaveLength(1), ANSWERED);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(modal.payButton.textContent).toBe('Pay');
  });

  it('closes on Escape or the close button, calling modal.ondismiss and giving focus back', async () => {
    for (const close of ['escape', 'button'] as const) {
      const { Razorpay, document, opener } = await loadCheckout();
      let dismissed = 0;
      new Razorpay({ key: 'k', subscription_id: 'sub_x', modal: { ondismiss: () => dismissed++ } }).open();
      const modal = modalParts(document)!;
      if (close === 'escape') modal.cvc.input.dispatch(event('keydown', { key: 'Escape' }));
      else modal.close.dispatch(event('click'));
      expect(modalParts(document)).toBeUndefined();
      expect(dismissed).toBe(1);
      expect(document.activeElement).toBe(opener);
    }
  });

  it('keeps Tab inside the dialog, in the order close, card, expiry, CVC, Pay', async () => {
    const { Razorpay, document } = await loadCheckout();
    new Razorpay({ key: 'k', subscription_id: 'sub_x' }).open();
    const modal = modalParts(document)!;
    const inputs = modal.form.children.flatMap(function all(element: FakeElement): FakeElement[] {
      return [...(element.tagName === 'input' || element.tagName === 'button' ? [element] : []), ...element.children.flatMap(all)];
    });
    expect(inputs.map((element) => element.getAttribute('id') ?? element.getAttribute('type'))).toEqual([
      'rzp-sandbox-card',
      'rzp-sandbox-expiry',
      'rzp-sandbox-cvc',
      'submit',
    ]);
    modal.payButton.focus();
    const forward = modal.payButton.dispatch(event('keydown', { key: 'Tab' }));
    expect(forward.defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(modal.close);
    modal.close.dispatch(event('keydown', { key: 'Tab', shiftKey: true }));
    expect(document.activeElement).toBe(modal.payButton);
  });
});

describe('GET /sandbox/v1/subscriptions/:id/checkout, what Checkout shows', () => {
  const summary = (id: string) => t.app.inject({ url: `/sandbox/v1/subscriptions/${id}/checkout` });

  it('answers, without API keys, the amount the payment takes now', async () => {
    const subscription = await newSubscription({}, 14900);
    const response = await summary(subscription.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      id: subscription.id,
      status: 'created',
      amount: 14900,
      currency: 'INR',
      authorisation: false,
      plan_amount: 14900,
      start_at: null,
    });
  });

  it('answers the ₹5 authorisation for a subscription that starts later', async () => {
    const startAt = nowSeconds() + 3 * 24 * 3600;
    const subscription = await newSubscription({ start_at: startAt });
    expect((await summary(subscription.id)).json()).toEqual({
      id: subscription.id,
      status: 'created',
      amount: 500,
      currency: 'INR',
      authorisation: true,
      plan_amount: 9900,
      start_at: startAt,
    });
  });

  it("answers an unknown id in Razorpay's error shape", async () => {
    const response = await summary('sub_00000000000000');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(errorBody('The id provided does not exist'));
  });
});

describe('/sandbox/pay/:id, the short_url', () => {
  it('is a page that loads the sandbox Checkout for the subscription', async () => {
    const subscription = await newSubscription();
    const response = await t.app.inject({ url: new URL(subscription.short_url).pathname });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain(`<script src="/sandbox/checkout.js" data-subscription-id="${subscription.id}"`);
    expect(response.body).toContain('INR 99.00 every month');
    expect(response.body).not.toMatch(/<script>|\son[a-z]+=/);
    expect((await t.app.inject({ url: '/sandbox/pay/sub_00000000000000' })).statusCode).toBe(404);
  });

  it('names the merchant as the site calls itself, as Razorpay’s page names the business', async () => {
    const subscription = await newSubscription();
    const open = async () => (await t.app.inject({ url: new URL(subscription.short_url).pathname })).body;
    expect(await open()).toContain('<h1>LMS</h1>');
    await writeSettings(t.app.ctx, [['name', 'Acme & Sons']], null);
    try {
      const page = await open();
      expect(page).toContain('<title>Acme &amp; Sons · Sandbox payment</title>');
      expect(page).toContain('<h1>Acme &amp; Sons</h1>');
      // The Checkout it opens shows the same name.
      expect(page).toContain('data-name="Acme &amp; Sons"');
    } finally {
      await writeSettings(t.app.ctx, [['name', null]], null);
    }
  });
});

describe('in razorpay mode', () => {
  it('is not mounted', async () => {
    const razorpay = await createTestApp({ env: { PAYMENTS_MODE: 'razorpay' } });
    try {
      // A 404, or the web app's index.html when web/dist is built: the SPA fallback answers unknown GETs.
      const script = await razorpay.app.inject({ url: '/sandbox/checkout.js' });
      expect(script.statusCode === 404 || script.headers['content-type']?.toString().startsWith('text/html')).toBe(true);
      expect(script.body).not.toContain('window.Razorpay');
      const plans = await razorpay.app.inject({
        method: 'POST',
        url: '/sandbox/v1/plans',
        headers: { authorization: basic(razorpay.config.payments.keyId, razorpay.config.payments.keySecret) },
        payload: {},
      });
      expect(plans.statusCode).toBe(404);
    } finally {
      await razorpay.close();
    }
  });
});
