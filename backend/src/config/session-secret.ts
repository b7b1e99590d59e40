import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config-error.js';

export const SESSION_SECRET_MIN_LENGTH = 32;
export const SESSION_SECRET_FILE = 'session-secret';

/**
 * The secret session cookies are signed with: SESSION_SECRET if set, else (embedded mode only) the one
 * kept in `$DATA_DIR/session-secret`, generated on the first start.
 */
export function sessionSecret(
  given: string | undefined,
  { role, embedded, dataDir }: { role: 'api' | 'worker'; embedded: boolean; dataDir: string },
): string {
  if (given !== undefined) return given;
  // A worker signs no cookies: nothing to require, nothing to generate.
  if (role === 'worker') return '';
  if (!embedded) {
    throw new ConfigError(
      'Invalid configuration: SESSION_SECRET must be set when DATABASE_URL is set ' +
        `(at least ${SESSION_SECRET_MIN_LENGTH} characters, the same on every instance), or SESSION_SECRET_FILE ` +
        '(a file holding it)',
    );
  }
  return readOrCreateSessionSecret(dataDir);
}

function readOrCreateSessionSecret(dataDir: string): string {
  const file = path.join(dataDir, SESSION_SECRET_FILE);
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(file, randomBytes(48).toString('base64url') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // The file may predate us with looser permissions: it is a credential.
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < SESSION_SECRET_MIN_LENGTH) {
    throw new ConfigError(
      `Invalid configuration: ${file} must hold at least ${SESSION_SECRET_MIN_LENGTH} characters ` +
        '(delete it to have a new secret generated)',
    );
  }
  return secret;
}
