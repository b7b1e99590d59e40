import { QueryFailedError } from 'typeorm';

/** PostgreSQL's `unique_violation`. */
const UNIQUE_VIOLATION = '23505';

/**
 * The unique constraint (or unique index) a failed statement broke, by name, or undefined for any other
 * error: how a write that raced another for a unique value tells which value it lost.
 */
export function violatedUniqueConstraint(error: unknown): string | undefined {
  if (!(error instanceof QueryFailedError)) return undefined;
  const { code, constraint } = error.driverError as { code?: string; constraint?: string };
  return code === UNIQUE_VIOLATION && constraint ? constraint : undefined;
}
