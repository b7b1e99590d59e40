import { Logger } from '@nestjs/common';
import { type ErrorBody, SERVICE_MESSAGES } from '@termpaste/contracts';

/** Retry-After (seconds) of a 503 sent while the database is unreachable: an embedded restart takes ~1 s. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Socket errors of a connection to the database that is refused, cut or never made. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** SQLSTATEs of a server going away or not up yet: class 08, 57P01, 57P02, 57P03 (crash recovery), 53300. */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const CONNECTION_EXCEPTION_CLASS = '08';

/** What pg and pg-pool say, without a code, when a connection dies or cannot be had. */
const MESSAGES = [
  /^Connection terminated/, // "… unexpectedly", "… due to connection timeout"
  /^timeout exceeded when trying to connect/, // pg-pool: no connection within connectionTimeoutMillis
  /^Client has encountered a connection error and is not queryable/,
  /^Client was closed and is not queryable/,
  /^Cannot use a pool after calling end on the pool/,
];

/**
 * TypeORM's errors for a query on a connection already let go: one that died mid-transaction (rolled back).
 */
const RELEASED_CONNECTION_ERRORS = new Set([
  'QueryRunnerAlreadyReleasedError',
  'QueryRunnerProviderAlreadyReleasedError',
]);

/**
 * Whether `error` means the database cannot be reached right now (not that it refused a query): then 503
 * with Retry-After, never 500. Looks through `driverError`, `cause` and AggregateError's `errors`.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { name, code, message, driverError, cause, errors } = error as {
    name?: unknown;
    code?: unknown;
    message?: unknown;
    driverError?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || SQLSTATES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && code.startsWith(CONNECTION_EXCEPTION_CLASS)) return true;
  }
  if (typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message))) return true;
  if (typeof name === 'string' && RELEASED_CONNECTION_ERRORS.has(name)) return true;
  return (
    isDatabaseUnavailable(driverError, depth + 1) ||
    isDatabaseUnavailable(cause, depth + 1) ||
    (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1)))
  );
}

/** The 503 body of a request the database could not serve. */
export const DATABASE_UNAVAILABLE_BODY: ErrorBody = {
  statusCode: 503,
  message: SERVICE_MESSAGES.databaseUnavailable,
};

/** How often, at most, the log says requests are being refused for want of a database. */
const LOG_EVERY_MS = 10_000;

/**
 * Logs that requests get 503 because the database is unreachable: the first at once, then at most one
 * line every 10 s with how many were refused meanwhile (an outage under load is thousands of requests).
 */
/** The latest refusals (when, why), kept in memory so a test or a debugger can see why requests got 503. */
const recent: Array<{ at: number; reason: string }> = [];
const RECENT_KEPT = 20;

export function recentRefusals(): ReadonlyArray<{ at: number; reason: string }> {
  return recent;
}

export class UnavailableLog {
  private lastLoggedAt = 0;
  private refusedSince = 0;

  constructor(private readonly logger: Logger) {}

  note(error: unknown): void {
    this.refusedSince++;
    const now = Date.now();
    const reason = error instanceof Error ? error.message : String(error);
    recent.push({ at: now, reason });
    if (recent.length > RECENT_KEPT) recent.shift();
    if (now - this.lastLoggedAt < LOG_EVERY_MS) return;
    this.logger.warn(
      `The database is unreachable (${reason}): ${this.refusedSince} request(s) answered 503` +
        (this.lastLoggedAt === 0 ? '' : ` in the last ${Math.round((now - this.lastLoggedAt) / 1000)} s`),
    );
    this.lastLoggedAt = now;
    this.refusedSince = 0;
  }
}
