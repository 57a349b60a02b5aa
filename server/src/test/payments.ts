import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { webhookEvents } from '../db/schema.ts';
import { deliverWebhook, type SandboxWebhook } from '../features/sandbox/webhooks.service.ts';
import type { TestApp } from './app.ts';
import { rowCount } from './db.ts';
import { signUp } from './http.ts';

/** What a test calls the API with: a method, a path under /api/v1, a session cookie, maybe a JSON body. */
export const apiCaller = (t: TestApp) => (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, cookie: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: { cookie }, ...(payload && { payload }) });

/** The sandbox's API keys, as the server calls it. */
export const sandboxAuth = (t: TestApp) => `Basic ${Buffer.from(`${t.config.payments.keyId}:${t.config.payments.keySecret}`).toString('base64')}`;

/** One of the sandbox's triggers on a subscription (charge, fail, halt), which delivers its webhooks before answering. */
export const sandboxTrigger = (t: TestApp, subscriptionId: string, trigger: 'charge' | 'fail' | 'halt') =>
  t.app.inject({ method: 'POST', url: `/sandbox/v1/subscriptions/${subscriptionId}/${trigger}`, headers: { authorization: sandboxAuth(t) } });

/** Delivers one sandbox webhook through the test's app, signed with its keys; to the app's receiver unless `target` says otherwise. */
export const deliverSandboxWebhook = (app: FastifyInstance, webhook: SandboxWebhook, target?: string) =>
  deliverWebhook({ inject: (request) => app.inject(request), payments: app.ctx.config.payments }, webhook, target);

/** The sandbox delivers Checkout's webhooks after answering, as Razorpay does; waits until `count` have been handled. */
export async function webhooksSettled(t: TestApp, count: number) {
  for (let i = 0; i < 100 && (await rowCount(t.database, webhookEvents)) < count; i++) await new Promise((r) => setTimeout(r, 20));
}

/** A new learner who pays with the success card and verifies, as Checkout would; the sandbox's webhooks handled too. */
export async function subscriber(t: TestApp, billingDetails?: object) {
  const api = apiCaller(t);
  const account = await signUp(t.app);
  if (billingDetails) expect((await api('PUT', '/billing/details', account.cookie, billingDetails)).statusCode).toBe(200);
  const events = await rowCount(t.database, webhookEvents);
  const subscriptionId = (await api('POST', '/payments/subscribe', account.cookie)).json().subscription_id as string;
  const paid = await t.app.inject({ method: 'POST', url: `/sandbox/v1/subscriptions/${subscriptionId}/pay`, payload: { card_number: '4111 1111 1111 1111' } });
  const verified = await api('POST', '/payments/verify', account.cookie, paid.json());
  expect(verified.statusCode, verified.body).toBe(200);
  await webhooksSettled(t, events + 2);
  return { ...account, subscriptionId, handler: paid.json() as Record<string, string> };
}

export const CARDS = { pays: '4111 1111 1111 1111', alsoPays: '5267 3181 8797 5449', declined: '4000 0000 0000 0002' } as const;

/** Pays a subscription in the sandbox's Checkout with `card` and verifies it, as the checkout page does; answers the verify's response. */
export async function payAndVerify(t: TestApp, cookie: string, subscriptionId: string, card: string = CARDS.pays) {
  const paid = await t.app.inject({ method: 'POST', url: `/sandbox/v1/subscriptions/${subscriptionId}/pay`, payload: { card_number: card } });
  expect(paid.statusCode, paid.body).toBe(200);
  return apiCaller(t)('POST', '/payments/verify', cookie, paid.json());
}

/** The sandbox's own record of a subscription (what Razorpay would answer). */
export async function providerSubscription(t: TestApp, subscriptionId: string) {
  const answer = await t.app.inject({ method: 'GET', url: `/sandbox/v1/subscriptions/${subscriptionId}`, headers: { authorization: sandboxAuth(t) } });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as { status: string; plan_id: string; has_scheduled_changes: boolean; current_end: number | null; start_at: number; paid_count: number };
}

/** A plan made by an admin through the API; answers it. */
export async function makePlan(t: TestApp, admin: string, plan: { name: string; interval: 'monthly' | 'yearly'; price: number; trialDays?: number }) {
  const answer = await apiCaller(t)('POST', '/admin/plans', admin, plan);
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().plan as { id: string; name: string; price: number };
}

/** A coupon made by an admin through the API; answers it. */
export async function makeCoupon(t: TestApp, admin: string, coupon: Record<string, unknown>) {
  const answer = await apiCaller(t)('POST', '/admin/coupons', admin, coupon);
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().coupon as { id: string; code: string; redemptions: number };
}
