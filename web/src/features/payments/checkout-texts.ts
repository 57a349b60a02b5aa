import type { Discount, PlanInterval } from '@lms/contract/plans';
import type { CheckoutQuote } from '@lms/contract/payments';
import { rupees } from '../../lib/format';

/**
 * The words of the checkout's plans, coupon and summary, and of the success page
 * after a free trial starts. Not in the message catalogue (contract/src/messages.ts), which ships in
 * every page's first chunk: these load with the checkout's pages. The spec's own texts (the bundle
 * card's, 'Buy now') stay where they are, verbatim.
 */

const unit: Record<PlanInterval, [one: string, many: string]> = { monthly: ['month', 'months'], yearly: ['year', 'years'] };
const per: Record<PlanInterval, string> = { monthly: '/month', yearly: '/year' };

/** "50 % off" or "₹20 off". */
const off = (discount: Pick<Discount, 'kind' | 'amount'>) =>
  (discount.kind === 'percent' ? `${discount.amount}\u00a0%` : rupees.format(discount.amount)) + ' off';
/** "your first payment", "your first 2 payments" (`which` = first or next). */
const payments = (which: 'first' | 'next', count: number) => (count === 1 ? `your ${which} payment` : `your ${which} ${count} payments`);

export const checkoutTexts = {
  choosePlan: 'Choose your plan',
  choosePlanIntro: 'Every plan opens every course, the existing ones and every new one we launch.',
  plansLoading: 'Loading the plans',
  duration: (interval: PlanInterval) => (interval === 'yearly' ? '1 year' : '1 month'),
  perInterval: (price: number, interval: PlanInterval) => `${rupees.format(price)}${per[interval]}`,
  /** A yearly plan against twelve months of the default monthly plan. */
  save: (percent: number) => `Save ${percent}\u00a0%`,
  monthlyEquivalent: (price: number) => `${rupees.format(price)} a month`,
  freeTrial: (days: number) => `${days}-day free trial`,
  trialHad: 'You have already had your free trial',
  /** Checkout's line under the site's name: the plan by the name its card shows, and its period. */
  checkoutDescription: (planTitle: string, interval: PlanInterval) => `${planTitle} · ${checkoutTexts.duration(interval)}`,
  startTrial: 'Start free trial',
  /** Under the pay button, around the links to the terms and the refund policy. */
  agreeBefore: 'By subscribing you agree to the ',
  agreeBetween: ' and the ',

  haveCoupon: 'Have a coupon?',
  couponCode: 'Coupon code',
  apply: 'Apply',
  remove: 'Remove',
  removeCoupon: (code: string) => `Remove coupon ${code}`,
  couponOff: (discount: Discount) => `${off(discount)} ${payments('first', discount.charges)}`,
  /** A coupon the newly chosen plan does not take: dropped, and why. */
  couponDropped: (code: string, why: string) => `${code} was removed. ${why}`,

  summary: 'Summary',
  summaryLoading: 'Updating the summary',
  dueToday: 'Due today',
  cardCheck: 'A card check, refunded at once',
  firstPayment: 'First payment',
  firstPaymentAfterTrial: (date: string) => `${date}, when your free trial ends`,
  firstPaymentOn: (date: string) => `On ${date}`,
  /** What the charges after the first are, from the quote: "₹49.50 for the first 2 months, then ₹99/month". */
  schedule: (quote: Pick<CheckoutQuote, 'firstCharge' | 'discountedCharges' | 'regularPrice' | 'plan'>) => {
    const { interval } = quote.plan;
    const regular = checkoutTexts.perInterval(quote.regularPrice, interval);
    if (quote.discountedCharges === 0 || quote.firstCharge.amount === quote.regularPrice) return `Then ${regular} until you cancel.`;
    const [one, many] = unit[interval];
    const span = quote.discountedCharges === 1 ? `the first ${one}` : `the first ${quote.discountedCharges} ${many}`;
    return `${rupees.format(quote.firstCharge.amount)} for ${span}, then ${regular}.`;
  },
  retry: 'Try again',
  resumeCardCheckYearly: 'Checkout only checks your card now, with a small amount that is refunded at once; the yearly renewals start on that date.',
  subscriptionResumedYearly: (date: string) => `Your access continues. Nothing is charged until ${date}; from then on the plan renews every year.`,
  /** "You're subscribed" during a free trial. */
  inTrial: (date: string) => `Free trial until ${date}, then the first payment.`,

  // The failure page: the provider's reason beside the spec's text, and what "Try again" keeps.
  failureReason: 'The payment provider said:',
  yourPlan: 'your plan',
  retryKeeps: (plan: string, coupon: string | undefined) => (coupon ? `Try again keeps ${plan} with coupon ${coupon} applied.` : `Try again keeps ${plan}.`),

  trialStarted: 'Your free trial has started',
  trialStartedText: (amount: number, date: string) =>
    `Every course is open to you now. Your first payment, ${rupees.format(amount)}, is taken on ${date}; cancel before then and you pay nothing.`,
} as const;
