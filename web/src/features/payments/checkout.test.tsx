import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import type { Discount, Plan } from '@lms/contract/plans';
import type { CheckoutQuote } from '@lms/contract/payments';
import type { User } from '@lms/contract/users';
import { createStore } from '../../app/store';
import { findToast, memoryRouter, renderPage, stubApi } from '../../test/render';
import { checkoutTexts } from './checkout-texts';
import CheckoutFailPage from './CheckoutFailPage';
import CheckoutPage from './CheckoutPage';
import CheckoutSuccessPage from './CheckoutSuccessPage';
import type { RazorpayOptions } from './load-script';

const user: User = {
  _id: '0b8e7a52-4a8c-4c47-9a52-6f1d2c3b4a5e',
  fullName: 'Asha Verma',
  email: 'asha@example.com',
  avatar: { secure_url: '/media/avatar.png' },
  role: 'USER',
  subscription: { status: 'inactive' },
};

const paid = {
  razorpay_payment_id: 'pay_Abc123',
  razorpay_subscription_id: 'sub_Xyz789',
  razorpay_signature: 'a'.repeat(64),
};

/** Stands in for Checkout: records its options and lets a test pay, fail or dismiss. */
class FakeRazorpay {
  static last: FakeRazorpay | undefined;
  opened = false;
  closed = false;
  private failedHandlers: ((response: { error?: { description?: string } }) => void)[] = [];

  constructor(readonly options: RazorpayOptions) {
    FakeRazorpay.last = this;
  }
  on(event: 'payment.failed', handler: (response: { error?: { description?: string } }) => void) {
    if (event === 'payment.failed') this.failedHandlers.push(handler);
    return this;
  }
  open() {
    this.opened = true;
  }
  close() {
    this.closed = true;
  }
  failPayment() {
    this.failedHandlers.forEach((handler) => handler({ error: { description: 'Your card was declined.' } }));
  }
}

function logIn(who: User = user) {
  localStorage.setItem('isLoggedIn', 'true');
  localStorage.setItem('role', who.role);
  localStorage.setItem('data', JSON.stringify(who));
}

// The plans on sale: the spec's bundle as the default, a yearly plan, a monthly one with a free trial.
const MONTHLY: Plan = { id: '10000000-0000-4000-8000-000000000001', name: 'Subscription Bundle', interval: 'monthly', price: 99, trialDays: 0, default: true };
const YEARLY: Plan = { id: '10000000-0000-4000-8000-000000000002', name: 'Yearly', interval: 'yearly', price: 999, trialDays: 0, default: false };
const TRIAL: Plan = { id: '10000000-0000-4000-8000-000000000003', name: 'Starter', interval: 'monthly', price: 149, trialDays: 7, default: false };
// Midday UTC: the same calendar day in India, where dates are shown.
const NOW = '2026-11-25T06:30:00.000Z';
const TRIAL_END = '2026-12-02T06:30:00.000Z';

/** A quote as the server answers one: the plan's price today, then the same every period. */
const quoteFor = (plan: Plan, overrides: Partial<CheckoutQuote> = {}): CheckoutQuote => ({
  plan,
  coupon: null,
  dueNow: plan.price,
  authorisationOnly: false,
  firstCharge: { amount: plan.price, date: NOW },
  discountedCharges: 0,
  regularPrice: plan.price,
  trialDays: 0,
  trialUnavailable: false,
  ...overrides,
});

const keyAnswer = (overrides: object = {}) => ({
  body: { success: true, message: answers.razorpayKey, key: 'rzp_test_key', checkoutScript: '/sandbox/checkout.js', price: 99, ...overrides },
});
const subscribeAnswer = (overrides: object = {}) => ({
  body: { success: true, message: answers.subscriptionCreated, subscription_id: 'sub_Xyz789', checkout: quoteFor(MONTHLY), ...overrides },
});
const plansAnswer = (plans: Plan[], trialAvailable = true, refundWindowDays = 14) => ({
  body: { success: true, message: answers.plansFetched, plans, trialAvailable, refundWindowDays },
});
const refusal = (message: string) => ({ status: 400, body: { success: false, message } });

function stubCheckout(extra: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    'GET /api/v1/payments/razorpay-key': keyAnswer(),
    'GET /api/v1/payments/plans': plansAnswer([MONTHLY]),
    'POST /api/v1/payments/subscribe': subscribeAnswer(),
    ...extra,
  });
}

const HALF_OFF: Discount = { code: 'HALF2', kind: 'percent', amount: 50, charges: 2 };
/** Coupons the fake server knows, and the plans each is for (none: every plan). */
const COUPONS: Record<string, { discount: Discount; plans: string[] }> = {
  HALF2: { discount: HALF_OFF, plans: [MONTHLY.id] },
  ANY20: { discount: { code: 'ANY20', kind: 'amount', amount: 20, charges: 1 }, plans: [] },
};

/**
 * `POST /payments/subscribe` as the server answers it: the plan asked for (the default without one),
 * its trial when it has one, a known coupon for its plans; a new subscription id for each new choice.
 */
function subscribeLikeServer({ trial = true, refuse }: { trial?: boolean; refuse?: string } = {}) {
  const ids = new Map<string, string>();
  return (init: RequestInit) => {
    const choice = (init.body ? JSON.parse(init.body as string) : {}) as { plan?: string; coupon?: string };
    const plan = choice.plan ? [MONTHLY, YEARLY, TRIAL].find((candidate) => candidate.id === choice.plan) : MONTHLY;
    if (!plan) return refusal(messages.planNotFound);
    const coupon = choice.coupon ? COUPONS[choice.coupon] : undefined;
    if (choice.coupon && refuse) return refusal(refuse);
    if (choice.coupon && !coupon) return refusal(messages.couponUnknown);
    if (coupon && coupon.plans.length && !coupon.plans.includes(plan.id)) return refusal(messages.couponOtherPlan);
    const first = coupon ? plan.price * (1 - coupon.discount.amount / 100) : plan.price;
    const trialDays = trial ? plan.trialDays : 0;
    const key = `${plan.id} ${choice.coupon ?? ''}`;
    if (!ids.has(key)) ids.set(key, `sub_Choice${ids.size + 1}`);
    return {
      body: {
        success: true,
        message: answers.subscriptionCreated,
        subscription_id: ids.get(key),
        checkout: quoteFor(plan, {
          coupon: coupon?.discount ?? null,
          dueNow: trialDays ? 5 : first,
          authorisationOnly: trialDays > 0,
          firstCharge: { amount: first, date: trialDays ? TRIAL_END : NOW },
          discountedCharges: coupon?.discount.charges ?? 0,
          trialDays,
          trialUnavailable: plan.trialDays > 0 && !trial,
        }),
      },
    };
  };
}

