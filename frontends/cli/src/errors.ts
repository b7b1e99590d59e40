/** Wrong usage: a bad flag, a missing file, nothing to paste. Exit code 2. */
export class UsageError extends Error {
  readonly exitCode = 2;
}

/**
 * The server could not be reached, or refused the request. Exit code 1. `status`: the HTTP status when
 * the server answered (`--json` errors carry it).
 */
export class RequestError extends Error {
  readonly exitCode = 1;
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
