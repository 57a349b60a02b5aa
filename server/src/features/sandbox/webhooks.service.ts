import type { FastifyBaseLogger, LightMyRequestResponse } from 'fastify';
import type { Context } from '../../context.ts';
import { hmacHex } from '../payments/signatures.ts';
import { toUnix } from '../payments/provider.ts';
import type { PaymentEntity, SubscriptionEntity } from './entities.ts';
import { accountIdOf, newId } from './ids.ts';

/**
 * Razorpay's webhooks, delivered the way Razorpay delivers them (signed with the webhook secret
 * over the exact body bytes, the event id in a header), but in-process: no port, no network.
 */

/** Where the sandbox delivers its webhooks by default: the app's own receiver. */
export const SANDBOX_WEBHOOK_TARGET = '/api/v1/payments/webhook';

/** Hands one request to this app's own routes and answers their response, as `app.inject` does. */
export type Inject = (request: { method: 'POST'; url: string; headers: Record<string, string>; payload: string }) => Promise<LightMyRequestResponse>;

/** What a delivery needs: a way to reach the receiver, and the keys a webhook is signed with and names its account by. */
export interface WebhookSender {
  inject: Inject;
  payments: Pick<Context['config']['payments'], 'keyId' | 'webhookSecret'>;
}

export type SandboxEvent =
  | 'subscription.authenticated'
  | 'subscription.activated'
  | 'subscription.charged'
  | 'subscription.pending'
  | 'subscription.halted'
  | 'subscription.cancelled'
  | 'subscription.completed'
  | 'subscription.updated';

export interface SandboxWebhook {
  event: SandboxEvent;
  subscription: SubscriptionEntity;
  payment?: PaymentEntity;
  /** Sent as x-razorpay-event-id; give the same one twice to imitate a redelivery. */
  eventId?: string;
}

/** Razorpay's webhook envelope; the event id travels in a header, not here. */
export function webhookEnvelope(accountId: string, { event, subscription, payment }: SandboxWebhook) {
  return {
    entity: 'event' as const,
    account_id: accountId,
    event,
    contains: payment ? ['subscription', 'payment'] : ['subscription'],
    payload: { subscription: { entity: subscription }, ...(payment && { payment: { entity: payment } }) },
    created_at: toUnix(new Date()),
  };
}

/** Delivers one webhook, signed as Razorpay signs it; answers the receiver's response. */
export async function deliverWebhook(
  { inject, payments }: WebhookSender,
  webhook: SandboxWebhook,
  target: string = SANDBOX_WEBHOOK_TARGET,
): Promise<LightMyRequestResponse> {
  const body = JSON.stringify(webhookEnvelope(accountIdOf(payments.keyId), webhook));
  return inject({
    method: 'POST',
    url: target,
    headers: {
      'content-type': 'application/json',
      'x-razorpay-signature': hmacHex(payments.webhookSecret, body),
      'x-razorpay-event-id': webhook.eventId ?? newId('evt'),
    },
    payload: body,
  });
}

/** Delivers webhooks one after the other, as a background job: failures are logged, never thrown. */
export async function deliverInBackground(sender: WebhookSender, webhooks: SandboxWebhook[], { log }: { log: Pick<FastifyBaseLogger, 'warn'> }): Promise<void> {
  for (const webhook of webhooks) {
    try {
      const response = await deliverWebhook(sender, webhook);
      if (response.statusCode >= 300) {
        log.warn({ event: webhook.event, status: response.statusCode }, 'sandbox webhook was not accepted');
      }
    } catch (error) {
      log.warn({ err: error, event: webhook.event }, 'sandbox webhook delivery failed');
    }
  }
}
