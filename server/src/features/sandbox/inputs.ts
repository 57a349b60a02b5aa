import { z } from 'zod';

/** What the sandbox's API reads, as Razorpay reads it: JSON or form bodies, numbers as either, its own messages. */

export const required = (field: string) => ({ error: `The ${field} field is required.` });

/** Numbers may come as JSON numbers or as form strings. */
export const wholeNumber = (field: string) => z.coerce.number(required(field)).int(`The ${field} must be an integer.`);

export const NotesInputSchema = z
  .record(z.string().max(256), z.union([z.string().max(256), z.number()]), { error: 'The notes field must be an object.' })
  .refine((notes) => Object.keys(notes).length <= 15, 'The notes field may have at most 15 keys.');

/** Razorpay's `customer_notify`: a boolean, or 0 or 1. */
export const CustomerNotifySchema = z.union([z.boolean(), z.coerce.number().pipe(z.union([z.literal(0), z.literal(1)]))]);

/**
 * A form body as Razorpay reads one, with its bracket notation for nested fields:
 * `item[name]=Gold&item[amount]=9900` → `{ item: { name: 'Gold', amount: '9900' } }`.
 */
export function parseFormBody(text: string): Record<string, unknown> {
  const result: Record<string, unknown> = Object.create(null);
  for (const [key, value] of new URLSearchParams(text)) {
    const [, group, field] = /^([^[\]]+)\[([^[\]]+)\]$/.exec(key) ?? [];
    if (group && field) {
      const nested = result[group];
      const target = typeof nested === 'object' && nested !== null ? (nested as Record<string, unknown>) : Object.create(null);
      target[field] = value;
      result[group] = target;
    } else {
      result[key] = value;
    }
  }
  return result;
}
