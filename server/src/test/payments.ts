import { expect } from 'vitest';
import { webhookEvents } from '../db/schema.ts';
import type { TestApp } from './app.ts';
import { rowCount } from './db.ts';
import { signUp } from './http.ts';

/** What a test calls the API with: a method, a path under /api/v1, a session cookie, maybe a JSON body. */
export const apiCaller = (t: TestApp) => (method: 'GET' | 'POST' | 'PUT', url: string, cookie: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: { cookie }, ...(payload && { payload }) });

/** The sandbox's API keys, as the server calls it. */
export const sandboxAuth = (t: TestApp) => `Basic ${Buffer.from(`${t.config.payments.keyId}:${t.config.payments.keySecret}`).toString('base64')}`;

/** One of the sandbox's triggers on a subscription (charge, fail, halt), which delivers its webhooks before answering. */
export const sandboxTrigger = (t: TestApp, subscriptionId: string, trigger: 'charge' | 'fail' | 'halt') =>
  t.app.inject({ method: 'POST', url: `/sandbox/v1/subscriptions/${subscriptionId}/${trigger}`, headers: { authorization: sandboxAuth(t) } });

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
