import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { answers } from '@lms/contract/answers';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { subscriptions, users, webhookEvents } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { queueDocumentPdfs } from '../billing/billing.service.ts';
import { queueLifecycleMails, recordLifecycleMail } from '../billing/lifecycle-mail.ts';
import { intervalOf, planOfSubscription } from '../plans/plans.service.ts';
import { sellerOf } from '../settings/site-settings.ts';
import { hasActiveSubscription } from '../users/users.service.ts';
import { queuePlanChange, recordPayment } from './charges.service.ts';
import { applyProviderState, type SubscriptionRow } from './subscription-state.service.ts';
import { atProvider, fromUnix, isCaptured, periodAfter } from './provider.ts';
import { RazorpayError, type RazorpayPayment, type RazorpaySubscription } from './razorpay-client.ts';
import { isSignedBy } from './signatures.ts';

/** Razorpay's webhooks (README.md): each delivery handled once, from the provider's own truth. */

const WebhookSchema = z.object({
  event: z.string(),
  payload: z.object({
    subscription: z.object({ entity: z.object({ id: z.string() }).loose() }).optional(),
    payment: z.object({ entity: z.object({ id: z.string() }).loose() }).optional(),
  }),
});

/**
 * Handles one delivery of a provider event. Razorpay delivers at least once and
 * in any order, so: the event id is recorded in the same transaction as its
 * effects (a repeat does nothing), and the subscription's state is re-read from
 * the provider rather than taken from the event, so a late `halted` cannot end
 * access that a newer charge renewed.
 */
export async function handleWebhook(
  ctx: Context,
  delivery: { rawBody: Buffer; signature: string | undefined; eventId: string | undefined },
  { log }: { log: Pick<FastifyBaseLogger, 'warn'> },
): Promise<{ duplicate: boolean }> {
  if (!delivery.signature || !isSignedBy(ctx.config.payments.webhookSecret, delivery.rawBody, delivery.signature)) {
    throw new AppError(400, answers.webhookSignatureInvalid);
  }
  if (!delivery.eventId || delivery.eventId.length > 100) throw new AppError(400, answers.invalidRequest);
  let body: z.infer<typeof WebhookSchema>;
  try {
    body = WebhookSchema.parse(JSON.parse(delivery.rawBody.toString('utf8')));
  } catch {
    throw new AppError(400, answers.invalidRequest);
  }
  const eventId = delivery.eventId;
  const providerSubscriptionId = body.payload.subscription?.entity.id;
  const [subscription] = providerSubscriptionId
    ? await ctx.db.select().from(subscriptions).where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId))
    : [];
  // Events about subscriptions that are not ours (another app on the account) are noted and left alone.
  let truth: RazorpaySubscription | undefined;
  let charge: RazorpayPayment | undefined;
  try {
    truth = subscription ? await atProvider(() => ctx.razorpay.fetchSubscription(subscription.providerSubscriptionId)) : undefined;
    charge =
      subscription && body.payload.payment && ['subscription.activated', 'subscription.charged'].includes(body.event)
        ? await atProvider(() => ctx.razorpay.fetchPayment(body.payload.payment!.entity.id))
        : undefined;
  } catch (error) {
    // The provider was reached and does not know what the event names: a signed event about nothing
    // real (a test event, a deleted object). Acknowledged, so it is not delivered again for a day.
    if (!(error instanceof RazorpayError)) throw error;
    log.warn({ err: error, event: body.event, eventId }, 'webhook about an object the provider does not know; acknowledged and ignored');
    truth = undefined;
    charge = undefined;
  }

  // The seller as the settings name them now: an invoice keeps what it was issued with.
  const seller = await sellerOf(ctx);
  const { invoice, mail, planChange, ...outcome } = await ctx.db.transaction(async (tx) => {
    const [fresh] = await tx.insert(webhookEvents).values({ eventId, event: body.event }).onConflictDoNothing().returning();
    if (!fresh) return { duplicate: true, invoice: null, planChange: false, mail: null };
    if (!subscription || !truth) return { duplicate: false, invoice: null, planChange: false, mail: null };
    let paid = { invoice: null as string | null, planChange: false };
    if (charge && isCaptured(charge)) {
      const { plan } = await planOfSubscription(tx, subscription);
      const periodEnd = truth.current_end ? fromUnix(truth.current_end) : periodAfter(fromUnix(charge.created_at), intervalOf(plan));
      paid = await recordPayment(tx, seller, subscription, charge, periodEnd);
    }
    await applyProviderState(tx, subscription, truth);
    return { duplicate: false, invoice: paid.invoice, planChange: paid.planChange, mail: await recordStateMail(tx, subscription, truth) };
  });
  await queueDocumentPdfs(ctx, [invoice]);
  await queueLifecycleMails(ctx, [mail]);
  if (subscription) await queuePlanChange(ctx, subscription.id, planChange);
  return outcome;
}

/**
 * The mail a provider state calls for, once per subscription and state (and period, for a failed
 * renewal): a renewal that failed (`pending`: access goes on while the provider retries), or access
 * that ended because renewals failed for good (`halted`, unless another subscription still gives access).
 */
async function recordStateMail(db: Db, subscription: SubscriptionRow, truth: RazorpaySubscription): Promise<string | null> {
  const [user] = await db.select().from(users).where(eq(users.id, subscription.userId));
  if (!user) return null;
  if (truth.status === 'pending') {
    return recordLifecycleMail(db, {
      key: `payment_failed:${subscription.id}:${truth.current_end ?? ''}`,
      kind: 'payment_failed',
      userId: user.id,
      data: { accessUntil: (user.subscriptionEndsAt ?? new Date()).toISOString() },
    });
  }
  if (truth.status === 'halted' && !hasActiveSubscription(user)) {
    return recordLifecycleMail(db, { key: `access_ended:${subscription.id}`, kind: 'access_ended', userId: user.id, data: {} });
  }
  return null;
}
