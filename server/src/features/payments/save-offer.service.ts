import { and, desc, eq, isNull } from 'drizzle-orm';
import { answers } from '@lms/contract/answers';
import type { SaveOffer } from '@lms/contract/payments';
import { MONTHS_PER_CHARGE } from '@lms/contract/plans';
import type { Context } from '../../context.ts';
import { subscriptions } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { UserRow } from '../auth/sessions.ts';
import { confirmCouponUse, currentSaveOffer, discountedPaise, discountJson, releaseCouponUse, takeCouponUse, usableCoupon } from '../plans/coupons.service.ts';
import { intervalOf, planOfSubscription } from '../plans/plans.service.ts';
import { hasActiveSubscription } from '../users/users.service.ts';
import { atProvider, providerPlanFor } from './provider.ts';

/** The save offer: a discount the cancel dialog may offer instead of cancelling, and taking it. */

/**
 * The save offer this subscriber may take instead of cancelling: the coupon named as the save
 * offer, on a paid subscription that renews, has no discount running and is one the coupon may be
 * used on (its plans, its dates, its uses, once per account).
 */
async function saveOfferFor(ctx: Context, user: UserRow, now: Date) {
  if (!hasActiveSubscription(user, now) || user.subscriptionCancelledAt) return null;
  const [subscription] = await ctx.db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, user.id), eq(subscriptions.status, 'active'), isNull(subscriptions.cancelledAt)))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  if (!subscription || subscription.planPriceId === null) return null;
  if (subscription.discountedPaise !== null && subscription.paidCount < subscription.discountFrom + subscription.discountCharges) return null;
  const coupon = await currentSaveOffer(ctx.db, now);
  if (!coupon) return null;
  const priced = await planOfSubscription(ctx.db, subscription);
  try {
    await usableCoupon(ctx.db, coupon, { planId: priced.plan.id, userId: user.id, now });
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
  const discounted = discountedPaise(coupon, priced.price.amountPaise);
  if (discounted < 100) return null;
  return { subscription, coupon, priced, discounted };
}

const saveOfferJson = (found: NonNullable<Awaited<ReturnType<typeof saveOfferFor>>>): SaveOffer => ({
  discount: discountJson(found.coupon),
  discountedPrice: found.discounted / 100,
  regularPrice: found.priced.price.amountPaise / 100,
  interval: intervalOf(found.priced.plan),
});

export async function getSaveOffer(ctx: Context, user: UserRow, now = new Date()): Promise<SaveOffer> {
  const found = await saveOfferFor(ctx, user, now);
  return found && saveOfferJson(found);
}

/**
 * Takes the save offer: the next `charges` charges are discounted. The use is taken first (of two
 * acceptances at once, one wins), then the provider moves the subscription to the discounted plan
 * from its next cycle; if the provider cannot, the use is given back and nothing changed.
 */
export async function acceptSaveOffer(ctx: Context, user: UserRow, now = new Date()): Promise<SaveOffer> {
  const found = await saveOfferFor(ctx, user, now);
  if (!found) throw new AppError(400, answers.saveOfferNone);
  const { subscription, coupon, priced, discounted } = found;
  const providerPlan = await providerPlanFor(ctx, intervalOf(priced.plan), discounted);
  await ctx.db.transaction((tx) => takeCouponUse(tx, { couponId: coupon.id, userId: user.id, subscriptionId: subscription.id }));
  try {
    await atProvider(() =>
      ctx.razorpay.updateSubscription(subscription.providerSubscriptionId, { plan_id: providerPlan, schedule_change_at: 'cycle_end', customer_notify: 0 }),
    );
  } catch (error) {
    await ctx.db.transaction((tx) => releaseCouponUse(tx, subscription.id));
    throw error;
  }
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(subscriptions)
      .set({
        couponId: coupon.id,
        discountedPaise: discounted,
        discountFrom: subscription.paidCount,
        discountCharges: coupon.charges,
        nextChargePaise: discounted,
        monthlyValuePaise: Math.round(discounted / MONTHS_PER_CHARGE[intervalOf(priced.plan)]),
        providerPlanId: providerPlan,
        updatedAt: now,
      })
      .where(eq(subscriptions.id, subscription.id));
    await confirmCouponUse(tx, subscription.id, now);
  });
  return saveOfferJson(found);
}
