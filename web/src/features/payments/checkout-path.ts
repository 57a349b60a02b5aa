import { sameSitePath } from '../../lib/next-path';
import { paths } from '../../lib/paths';

/**
 * The checkout's address carries what the buyer chose and where they came from, so that a reload,
 * the way through the login and "Try again" after a failed payment all keep them:
 * `plan` (a plan other than the default), `coupon` (a code to apply) and `from` (the page of the
 * course whose Subscribe led here, where "Go to dashboard" returns after paying).
 */
export const CHECKOUT_PARAMS = { plan: 'plan', coupon: 'coupon', from: 'from' } as const;

export interface CheckoutChoiceInPath {
  plan?: string;
  coupon?: string;
  from?: string;
}

/** `/checkout` with the choice and the page to return to, each only when there is one. */
export function checkoutPath({ plan, coupon, from }: CheckoutChoiceInPath = {}): string {
  const search = new URLSearchParams();
  if (plan) search.set(CHECKOUT_PARAMS.plan, plan);
  if (coupon) search.set(CHECKOUT_PARAMS.coupon, coupon);
  const back = returnPath(from);
  if (back) search.set(CHECKOUT_PARAMS.from, back);
  const query = search.toString();
  return query ? `${paths.checkout}?${query}` : paths.checkout;
}

/**
 * Where to go back to after paying: a page of this site (never another, nor a way of writing one:
 * next-path.ts judges that), and not the checkout or its result pages, which would lead in a circle.
 */
export function returnPath(value: unknown): string | undefined {
  const path = sameSitePath(value);
  if (!path) return undefined;
  const { pathname } = new URL(path, 'https://lms.invalid');
  return pathname === paths.checkout || pathname.startsWith(`${paths.checkout}/`) ? undefined : path;
}

/** A coupon code as the checkout's field takes it: letters, digits, - and _, at most 40 (the field's own limit). */
export function couponFromPath(value: string | null): string | undefined {
  const code = value?.trim().toUpperCase();
  return code && /^[A-Z0-9_-]{1,40}$/.test(code) ? code : undefined;
}
