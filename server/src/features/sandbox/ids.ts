import { createHash, randomBytes } from 'node:crypto';

/** Razorpay's ids, and the references it derives from a key or a card: the shapes the app sees at Razorpay. */

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Razorpay's id shape: a prefix and 14 base62 characters, e.g. `sub_ID6MOhgkcoHj9I`. */
export function newId(prefix: 'plan' | 'sub' | 'pay' | 'rfnd' | 'evt' | 'token'): string {
  let suffix = '';
  while (suffix.length < 14) {
    // 248 = 4 × 62: bytes above it are dropped so that every character is equally likely.
    for (const byte of randomBytes(16)) if (byte < 248 && suffix.length < 14) suffix += BASE62[byte % 62];
  }
  return `${prefix}_${suffix}`;
}

/**
 * The card network's reference for a card (Razorpay's card fingerprint): the same for the card
 * whichever token or account it comes with; 29 characters, a network prefix and a keyed hash.
 */
export function cardReferenceOf(keySecret: string, cardNumber: string): { network: 'Visa' | 'Mastercard'; reference: string } {
  const network = cardNumber.startsWith('5') ? 'Mastercard' : 'Visa';
  const digest = createHash('sha256').update(`${keySecret}:card:${cardNumber}`).digest();
  const body = Array.from(digest.subarray(0, 25), (byte) => BASE62[byte % 36]!.toUpperCase()).join('');
  return { network, reference: `${network === 'Visa' ? 'V001' : 'M001'}${body}` };
}

/** A stable Razorpay-like account id for the key, as webhooks carry one. */
export function accountIdOf(keyId: string): string {
  const digest = createHash('sha256').update(keyId).digest();
  return `acc_${Array.from(digest.subarray(0, 14), (byte) => BASE62[byte % 62]).join('')}`;
}
