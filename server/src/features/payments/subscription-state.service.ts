import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { subscriptions, users } from '../../db/schema.ts';
import { CHARGING_STATES, ENDED_STATES } from './provider.ts';
import type { RazorpaySubscription } from './razorpay-client.ts';

/** A subscription as the provider last told us: its status mirrored, and what that means for the user's access. */

export type SubscriptionRow = typeof subscriptions.$inferSelect;

/**
 * Mirrors the provider's status. An ended subscription ends access now, a pending one keeps it
 * to the period's end; one that will charge and that the user did not cancel (a resumed one,
 * once authorised) means the user's subscription renews again. A subscription the user cancelled
 * themselves had its access end decided then (now with a refund, the paid period's or the trial's
 * end without): the provider's `cancelled` that follows changes nothing. The user's row is written
 * before the subscription's, as everywhere: two transactions about one user then never deadlock.
 */
export async function applyProviderState(db: Db, subscription: SubscriptionRow, truth: RazorpaySubscription) {
  const [current] = await db.select({ cancelledAt: subscriptions.cancelledAt }).from(subscriptions).where(eq(subscriptions.id, subscription.id));
  const cancelledByUser = Boolean(current?.cancelledAt);
  if (CHARGING_STATES.includes(truth.status) && !cancelledByUser) {
    await db.update(users).set({ subscriptionCancelledAt: null }).where(eq(users.id, subscription.userId));
  }
  if (ENDED_STATES.has(truth.status) && !(truth.status === 'cancelled' && cancelledByUser)) {
    // Unless access comes from another, newer subscription of the same user.
    await db
      .update(users)
      .set({ subscriptionEndsAt: sql`least(${users.subscriptionEndsAt}, now())`, trialEndsAt: null })
      .where(
        and(
          eq(users.id, subscription.userId),
          sql`not exists (select 1 from subscriptions other where other.user_id = ${subscription.userId}
            and other.id <> ${subscription.id} and other.status in ('active', 'authenticated', 'pending') and other.current_end > now())`,
        ),
      );
  }
  await db.update(subscriptions).set({ status: truth.status, updatedAt: new Date() }).where(eq(subscriptions.id, subscription.id));
}
