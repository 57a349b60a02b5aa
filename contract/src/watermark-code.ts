/*
 * The watermark's codes, apart from the protection schemas: the player shows a code, and a page that
 * plays a lecture loads this without the validation library.
 */

/** Watermark codes: Crockford's base 32 (no I, L, O, U), read off a clip without confusing 0/O or 1/I. */
export const WATERMARK_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const WATERMARK_CODE_LENGTH = 8;
/** A code as a person types it: any case, dashes and spaces ignored, the letters a clip can be misread as mapped (O→0, I/L→1). */
export function normaliseCode(text: string): string {
  return text.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}
/** How a code is shown on the video: two groups of four. */
export const codeForDisplay = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;
