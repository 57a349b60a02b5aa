// What checkout.js puts on the page: Razorpay Checkout's `window.Razorpay`, the part the app uses.
// Types only, for checking checkout.js; nothing here is served.

interface Window {
  Razorpay?: new (options: RazorpayCheckoutOptions) => RazorpayCheckout;
}

/** The options the app opens Checkout with, as it would Razorpay's. */
interface RazorpayCheckoutOptions {
  key: string;
  subscription_id: string;
  name?: string;
  description?: string;
  image?: string;
  prefill?: { email?: string; name?: string };
  theme?: { color?: string };
  modal?: { ondismiss?: () => void };
  handler?: (response: RazorpayPaymentResponse) => void;
}

/** What `handler` gets once the card is paid: the ids and the signature the app verifies. */
interface RazorpayPaymentResponse {
  razorpay_payment_id: string;
  razorpay_subscription_id: string;
  razorpay_signature: string;
}

/** Razorpay's error body, as `payment.failed` hands it on. */
interface RazorpayPaymentError {
  code: string;
  description: string;
  source: string;
  step: string;
  reason: string;
  metadata: Record<string, unknown>;
}

interface RazorpayCheckout {
  open(): RazorpayCheckout;
  close(): void;
  on(event: string, handler: (response: { error: RazorpayPaymentError }) => void): RazorpayCheckout;
}
