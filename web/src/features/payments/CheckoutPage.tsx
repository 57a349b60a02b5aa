import { messages } from '@lms/contract/messages';
import type { Plan } from '@lms/contract/plans';
import type { CheckoutQuote } from '@lms/contract/payments';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../app/api';
import { CHECKOUT_PARAMS, couponFromPath, returnPath, type CheckoutChoiceInPath } from '../../app/checkout-path';
import { formatDate } from '../../app/format';
import { withNext } from '../../app/with-next';
import { paths } from '../../app/paths';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { usePageTitle } from '../../app/use-page-title';
import { Notice } from '../../components/Notice';
import { checkoutTexts } from './checkout-texts';
import { CheckoutSummary } from './CheckoutSummary';
import { loadCheckoutScript, type RazorpayCheckout, type RazorpayPaymentResponse } from './load-script';
import { BUNDLE_TITLE, PlanCard } from './PlanCard';
import { getRazorpayKey, useGetPlansQuery, verifyPayment } from './payments.api';
import { reasonToShow } from './failure-reason';
import { useCheckoutChoice } from './use-checkout-choice';

/** daisyUI's light primary, in hex: Checkout's theme takes a hex colour. */
const THEME_COLOR = '#422ad5';


/** What CheckoutSuccessPage is told by the navigation that leads to it; without `paid` it shows nothing. */
export interface PaidState {
  paid: true;
  /** After resuming a cancelled subscription nothing was paid: the end of the period already paid for. */
  resumedUntil?: string;
  /** The resumed plan renews yearly. */
  yearly?: boolean;
  /** Ours (issue 16): a free trial started; its first payment, and when it is taken. */
  trialUntil?: string;
  firstAmount?: number;
  /** Ours: the course page whose Subscribe led to the checkout, where "Go to dashboard" returns. */
  returnTo?: string;
}

