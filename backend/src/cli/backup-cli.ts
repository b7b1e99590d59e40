import { existsSync } from 'node:fs';
import path from 'node:path';
import { EMBEDDED_DATABASE_NAME } from '../bootstrap.js';
import { StartupError } from '../common/startup-error.js';
import { ENTITIES } from '../entities.js';
import { type AppConfig, loadConfig } from '../config/config.js';
import { BackupError, backupFileName, createBackup, restoreBackup } from '../infra/backup/backup.js';
import {
  EmbeddedPostgresServer,
  type EmbeddedPostgresOptions,
  findRunningPostgres,
} from '../infra/database/embedded-postgres.js';

export const BACKUP_USAGE = [
  '  backup [--out FILE]       write one archive of the database and the local avatars (default:',
  '                            BACKUP_DIR, else DATA_DIR/backups, named by the time)',
  '  restore FILE              load such an archive into an empty install (a new DATA_DIR, or an empty',
  '                            database at DATABASE_URL), then run any newer migrations',
];

export interface BackupCliOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  out?: (line: string) => void;
  err?: (line: string) => void;
  embeddedPostgres?: Partial<Omit<EmbeddedPostgresOptions, 'dir'>>;
}

/**
 * `backup [--out FILE]` and `restore FILE`; undefined when `argv` is another command. Returns the exit
 * code: 0 done, 1 refused or failed (with the reason on `err`).
 */
export async function runBackupCli(
  argv: readonly string[],
  options: BackupCliOptions = {},
): Promise<number | undefined> {
  const [command, ...rest] = argv;
  if (command !== 'backup' && command !== 'restore') return undefined;
  const out = options.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = options.err ?? ((line: string) => process.stderr.write(`${line}\n`));
  const cwd = options.cwd ?? process.cwd();
  const valid =
    command === 'backup'
      ? rest.length === 0 || (rest.length === 2 && rest[0] === '--out' && rest[1] !== '')
      : rest.length === 1 && !rest[0]!.startsWith('-');
  if (!valid) {
    err(`Usage: ${command === 'backup' ? 'backup [--out FILE]' : 'restore FILE'}`);
    return 1;
  }
  let close: (() => Promise<void>) | undefined;
  try {
    const config = loadConfig(options.env ?? process.env, cwd);
    const uploadsDir = config.storage.mode === 'local' ? config.storage.dir : undefined;
    if (command === 'backup') {
      const file = rest[1] ? path.resolve(cwd, rest[1]) : path.join(config.backup.dir, backupFileName());
      const connection = await connect(config, options, out, false);
      close = connection.close;
      const manifest = await createBackup({ databaseUrl: connection.url, uploadsDir, file });
      const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
      out(
        `Backup written to ${file}: ${manifest.tables.length} tables, ${rows} rows, ` +
          `${manifest.files.length} files (PostgreSQL ${manifest.postgresVersion})`,
      );
      return 0;
    }
    const file = path.resolve(cwd, rest[0]!);
    if (!existsSync(file)) throw new BackupError(`No such file: ${file}`);
    const connection = await connect(config, options, out, true);
    close = connection.close;
    const { manifest, migrated } = await restoreBackup({
      databaseUrl: connection.url,
      uploadsDir,
      file,
      entities: ENTITIES,
    });
    const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
    out(
      `Restored ${file} (made ${manifest.createdAt} by Termpaste ${manifest.appVersion}): ` +
        `${manifest.tables.length} tables, ${rows} rows, ${manifest.files.length} files` +
        (migrated.length > 0 ? `; then ran ${migrated.length} newer migrations` : ''),
    );
    if (uploadsDir === undefined && manifest.files.length > 0) {
      out(`The archive's ${manifest.files.length} upload files were left out: avatars are in S3 here`);
    }
    return 0;
  } catch (error) {
    err(
      error instanceof BackupError || error instanceof StartupError
        ? error.message
        : `Failed: ${(error as Error).stack ?? String(error)}`,
    );
    return 1;
  } finally {
    await close?.().catch(() => undefined);
  }
}

/**
 * The database to read or fill. Embedded: a running Termpaste's PostgreSQL if any (two servers cannot
 * share the data directory), else one started here; a restore may start a new one in an empty DATA_DIR.
 */
async function connect(
  config: AppConfig,
  options: BackupCliOptions,
  out: (line: string) => void,
  mayCreate: boolean,
): Promise<{ url: string; close: () => Promise<void> }> {
  const { database } = config;
  if (database.mode === 'external') return { url: database.url, close: async () => undefined };
  const running = await findRunningPostgres(database.dir);
  if (running) {
    out(`Using the database of the running Termpaste (PostgreSQL pid ${running.pid} on ${database.dir})`);
    return { url: running.url(EMBEDDED_DATABASE_NAME), close: async () => undefined };
  }
  if (!mayCreate && !existsSync(path.join(database.dir, 'PG_VERSION'))) {
    throw new StartupError(
      `There is no Termpaste database in ${database.dir}: nothing to back up (set DATA_DIR)`,
    );
  }
  const server = await EmbeddedPostgresServer.start({
    dir: database.dir,
    port: database.port,
    ...options.embeddedPostgres,
  });
  try {
    await server.createDatabaseIfMissing(EMBEDDED_DATABASE_NAME);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return { url: server.url(EMBEDDED_DATABASE_NAME), close: () => server.stop() };
}