/** What was sent to subscribe, in order: the body, or null for none (the spec's call). */
const subscribeBodies = (calls: { url: string; init: RequestInit }[]) =>
  calls.filter((call) => call.url === '/api/v1/payments/subscribe').map((call) => (call.init.body ? JSON.parse(call.init.body as string) : null));

/** The checkout opened at `url` (a query string too, which renderPage's path cannot carry). */
function renderCheckoutAt(url: string) {
  const store = createStore();
  const { routed, router } = memoryRouter(
    [
      { path: '/checkout', element: <CheckoutPage /> },
      { path: '/checkout/success', element: <CheckoutSuccessPage /> },
      { path: '/checkout/fail', element: <CheckoutFailPage /> },
      { path: '*', element: <p>Elsewhere</p> },
    ],
    url,
  );
  const view = render(
    <Provider store={store}>
      {routed}
      <Toaster />
    </Provider>,
  );
  return { ...view, store, router, user: userEvent.setup() };
}

/** The calls of the spec's flow, without the read of the plans on sale. */
const withoutPlans = <T extends { url: string }>(calls: T[]) => calls.filter((call) => call.url !== '/api/v1/payments/plans');

/** The summary before paying, by its heading. */
const summary = () => screen.getByRole('region', { name: checkoutTexts.summary });

async function openWidget() {
  const view = renderPage(<CheckoutPage />, { path: '/checkout' });
  const buy = await screen.findByRole('button', { name: 'Buy now' });
  await waitFor(() => expect(buy).toBeEnabled());
  await view.user.click(buy);
  await waitFor(() => expect(FakeRazorpay.last?.opened).toBe(true));
  return { ...view, checkout: FakeRazorpay.last! };
}

beforeEach(() => {
  toast.remove();
  FakeRazorpay.last = undefined;
  // The script loader skips loading when Checkout is already there.
  window.Razorpay = FakeRazorpay;
});

afterEach(() => {
  delete window.Razorpay;
});

