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
    logIn({ ...user, role: 'ADMIN' });
    stubCheckout({
      'POST /api/v1/payments/subscribe': { status: 403, body: { success: false, message: messages.adminCannotSubscribe } },
    });
    renderPage(<CheckoutPage />, { path: '/checkout' });

    expect(await screen.findByText(messages.adminCannotSubscribe)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Buy now' })).toBeDisabled();
    expect(screen.queryByText(messages.somethingWentWrong)).not.toBeInTheDocument();
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

  it('sends a visitor to /login, to come back to /checkout', async () => {
    const calls = stubApi({});
    const { router } = renderPage(<CheckoutPage />, { path: '/checkout' });

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.state).toEqual({ from: '/checkout' });
    expect(calls).toEqual([]);
  });
});

describe('/checkout/success and /checkout/fail', () => {
  it("/checkout/success confirms the payment with 'Go to dashboard' to /", async () => {
    renderPage(<CheckoutSuccessPage />, { path: '/checkout/success' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment successful' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: messages.goToDashboard })).toHaveAttribute('href', '/');
  });

  it("/checkout/fail says 'Payment failed / Please try again later' with 'Try again' to /checkout", async () => {
    renderPage(<CheckoutFailPage />, { path: '/checkout/fail' });
    expect(await screen.findByRole('heading', { level: 1, name: messages.paymentFailed })).toBeInTheDocument();
    expect(screen.getByText(messages.tryAgainLater)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: messages.tryAgain })).toHaveAttribute('href', '/checkout');
  });
});
