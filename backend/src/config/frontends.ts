import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REMOTE_NAMES, type RemoteName } from '@termpaste/contracts';
import { z } from 'zod';
import { fail } from './values.js';

/** The repository's frontends/ folder: src/config and dist/config sit at the same depth. */
const DEFAULT_FRONTENDS_DIR = fileURLToPath(new URL('../../../frontends', import.meta.url));

/** Where the built frontends are: FRONTENDS_DIR (against the working directory), else the repository's. */
export function frontendsDir(given: string | undefined, cwd: string): string {
  return given ? path.resolve(cwd, given) : DEFAULT_FRONTENDS_DIR;
}

/** REMOTE_URLS: a JSON object of remotes.json entries to replace (remote name to entry URL). */
export const remoteUrls = z.string().transform((raw, ctx) => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return fail(ctx, 'must be a JSON object mapping a remote name to its entry URL');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return fail(ctx, 'must be a JSON object mapping a remote name to its entry URL');
  }
  const result: Partial<Record<RemoteName, string>> = {};
  for (const [name, url] of Object.entries(parsed)) {
    if (!(REMOTE_NAMES as readonly string[]).includes(name)) {
      return fail(ctx, `names an unknown remote "${name}" (known: ${REMOTE_NAMES.join(', ')})`);
    }
    if (typeof url !== 'string' || !isEntryUrl(url)) {
      return fail(ctx, `must map "${name}" to an http(s) URL or an absolute path`);
    }
    result[name as RemoteName] = url;
  }
  return result;
});

function isEntryUrl(value: string): boolean {
  if (value.startsWith('/') && !value.startsWith('//')) return true;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** The distinct origins of the entries that are absolute URLs (a path is on our own origin). */
export function remoteOrigins(urls: Partial<Record<RemoteName, string>>): string[] {
  const origins = Object.values(urls)
    .filter((url) => !url.startsWith('/'))
    .map((url) => new URL(url).origin);
  return [...new Set(origins)];
}
