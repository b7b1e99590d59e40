import { existsSync } from 'node:fs';
import path from 'node:path';
import { ENTITIES } from '../../entities.js';
import {
  BackupError,
  backupFileName,
  createBackup,
  manifestRows,
  pruneArchives,
  restoreBackup,
  uploadsDirOf,
} from '../../infra/backup/backup.js';
import { type CliCommand, type CliContext, EXIT } from '../command.js';

const files = (count: number) => `${count} file${count === 1 ? '' : 's'}`;

/** A refused backup or restore says why in its own words (exit 1). */
async function reporting(ctx: CliContext, work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    ctx.err(error.message);
    return EXIT.failed;
  }
}

export const backup: CliCommand = {
  name: 'backup',
  usage: '[--out FILE] [--keep N]',
  summary: 'write one archive of the database and the local avatars',
  help: [
    'Reads the database in one consistent snapshot while Termpaste runs (no pg_dump needed, any',
    'PostgreSQL version), and the files under DATA_DIR/uploads (local storage).',
    'Without --out the archive goes to BACKUP_DIR (default DATA_DIR/backups), named by the time (UTC).',
    'With --keep N (no --out), the oldest archives named by time in BACKUP_DIR beyond N are deleted after',
    'it is written, as BACKUP_KEEP does for the scheduled backups (a Kubernetes CronJob, a host cron).',
    'Example: termpaste backup --out /backups/termpaste.zip',
  ],
  options: { out: 'string', keep: 'string' },
  async run({ options }, ctx) {
    const config = ctx.config();
    const keep = options.keep === undefined ? undefined : Number(options.keep);
    if (keep !== undefined && (!/^\d+$/.test(String(options.keep)) || keep < 1)) {
      ctx.err('--keep must be a whole number of archives, 1 or more');
      return EXIT.usage;
    }
    if (keep !== undefined && options.out !== undefined) {
      ctx.err('--keep prunes the archives named by time in BACKUP_DIR: leave out --out');
      return EXIT.usage;
    }
    const file =
      typeof options.out === 'string'
        ? path.resolve(ctx.cwd, options.out)
        : path.join(config.backup.dir, backupFileName());
    const dataSource = await ctx.dataSource('as-is');
    return reporting(ctx, async () => {
      const manifest = await createBackup({ dataSource, uploadsDir: uploadsDirOf(config), file });
      const rows = manifestRows(manifest);
      ctx.out(
        `Backup written to ${file}: ${manifest.tables.length} tables, ${rows} rows, ` +
          `${files(manifest.files.length)} (PostgreSQL ${manifest.postgresVersion})`,
      );
      if (keep !== undefined) {
        const deleted = await pruneArchives(config.backup.dir, keep);
        if (deleted.length > 0) ctx.out(`Deleted ${deleted.length} older backups (--keep ${keep})`);
      }
      return EXIT.ok;
    });
  },
};

export const restore: CliCommand = {
  name: 'restore',
  usage: '<FILE>',
  summary: 'load an archive of `backup` into an empty install, then run any newer migrations',
  help: [
    'Empty: a new DATA_DIR (its PostgreSQL is made here), or an empty database at DATABASE_URL, and no',
    'files in DATA_DIR/uploads; anything else is refused and left unchanged. Restore before the first',
    'start (starting Termpaste creates the tables). One transaction: all of it, checked, or nothing.',
    'Example: DATA_DIR=/srv/termpaste termpaste restore termpaste-backup-20260101T030000Z.zip',
  ],
  positional: ['FILE'],
  async run({ positional }, ctx) {
    const config = ctx.config();
    const file = path.resolve(ctx.cwd, positional[0]!);
    return reporting(ctx, async () => {
      if (!existsSync(file)) throw new BackupError(`No such file: ${file}`);
      const { manifest, migrated } = await restoreBackup({
        databaseUrl: await ctx.databaseUrl(),
        uploadsDir: uploadsDirOf(config),
        file,
        entities: ENTITIES,
      });
      const rows = manifestRows(manifest);
      ctx.out(
        `Restored ${file} (made ${manifest.createdAt} by Termpaste ${manifest.appVersion}): ` +
          `${manifest.tables.length} tables, ${rows} rows, ${files(manifest.files.length)}` +
          (migrated.length > 0 ? `; then ran ${migrated.length} newer migrations` : ''),
      );
      if (uploadsDirOf(config) === undefined && manifest.files.length > 0) {
        ctx.out(
          `The archive's upload files (${files(manifest.files.length)}) were left out: avatars are in S3 here`,
        );
      }
      return EXIT.ok;
    });
  },
};
