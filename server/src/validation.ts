import { z } from 'zod';
import { answers } from '@lms/contract/answers';
import { AppError } from './errors.ts';

/**
 * Validates input that Fastify's schema step does not see (multipart fields).
 * The first broken rule's text is the answer, as the spec's forms show one message at a time.
 */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new AppError(400, result.error.issues[0]?.message ?? answers.invalidRequest);
}

/** A JSON body schema that reads a missing body as an empty form, so it gets the form's "fill all" text. */
export const jsonBody = <T extends z.ZodType>(schema: T) => z.preprocess((value) => value ?? {}, schema);
