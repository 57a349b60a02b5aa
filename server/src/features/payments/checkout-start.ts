import { messages } from '@lms/contract/messages';
import type { Subscribe } from '@lms/contract/payments';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { consume } from '../../rate-limit.ts';
import type { UserRow } from '../auth/sessions.ts';
import { defaultPlanPrice, planJson, plansOnSale } from '../plans/plans.service.ts';
import { mayHaveTrial, subscribe } from './checkout.service.ts';

// What a buyer is shown before paying, and the start of a checkout: the prices, the plans, the provider's key.

export const SANDBOX_CHECKOUT_SCRIPT = '/sandbox/checkout.js';
export const RAZORPAY_CHECKOUT_SCRIPT = 'https://checkout.razorpay.com/v1/checkout.js';

/** A coupon refused for what it is (not for the plan or the account): what guessing codes runs into. */
const COUPON_REFUSALS = new Set<string>([messages.couponUnknown, messages.couponExpired, messages.couponNotYetValid, messages.couponExhausted]);

/** The provider's public key, the Checkout script to load (Razorpay's, or the sandbox's imitation) and the bundle's price. */
export async function checkoutSetup(ctx: Context) {
  const { payments } = ctx.config;
  return {
    key: payments.keyId,
    checkoutScript: payments.mode === 'sandbox' ? SANDBOX_CHECKOUT_SCRIPT : RAZORPAY_CHECKOUT_SCRIPT,
    price: await defaultPlanPrice(ctx),
  };
}

/** The bundle as the storefront sells it to anyone, signed in or not: its price per month and the refund window. */
export async function bundlePrice(ctx: Context) {
  return { price: await defaultPlanPrice(ctx), currency: 'INR' as const, refundWindowDays: ctx.config.payments.refundWindowDays };
}

/** Every plan on sale; for a signed-in learner, whether a free trial would be theirs (one per account; never an admin's). */
export async function plansOnSaleFor(ctx: Context, user: UserRow | null) {
  return {
    plans: (await plansOnSale(ctx)).map(planJson),
    trialAvailable: !user || (user.role !== 'ADMIN' && mayHaveTrial(user)),
    refundWindowDays: ctx.config.payments.refundWindowDays,
  };
}

/**
 * Starts a checkout (see subscribe). A coupon code refused for what it is counts against the
 * account: the route refuses coupons once too many were (guessing codes is slow).
 */
export async function startCheckout(ctx: Context, user: UserRow, input: Subscribe) {
  try {
    return await subscribe(ctx, user, input);
  } catch (error) {
    if (input.coupon && error instanceof AppError && COUPON_REFUSALS.has(error.message)) await consume(ctx.limits.couponFailuresPerAccount, user.id);
    throw error;
  }
}
