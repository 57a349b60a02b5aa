import { endpoints } from '@lms/contract/endpoints';
import { messages } from '@lms/contract/messages';
import type { VerifyPayment } from '@lms/contract/payments';
import { ApiError, call } from '../../app/api';
import { serverState } from '../../app/server-state';
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

/**
 * Spec §4: creates the subscription Checkout will pay (the server reuses an unpaid one).
 * The previous id is dropped first, so a refusal (an admin, an active subscriber) leaves none to pay.
 * An active subscriber's refusal reloads the stored user, who then shows as subscribed.
 */
export const createSubscription = (signal?: AbortSignal) => async (dispatch: AppDispatch) => {
  dispatch(subscriptionCreated(''));
  let answer;
  try {
    answer = await call(endpoints.payments.subscribe, {}, { fallback: messages.somethingWentWrong, signal });
  } catch (error) {
    // Ours: a subscription the stored user did not know about yet (paid in another tab): reload the user.
    if (error instanceof ApiError && error.message === messages.alreadySubscribed) await dispatch(refreshUser()).catch(() => undefined);
    throw error;
  }
  const subscriptionId = answer.subscription_id ?? '';
  dispatch(subscriptionCreated(subscriptionId));
  return subscriptionId;
};

/**
 * Spec §4: verifies what Checkout reported; the subscription is then active, so the
 * stored user is reloaded. Throws (after the client's toast) when verification fails.
 */
export const verifyPayment = (response: VerifyPayment) => async (dispatch: AppDispatch) => {
  // Only the three fields the server checks, whatever else Checkout adds.
  const { razorpay_payment_id, razorpay_subscription_id, razorpay_signature } = response;
  try {
    await call(
      endpoints.payments.verify,
      { body: { razorpay_payment_id, razorpay_subscription_id, razorpay_signature } },
      { fallback: messages.operationFailed, toastSuccess: true },
    );
  } catch (error) {
    dispatch(paymentVerified(false));
    throw error;
  }
  dispatch(paymentVerified(true));
  // The payment stands even when the reload fails: show the subscription as active rather than stale.
  await dispatch(refreshUser((user) => ({ ...user, subscription: { ...user.subscription, status: 'active', cancelAtPeriodEnd: false } })));
};
