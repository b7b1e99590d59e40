import { z } from 'zod';
import { ConfigError } from './config-error.js';
import type { EnvVars } from './env.js';
import { fail, wholeNumber } from './values.js';

/**
 * Read replicas (DATABASE_READ_URL): PostgreSQL standbys that carry the reads that may lag a moment
 * (the page cache's loads, tags); none by default, every read on DATABASE_URL.
 */
export interface ReadReplicasConfig {
  /** The standbys' URLs, in the order given. */
  urls: string[];
  /** DATABASE_READ_MAX_LAG_MS: a standby further behind the primary than this gets no reads. */
  maxLagMs: number;
  /** DATABASE_READ_CHECK_MS: how often each standby's health and replay position are checked. */
  checkMs: number;
}

export const DATABASE_READ_MAX_LAG_MS_DEFAULT = 2000;
export const DATABASE_READ_CHECK_MS_DEFAULT = 1000;

/** One URL or several, comma-separated, each postgres:// or postgresql://. */
const readUrls = z.string().transform((raw, ctx) => {
  const urls = raw
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
  if (urls.length === 0) return fail(ctx, 'must list one or more postgres:// URLs, comma-separated');
  for (const [index, url] of urls.entries()) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return fail(ctx, `must list postgres:// URLs, comma-separated (entry ${index + 1} is not a URL)`);
    }
    if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
      return fail(
        ctx,
        `must list postgres:// URLs, comma-separated (entry ${index + 1} is ${parsed.protocol}//)`,
      );
    }
  }
  if (new Set(urls).size !== urls.length) return fail(ctx, 'must not list the same URL twice');
  return urls;
});

export const readReplicasEnv = {
  DATABASE_READ_URL: readUrls.optional(),
  DATABASE_READ_MAX_LAG_MS: wholeNumber(100, 3_600_000, ' of milliseconds').optional(),
  DATABASE_READ_CHECK_MS: wholeNumber(100, 60_000, ' of milliseconds').optional(),
};

/** DATABASE_READ_*; replicas need DATABASE_URL (an embedded PostgreSQL has no standby). */
export function readReplicasConfig(vars: EnvVars): ReadReplicasConfig {
  const urls = vars.DATABASE_READ_URL ?? [];
  if (urls.length > 0 && vars.DATABASE_URL === undefined) {
    throw new ConfigError(
      'Invalid configuration: DATABASE_READ_URL needs DATABASE_URL (the primary the replicas follow); ' +
        'the embedded PostgreSQL has no replicas',
    );
  }
  return {
    urls,
    maxLagMs: vars.DATABASE_READ_MAX_LAG_MS ?? DATABASE_READ_MAX_LAG_MS_DEFAULT,
    checkMs: vars.DATABASE_READ_CHECK_MS ?? DATABASE_READ_CHECK_MS_DEFAULT,
  };
}
