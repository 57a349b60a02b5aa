import { randomInt } from 'node:crypto';
import { WATERMARK_ALPHABET } from '@lms/contract/protection';

/**
 * `length` characters of Crockford's base 32, drawn uniformly (randomInt has no modulo bias): the
 * codes people read off a screen or type back, a watermark's and a certificate's.
 */
export function randomCode(length: number): string {
  let code = '';
  for (let i = 0; i < length; i++) code += WATERMARK_ALPHABET[randomInt(WATERMARK_ALPHABET.length)];
  return code;
}
