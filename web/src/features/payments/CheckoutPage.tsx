import { messages } from '@lms/contract/messages';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { formatDate, rupees } from '../../app/format';
import { withNext } from '../../app/with-next';
import { paths } from '../../app/paths';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { usePageTitle } from '../../app/use-page-title';
import { Notice } from '../../components/Notice';
import { Tick } from '../../components/Tick';
import { loadCheckoutScript, type RazorpayCheckout, type RazorpayPaymentResponse } from './load-script';
import { createSubscription, getRazorpayKey, verifyPayment } from './payments.api';

/** daisyUI's light primary, in hex: Checkout's theme takes a hex colour. */
const THEME_COLOR = '#422ad5';


/** What CheckoutSuccessPage is told by the navigation that leads to it; without `paid` it shows nothing. */
export interface PaidState {
  paid: true;
  /** After resuming a cancelled subscription nothing was paid: the end of the period already paid for. */
  resumedUntil?: string;
}

/** What CheckoutSuccessPage says when it gives way to the checkout, having nothing to confirm. */
export interface FromResultState {
  fromResult: true;
}

/**
 * Spec §2: no role guard, but buying needs an account, so a visitor logs in (or signs up) first and
 * comes back (`?next=/checkout`). Ours: an active subscriber is told so, with the way to the courses,
 * and an administrator that no subscription is needed, instead of the server's refusal as an error.
 */
export default function CheckoutPage() {
  usePageTitle(messages.checkoutTitle);
  const { isLoggedIn, role, data: user } = useAppSelector((state) => state.auth);
  const subscription = user?.subscription;
  const subscribed = subscription?.status === 'active' && !subscription.cancelAtPeriodEnd;
  // A payment made on this page makes the user a subscriber before the page moves on to /checkout/success:
  // the bundle stays until then, rather than flashing the subscribed state.
  const [paying, setPaying] = useState(false);

  // A visitor sent here by /checkout/success opened directly was not on the way to buy: home, not the login.
  const fromResult = (useLocation().state as Partial<FromResultState> | null)?.fromResult === true;
  if (!isLoggedIn) return <Navigate to={fromResult ? paths.home : withNext(paths.login, paths.checkout)} replace state={fromResult ? undefined : { from: paths.checkout }} />;
  if (role === 'ADMIN') {
    return (
      <CheckoutState title={messages.noSubscriptionNeeded}>
        <p>{messages.adminCannotSubscribe}</p>
      </CheckoutState>
    );
  }
  if (subscribed && !paying) {
    const renews = formatDate(subscription.currentPeriodEnd);
    return (
      <CheckoutState title={messages.youAreSubscribed} secondary={{ to: paths.profile, label: messages.manageSubscription }}>
        <p>{messages.subscribedText}</p>
        {renews && <p className="font-semibold">{messages.renewsOn(renews)}</p>}
      </CheckoutState>
    );
  }
  return <SubscriptionBundle onPaying={() => setPaying(true)} />;
}

/** A friendly card in the bundle's place, with the way to the courses. */
function CheckoutState({ title, secondary, children }: { title: string; secondary?: { to: string; label: string }; children: ReactNode }) {
  const titleId = useId();
  return (
    <section className="flex justify-center px-4 py-10 sm:py-16">
      <article aria-labelledby={titleId} className="card w-full max-w-md bg-base-100 shadow-xl ring-1 ring-base-300">
        <div className="card-body items-center gap-4 p-6 text-center sm:p-8">
          <svg viewBox="0 0 24 24" width="56" height="56" fill="none" stroke="currentColor" strokeWidth="2" className="text-primary" aria-hidden="true">
            <circle cx="12" cy="12" r="10" />
            <path d="M7 12.5l3.5 3.5L17 9" />
          </svg>
          <h1 id={titleId} className="card-title text-2xl sm:text-3xl">
            {title}
          </h1>
          {children}
          <div className="card-actions w-full flex-col gap-2">
            <Link to={paths.courses} className="btn btn-primary btn-block">
              {messages.browseCourses}
            </Link>
            {secondary && (
              <Link to={secondary.to} className="btn btn-ghost btn-block">
                {secondary.label}
              </Link>
            )}
          </div>
        </div>
      </article>
    </section>
  );
}

/** Spec §9's bundle card; spec §4's checkout flow. */
function SubscriptionBundle({ onPaying }: { onPaying: () => void }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const titleId = useId();
  const user = useAppSelector((state) => state.auth.data);
  const { key, subscription_id: subscriptionId, checkoutScript, price } = useAppSelector((state) => state.razorpay);
  // Ours (DESIGN §6): a subscriber who cancelled without a refund resumes here. The new subscription's
  // first charge comes when the paid period ends; Checkout only checks the card now.
  const resumeFrom = user?.subscription.status === 'active' && user.subscription.cancelAtPeriodEnd ? user.subscription.currentPeriodEnd : undefined;
  const resumeDate = formatDate(resumeFrom);
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
        // (A subscription the stored user did not know about yet reloads the user: the page then says "You're subscribed".)
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
    onPaying();
    try {
      await dispatch(verifyPayment(response));
    } catch {
      void navigate(paths.checkoutFail, { replace: true });
      return;
    }
    // Replacing /checkout: Back from the result leads to the page before the checkout, never to a stale bundle.
    const state: PaidState = { paid: true, ...(resumeFrom && { resumedUntil: resumeFrom }) };
    void navigate(paths.checkoutSuccess, { replace: true, state });
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
              <Tick key={text}>{text}</Tick>
            ))}
          </ul>
          {resumeDate && (
            <Notice role="note">
              <strong className="block">{messages.resumeNothingCharged(resumeDate)}</strong>{' '}
              {messages.resumeCardCheck}
            </Notice>
          )}
          <div className="card-actions">
            <button type="button" className="btn btn-primary btn-block btn-lg" disabled={!ready || working} aria-busy={working} onClick={buy}>
              {working && <span className="loading loading-spinner" aria-hidden="true" />}
              {resumeDate ? messages.resumeSubscription : 'Buy now'}
            </button>
          </div>
        </div>
      </article>
    </section>
  );
}
