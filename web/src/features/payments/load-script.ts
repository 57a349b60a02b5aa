import { messages } from '@lms/contract/messages';

/** What Checkout hands to `handler` after a successful payment. */
export interface RazorpayPaymentResponse {
  razorpay_payment_id: string;
  razorpay_subscription_id: string;
  razorpay_signature: string;
}

/** The Checkout options we use; the same for Razorpay's script and the sandbox's imitation. */
export interface RazorpayOptions {
  key: string;
  subscription_id: string;
  name: string;
  description: string;
  handler: (response: RazorpayPaymentResponse) => void;
  prefill?: { name?: string; email?: string };
  theme?: { color?: string };
  modal?: { ondismiss?: () => void };
}

export interface RazorpayCheckout {
  open(): unknown;
  on(event: 'payment.failed', handler: (response: { error?: { description?: string } }) => void): unknown;
  close?(): unknown;
}

export type RazorpayConstructor = new (options: RazorpayOptions) => RazorpayCheckout;

declare global {
  interface Window {
    Razorpay?: RazorpayConstructor;
  }
}

let loading: Promise<RazorpayConstructor> | undefined;

/**
 * Loads the Checkout script (Razorpay's, or the sandbox's) on first use, with one
 * <script> tag however often it is called, and resolves with `window.Razorpay`.
 * Only the checkout page calls it, so no other page downloads the provider's code.
 * A failed load removes its tag, so the next attempt starts afresh.
 */
export function loadCheckoutScript(src: string): Promise<RazorpayConstructor> {
  if (window.Razorpay) return Promise.resolve(window.Razorpay);
  loading ??= new Promise<RazorpayConstructor>((resolve, reject) => {
    const script = document.createElement('script');
    const fail = () => {
      script.remove();
      loading = undefined;
      reject(new Error(messages.somethingWentWrong));
    };
    script.src = src;
    script.async = true;
    script.addEventListener('load', () => (window.Razorpay ? resolve(window.Razorpay) : fail()));
    script.addEventListener('error', fail);
    document.body.append(script);
  });
  return loading;
}
