import { messages } from '@lms/contract/messages';
import type { CheckoutQuote } from '@lms/contract/payments';
import { useCallback, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { isServerError } from '../../lib/server-state';
import { useAppDispatch } from '../../lib/store-hooks';
import { checkoutTexts } from './checkout-texts';
import type { CouponState } from './CheckoutSummary';
import { createSubscription, type CheckoutChoice } from './payments.api';

/** The server's refusals of a coupon: said under the coupon field, not as a toast. */
const COUPON_REFUSALS: ReadonlySet<string> = new Set([
  messages.couponUnknown,
  messages.couponNotYetValid,
  messages.couponExpired,
  messages.couponExhausted,
  messages.couponOtherPlan,
  messages.couponAlreadyUsed,
  messages.couponBelowMinimum,
]);

const sameChoice = (a: CheckoutChoice, b: CheckoutChoice | null) => b !== null && (a.plan ?? '') === (b.plan ?? '') && (a.coupon ?? '') === (b.coupon ?? '');

/** Whether a quote is for the plan (the default when none) and the coupon asked for. */
const isFor = (quote: CheckoutQuote, choice: CheckoutChoice) =>
  (choice.plan ? quote.plan.id === choice.plan : quote.plan.default) && (quote.coupon?.code ?? '') === (choice.coupon ?? '');

const closedCoupon: CouponState = { open: false, code: '', error: '' };

/**
 * The plan and coupon the buyer chose, and the subscription and quote on hand for
 * them. Each change subscribes again; requests go one at a time, and a choice made while one is on
 * its way is sent when it returns (the server replaces the unpaid subscription each time, so two at
 * once could leave the other). A refused coupon is said under its field: a new one is not applied,
 * and one the newly chosen plan does not take is dropped. A 400 or a 429 leaves the previous
 * subscription as it was, so the page goes back to it; any other failure leaves none, until "Try again".
 */
export function useCheckoutChoice(initialPlan: string | undefined, initialCoupon?: string) {
  const dispatch = useAppDispatch();
  const [planId, setPlanId] = useState(initialPlan);
  // What the buyer wants, and what the subscription and quote on hand are for. A coupon named by the
  // address (a reload, "Try again" after a failed payment) is applied with the first subscription.
  const desired = useRef<CheckoutChoice>({ plan: initialPlan, ...(initialCoupon && { coupon: initialCoupon }) });
  const settled = useRef<CheckoutChoice | null>(null);
  const [quote, setQuote] = useState<CheckoutQuote | null>(null);
  const [updating, setUpdating] = useState(false);
  const [failed, setFailed] = useState(false);
  const [applying, setApplying] = useState<string | undefined>();
  const [coupon, setCoupon] = useState<CouponState>(closedCoupon);
  /** The page's life: no subscription is asked for before `begin`, nor after the page is left. */
  const page = useRef<AbortSignal | null>(null);
  const running = useRef<AbortSignal | null>(null);

  /** Subscribes until the subscription on hand is for what the buyer wants, or a refusal stops it. */
  const settle = useCallback(async () => {
    const signal = page.current;
    if (!signal || signal.aborted || (running.current && !running.current.aborted)) return;
    running.current = signal;
    setUpdating(true);
    try {
      while (!signal.aborted && !sameChoice(desired.current, settled.current)) {
        const choice = { ...desired.current };
        setApplying(choice.coupon && choice.coupon !== settled.current?.coupon ? choice.coupon : undefined);
        try {
          const answer = await dispatch(createSubscription(choice, signal));
          if (!answer.subscriptionId) {
            toast.error(messages.somethingWentWrong);
            settled.current = null;
            setQuote(null);
            setFailed(true);
            break;
          }
          settled.current = choice;
          const { quote } = answer;
          // Another tab's checkout of this account may have been stored first, and the server answers with it:
          // the page then shows what that subscription is for, which is what Buy now pays.
          if (quote && !isFor(quote, choice)) {
            settled.current = desired.current = { plan: quote.plan.default ? undefined : quote.plan.id, coupon: quote.coupon?.code };
            setPlanId(settled.current.plan);
          }
          setQuote(quote ?? null);
          setFailed(false);
          if (choice.coupon) setCoupon(closedCoupon);
        } catch (error) {
          if (signal.aborted || !isServerError(error)) break;
          const previous = settled.current;
          // Refused before anything changed (a 400, or too many tries): the previous subscription stands.
          const unchanged = error.status === 400 || error.status === 429;
          const couponTried = Boolean(choice.coupon) && (COUPON_REFUSALS.has(error.message) || (error.status === 429 && choice.coupon !== previous?.coupon));
          if (unchanged && couponTried && choice.coupon) {
            const dropped = choice.coupon === previous?.coupon;
            desired.current = { ...desired.current, coupon: dropped ? undefined : previous?.coupon };
            setCoupon({ open: true, code: choice.coupon, error: dropped ? checkoutTexts.couponDropped(choice.coupon, error.message) : error.message });
            continue;
          }
          toast.error(error.message);
          if (error.status === 400 && error.message === messages.planNotFound && choice.plan) {
            // `?plan=` named a plan no longer on sale (or it was archived meanwhile): the default instead.
            desired.current = { ...desired.current, plan: undefined };
            setPlanId(undefined);
            continue;
          }
          if (unchanged && previous) {
            desired.current = { ...previous };
            setPlanId(previous.plan);
            break;
          }
          settled.current = null;
          setQuote(null);
          setFailed(true);
          break;
        }
      }
    } finally {
      setApplying(undefined);
      if (running.current === signal) running.current = null;
      if (!signal.aborted) setUpdating(false);
    }
  }, [dispatch]);

  /** Creates the subscription on load, once the key is there; `signal` ends when the page is left. */
  const begin = useCallback(
    (signal: AbortSignal) => {
      page.current = signal;
      return settle();
    },
    [settle],
  );

  return {
    planId,
    quote,
    updating,
    failed,
    /** The coupon code being applied, until the server answers. */
    applying,
    coupon,
    setCoupon,
    begin,
    retry: () => void settle(),
    choosePlan(id: string) {
      desired.current = { ...desired.current, plan: id };
      setPlanId(id);
      setCoupon((before) => ({ ...before, error: '' }));
      void settle();
    },
    applyCoupon(code: string) {
      desired.current = { ...desired.current, coupon: code };
      setCoupon((before) => ({ ...before, error: '' }));
      void settle();
    },
    removeCoupon() {
      desired.current = { ...desired.current, coupon: undefined };
      setCoupon(closedCoupon);
      void settle();
    },
  };
}
