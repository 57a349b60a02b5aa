import { createHmac, timingSafeEqual } from 'node:crypto';

export const hmacHex = (secret: string, message: string | Buffer) => createHmac('sha256', secret).update(message).digest('hex');

/** Constant-time comparison of a hex signature with the one we compute; false for any malformed input. */
export function isSignedBy(secret: string, message: string | Buffer, signature: string): boolean {
  const expected = Buffer.from(hmacHex(secret, message), 'hex');
  const actual = Buffer.from(signature, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Checkout's proof of a subscription payment: payment id first, then the subscription id we stored. */
export const subscriptionPaymentMessage = (paymentId: string, subscriptionId: string) => `${paymentId}|${subscriptionId}`;
