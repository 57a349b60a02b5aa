/** PostgreSQL's unique_violation, as raised by node-postgres or PGlite, possibly wrapped by Drizzle. */
export function isUniqueViolation(error: unknown): boolean {
  for (let cause = error; cause && typeof cause === 'object'; cause = (cause as { cause?: unknown }).cause) {
    if ((cause as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
