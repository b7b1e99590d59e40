import { isIP } from 'node:net';
import { z } from 'zod';
import { ConfigError } from './config-error.js';
import { fail } from './values.js';

/**
 * `false`: no proxy; a number: that many proxies, the outermost's client address; a list: the proxies'
 * addresses.
 */
export type TrustProxy = false | number | string[];

/** Express's names for address ranges TRUST_PROXY may list. */
const TRUST_PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

const TRUST_PROXY_HELP =
  'must be off, the number of proxies in front of the API (1 for one nginx), or their addresses or ' +
  'networks separated by commas (10.0.0.0/8, loopback...)';

/** An address, or a network in CIDR form (`10.0.0.0/8`, `fd00::/8`). */
function isAddressOrNetwork(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/** TRUST_PROXY's value. */
export const trustProxy = z.string().transform((raw, ctx): TrustProxy => {
  const value = raw.trim().toLowerCase();
  if (['off', 'false', '0'].includes(value)) return false;
  if (value === 'true') {
    return fail(
      ctx,
      'must not be true: that would believe an X-Forwarded-For any client sends (give the number of ' +
        'proxies in front of the API, 1 for one nginx, or their addresses)',
    );
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops >= 1 && hops <= 10 ? hops : fail(ctx, TRUST_PROXY_HELP);
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const ok = entries.every((entry) => TRUST_PROXY_NAMES.includes(entry) || isAddressOrNetwork(entry));
  return ok ? entries : fail(ctx, TRUST_PROXY_HELP);
});

/** The proxies to believe, given TRUST_PROXY (if set) and the public URL the site is served at. */
export function trustProxyConfig(given: TrustProxy | undefined, publicUrl: string): TrustProxy {
  if (given === false && publicUrl.startsWith('https:')) {
    throw new ConfigError(
      'Invalid configuration: TRUST_PROXY is off but PUBLIC_URL is https, so a TLS-terminating proxy is ' +
        'in front of the API: set TRUST_PROXY to the number of proxies (1 for one nginx) or their addresses',
    );
  }
  // Unset: served over https means behind one TLS-terminating proxy; over http, none.
  return given ?? (publicUrl.startsWith('https:') ? 1 : false);
}
