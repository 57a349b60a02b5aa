import { messages } from '@lms/contract/messages';
import type { VerifyPayment } from '@lms/contract/payments';
import { api } from '../../app/api';
import type { AppDispatch, RootState } from '../../app/store';
import { refreshUser } from '../auth/auth.api';
import { userLoaded } from '../auth/auth.slice';
import { checkoutDetailsLoaded, keyLoaded, paymentVerified, subscriptionCreated } from './razorpay.slice';

interface CheckoutDetails {
  key: string;
  checkoutScript: string;
  price: number;
}

/** Spec §4: the provider's public key, with the Checkout script to load and the bundle's price. */
export const getRazorpayKey = (signal?: AbortSignal) => async (dispatch: AppDispatch) => {
  const answer = await api.get<Partial<CheckoutDetails>>('/payments/razorpay-key', { fallback: messages.somethingWentWrong, signal });
  const details = { key: answer.key ?? '', checkoutScript: answer.checkoutScript ?? '', price: answer.price ?? null };
  dispatch(keyLoaded(details.key));
  dispatch(checkoutDetailsLoaded({ checkoutScript: details.checkoutScript, price: details.price }));
  return details;
};

/**
 * Spec §4: creates the subscription Checkout will pay (the server reuses an unpaid one).
 * The previous id is dropped first, so a refusal (an admin, an active subscriber) leaves none to pay.
 */
export const createSubscription = (signal?: AbortSignal) => async (dispatch: AppDispatch) => {
  dispatch(subscriptionCreated(''));
  const answer = await api.post<{ subscription_id?: string }>('/payments/subscribe', undefined, { fallback: messages.somethingWentWrong, signal });
  const subscriptionId = answer.subscription_id ?? '';
  dispatch(subscriptionCreated(subscriptionId));
  return subscriptionId;
};

/**
 * Spec §4: verifies what Checkout reported; the subscription is then active, so the
 * stored user is reloaded. Throws (after the client's toast) when verification fails.
 */
export const verifyPayment = (response: VerifyPayment) => async (dispatch: AppDispatch, getState: () => RootState) => {
  // Only the three fields the server checks, whatever else Checkout adds.
  const { razorpay_payment_id, razorpay_subscription_id, razorpay_signature } = response;
  try {
    await api.post('/payments/verify', { razorpay_payment_id, razorpay_subscription_id, razorpay_signature }, { fallback: messages.operationFailed, toastSuccess: true });
  } catch (error) {
    dispatch(paymentVerified(false));
    throw error;
  }
  dispatch(paymentVerified(true));
  try {
    await dispatch(refreshUser());
  } catch {
    // The payment stands even when the reload fails: show the subscription as active rather than stale.
    const user = getState().auth.data;
    if (user) dispatch(userLoaded({ ...user, subscription: { status: 'active' } }));
  }
};
