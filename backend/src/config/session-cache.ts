import type { EnvVars } from './env.js';
import { wholeNumber } from './values.js';

/** SESSION_CACHE_MS's default and its largest value: a ban or a sign-out made by SQL counts within it. */
export const SESSION_CACHE_MS_DEFAULT = 1000;

export const sessionCacheEnv = {
  SESSION_CACHE_MS: wholeNumber(0, SESSION_CACHE_MS_DEFAULT, ' of milliseconds').optional(),
};

/**
 * SESSION_CACHE_MS: how long a signed-in read may use its session and member as this instance read them
 * (0: read each time).
 */
export function sessionCacheMs(vars: EnvVars): number {
  return vars.SESSION_CACHE_MS ?? SESSION_CACHE_MS_DEFAULT;
}
