import { createHmac, timingSafeEqual } from 'node:crypto';

export const hmacHex = (secret: string, message: string | Buffer) => createHmac('sha256', secret).update(message).digest('hex');

/** What Razorpay sends: a SHA-256 HMAC as exactly 64 lowercase hex digits. */
const SIGNATURE_SHAPE = /^[0-9a-f]{64}$/;

/**
 * Constant-time comparison of a hex signature with the one we compute; false for any
 * malformed input. The shape is checked first: Buffer.from(…, 'hex') stops quietly at the
 * first non-hex character, so "<the right 64 digits>zz" would otherwise pass.
 */
export function isSignedBy(secret: string, message: string | Buffer, signature: string): boolean {
  if (!SIGNATURE_SHAPE.test(signature)) return false;
  return timingSafeEqual(Buffer.from(signature, 'hex'), Buffer.from(hmacHex(secret, message), 'hex'));
}

/** Checkout's proof of a subscription payment: payment id first, then the subscription id we stored. */
export const subscriptionPaymentMessage = (paymentId: string, subscriptionId: string) => `${paymentId}|${subscriptionId}`;
