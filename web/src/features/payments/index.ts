/** What the storefront needs of payments: the way to the checkout, and the bundle's price. */
export { checkoutPath } from './checkout-path';
export { useGetPlanQuery } from './plan.api';
