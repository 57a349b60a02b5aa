import type { CheckoutChoiceInPath } from './checkout-path';

/*
 * What the checkout tells its result pages through the navigation's state: they show what happened
 * only when the checkout led there, never when opened by their address.
 */

/** What CheckoutSuccessPage is told by the navigation that leads to it; without `paid` it shows nothing. */
export interface PaidState {
  paid: true;
  /** After resuming a cancelled subscription nothing was paid: the end of the period already paid for. */
  resumedUntil?: string;
  /** The resumed plan renews yearly. */
  yearly?: boolean;
  /** A free trial started; its first payment, and when it is taken. */
  trialUntil?: string;
  firstAmount?: number;
  /** The course page whose Subscribe led to the checkout, where "Go to dashboard" returns. */
  returnTo?: string;
}

/** What CheckoutFailPage is told by the checkout: the provider's reason, and what to try again with. */
export interface FailedState {
  failed: true;
  /** The provider's own words (Razorpay's `error.description`), or the server's refusal of the payment. */
  reason?: string;
  /** The plan, coupon and course page of the checkout that failed: "Try again" keeps them. */
  retry: CheckoutChoiceInPath;
  /** The plan's name as its card shows it. */
  planTitle?: string;
}

/** What CheckoutSuccessPage says when it gives way to the checkout, having nothing to confirm. */
export interface FromResultState {
  fromResult: true;
}
