import { messages } from '@lms/contract/messages';
import type { Plan } from '@lms/contract/plans';
import { useEffect, useId, useState } from 'react';
import toast from 'react-hot-toast';
import { useSelector } from 'react-redux';
import { Link, useSearchParams } from 'react-router';
import { Notice } from '../../lib/components/Notice';
import { formatDate } from '../../lib/format';
import { paths } from '../../lib/paths';
import { useAppDispatch } from '../../lib/store-hooks';
import { useAuth } from '../auth';
import { CHECKOUT_PARAMS, couponFromPath, returnPath } from './checkout-path';
import { checkoutTexts } from './checkout-texts';
import { CheckoutSummary } from './CheckoutSummary';
import { BUNDLE_TITLE, PlanCard } from './PlanCard';
import { getRazorpayKey, useGetCheckoutDetailsQuery, useGetPlansQuery } from './payments.api';
import { selectRazorpay } from './razorpay.slice';
import { useCheckoutChoice } from './use-checkout-choice';
import { useCheckoutPayment } from './use-checkout-payment';

/**
 * The bundle's card, beside the other plans on sale, and the checkout's flow: on load the key, then
 * the subscription for the plan chosen (`?plan=`, else the default, with no body as the original
 * client sends it). Choosing another plan or a coupon subscribes again (use-checkout-choice.ts); the
 * server's quote says what paying means; "Buy now" pays (use-checkout-payment.ts).
 */
export function SubscriptionBundle({ onPaying }: { onPaying: () => void }) {
  const dispatch = useAppDispatch();
  const [search, setSearch] = useSearchParams();
  const user = useAuth((auth) => auth.data);
  const { key, subscription_id: subscriptionId } = useSelector(selectRazorpay);
  // The script and price come with the key (the effect below asks for it first); held here while the page is open.
  const details = useGetCheckoutDetailsQuery();
  const checkoutScript = details.data?.checkoutScript ?? '';
  const price = details.data?.price ?? null;
  // A subscriber who cancelled without a refund resumes here (there are no renewals to switch back on).
  // The new subscription's first charge comes when the paid period ends; Checkout only checks the card now.
  const resumeFrom = user?.subscription.status === 'active' && user.subscription.cancelAtPeriodEnd ? user.subscription.currentPeriodEnd : undefined;
  const resumeDate = formatDate(resumeFrom);
  const plans = useGetPlansQuery();
  // The refund window the cards state beside the money-back promise.
  const refundWindowDays = plans.data?.refundWindowDays;
  // The course page whose Subscribe led here, for the result pages.
  const returnTo = returnPath(search.get(CHECKOUT_PARAMS.from));
  const [loading, setLoading] = useState(true);
  const headingId = useId();

  // The plan and coupon chosen, and the subscription and quote on hand for them.
  const choice = useCheckoutChoice(search.get(CHECKOUT_PARAMS.plan) || undefined, couponFromPath(search.get(CHECKOUT_PARAMS.coupon)));
  const { quote, updating, begin } = choice;
  const { working, buy } = useCheckoutPayment({ key, subscriptionId, checkoutScript, quote, returnTo, resumeFrom, onPaying });

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

  // On load, fetch the key, then create the subscription: the order the provider's flow needs.
  useEffect(() => {
    const controller = new AbortController();
    void (async () => {
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
      <button type="button" className="btn btn-primary btn-block btn-lg" disabled={!ready || working} aria-busy={working} onClick={() => void buy()}>
        {working && <span className="loading loading-spinner" aria-hidden="true" />}
        {resumeDate ? messages.resumeSubscription : trialChosen ? checkoutTexts.startTrial : 'Buy now'}
      </button>
      <p className="text-center text-xs text-base-content/70">
        {checkoutTexts.agreeBefore}
        <Link to={paths.terms} className="link">
          {messages.termsTitle}
        </Link>
        {checkoutTexts.agreeBetween}
        <Link to={paths.refundPolicy} className="link">
          {messages.refundPolicyTitle}
        </Link>
        .
      </p>
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
