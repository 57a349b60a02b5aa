import { generateKeyBetween } from 'fractional-indexing';

/**
 * Places in an ordered list (a course's sections, a section's lectures) are fractional-indexing
 * keys: between any two there is always another, so moving an item rewrites its own key alone.
 * The keys compare as bytes (the columns' "C" collation in db/schema.ts).
 */

/** A key after `last` (the list's last key, or null for an empty list). */
export const rankAfter = (last: string | null): string => generateKeyBetween(last, null);

/** A key between two neighbours; null for an end of the list. */
export const rankBetween = (before: string | null, after: string | null): string => generateKeyBetween(before, after);