/** What CheckoutFailPage is told by the checkout: the provider's reason, and what to try again with. */
export interface FailedState {
  failed: true;
  /** The provider's own words (Razorpay's `error.description`), or the server's refusal of the payment. */
  reason?: string;
  /** The plan, coupon and course page of the checkout that failed: "Try again" keeps them. */
  retry: CheckoutChoiceInPath;
  /** The plan's name as its card shows it. */
  planTitle?: string;
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
  const location = useLocation();
  const fromResult = (location.state as Partial<FromResultState> | null)?.fromResult === true;
  // The login comes back to this very address: the plan, the coupon and the course page it carries.
  const here = `${location.pathname}${location.search}`;
  if (!isLoggedIn) return <Navigate to={fromResult ? paths.home : withNext(paths.login, here)} replace state={fromResult ? undefined : { from: here }} />;
  if (role === 'ADMIN') {
    return (
      <CheckoutState title={messages.noSubscriptionNeeded}>
        <p>{messages.adminCannotSubscribe}</p>
      </CheckoutState>
    );
  }
  if (subscribed && !paying) {
    const renews = formatDate(subscription.currentPeriodEnd);
    // Ours (issue 16): in a free trial, the first payment is what comes next.
    const trialEnds = formatDate(subscription.trialEndsAt);
    return (
      <CheckoutState title={messages.youAreSubscribed} secondary={{ to: paths.profile, label: messages.manageSubscription }}>
        <p>{messages.subscribedText}</p>
        {trialEnds ? <p className="font-semibold">{checkoutTexts.inTrial(trialEnds)}</p> : renews && <p className="font-semibold">{messages.renewsOn(renews)}</p>}
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

/**
 * Spec §9's bundle card, beside the other plans on sale (issue 16); spec §4's checkout flow: on load
 * the key, then the subscription for the plan chosen (`?plan=`, else the default, with no body as
 * the spec's client sends it). Choosing another plan or a coupon subscribes again (use-checkout-choice.ts);
 * the server's quote says what paying means.
 */
function SubscriptionBundle({ onPaying }: { onPaying: () => void }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const user = useAppSelector((state) => state.auth.data);
  const { key, subscription_id: subscriptionId, checkoutScript, price } = useAppSelector((state) => state.razorpay);
  // Ours (DESIGN §6): a subscriber who cancelled without a refund resumes here. The new subscription's
  // first charge comes when the paid period ends; Checkout only checks the card now.
  const resumeFrom = user?.subscription.status === 'active' && user.subscription.cancelAtPeriodEnd ? user.subscription.currentPeriodEnd : undefined;
  const resumeDate = formatDate(resumeFrom);
  const plans = useGetPlansQuery();
  // The refund window the cards state beside the spec's promise.
  const refundWindowDays = plans.data?.refundWindowDays;
  // Ours: the course page whose Subscribe led here, for the result pages.
  const returnTo = returnPath(search.get(CHECKOUT_PARAMS.from));
  const [loading, setLoading] = useState(true);
  const [working, setWorking] = useState(false);
  const openCheckout = useRef<RazorpayCheckout | null>(null);
  const headingId = useId();

  // The plan and coupon chosen, and the subscription and quote on hand for them (issue 16).
  const choice = useCheckoutChoice(search.get(CHECKOUT_PARAMS.plan) || undefined, couponFromPath(search.get(CHECKOUT_PARAMS.coupon)));
  const { quote, updating, begin } = choice;

  // The address names the coupon applied (a reload, or the way back from a failed payment, keeps it), and none once it is removed or refused.
  const appliedCoupon = quote?.coupon?.code;
  const couponInPath = couponFromPath(search.get(CHECKOUT_PARAMS.coupon));
  useEffect(() => {
    if (loading || updating || !quote || couponInPath === appliedCoupon) return;
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        if (appliedCoupon) next.set(CHECKOUT_PARAMS.coupon, appliedCoupon);
        else next.delete(CHECKOUT_PARAMS.coupon);
        return next;
      },
      { replace: true, state: null },
    );
  }, [loading, updating, quote, couponInPath, appliedCoupon, setSearch]);

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
        await begin(controller.signal);
      } catch {
        // The API client has already shown the server's message (or the fallback); one toast is enough.
      } finally {
        if (!controller.signal.aborted) setLoading(false);
      }
    })();
    return () => controller.abort();
  }, [dispatch, begin]);

  // Leaving the page (e.g. to /checkout/fail) closes a Checkout that is still open.
  useEffect(() => {
    const checkout = openCheckout;
    return () => {
      checkout.current?.close?.();
    };
  }, []);

  function choosePlan(id: string) {
    choice.choosePlan(id);
    // Shareable, and kept on reload; in place of this entry, as a radio is no page of its own.
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.set(CHECKOUT_PARAMS.plan, id);
        return next;
      },
      { replace: true, state: null },
    );
  }

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
      failed(error instanceof ApiError ? error.message : undefined, paidFor);
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
        name: 'LMS',
        description: checkoutTexts.checkoutDescription(paidFor && !paidFor.plan.default ? paidFor.plan.name : BUNDLE_TITLE, paidFor?.plan.interval ?? 'monthly'),
        handler: (response) => void onPaid(response, paidFor),
        prefill: { name: user?.fullName, email: user?.email },
        theme: { color: THEME_COLOR },
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

  const ready = !loading && !updating && Boolean(key && subscriptionId && checkoutScript);
  // The plans on sale; until they are known (or if they cannot be), the plan being bought, else the bundle at the key's price.
  const onSale: Plan[] = plans.data?.plans.length
    ? plans.data.plans
    : [quote?.plan ?? { id: '', name: BUNDLE_TITLE, interval: 'monthly', price: price ?? Number.NaN, trialDays: 0, default: true }];
  const defaultPlan = onSale.find((plan) => plan.default);
  const selectedId = choice.planId ?? defaultPlan?.id;
  const trialAvailable = resumeFrom ? null : (plans.data?.trialAvailable ?? true);
  const selectable = onSale.length > 1;
  const trialChosen = Boolean(quote && quote.trialDays > 0 && !updating);

  const summary = (
    <CheckoutSummary
      quote={quote}
      planTitle={selectable && quote ? (quote.plan.default ? BUNDLE_TITLE : quote.plan.name) : undefined}
      updating={updating && !loading}
      failed={choice.failed}
      onRetry={choice.retry}
      coupon={choice.coupon}
      onCouponChange={choice.setCoupon}
      applying={choice.applying}
      onApply={choice.applyCoupon}
      onRemove={choice.removeCoupon}
    >
      {resumeDate && (
        <Notice role="note">
          <strong className="block">{messages.resumeNothingCharged(resumeDate)}</strong>{' '}
          {quote?.plan.interval === 'yearly' ? checkoutTexts.resumeCardCheckYearly : messages.resumeCardCheck}
        </Notice>
      )}
      <button type="button" className="btn btn-primary btn-block btn-lg" disabled={!ready || working} aria-busy={working} onClick={buy}>
        {working && <span className="loading loading-spinner" aria-hidden="true" />}
        {resumeDate ? messages.resumeSubscription : trialChosen ? checkoutTexts.startTrial : 'Buy now'}
      </button>
    </CheckoutSummary>
  );

  const card = (plan: Plan) => (
    <PlanCard
      key={plan.default ? 'default' : plan.id}
      plan={plan}
      monthlyPrice={defaultPlan?.interval === 'monthly' ? defaultPlan.price : undefined}
      selectable={selectable}
      selected={plan.id === selectedId}
      onSelect={() => choosePlan(plan.id)}
      trialAvailable={trialAvailable === false || (quote?.plan.id === plan.id && quote.trialUnavailable) ? false : trialAvailable}
      priceLoading={loading}
      refundWindowDays={refundWindowDays}
    />
  );

  if (!selectable) {
    return (
      <section className="flex justify-center px-4 py-10 sm:py-16">
        <div className="card w-full max-w-md bg-base-100 shadow-xl ring-1 ring-base-300">
          <div className="card-body gap-6 p-6 sm:p-8">
            {plans.isLoading ? <PlanSkeleton /> : card(onSale[0]!)}
            <div className="border-t border-base-content/10 pt-6">{summary}</div>
          </div>
        </div>
      </section>
    );
  }
  return (
    <section className="mx-auto w-full max-w-6xl px-4 py-8 sm:py-12">
      <header className="mb-6 space-y-2 text-center lg:text-left">
        <h1 id={headingId} className="text-2xl font-bold sm:text-3xl">
          {checkoutTexts.choosePlan}
        </h1>
        <p className="text-base-content/80">{checkoutTexts.choosePlanIntro}</p>
      </header>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <fieldset disabled={working} className="grid min-w-0 gap-4 sm:grid-cols-2" role="radiogroup" aria-labelledby={headingId}>
          {onSale.map(card)}
        </fieldset>
        <div className="card w-full max-w-md justify-self-center bg-base-100 shadow-xl ring-1 ring-base-300 lg:sticky lg:top-24 lg:max-w-none">
          <div className="card-body p-5 sm:p-6">{summary}</div>
        </div>
      </div>
    </section>
  );
}

/** The bundle card's place while the plans on sale are read. */
function PlanSkeleton() {
  return <div className="skeleton h-72 w-full" role="status" aria-label={checkoutTexts.plansLoading} />;
}
