import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config-error.js';
import type { Env } from './env.js';

/**
 * Variables that hold credentials: never echoed in an error, and each may come as `<NAME>_FILE`, the path
 * of a file holding the value (Docker and Kubernetes secrets), as the official PostgreSQL image allows.
 */
export const SECRET_VARIABLES = [
  'SESSION_SECRET',
  'DATABASE_URL',
  'DATABASE_READ_URL',
  'REDIS_URL',
  'SMTP_URL',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'GITHUB_CLIENT_SECRET',
  'OIDC_PROVIDERS',
  'AKISMET_KEY',
  'METRICS_TOKEN',
] as const;

/** A `_FILE` variable's file: the whole content is the value, less one trailing newline. */
function readSecretFile(name: string, file: string, cwd: string): string {
  let content: string;
  try {
    content = readFileSync(path.resolve(cwd, file), 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError(`Invalid configuration: ${name}_FILE: cannot read ${file} (${reason})`);
  }
  const value = content.replace(/\r?\n$/, '');
  if (value === '') throw new ConfigError(`Invalid configuration: ${name}_FILE: ${file} is empty`);
  return value;
}

/**
 * The environment with each secret given as `<NAME>_FILE` replaced by its file's content under `<NAME>`.
 * Both set is an error, and so is a file that cannot be read (the message names the variable and the path,
 * never a value). Empty variables count as unset, as everywhere else.
 */
export function withSecretFiles(env: Env, cwd: string): Env {
  const result: Env = { ...env };
  const problems: string[] = [];
  for (const name of SECRET_VARIABLES) {
    const file = env[`${name}_FILE`];
    delete result[`${name}_FILE`];
    if (file === undefined || file === '') continue;
    if (env[name] !== undefined && env[name] !== '') {
      problems.push(`${name} and ${name}_FILE are both set: keep one`);
      continue;
    }
    result[name] = readSecretFile(name, file, cwd);
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  return result;
}
