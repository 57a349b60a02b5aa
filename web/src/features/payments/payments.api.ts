import { endpoints } from '@lms/contract/endpoints';
import { messages } from '@lms/contract/messages';
import type { RequestOf, ResponseOf } from '@lms/contract/http';
import type { CheckoutQuote, VerifyPayment } from '@lms/contract/payments';
import { ApiError, call } from '../../app/api';
import { serverCall, serverState } from '../../app/server-state';
import { refreshUser } from '../../app/session';
import type { AppDispatch } from '../../app/store';
import { checkoutDetailsLoaded, keyLoaded, paymentVerified, subscriptionCreated } from './razorpay.slice';

/*
 * Spec §4's checkout, step by step, into the spec's `razorpay` area: the key (from the cache the
 * storefront's price shares), then a subscription, then the verification of what Checkout paid.
 */

const aborted = () => new DOMException('The checkout was left', 'AbortError');

/** Spec §4: the provider's public key, with the Checkout script to load and the bundle's price. */
export const getRazorpayKey = (signal?: AbortSignal) => async (dispatch: AppDispatch) => {
  const answer = await dispatch(serverState.endpoints.getCheckoutDetails.initiate(undefined, { subscribe: false })).unwrap();
  if (signal?.aborted) throw aborted();
  const details = { key: answer.key ?? '', checkoutScript: answer.checkoutScript ?? '', price: answer.price ?? null };
  dispatch(keyLoaded(details.key));
  dispatch(checkoutDetailsLoaded({ checkoutScript: details.checkoutScript, price: details.price }));
  return details;
};

/** Ours (issue 16): the plans on sale, and whether this account may still have a free trial. Quiet: the checkout falls back to the bundle. */
const plansApi = serverState.injectEndpoints({
  endpoints: (build) => ({
    getPlans: build.query<ResponseOf<typeof endpoints.payments.plans>, void>({
      query: () => serverCall(endpoints.payments.plans, {}, { fallback: messages.failedLoadData, quiet: true }),
      // Whether a trial is still this account's depends on who is signed in.
      providesTags: ['Viewer'],
    }),
  }),
});
export const { useGetPlansQuery } = plansApi;

/** What the buyer chose: a plan (the default when none, as the spec's client sends no body) and a coupon. */
export interface CheckoutChoice {
  plan?: string;
  coupon?: string;
}

/**
 * Spec §4: creates the subscription Checkout will pay (the server reuses an unpaid one for the same
 * choice), and answers what the checkout shows before paying (issue 16). Quiet: the checkout says
 * where a refusal belongs (a coupon's under its field). A 400 or a 429 leaves the previous unpaid
 * subscription as it was, so its id is kept; any other failure may have dropped it, so none is left to pay.
 * An active subscriber's refusal reloads the stored user, who then shows as subscribed.
 */
export const createSubscription = (choice: CheckoutChoice = {}, signal?: AbortSignal) => async (dispatch: AppDispatch) => {
  // The spec's call has no body (the default plan, no coupon): `call` sends none for an undefined one.
  const body = choice.plan || choice.coupon ? { ...(choice.plan && { plan: choice.plan }), ...(choice.coupon && { coupon: choice.coupon }) } : undefined;
  let answer;
  try {
    answer = await call(endpoints.payments.subscribe, { body } as RequestOf<typeof endpoints.payments.subscribe>, { fallback: messages.somethingWentWrong, signal, quiet: true });
  } catch (error) {
    if (!(error instanceof ApiError && (error.status === 400 || error.status === 429))) dispatch(subscriptionCreated(''));
    // Ours: a subscription the stored user did not know about yet (paid in another tab): reload the user.
    if (error instanceof ApiError && error.message === messages.alreadySubscribed) await dispatch(refreshUser()).catch(() => undefined);
    throw error;
  }
  const subscriptionId = answer.subscription_id ?? '';
  dispatch(subscriptionCreated(subscriptionId));
  return { subscriptionId, quote: answer.checkout as CheckoutQuote | undefined };
};

/**
 * Spec §4: verifies what Checkout reported; the subscription is then active, so the
 * stored user is reloaded. Throws (after the client's toast) when verification fails.
 * `toastSuccess: false` when nothing was paid (a free trial's card check): the result page says what happened.
 */
export const verifyPayment = (response: VerifyPayment, { toastSuccess = true } = {}) => async (dispatch: AppDispatch) => {
  // Only the three fields the server checks, whatever else Checkout adds.
  const { razorpay_payment_id, razorpay_subscription_id, razorpay_signature } = response;
  try {
    await call(
      endpoints.payments.verify,
      { body: { razorpay_payment_id, razorpay_subscription_id, razorpay_signature } },
      { fallback: messages.operationFailed, toastSuccess },
    );
  } catch (error) {
    dispatch(paymentVerified(false));
    throw error;
  }
  dispatch(paymentVerified(true));
  // The payment stands even when the reload fails: show the subscription as active rather than stale.
  await dispatch(refreshUser((user) => ({ ...user, subscription: { ...user.subscription, status: 'active', cancelAtPeriodEnd: false } })));
};
