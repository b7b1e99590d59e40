/**
 * A transaction that lost a lock race and was rolled back; PostgreSQL's documentation asks the client to
 * retry.
 */
const RETRYABLE = new Set(['40P01', '40001']);

function sqlState(error: unknown): string | undefined {
  const withCode = error as { code?: unknown; driverError?: { code?: unknown } } | null;
  const code = withCode?.driverError?.code ?? withCode?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Runs `transaction` again after a deadlock or serialization failure, `attempts` times in all. It must
 * set nothing outside itself that a rolled-back attempt could leave half set.
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
