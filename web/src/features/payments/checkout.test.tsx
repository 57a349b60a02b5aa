import { act, screen, waitFor } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { messages } from '@lms/contract/messages';
import type { User } from '@lms/contract/users';
import { renderPage, stubApi } from '../../test/render';
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

const keyAnswer = (overrides: object = {}) => ({
  body: { success: true, message: messages.razorpayKey, key: 'rzp_test_key', checkoutScript: '/sandbox/checkout.js', price: 99, ...overrides },
});
const subscribeAnswer = (overrides: object = {}) => ({
  body: { success: true, message: messages.subscriptionCreated, subscription_id: 'sub_Xyz789', ...overrides },
});

function stubCheckout(extra: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    'GET /api/v1/payments/razorpay-key': keyAnswer(),
    'POST /api/v1/payments/subscribe': subscribeAnswer(),
    ...extra,
  });
}

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
    stubCheckout({ 'GET /api/v1/payments/razorpay-key': keyAnswer({ price: 149 }) });
    renderPage(<CheckoutPage />, { path: '/checkout' });

    expect(screen.getByRole('heading', { level: 1, name: 'Subscription Bundle' })).toBeInTheDocument();
    expect(await screen.findByText('₹149')).toBeInTheDocument();
    expect(screen.getByText('1 month')).toBeInTheDocument();
    expect(screen.getByText(messages.bundleIncludes)).toBeInTheDocument();
    expect(screen.getByText(messages.bundleRefundable)).toBeInTheDocument();
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
    expect(calls.map((call) => `${call.init.method ?? 'GET'} ${call.url}`)).toEqual([
      'GET /api/v1/payments/razorpay-key',
      'POST /api/v1/payments/subscribe',
    ]);
    expect(store.getState().razorpay).toMatchObject({ key: 'rzp_test_key', subscription_id: 'sub_Xyz789' });
    expect(screen.queryByText(messages.somethingWentWrong)).not.toBeInTheDocument();
  });

  it("says 'Something went wrong' when the key is missing, and does not subscribe", async () => {
    logIn();
    const calls = stubCheckout({ 'GET /api/v1/payments/razorpay-key': keyAnswer({ key: '' }) });
    renderPage(<CheckoutPage />, { path: '/checkout' });

    expect(await screen.findByText(messages.somethingWentWrong)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Buy now' })).toBeDisabled();
    expect(calls.map((call) => call.url)).toEqual(['/api/v1/payments/razorpay-key']);
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
      'POST /api/v1/payments/subscribe': { status: 502, body: { success: false, message: messages.providerUnavailable } },
    });
    renderPage(<CheckoutPage />, { path: '/checkout' });

    expect(await screen.findByText(messages.providerUnavailable)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Buy now' })).toBeDisabled();
    expect(screen.queryByText(messages.somethingWentWrong)).not.toBeInTheDocument();
  });

  it("tells an active subscriber they are subscribed, with the renewal date and the way to the courses, and creates nothing", async () => {
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
      'GET /api/v1/user/me': { body: { success: true, message: messages.userDetailsFetched, user: { ...user, subscription: { status: 'active' } } } },
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
      description: 'Monthly subscription bundle',
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
      'POST /api/v1/payments/verify': { body: { success: true, message: messages.paymentVerified } },
      'GET /api/v1/user/me': { body: { success: true, message: messages.userDetailsFetched, user: { ...user, subscription: { status: 'active' } } } },
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
    expect(await screen.findByText(messages.paymentVerified)).toBeInTheDocument();
  });

  it('a payment that fails verification goes to /checkout/fail', async () => {
    logIn();
    stubCheckout({
      'POST /api/v1/payments/verify': { status: 400, body: { success: false, message: messages.paymentSignatureInvalid } },
    });
    const { checkout, router, store } = await openWidget();

    act(() => checkout.options.handler(paid));

    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/fail'));
    expect(store.getState().razorpay.isPaymentVerified).toBe(false);
    expect(await screen.findByText(messages.paymentSignatureInvalid)).toBeInTheDocument();
  });

  it("a payment Checkout reports as failed goes to /checkout/fail and closes Checkout", async () => {
    logIn();
    const calls = stubCheckout();
    const { checkout, router } = await openWidget();

    act(() => checkout.failPayment());

    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/fail'));
    expect(checkout.closed).toBe(true);
    expect(calls.some((call) => call.url === '/api/v1/payments/verify')).toBe(false);
  });

  it('resumes a subscription cancelled without a refund: says nothing is charged until the period ends, keeps the bundle, and confirms the resumption', async () => {
    const periodEnd = '2026-12-23T06:30:00.000Z';
    const ending: User = { ...user, subscription: { status: 'active', currentPeriodEnd: periodEnd, cancelAtPeriodEnd: true } };
    const resumed: User = { ...user, subscription: { status: 'active', currentPeriodEnd: periodEnd, cancelAtPeriodEnd: false } };
    logIn(ending);
    const calls = stubCheckout({
      'POST /api/v1/payments/verify': { body: { success: true, message: messages.paymentVerified } },
      'GET /api/v1/user/me': { body: { success: true, message: messages.userDetailsFetched, user: resumed } },
    });
    const view = renderPage(<CheckoutPage />, { path: '/checkout', routes: [{ path: '/checkout/success', element: <CheckoutSuccessPage /> }] });

    expect(screen.getByRole('note')).toHaveTextContent(`${messages.resumeNothingCharged('23 Dec 2026')} ${messages.resumeCardCheck}`);
    expect(screen.getByRole('heading', { level: 1, name: 'Subscription Bundle' })).toBeInTheDocument();
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
    expect(calls.map((call) => `${call.init.method ?? 'GET'} ${call.url}`)).toEqual([
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

describe('/checkout/success and /checkout/fail', () => {
  it("/checkout/success confirms the payment the checkout just verified, with 'Go to dashboard' to /", async () => {
    logIn({ ...user, subscription: { status: 'active' } });
    const { router } = renderPage(<p>Home</p>, { routes: [{ path: '/checkout/success', element: <CheckoutSuccessPage /> }] });
    await act(() => router.navigate('/checkout/success', { replace: true, state: { paid: true } }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Payment successful' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: messages.goToDashboard })).toHaveAttribute('href', '/');
    expect(document.title).toBe('Payment successful · LMS');
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
});
