import type { Request } from 'express';
import passport from 'passport';

/** How a strategy ended a request: it sent the browser away, or it judged the provider's answer. */
export type StrategyOutcome<T> =
  | { kind: 'redirect'; url: string }
  | { kind: 'success'; user: T }
  | { kind: 'fail'; info: unknown }
  | { kind: 'error'; error: unknown };

/**
 * Runs passport's `strategy` on a request, sessionless (the caller signs in through signIn), and tells how
 * it ended. A redirect to the provider goes to a stand-in response that keeps the address, so the
 * controller answers it itself once the session is saved.
 */
export function runStrategy<T>(
  strategy: string,
  req: Request,
  options: object = {},
): Promise<StrategyOutcome<T>> {
  return new Promise((resolve) => {
    let location = '';
    const response = {
      statusCode: 200,
      setHeader(name: string, value: string) {
        if (name.toLowerCase() === 'location') location = value;
      },
      end() {
        resolve({ kind: 'redirect', url: location });
      },
    };
    const authenticate = passport.authenticate(
      strategy,
      { ...options, session: false },
      (error: unknown, user: T | false, info: unknown) => {
        if (error) resolve({ kind: 'error', error });
        else if (!user) resolve({ kind: 'fail', info });
        else resolve({ kind: 'success', user });
      },
    ) as (req: Request, res: unknown, next: (error?: unknown) => void) => void;
    authenticate(req, response, (error) =>
      resolve({ kind: 'error', error: error ?? new Error(`${strategy} passed the request on`) }),
    );
  });
}
