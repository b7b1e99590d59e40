import { z } from 'zod';
import { fail } from './values.js';

/** A METRICS_TOKEN shorter than this is refused: it is all that guards the endpoint. */
export const METRICS_TOKEN_MIN_LENGTH = 16;

/** Who may read `GET /metrics`: by default nobody (404), never the public. */
export interface MetricsConfig {
  /** METRICS_TOKEN: a scrape must send `Authorization: Bearer <token>`. */
  token: string | undefined;
  /**
   * METRICS_LISTEN (`host:port`): /metrics is served there, on a server of its own, and no longer on the
   * main port (nor on a worker's health port).
   */
  listen: { host: string; port: number } | undefined;
}

export const metricsToken = z
  .string()
  .min(METRICS_TOKEN_MIN_LENGTH, `must be at least ${METRICS_TOKEN_MIN_LENGTH} characters long`);

/** `host:port`, `[v6]:port`; port 0 picks a free one (tests). */
export const metricsListen = z.string().transform((raw, ctx) => {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(raw.trim());
  const port = Number(match?.[3]);
  if (!match || port > 65535) return fail(ctx, 'must be host:port (e.g. 0.0.0.0:9464 or [::1]:9464)');
  return { host: (match[1] ?? match[2])!, port };
});

export function metricsConfig(vars: {
  METRICS_TOKEN?: string | undefined;
  METRICS_LISTEN?: { host: string; port: number } | undefined;
}): MetricsConfig {
  return { token: vars.METRICS_TOKEN, listen: vars.METRICS_LISTEN };
}
