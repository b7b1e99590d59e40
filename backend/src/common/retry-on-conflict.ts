/**
 * PostgreSQL's answers to a transaction that lost a race for locks with another one and was rolled back:
 * `deadlock_detected` and `serialization_failure`. Running it again is what PostgreSQL's documentation
 * asks of the client; nothing of the first attempt was kept.
 */
const RETRYABLE = new Set(['40P01', '40001']);

function sqlState(error: unknown): string | undefined {
  const withCode = error as { code?: unknown; driverError?: { code?: unknown } } | null;
  const code = withCode?.driverError?.code ?? withCode?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Runs `transaction` again when PostgreSQL rolled it back as a deadlock victim or a serialization failure,
 * `attempts` times in all; other errors are thrown as they are. The transaction must set nothing outside
 * itself that a rolled-back attempt could leave half set.
 */
export async function retryOnConflict<T>(transaction: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      const code = sqlState(error);
      if (attempt >= attempts || code === undefined || !RETRYABLE.has(code)) throw error;
    }
  }
}
