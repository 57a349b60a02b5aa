import { endpoints } from '@lms/contract/endpoints';
import { messages } from '@lms/contract/messages';
import type { BodyOf, ResponseOf } from '@lms/contract/http';
import type { CheckoutQuote, VerifyPayment } from '@lms/contract/payments';
import { serverCall, serverState, type CacheDispatch, type ServerError } from '../../lib/server-state';
import { refreshUser } from '../auth';
import { keyLoaded, paymentVerified, subscriptionCreated } from './razorpay.slice';

/*
 * The checkout, step by step: the key (from the cache the storefront's price shares), then a
 * subscription, then the verification of what Checkout paid. Each step is a query or mutation of
 * the cache; the steps write the checkout's own state (`razorpay`) as they answer.
 */

/** What the buyer chose: a plan (the default when none, as the original client sends no body) and a coupon. */
export interface CheckoutChoice {
  plan?: string;
  coupon?: string;
}

/** The subscription Checkout will pay, and what the checkout shows before paying. */
export interface Subscribed {
  subscriptionId: string;
  quote: CheckoutQuote | undefined;
}

const paymentsApi = serverState.injectEndpoints({
  endpoints: (build) => ({
    /** The bundle as the checkout sells it: the provider's key, the Checkout script, the price per month. */
    getCheckoutDetails: build.query<ResponseOf<typeof endpoints.payments.razorpayKey>, void>({
      query: () => serverCall(endpoints.payments.razorpayKey, {}, { fallback: messages.somethingWentWrong }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const answer = await queryFulfilled.catch(() => undefined);
        if (answer) dispatch(keyLoaded(answer.data.key ?? ''));
      },
    }),
    /** The plans on sale, and whether this account may still have a free trial. Quiet: the checkout falls back to the bundle. */
    getPlans: build.query<ResponseOf<typeof endpoints.payments.plans>, void>({
      query: () => serverCall(endpoints.payments.plans, {}, { fallback: messages.failedLoadData, quiet: true }),
      // Whether a trial is still this account's depends on who is signed in.
      providesTags: ['Viewer'],
    }),
    /**
     * Creates the subscription Checkout will pay (the server reuses an unpaid one for the same choice),
     * and answers what the checkout shows before paying. Quiet: the checkout says where a refusal
     * belongs (a coupon's under its field). A 400 or a 429 leaves the previous unpaid subscription as
     * it was, so its id is kept; any other failure may have dropped it, so none is left to pay.
     */
    subscribe: build.mutation<Subscribed, CheckoutChoice>({
      query: (choice) => {
        // The original client's call has no body (the default plan, no coupon): `call` sends none for an undefined one.
        const body = choice.plan || choice.coupon ? { ...(choice.plan && { plan: choice.plan }), ...(choice.coupon && { coupon: choice.coupon }) } : undefined;
        return serverCall(
          endpoints.payments.subscribe,
          { body: body as BodyOf<typeof endpoints.payments.subscribe> },
          { fallback: messages.somethingWentWrong, quiet: true },
        );
      },
      transformResponse: (answer: ResponseOf<typeof endpoints.payments.subscribe>) => ({
        subscriptionId: answer.subscription_id ?? '',
        quote: answer.checkout as CheckoutQuote | undefined,
      }),
      async onQueryStarted(_choice, { dispatch, queryFulfilled }) {
        try {
          dispatch(subscriptionCreated((await queryFulfilled).data.subscriptionId));
        } catch (failure) {
          const status = (failure as { error?: ServerError }).error?.status;
          if (status !== 400 && status !== 429) dispatch(subscriptionCreated(''));
        }
      },
    }),
    /** Verifies what Checkout reported. `toastSuccess: false` when nothing was paid (a free trial's card check): the result page says what happened. */
    verifyPayment: build.mutation<ResponseOf<typeof endpoints.payments.verify>, { response: VerifyPayment; toastSuccess: boolean }>({
      query: ({ response, toastSuccess }) => {
        // Only the three fields the server checks, whatever else Checkout adds.
        const { razorpay_payment_id, razorpay_subscription_id, razorpay_signature } = response;
        return serverCall(
          endpoints.payments.verify,
          { body: { razorpay_payment_id, razorpay_subscription_id, razorpay_signature } },
          { fallback: messages.operationFailed, toastSuccess },
        );
      },
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        dispatch(
          paymentVerified(
            await queryFulfilled.then(
              () => true,
              () => false,
            ),
          ),
        );
      },
    }),
  }),
});

export const { useGetCheckoutDetailsQuery, useGetPlansQuery } = paymentsApi;

const aborted = () => new DOMException('The checkout was left', 'AbortError');

/** The provider's public key, with the Checkout script to load and the bundle's price. */
export const getRazorpayKey = (signal?: AbortSignal) => async (dispatch: CacheDispatch) => {
  const answer = await dispatch(paymentsApi.endpoints.getCheckoutDetails.initiate(undefined, { subscribe: false })).unwrap();
  if (signal?.aborted) throw aborted();
  return { key: answer.key ?? '', checkoutScript: answer.checkoutScript ?? '', price: answer.price ?? null };
};

/**
 * Subscribes for `choice`; leaving the page (`signal`) abandons the request. An active subscriber's
 * refusal (paid in another tab) reloads the stored user, who then shows as subscribed, before the
 * refusal is thrown.
 */
export const createSubscription =
  (choice: CheckoutChoice = {}, signal?: AbortSignal) =>
  async (dispatch: CacheDispatch) => {
    const request = dispatch(paymentsApi.endpoints.subscribe.initiate(choice));
    signal?.addEventListener('abort', () => request.abort());
    try {
      return await request.unwrap();
    } catch (error) {
      if ((error as Partial<ServerError>).message === messages.alreadySubscribed) await dispatch(refreshUser()).catch(() => undefined);
      throw error;
    }
  };

/**
 * Verifies what Checkout reported; the subscription is then active, so the stored user is reloaded
 * before this resolves. Throws (after the client's toast) when verification fails.
 */
export const verifyPayment =
  (response: VerifyPayment, { toastSuccess = true } = {}) =>
  async (dispatch: CacheDispatch) => {
    await dispatch(paymentsApi.endpoints.verifyPayment.initiate({ response, toastSuccess })).unwrap();
    // The payment stands even when the reload fails: show the subscription as active rather than stale.
    await dispatch(refreshUser((user) => ({ ...user, subscription: { ...user.subscription, status: 'active', cancelAtPeriodEnd: false } })));
  };