describe('/checkout', () => {
  it('shows the bundle: duration, the price from the server in rupees, and what it includes', async () => {
    logIn();
    const bundle = { ...MONTHLY, price: 149 };
    stubCheckout({
      'GET /api/v1/payments/razorpay-key': keyAnswer({ price: 149 }),
      'GET /api/v1/payments/plans': plansAnswer([bundle]),
      'POST /api/v1/payments/subscribe': subscribeAnswer({ checkout: quoteFor(bundle) }),
    });
    renderPage(<CheckoutPage />, { path: '/checkout' });

    const card = await screen.findByRole('article', { name: 'Subscription Bundle' });
    expect(within(card).getByRole('heading', { level: 1, name: 'Subscription Bundle' })).toBeInTheDocument();
    expect(within(card).getByText('₹149')).toBeInTheDocument();
    expect(within(card).getByText('1 month')).toBeInTheDocument();
    expect(within(card).getByText(messages.bundleIncludes)).toBeInTheDocument();
    expect(within(card).getByText(messages.bundleRefundable)).toBeInTheDocument();
    // Beside the spec's promise, the rule the server applies, with its window, and the way to the whole policy.
    const rule = within(card).getByRole('link', { name: messages.refundPolicy }).closest('li')!;
    expect(rule).toHaveTextContent(`${messages.bundleRefundable}${messages.refundRule(14)} ${messages.refundPolicy}`);
    expect(within(rule).getByRole('link', { name: messages.refundPolicy })).toHaveAttribute('href', '/refund-policy');
    // Alone on sale, the bundle is no choice to make.
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();
    // Beside the pay button, what buying agrees to, with the way to both pages.
    const agreement = screen.getByText(
      (_text, element) => element?.tagName === 'P' && element.textContent === 'By subscribing you agree to the Terms of service and the Refund policy.',
    );
    expect(within(agreement).getByRole('link', { name: 'Terms of service' })).toHaveAttribute('href', '/terms');
    expect(within(agreement).getByRole('link', { name: 'Refund policy' })).toHaveAttribute('href', '/refund-policy');
  });

  it('still shows the bundle at the price the key call gave when the plans cannot be read', async () => {
    logIn();
    stubCheckout({ 'GET /api/v1/payments/plans': { status: 500, body: {} } });
    renderPage(<CheckoutPage />, { path: '/checkout' });

    const card = await screen.findByRole('article', { name: 'Subscription Bundle' });
    expect(within(card).getByText('₹99')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());
    // The failed read is the page's to handle: no toast about it.
    expect(screen.queryByText(messages.failedLoadData)).not.toBeInTheDocument();
  });

  it('names the browser tab; /checkout/fail too', () => {
    logIn();
    stubCheckout();
    const first = renderPage(<CheckoutPage />, { path: '/checkout' });
    expect(document.title).toBe('Checkout · LMS');
    first.unmount();
    renderPage(<CheckoutFailPage />, { path: '/checkout/fail' });
    expect(document.title).toBe(`${messages.paymentFailed} · LMS`);
  });

  it('on load fetches the key, then creates the subscription; Buy now waits for both', async () => {
    logIn();
    const calls = stubCheckout();
    const { store } = renderPage(<CheckoutPage />, { path: '/checkout' });

    expect(screen.getByRole('button', { name: 'Buy now' })).toBeDisabled();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());
    // Beside them, the plans on sale are read.
    expect(withoutPlans(calls).map((call) => `${call.init.method ?? 'GET'} ${call.url}`)).toEqual([
      'GET /api/v1/payments/razorpay-key',
      'POST /api/v1/payments/subscribe',
    ]);
    expect(calls.some((call) => call.url === '/api/v1/payments/plans')).toBe(true);
    // The spec's call: no body, for the default plan.
    expect(subscribeBodies(calls)).toEqual([null]);
    expect(store.getState().razorpay).toMatchObject({ key: 'rzp_test_key', subscription_id: 'sub_Xyz789' });
    expect(screen.queryByText(messages.somethingWentWrong)).not.toBeInTheDocument();
  });

  it("says 'Something went wrong' when the key is missing, and does not subscribe", async () => {
    logIn();
    const calls = stubCheckout({ 'GET /api/v1/payments/razorpay-key': keyAnswer({ key: '' }) });
    renderPage(<CheckoutPage />, { path: '/checkout' });

    expect(await screen.findByText(messages.somethingWentWrong)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Buy now' })).toBeDisabled();
    expect(withoutPlans(calls).map((call) => call.url)).toEqual(['/api/v1/payments/razorpay-key']);
  });

  it("says 'Something went wrong' when the subscription id is missing", async () => {
    logIn();
    stubCheckout({ 'POST /api/v1/payments/subscribe': subscribeAnswer({ subscription_id: '' }) });
    renderPage(<CheckoutPage />, { path: '/checkout' });

    expect(await screen.findByText(messages.somethingWentWrong)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Buy now' })).toBeDisabled();
  });

  it("shows the server's refusal once, without a second 'Something went wrong'", async () => {
    logIn();
    stubCheckout({
      'POST /api/v1/payments/subscribe': { status: 502, body: { success: false, message: answers.providerUnavailable } },
    });
    renderPage(<CheckoutPage />, { path: '/checkout' });

    expect(await screen.findByText(answers.providerUnavailable)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Buy now' })).toBeDisabled();
    expect(screen.queryByText(messages.somethingWentWrong)).not.toBeInTheDocument();
  });

  it('tells an active subscriber they are subscribed, with the renewal date and the way to the courses, and creates nothing', async () => {
    logIn({ ...user, subscription: { status: 'active', currentPeriodEnd: '2026-12-23T06:30:00.000Z', cancelAtPeriodEnd: false } });
    const calls = stubCheckout();
    renderPage(<CheckoutPage />, { path: '/checkout' });

    expect(screen.getByRole('heading', { level: 1, name: messages.youAreSubscribed })).toBeInTheDocument();
    expect(screen.getByText(messages.renewsOn('23 Dec 2026'))).toBeInTheDocument();
    expect(screen.getByRole('link', { name: messages.browseCourses })).toHaveAttribute('href', '/courses');
    expect(screen.getByRole('link', { name: messages.manageSubscription })).toHaveAttribute('href', '/user/profile');
    expect(screen.queryByRole('button', { name: 'Buy now' })).not.toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toEqual([]);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('tells an administrator that no subscription is needed, without asking the server for one', async () => {
    logIn({ ...user, role: 'ADMIN' });
    const calls = stubCheckout();
    renderPage(<CheckoutPage />, { path: '/checkout' });

    expect(screen.getByRole('heading', { level: 1, name: messages.noSubscriptionNeeded })).toBeInTheDocument();
    expect(screen.getByText(messages.adminCannotSubscribe)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: messages.browseCourses })).toHaveAttribute('href', '/courses');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toEqual([]);
  });

  it('a subscription the stored user did not know about: the refusal reloads the user and the page says subscribed', async () => {
    logIn();
    stubCheckout({
      'POST /api/v1/payments/subscribe': { status: 400, body: { success: false, message: messages.alreadySubscribed } },
      'GET /api/v1/user/me': { body: { success: true, message: answers.userDetailsFetched, user: { ...user, subscription: { status: 'active' } } } },
    });
    renderPage(<CheckoutPage />, { path: '/checkout' });

    expect(await screen.findByRole('heading', { level: 1, name: messages.youAreSubscribed })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Buy now' })).not.toBeInTheDocument();
  });

  it('Buy now opens Checkout with the key, the subscription and the customer', async () => {
    logIn();
    stubCheckout();
    const { checkout } = await openWidget();

    expect(checkout.options).toMatchObject({
      key: 'rzp_test_key',
      subscription_id: 'sub_Xyz789',
      name: 'LMS',
      description: 'Subscription Bundle · 1 month',
      prefill: { name: user.fullName, email: user.email },
    });
    expect(screen.getByRole('button', { name: 'Buy now' })).toBeDisabled();
  });

  it('closing Checkout without paying enables Buy now again', async () => {
    logIn();
    stubCheckout();
    const { checkout } = await openWidget();

    act(() => checkout.options.modal?.ondismiss?.());
    expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled();
  });

  it('a payment is verified with the three fields, the user reloaded, and the page goes to /checkout/success', async () => {
    logIn();
    const calls = stubCheckout({
      'POST /api/v1/payments/verify': { body: { success: true, message: answers.paymentVerified } },
      'GET /api/v1/user/me': { body: { success: true, message: answers.userDetailsFetched, user: { ...user, subscription: { status: 'active' } } } },
    });
    const { checkout, router, store } = await openWidget();

    act(() => checkout.options.handler({ ...paid, extra: 'not sent' } as typeof paid));

    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/success'));
    // In place of /checkout, telling the result page a payment was just verified; the bundle stayed until then.
    expect(router.state.historyAction).toBe('REPLACE');
    expect(router.state.location.state).toEqual({ paid: true });
    expect(screen.queryByRole('heading', { name: messages.youAreSubscribed })).not.toBeInTheDocument();
    const verify = calls.find((call) => call.url === '/api/v1/payments/verify');
    expect(verify?.init.method).toBe('POST');
    expect(JSON.parse(verify?.init.body as string)).toEqual(paid);
    expect(store.getState().razorpay.isPaymentVerified).toBe(true);
    expect(store.getState().auth.data?.subscription.status).toBe('active');
    expect(await screen.findByText(answers.paymentVerified)).toBeInTheDocument();
  });

  it('a payment that fails verification goes to /checkout/fail', async () => {
    logIn();
    stubCheckout({
      'POST /api/v1/payments/verify': { status: 400, body: { success: false, message: answers.paymentSignatureInvalid } },
    });
    const { checkout, router, store } = await openWidget();

    act(() => checkout.options.handler(paid));

    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/fail'));
    expect(store.getState().razorpay.isPaymentVerified).toBe(false);
    expect(await screen.findByText(answers.paymentSignatureInvalid)).toBeInTheDocument();
    // The failure page is told why, and that the default plan alone was being paid.
    expect(router.state.location.state).toEqual({ failed: true, reason: answers.paymentSignatureInvalid, retry: {}, planTitle: 'Subscription Bundle' });
  });

  it('a payment Checkout reports as failed goes to /checkout/fail and closes Checkout', async () => {
    logIn();
    const calls = stubCheckout();
    const { checkout, router } = await openWidget();

    act(() => checkout.failPayment());

    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/fail'));
    expect(router.state.location.state).toMatchObject({ failed: true, reason: 'Your card was declined.' });
    expect(checkout.closed).toBe(true);
    expect(calls.some((call) => call.url === '/api/v1/payments/verify')).toBe(false);
  });

  it('resumes a subscription cancelled without a refund: says nothing is charged until the period ends, keeps the bundle, and confirms the resumption', async () => {
    const periodEnd = '2026-12-23T06:30:00.000Z';
    const ending: User = { ...user, subscription: { status: 'active', currentPeriodEnd: periodEnd, cancelAtPeriodEnd: true } };
    const resumed: User = { ...user, subscription: { status: 'active', currentPeriodEnd: periodEnd, cancelAtPeriodEnd: false } };
    logIn(ending);
    const calls = stubCheckout({
      'POST /api/v1/payments/verify': { body: { success: true, message: answers.paymentVerified } },
      'GET /api/v1/user/me': { body: { success: true, message: answers.userDetailsFetched, user: resumed } },
    });
    const view = renderPage(<CheckoutPage />, { path: '/checkout', routes: [{ path: '/checkout/success', element: <CheckoutSuccessPage /> }] });

    expect(screen.getByRole('note')).toHaveTextContent(`${messages.resumeNothingCharged('23 Dec 2026')} ${messages.resumeCardCheck}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Subscription Bundle' })).toBeInTheDocument();
    expect(screen.getByText(messages.bundleIncludes)).toBeInTheDocument();
    expect(screen.getByText(messages.bundleRefundable)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Buy now' })).not.toBeInTheDocument();
    const resume = screen.getByRole('button', { name: 'Resume subscription' });
    await waitFor(() => expect(resume).toBeEnabled());
    await view.user.click(resume);
    await waitFor(() => expect(FakeRazorpay.last?.opened).toBe(true));
    act(() => FakeRazorpay.last!.options.handler(paid));

    expect(await screen.findByRole('heading', { level: 1, name: 'Subscription resumed' })).toBeInTheDocument();
    expect(screen.getByText(messages.subscriptionResumedText('23 Dec 2026'))).toBeInTheDocument();
    expect(view.router.state.location.pathname).toBe('/checkout/success');
    expect(withoutPlans(calls).map((call) => `${call.init.method ?? 'GET'} ${call.url}`)).toEqual([
      'GET /api/v1/payments/razorpay-key',
      'POST /api/v1/payments/subscribe',
      'POST /api/v1/payments/verify',
      'GET /api/v1/user/me',
    ]);
    expect(view.store.getState().auth.data?.subscription).toEqual(resumed.subscription);
  });

  it('sends a visitor to /login, to come back to /checkout', async () => {
    const calls = stubApi({});
    const { router } = renderPage(<CheckoutPage />, { path: '/checkout' });

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?next=%2Fcheckout');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(calls).toEqual([]);
  });
});

describe('/checkout: plans, free trials and coupons', () => {
  function stubPlans(extra: Parameters<typeof stubApi>[0] = {}, { plans = [MONTHLY, YEARLY, TRIAL], trialAvailable = true, trial = true } = {}) {
    return stubCheckout({
      'GET /api/v1/payments/plans': plansAnswer(plans, trialAvailable),
      'POST /api/v1/payments/subscribe': subscribeLikeServer({ trial }),
      ...extra,
    });
  }

  it('shows the plans on sale side by side as choices: the bundle as the spec has it, a yearly plan with its saving, a free trial', async () => {
    logIn();
    stubPlans();
    renderPage(<CheckoutPage />, { path: '/checkout' });

    expect(await screen.findByRole('heading', { level: 1, name: checkoutTexts.choosePlan })).toBeInTheDocument();
    const group = screen.getByRole('radiogroup', { name: checkoutTexts.choosePlan });
    // In the server's order, the default first; the default chosen.
    expect(
      within(group)
        .getAllByRole('heading', { level: 2 })
        .map((heading) => heading.textContent),
    ).toEqual(['Subscription Bundle', 'Yearly', 'Starter']);
    expect(within(group).getByRole('radio', { name: 'Subscription Bundle' })).toBeChecked();
    expect(within(group).getByRole('radio', { name: 'Yearly' })).not.toBeChecked();
    expect(within(group).getByRole('radio', { name: 'Starter' })).not.toBeChecked();

    const bundle = screen.getByRole('article', { name: 'Subscription Bundle' });
    expect(within(bundle).getByText('1 month')).toBeInTheDocument();
    expect(within(bundle).getByText('₹99')).toBeInTheDocument();
    expect(within(bundle).getByText(messages.bundleIncludes)).toBeInTheDocument();
    expect(within(bundle).getByText(messages.bundleRefundable)).toBeInTheDocument();

    // 999 against 12 × 99 = 1,188: 16 % less.
    const yearly = screen.getByRole('article', { name: 'Yearly' });
    expect(within(yearly).getByText('1 year')).toBeInTheDocument();
    expect(within(yearly).getByText('₹999')).toBeInTheDocument();
    expect(within(yearly).getByText('Save 16 %')).toBeInTheDocument();
    expect(within(yearly).getByText('₹83.25 a month')).toBeInTheDocument();

    const trial = screen.getByRole('article', { name: 'Starter' });
    expect(within(trial).getByText('7-day free trial')).toBeInTheDocument();
    expect(within(bundle).queryByText(/free trial/)).not.toBeInTheDocument();

    // Every card says the refund rule beside the spec's promise, with the window the server applies.
    for (const card of [bundle, yearly, trial]) {
      expect(within(card).getByText(messages.bundleRefundable)).toBeInTheDocument();
      expect(within(card).getByRole('link', { name: messages.refundPolicy }).parentElement).toHaveTextContent(
        `${messages.refundRule(14)} ${messages.refundPolicy}`,
      );
    }
  });

  it('states the refund window the server configures, and the rule in general until it is known', async () => {
    logIn();
    stubPlans({ 'GET /api/v1/payments/plans': plansAnswer([MONTHLY, YEARLY], true, 7) });
    renderPage(<CheckoutPage />, { path: '/checkout' });
    const yearly = await screen.findByRole('article', { name: 'Yearly' });
    expect(within(yearly).getByRole('link', { name: messages.refundPolicy }).parentElement).toHaveTextContent(messages.refundRule(7));
    expect(messages.refundRule(7)).toBe('Cancel within 7 days of a payment and that payment is refunded in full, once in any 12 months.');
    expect(messages.refundRule(1)).toContain('within 1 day of');
  });

  it('tells an account that has had its free trial so, instead of offering it', async () => {
    logIn();
    stubPlans({}, { trialAvailable: false, trial: false });
    renderPage(<CheckoutPage />, { path: '/checkout' });

    const trial = await screen.findByRole('article', { name: 'Starter' });
    expect(within(trial).getByText(checkoutTexts.trialHad)).toBeInTheDocument();
    expect(screen.queryByText('7-day free trial')).not.toBeInTheDocument();
  });

  it('sums up before paying: what is taken today, then the price per month until cancelled', async () => {
    logIn();
    stubPlans();
    renderPage(<CheckoutPage />, { path: '/checkout' });

    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());
    expect(within(summary()).getByText(checkoutTexts.dueToday).closest('dt')!.nextElementSibling).toHaveTextContent('₹99');
    expect(within(summary()).getByText('Then ₹99/month until you cancel.')).toBeInTheDocument();
    expect(within(summary()).queryByText(checkoutTexts.firstPayment)).not.toBeInTheDocument();
  });

  it('choosing another plan subscribes for it, sums it up per year, and the address remembers it', async () => {
    logIn();
    const calls = stubPlans();
    const { user, router, store } = renderPage(<CheckoutPage />, { path: '/checkout' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());

    await user.click(screen.getByRole('radio', { name: 'Yearly' }));
    expect(screen.getByRole('radio', { name: 'Yearly' })).toBeChecked();
    expect(await within(summary()).findByText('Then ₹999/year until you cancel.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());
    // The summary names the plan, whose card may be out of sight (a phone).
    expect(within(summary()).getByText('Yearly')).toBeInTheDocument();
    expect(within(summary()).getByText('₹999/year')).toBeInTheDocument();
    expect(subscribeBodies(calls)).toEqual([null, { plan: YEARLY.id }]);
    expect(store.getState().razorpay.subscription_id).toBe('sub_Choice2');
    expect(router.state.location.search).toBe(`?plan=${YEARLY.id}`);
    expect(router.state.historyAction).toBe('REPLACE');

    // Buy now opens Checkout for the yearly subscription.
    await user.click(screen.getByRole('button', { name: 'Buy now' }));
    await waitFor(() => expect(FakeRazorpay.last?.opened).toBe(true));
    expect(FakeRazorpay.last!.options).toMatchObject({ subscription_id: 'sub_Choice2', description: 'Yearly · 1 year' });
  });

  it('clicking anywhere on a plan card chooses it', async () => {
    logIn();
    stubPlans();
    const { user } = renderPage(<CheckoutPage />, { path: '/checkout' });
    const yearly = await screen.findByRole('article', { name: 'Yearly' });
    // The title is the radio's label, stretched over the card.
    await user.click(within(yearly).getByText('Yearly'));
    expect(screen.getByRole('radio', { name: 'Yearly' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Subscription Bundle' })).not.toBeChecked();
  });

  it('?plan= in the address chooses that plan: the first subscription is for it', async () => {
    logIn();
    const calls = stubPlans();
    renderCheckoutAt(`/checkout?plan=${YEARLY.id}`);

    expect(await screen.findByRole('radio', { name: 'Yearly' })).toBeChecked();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());
    expect(subscribeBodies(calls)).toEqual([{ plan: YEARLY.id }]);
    expect(within(summary()).getByText('Then ₹999/year until you cancel.')).toBeInTheDocument();
  });

  it('?plan= naming a plan no longer on sale says so, and offers the bundle instead', async () => {
    logIn();
    const calls = stubPlans();
    renderCheckoutAt('/checkout?plan=10000000-0000-4000-8000-00000000dead');

    expect(await findToast(messages.planNotFound)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());
    expect(screen.getByRole('radio', { name: 'Subscription Bundle' })).toBeChecked();
    expect(subscribeBodies(calls)).toEqual([{ plan: '10000000-0000-4000-8000-00000000dead' }, null]);
  });

  it('a plan with a free trial: today only a card check refunded at once, the first payment and its date, then the price', async () => {
    logIn();
    stubPlans();
    const { user } = renderPage(<CheckoutPage />, { path: '/checkout' });
    await user.click(await screen.findByRole('radio', { name: 'Starter' }));

    const button = await screen.findByRole('button', { name: checkoutTexts.startTrial });
    await waitFor(() => expect(button).toBeEnabled());
    const today = within(summary()).getByText(checkoutTexts.dueToday).closest('dt')!;
    expect(today).toHaveTextContent(checkoutTexts.cardCheck);
    expect(today.nextElementSibling).toHaveTextContent('₹5');
    const first = within(summary()).getByText(checkoutTexts.firstPayment).closest('dt')!;
    expect(first).toHaveTextContent(checkoutTexts.firstPaymentAfterTrial('2 Dec 2026'));
    expect(first.nextElementSibling).toHaveTextContent('₹149');
    expect(within(summary()).getByText('Then ₹149/month until you cancel.')).toBeInTheDocument();
  });

  it('after a free trial starts, the success page says so and when the first payment is', async () => {
    logIn();
    stubPlans({
      'POST /api/v1/payments/verify': { body: { success: true, message: answers.paymentVerified } },
      'GET /api/v1/user/me': {
        body: {
          success: true,
          message: answers.userDetailsFetched,
          user: { ...user, subscription: { status: 'active', currentPeriodEnd: TRIAL_END, trialEndsAt: TRIAL_END } },
        },
      },
    });
    const view = renderCheckoutAt(`/checkout?plan=${TRIAL.id}`);
    const start = await screen.findByRole('button', { name: checkoutTexts.startTrial });
    await waitFor(() => expect(start).toBeEnabled());
    await view.user.click(start);
    await waitFor(() => expect(FakeRazorpay.last?.opened).toBe(true));
    act(() => FakeRazorpay.last!.options.handler(paid));

    expect(await screen.findByRole('heading', { level: 1, name: checkoutTexts.trialStarted })).toBeInTheDocument();
    expect(screen.getByText(checkoutTexts.trialStartedText(149, '2 Dec 2026'))).toBeInTheDocument();
    expect(screen.queryByText(messages.paymentSuccessful)).not.toBeInTheDocument();
    expect(document.title).toBe(`${checkoutTexts.trialStarted} · LMS`);
    // Nothing was paid: no "Payment verified" either.
    expect(screen.queryByText(answers.paymentVerified)).not.toBeInTheDocument();
  });

  it('a coupon: "Have a coupon?" opens the field; Apply subscribes with the plan and the code; the summary says what the discount does', async () => {
    logIn();
    const calls = stubPlans();
    const { user, store } = renderPage(<CheckoutPage />, { path: '/checkout' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());

    await user.click(screen.getByRole('button', { name: checkoutTexts.haveCoupon }));
    await user.type(screen.getByLabelText(checkoutTexts.couponCode), 'half2');
    await user.click(screen.getByRole('button', { name: checkoutTexts.apply }));

    expect(await within(summary()).findByText('₹49.50 for the first 2 months, then ₹99/month.')).toBeInTheDocument();
    expect(within(summary()).getByText(checkoutTexts.dueToday).closest('dt')!.nextElementSibling).toHaveTextContent('₹49.50');
    expect(within(summary()).getByText('HALF2')).toBeInTheDocument();
    expect(within(summary()).getByText('50 % off your first 2 payments')).toBeInTheDocument();
    expect(screen.queryByLabelText(checkoutTexts.couponCode)).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());
    expect(subscribeBodies(calls)).toEqual([null, { coupon: 'HALF2' }]);
    expect(store.getState().razorpay.subscription_id).toBe('sub_Choice2');

    // Remove: the plan alone again.
    await user.click(screen.getByRole('button', { name: checkoutTexts.removeCoupon('HALF2') }));
    expect(await within(summary()).findByText('Then ₹99/month until you cancel.')).toBeInTheDocument();
    expect(screen.queryByText('HALF2')).not.toBeInTheDocument();
    expect(subscribeBodies(calls).at(-1)).toBeNull();
    expect(screen.getByRole('button', { name: checkoutTexts.haveCoupon })).toBeInTheDocument();
  });

  it('a refused coupon says why under its field, and nowhere else; the subscription on hand stays payable', async () => {
    logIn();
    const calls = stubPlans({ 'POST /api/v1/payments/subscribe': subscribeLikeServer({ refuse: messages.couponExpired }) });
    const { user, store } = renderPage(<CheckoutPage />, { path: '/checkout' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());

    await user.click(screen.getByRole('button', { name: checkoutTexts.haveCoupon }));
    const field = screen.getByLabelText(checkoutTexts.couponCode);
    await user.type(field, 'OLD10{Enter}');

    expect(await screen.findByRole('alert')).toHaveTextContent(messages.couponExpired);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(messages.couponExpired);
    expect(screen.getAllByText(messages.couponExpired)).toHaveLength(1);
    expect(subscribeBodies(calls)).toEqual([null, { coupon: 'OLD10' }]);
    // The server kept the subscription before the attempt: it is still the one to pay, at the price before.
    expect(store.getState().razorpay.subscription_id).toBe('sub_Choice1');
    expect(within(summary()).getByText('Then ₹99/month until you cancel.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());

    // Typing again clears the message.
    await user.type(field, 'X');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('too many refused codes: said under the field too, and a plan switch refused as too many goes back to the plan on hand', async () => {
    logIn();
    const server = subscribeLikeServer();
    let limited = false;
    const calls = stubPlans({
      'POST /api/v1/payments/subscribe': (init) => (limited ? { status: 429, body: { success: false, message: answers.tooManyRequests } } : server(init)),
    });
    const { user, store } = renderPage(<CheckoutPage />, { path: '/checkout' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());

    limited = true;
    await user.click(screen.getByRole('button', { name: checkoutTexts.haveCoupon }));
    await user.type(screen.getByLabelText(checkoutTexts.couponCode), 'GUESS1{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(answers.tooManyRequests);
    expect(screen.getAllByText(answers.tooManyRequests)).toHaveLength(1);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());

    await user.click(screen.getByRole('radio', { name: 'Yearly' }));
    expect(await findToast(answers.tooManyRequests)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('radio', { name: 'Subscription Bundle' })).toBeChecked());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());
    expect(store.getState().razorpay.subscription_id).toBe('sub_Choice1');
    expect(subscribeBodies(calls)).toEqual([null, { coupon: 'GUESS1' }, { plan: YEARLY.id }]);
  });

  it('switching plans keeps a coupon the new plan takes', async () => {
    logIn();
    const calls = stubPlans();
    const { user } = renderPage(<CheckoutPage />, { path: '/checkout' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: checkoutTexts.haveCoupon }));
    await user.type(screen.getByLabelText(checkoutTexts.couponCode), 'ANY20{Enter}');
    expect(await within(summary()).findByText('ANY20')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Yearly' }));
    await waitFor(() => expect(subscribeBodies(calls).at(-1)).toEqual({ plan: YEARLY.id, coupon: 'ANY20' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());
    expect(within(summary()).getByText('ANY20')).toBeInTheDocument();
    expect(within(summary()).getByText('₹20 off your first payment')).toBeInTheDocument();
  });

  it('switching to a plan the coupon is not for drops it and says why under the field', async () => {
    logIn();
    const calls = stubPlans();
    const { user, store } = renderPage(<CheckoutPage />, { path: '/checkout' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: checkoutTexts.haveCoupon }));
    await user.type(screen.getByLabelText(checkoutTexts.couponCode), 'HALF2{Enter}');
    expect(await within(summary()).findByText('₹49.50 for the first 2 months, then ₹99/month.')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Yearly' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(checkoutTexts.couponDropped('HALF2', messages.couponOtherPlan));
    expect(await within(summary()).findByText('Then ₹999/year until you cancel.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());
    expect(screen.getByLabelText(checkoutTexts.couponCode)).toHaveValue('HALF2');
    expect(screen.queryByText(messages.couponOtherPlan, { selector: '[role="status"]' })).not.toBeInTheDocument();
    expect(subscribeBodies(calls)).toEqual([null, { coupon: 'HALF2' }, { plan: YEARLY.id, coupon: 'HALF2' }, { plan: YEARLY.id }]);
    expect(store.getState().razorpay.subscription_id).toBe('sub_Choice3');
  });

  it('a choice made while the last is on its way is sent when it returns, and Buy now waits for it', async () => {
    logIn();
    let release: () => void = () => undefined;
    const server = subscribeLikeServer();
    const calls = stubPlans({
      'POST /api/v1/payments/subscribe': (init) => server(init),
    });
    const { user } = renderPage(<CheckoutPage />, { path: '/checkout' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());
    // The next answer is held back until released.
    const fetchBefore = globalThis.fetch;
    globalThis.fetch = (async (url: string, init?: RequestInit) => {
      if (url === '/api/v1/payments/subscribe') await new Promise<void>((resolve) => (release = resolve));
      return fetchBefore(url, init);
    }) as typeof fetch;

    await user.click(screen.getByRole('radio', { name: 'Yearly' }));
    await user.click(screen.getByRole('radio', { name: 'Starter' }));
    await user.click(screen.getByRole('radio', { name: 'Yearly' }));
    expect(screen.getByRole('button', { name: 'Buy now' })).toBeDisabled();
    globalThis.fetch = fetchBefore;
    act(() => release());

    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());
    // One request at a time; the choice in between was never sent, as it was no longer wanted.
    expect(subscribeBodies(calls)).toEqual([null, { plan: YEARLY.id }]);
    expect(within(summary()).getByText('Then ₹999/year until you cancel.')).toBeInTheDocument();
  });

  it('a subscription that cannot be made for a new plan can be tried again', async () => {
    logIn();
    let fail = false;
    const server = subscribeLikeServer();
    stubPlans({
      'POST /api/v1/payments/subscribe': (init) => (fail ? { status: 502, body: { success: false, message: answers.providerUnavailable } } : server(init)),
    });
    const { user } = renderPage(<CheckoutPage />, { path: '/checkout' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());

    fail = true;
    await user.click(screen.getByRole('radio', { name: 'Yearly' }));
    expect(await findToast(answers.providerUnavailable)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Buy now' })).toBeDisabled();

    fail = false;
    await user.click(within(summary()).getByRole('button', { name: checkoutTexts.retry }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());
    expect(within(summary()).getByText('Then ₹999/year until you cancel.')).toBeInTheDocument();
  });

  it("shows what will be paid when the server answers with another tab's checkout instead", async () => {
    logIn();
    const server = subscribeLikeServer();
    // Another tab chose the yearly plan at the same moment, and its subscription was stored first.
    stubPlans({ 'POST /api/v1/payments/subscribe': (init) => (init.body ? server({ body: JSON.stringify({ plan: YEARLY.id }) }) : server(init)) });
    const { user } = renderPage(<CheckoutPage />, { path: '/checkout' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());

    await user.click(screen.getByRole('radio', { name: 'Starter' }));
    await waitFor(() => expect(screen.getByRole('radio', { name: 'Yearly' })).toBeChecked());
    expect(within(summary()).getByText('Then ₹999/year until you cancel.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());
  });

  it('a declined card: the failure page says the provider\'s reason, and "Try again" comes back with the plan, the coupon and the course', async () => {
    logIn();
    const calls = stubPlans();
    const from = '/course/description?id=20000000-0000-4000-8000-000000000001';
    const { user, router } = renderCheckoutAt(`/checkout?from=${encodeURIComponent(from)}`);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());
    await user.click(screen.getByRole('radio', { name: 'Yearly' }));
    await user.click(screen.getByRole('button', { name: checkoutTexts.haveCoupon }));
    await user.type(screen.getByLabelText(checkoutTexts.couponCode), 'any20');
    await user.click(screen.getByRole('button', { name: checkoutTexts.apply }));
    expect(await within(summary()).findByText('ANY20')).toBeInTheDocument();
    // The address keeps all three, as a reload would need them.
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('coupon')).toBe('ANY20'));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({ from, plan: YEARLY.id, coupon: 'ANY20' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Buy now' }));
    await waitFor(() => expect(FakeRazorpay.last?.opened).toBe(true));

    act(() => FakeRazorpay.last!.failPayment());

    expect(await screen.findByRole('heading', { level: 1, name: messages.paymentFailed })).toBeInTheDocument();
    expect(screen.getByText(messages.tryAgainLater)).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(`${checkoutTexts.failureReason}Your card was declined.`);
    expect(screen.getByText(checkoutTexts.retryKeeps('Yearly', 'ANY20'))).toBeInTheDocument();
    const retry = screen.getByRole('link', { name: messages.tryAgain });
    expect(Object.fromEntries(new URL(retry.getAttribute('href')!, 'http://x').searchParams)).toEqual({ plan: YEARLY.id, coupon: 'ANY20', from });

    await user.click(retry);
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout'));
    expect(await screen.findByRole('radio', { name: 'Yearly' })).toBeChecked();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());
    expect(within(summary()).getByText('ANY20')).toBeInTheDocument();
    expect(within(summary()).getByText(/then ₹999\/year\.$/)).toBeInTheDocument();
    // The first subscription after "Try again" is for the plan and the coupon, as the failed one was.
    expect(subscribeBodies(calls).at(-1)).toEqual({ plan: YEARLY.id, coupon: 'ANY20' });
  });

  it('a coupon in the address that is refused says why under its field, and leaves the address', async () => {
    logIn();
    const calls = stubPlans();
    const { router } = renderCheckoutAt('/checkout?coupon=NOSUCH');
    expect(await screen.findByText(messages.couponUnknown)).toBeInTheDocument();
    expect(screen.getByLabelText(checkoutTexts.couponCode)).toHaveValue('NOSUCH');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());
    expect(subscribeBodies(calls)).toEqual([{ coupon: 'NOSUCH' }, null]);
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('removing a coupon takes it out of the address too', async () => {
    logIn();
    stubPlans();
    const { user, router } = renderCheckoutAt('/checkout?coupon=half2');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());
    expect(within(summary()).getByText('HALF2')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?coupon=half2');
    await user.click(screen.getByRole('button', { name: checkoutTexts.removeCoupon('HALF2') }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('after paying, "Go to dashboard" leads back to the course the checkout came from; a page off the site is not carried', async () => {
    logIn();
    stubPlans({
      'POST /api/v1/payments/verify': { body: { success: true, message: answers.paymentVerified } },
      'GET /api/v1/user/me': { body: { success: true, message: answers.userDetailsFetched, user: { ...user, subscription: { status: 'active' } } } },
    });
    const from = '/course/description?id=20000000-0000-4000-8000-000000000001';
    const view = renderCheckoutAt(`/checkout?from=${encodeURIComponent(from)}`);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());
    await view.user.click(screen.getByRole('button', { name: 'Buy now' }));
    await waitFor(() => expect(FakeRazorpay.last?.opened).toBe(true));
    act(() => FakeRazorpay.last!.options.handler(paid));
    expect(await screen.findByRole('heading', { level: 1, name: messages.paymentSuccessful })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: messages.goToDashboard })).toHaveAttribute('href', from);
    view.unmount();

    for (const elsewhere of ['https://evil.example/course', '//evil.example/x', '/\\evil.example', '/checkout/fail']) {
      // Paying made the stored user a subscriber: a learner again for the next try.
      logIn();
      FakeRazorpay.last = undefined;
      const again = renderCheckoutAt(`/checkout?from=${encodeURIComponent(elsewhere)}`);
      await waitFor(() => expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled());
      await again.user.click(screen.getByRole('button', { name: 'Buy now' }));
      await waitFor(() => expect(FakeRazorpay.last?.opened).toBe(true));
      act(() => FakeRazorpay.last!.options.handler(paid));
      expect(await screen.findByRole('link', { name: messages.goToDashboard })).toHaveAttribute('href', '/');
      again.unmount();
    }
  });

  it('a visitor goes to the login with the whole checkout address, to come back to the same choice', async () => {
    const calls = stubPlans();
    const { router } = renderCheckoutAt(`/checkout?plan=${YEARLY.id}&coupon=ANY20`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe(`/checkout?plan=${YEARLY.id}&coupon=ANY20`);
    expect(calls).toEqual([]);
  });

  it('tells a subscriber in a free trial when it ends, instead of a renewal', async () => {
    logIn({ ...user, subscription: { status: 'active', currentPeriodEnd: TRIAL_END, cancelAtPeriodEnd: false, trialEndsAt: TRIAL_END } });
    stubPlans();
    renderPage(<CheckoutPage />, { path: '/checkout' });

    expect(screen.getByRole('heading', { level: 1, name: messages.youAreSubscribed })).toBeInTheDocument();
    expect(screen.getByText(checkoutTexts.inTrial('2 Dec 2026'))).toBeInTheDocument();
    expect(screen.queryByText(/^Renews on/)).not.toBeInTheDocument();
  });
});

describe('/checkout/success and /checkout/fail', () => {
  it("/checkout/success confirms the payment the checkout just verified, with 'Go to dashboard' to /", async () => {
    logIn({ ...user, subscription: { status: 'active' } });
    const { router } = renderPage(<p>Home</p>, { routes: [{ path: '/checkout/success', element: <CheckoutSuccessPage /> }] });
    await act(() => router.navigate('/checkout/success', { replace: true, state: { paid: true } }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Payment successful' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: messages.goToDashboard })).toHaveAttribute('href', '/');
    expect(document.title).toBe('Payment successful · LMS');
  });

  it('/checkout/success after resuming a yearly plan says it renews every year', async () => {
    logIn({ ...user, subscription: { status: 'active' } });
    const { router } = renderPage(<p>Home</p>, { routes: [{ path: '/checkout/success', element: <CheckoutSuccessPage /> }] });
    await act(() => router.navigate('/checkout/success', { replace: true, state: { paid: true, resumedUntil: '2027-11-25T06:30:00.000Z', yearly: true } }));

    expect(await screen.findByRole('heading', { level: 1, name: messages.subscriptionResumed })).toBeInTheDocument();
    expect(screen.getByText(checkoutTexts.subscriptionResumedYearly('25 Nov 2027'))).toBeInTheDocument();
  });

  it.each([
    ['a signed-in user', true, '/checkout'],
    ['a visitor', false, '/'],
  ])('/checkout/success opened directly by %s shows no success and gives way (signed in: %s) to %s', async (_who, signedIn, destination) => {
    if (signedIn) logIn();
    stubCheckout();
    const { router } = renderPage(<CheckoutSuccessPage />, { path: '/checkout/success', routes: [{ path: '/checkout', element: <CheckoutPage /> }] });

    await waitFor(() => expect(router.state.location.pathname).toBe(destination));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(screen.queryByRole('heading', { name: 'Payment successful' })).not.toBeInTheDocument();
  });

  it("/checkout/fail's 'Try again' takes this entry's place, so Back after a later success never shows the failure", async () => {
    const { router, user: person } = renderPage(<CheckoutFailPage />, { path: '/checkout/fail' });
    await person.click(await screen.findByRole('link', { name: messages.tryAgain }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout'));
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it("/checkout/fail says 'Payment failed / Please try again later' with 'Try again' to /checkout", async () => {
    renderPage(<CheckoutFailPage />, { path: '/checkout/fail' });
    expect(await screen.findByRole('heading', { level: 1, name: messages.paymentFailed })).toBeInTheDocument();
    expect(screen.getByText(messages.tryAgainLater)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: messages.tryAgain })).toHaveAttribute('href', '/checkout');
  });

  it('/checkout/fail reads no reason from the address (anyone can write one): only what the checkout handed it', async () => {
    renderCheckoutAt('/checkout/fail?reason=Call+this+number');
    expect(await screen.findByRole('heading', { level: 1, name: messages.paymentFailed })).toBeInTheDocument();
    expect(screen.queryByText(/Call this number/)).not.toBeInTheDocument();
    expect(screen.queryByText(checkoutTexts.failureReason)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: messages.tryAgain })).toHaveAttribute('href', '/checkout');
  });
});
