import { z } from 'zod';
import { answers } from './answers.ts';

/** The `{ success, message }` envelope of every answer, success or failure; an endpoint's data sits beside it: `ReplySchema.extend({...})`. */
export const ReplySchema = z.object({ success: z.boolean(), message: z.string() });
/** A refusal (4xx) or a hidden server error (5xx). */
export const FailureSchema = z.object({ success: z.literal(false), message: z.string() });

/**
 * Paging by `?page&limit`, the same rules and text for every list: whole numbers, the page
 * from 1, the limit from 1 to `limitMax` (default 50).
 */
export const pagingQuery = (limitMax: number) => {
  const whole = () => z.coerce.number({ error: answers.invalidPage }).int(answers.invalidPage).min(1, answers.invalidPage);
  return z.object({
    page: whole().max(1_000_000, answers.invalidPage).default(1),
    limit: whole().max(limitMax, answers.invalidPage).default(Math.min(50, limitMax)),
  });
};

/** Beside a page of a list in the answer: which page, its size, and how many there are in all. */
export const PagedShape = { total: z.number().int(), page: z.number().int(), limit: z.number().int() };
