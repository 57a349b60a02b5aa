import { messages } from '@lms/contract/messages';
import { useEffect, useId, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { Navigate, useNavigate } from 'react-router';
import { paths } from '../../app/paths';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { loadCheckoutScript, type RazorpayCheckout, type RazorpayPaymentResponse } from './load-script';
import { createSubscription, getRazorpayKey, verifyPayment } from './payments.api';

/** daisyUI's light primary, in hex: Checkout's theme takes a hex colour. */
const THEME_COLOR = '#422ad5';

const rupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', trailingZeroDisplay: 'stripIfInteger' });

/** Spec §2: no role guard, but buying needs an account, so a visitor logs in first and comes back. */
export default function CheckoutPage() {
  const isLoggedIn = useAppSelector((state) => state.auth.isLoggedIn);
  if (!isLoggedIn) return <Navigate to={paths.login} replace state={{ from: paths.checkout }} />;
  return <SubscriptionBundle />;
}

/** Spec §9's bundle card; spec §4's checkout flow. */
function SubscriptionBundle() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const titleId = useId();
  const user = useAppSelector((state) => state.auth.data);
  const { key, subscription_id: subscriptionId, checkoutScript, price } = useAppSelector((state) => state.razorpay);
  const [loading, setLoading] = useState(true);
  const [working, setWorking] = useState(false);
  const openCheckout = useRef<RazorpayCheckout | null>(null);

  // Spec §4: on load, fetch the key, then create the subscription.
  useEffect(() => {
    const controller = new AbortController();
    (async () => {
      try {
        const details = await dispatch(getRazorpayKey(controller.signal));
        if (!details.key || !details.checkoutScript) {
          toast.error(messages.somethingWentWrong);
          return;
        }
        const id = await dispatch(createSubscription(controller.signal));
        if (!id) toast.error(messages.somethingWentWrong);
      } catch {
        // The API client has already shown the server's message (or the fallback); one toast is enough.
      } finally {
        if (!controller.signal.aborted) setLoading(false);
      }
    })();
    return () => controller.abort();
  }, [dispatch]);

  // Leaving the page (e.g. to /checkout/fail) closes a Checkout that is still open.
  useEffect(() => {
    const checkout = openCheckout;
    return () => {
      checkout.current?.close?.();
    };
  }, []);

  async function onPaid(response: RazorpayPaymentResponse) {
    openCheckout.current = null; // Checkout closes itself before calling the handler.
    setWorking(true);
    try {
      await dispatch(verifyPayment(response));
    } catch {
      void navigate(paths.checkoutFail, { replace: true });
      return;
    }
    void navigate(paths.checkoutSuccess, { replace: true });
  }

  async function buy() {
    if (!key || !subscriptionId || !checkoutScript) {
      toast.error(messages.somethingWentWrong);
      return;
    }
    setWorking(true);
    try {
      const Razorpay = await loadCheckoutScript(checkoutScript);
      const checkout = new Razorpay({
        key,
        subscription_id: subscriptionId,
        name: 'LMS',
        description: 'Monthly subscription bundle',
        handler: (response) => void onPaid(response),
        prefill: { name: user?.fullName, email: user?.email },
        theme: { color: THEME_COLOR },
        modal: {
          ondismiss: () => {
            openCheckout.current = null;
            setWorking(false);
          },
        },
      });
      checkout.on('payment.failed', () => void navigate(paths.checkoutFail, { replace: true }));
      openCheckout.current = checkout;
      checkout.open();
    } catch {
      toast.error(messages.somethingWentWrong);
      setWorking(false);
    }
  }

  const ready = !loading && Boolean(key && subscriptionId && checkoutScript);

  return (
    <section className="flex justify-center px-4 py-10 sm:py-16">
      <article aria-labelledby={titleId} className="card w-full max-w-md bg-base-100 shadow-xl ring-1 ring-base-300">
        <div className="card-body gap-6 p-6 sm:p-8">
          <h1 id={titleId} className="card-title justify-center text-center text-2xl sm:text-3xl">
            Subscription Bundle
          </h1>
          <dl className="grid grid-cols-[auto_1fr] items-baseline gap-x-4 gap-y-2">
            <dt className="text-base-content/70">Duration</dt>
            <dd className="text-right font-semibold">1 month</dd>
            <dt className="text-base-content/70">Price</dt>
            <dd className="text-right text-3xl font-bold">
              {price !== null ? (
                rupees.format(price)
              ) : loading ? (
                <span className="loading loading-dots loading-md" role="status" aria-label="Loading the price" />
              ) : (
                '—'
              )}
            </dd>
          </dl>
          <ul className="space-y-3">
            {[messages.bundleIncludes, messages.bundleRefundable].map((text) => (
              <li key={text} className="flex items-start gap-3">
                <svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2.5" className="mt-0.5 shrink-0 text-success" aria-hidden="true">
                  <path d="M5 12l5 5L20 7" />
                </svg>
                <span>{text}</span>
              </li>
            ))}
          </ul>
          <div className="card-actions">
            <button type="button" className="btn btn-primary btn-block btn-lg" disabled={!ready || working} aria-busy={working} onClick={buy}>
              {working && <span className="loading loading-spinner" aria-hidden="true" />}
              Buy now
            </button>
          </div>
        </div>
      </article>
    </section>
  );
}
