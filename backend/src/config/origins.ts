import { z } from 'zod';
import { fail } from './values.js';

/**
 * ALLOWED_ORIGINS: a comma-separated list of http(s) origins, each kept as `URL.origin` (no path, no
 * trailing slash).
 */
export const originList = z.string().transform((raw, ctx) => {
  const origins: string[] = [];
  for (const entry of raw.split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      return fail(ctx, `must list origins like https://admin.example.com, separated by commas ("${entry}")`);
    }
    if (!['http:', 'https:'].includes(url.protocol) || (url.pathname !== '/' && url.pathname !== '')) {
      return fail(ctx, `must list origins like https://admin.example.com, separated by commas ("${entry}")`);
    }
    origins.push(url.origin);
  }
  return origins;
});
