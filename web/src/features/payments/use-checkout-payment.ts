import { messages } from '@lms/contract/messages';
import type { CheckoutQuote } from '@lms/contract/payments';
import { useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { paths } from '../../lib/paths';
import { getSite } from '../../lib/site';
import { isServerError } from '../../lib/server-state';
import { useAppDispatch } from '../../lib/store-hooks';
import { useAuth } from '../auth';
import { checkoutTexts } from './checkout-texts';
import type { FailedState, PaidState } from './checkout-state';
import { reasonToShow } from './failure-reason';
import { loadCheckoutScript, type RazorpayCheckout, type RazorpayPaymentResponse } from './load-script';
import { BUNDLE_TITLE } from './PlanCard';
import { verifyPayment } from './payments.api';

/** daisyUI's light primary, in hex: Checkout's theme takes a hex colour. */
const THEME_COLOR = '#422ad5';

/**
 * Paying: "Buy now" opens the provider's Checkout for the subscription on hand; when it reports a
 * payment, the payment is verified and the page moves to /checkout/success, otherwise to
 * /checkout/fail with the provider's reason and what "Try again" comes back with.
 */
export function useCheckoutPayment({
  key,
  subscriptionId,
  checkoutScript,
  quote,
  returnTo,
  resumeFrom,
  onPaying,
}: {
  key: string;
  subscriptionId: string;
  checkoutScript: string;
  quote: CheckoutQuote | null;
  /** The course page whose Subscribe led here, for the result pages. */
  returnTo: string | undefined;
  /** The end of the period already paid for, when a cancelled subscription is resumed. */
  resumeFrom: string | undefined;
  onPaying: () => void;
}) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const user = useAuth((auth) => auth.data);
  const [working, setWorking] = useState(false);
  const openCheckout = useRef<RazorpayCheckout | null>(null);

  // Leaving the page (e.g. to /checkout/fail) closes a Checkout that is still open.
  useEffect(() => {
    const checkout = openCheckout;
    return () => {
      checkout.current?.close?.();
    };
  }, []);

  /** To /checkout/fail, with the provider's reason and what "Try again" comes back with. */
  function failed(reason: unknown, paidFor: CheckoutQuote | null) {
    const state: FailedState = {
      failed: true,
      reason: reasonToShow(reason),
      retry: { plan: paidFor && !paidFor.plan.default ? paidFor.plan.id : undefined, coupon: paidFor?.coupon?.code, from: returnTo },
      planTitle: paidFor ? (paidFor.plan.default ? BUNDLE_TITLE : paidFor.plan.name) : undefined,
    };
    void navigate(paths.checkoutFail, { replace: true, state });
  }

  async function onPaid(response: RazorpayPaymentResponse, paidFor: CheckoutQuote | null) {
    openCheckout.current = null; // Checkout closes itself before calling the handler.
    setWorking(true);
    onPaying();
    const trialStarts = paidFor && paidFor.trialDays > 0 && paidFor.authorisationOnly ? paidFor.firstCharge : undefined;
    try {
      // A free trial's card check is no payment: "Payment verified" would say otherwise.
      await dispatch(verifyPayment(response, { toastSuccess: !trialStarts }));
    } catch (error) {
      failed(isServerError(error) ? error.message : undefined, paidFor);
      return;
    }
    // Replacing /checkout: Back from the result leads to the page before the checkout, never to a stale bundle.
    const state: PaidState = {
      paid: true,
      ...(resumeFrom && { resumedUntil: resumeFrom, ...(paidFor?.plan.interval === 'yearly' && { yearly: true }) }),
      ...(trialStarts && { trialUntil: trialStarts.date, firstAmount: trialStarts.amount }),
      ...(returnTo && { returnTo }),
    };
    void navigate(paths.checkoutSuccess, { replace: true, state });
  }

  async function buy() {
    if (!key || !subscriptionId || !checkoutScript) {
      toast.error(messages.somethingWentWrong);
      return;
    }
    const paidFor = quote;
    setWorking(true);
    try {
      const Razorpay = await loadCheckoutScript(checkoutScript);
      const checkout = new Razorpay({
        key,
        subscription_id: subscriptionId,
        // The seller as the widget names the merchant, in the brand's colour.
        name: getSite().name,
        description: checkoutTexts.checkoutDescription(
          paidFor && !paidFor.plan.default ? paidFor.plan.name : BUNDLE_TITLE,
          paidFor?.plan.interval ?? 'monthly',
        ),
        handler: (response) => void onPaid(response, paidFor),
        prefill: { name: user?.fullName, email: user?.email },
        theme: { color: getSite().brand?.light.primary ?? THEME_COLOR },
        modal: {
          ondismiss: () => {
            openCheckout.current = null;
            setWorking(false);
          },
        },
      });
      // Checkout's `error.description` is the provider's reason ("declined by your bank …"): the failure page shows it.
      checkout.on('payment.failed', (answer) => failed(answer?.error?.description, paidFor));
      openCheckout.current = checkout;
      checkout.open();
    } catch {
      toast.error(messages.somethingWentWrong);
      setWorking(false);
    }
  }

  return { working, buy };
}
