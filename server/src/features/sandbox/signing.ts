import { createHash, timingSafeEqual } from 'node:crypto';
import { hmacHex, subscriptionPaymentMessage } from '../payments/signatures.ts';

/** The two secrets the sandbox checks or signs with, as Razorpay does: the API keys, and Checkout's payment signature. */

/** What Checkout hands the app for a subscription payment: HMAC of `payment_id|subscription_id` with the key secret. */
export const subscriptionPaymentSignature = (keySecret: string, paymentId: string, subscriptionId: string) =>
  hmacHex(keySecret, subscriptionPaymentMessage(paymentId, subscriptionId));

/** HTTP Basic with the key id and secret, compared in constant time. */
export function hasApiKeys(authorization: string | undefined, keyId: string, keySecret: string): boolean {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(authorization?.trim() ?? '');
  if (!match) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(Buffer.from(match[1]!, 'base64').toString('utf8')), digest(`${keyId}:${keySecret}`));
}
