import { chmod, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  EmbeddedPostgresServer,
  type EmbeddedPostgresOptions,
} from '../../src/infra/database/embedded-postgres.js';

/** Durability settings off: test clusters are thrown away, and this makes them start and write faster. */
export const FAST_POSTGRES: Pick<EmbeddedPostgresOptions, 'detached' | 'initdbFlags' | 'settings'> = {
  // Attached: a Ctrl-C on the test run reaches PostgreSQL too, so an interrupted run leaves nothing behind.
  detached: false,
  initdbFlags: ['--no-sync'],
  settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' },
};

/** A temporary folder PostgreSQL can enter (it runs as the `postgres` user when we are root). */
export async function makeTempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  await chmod(dir, 0o755);
  return dir;
}

export function startThrowawayPostgres(dir: string, options: Partial<EmbeddedPostgresOptions> = {}) {
  return EmbeddedPostgresServer.start({ dir, ...FAST_POSTGRES, ...options });
}
