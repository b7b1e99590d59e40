import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import type { ClientBase } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { DataSource, MigrationExecutor } from 'typeorm';
import yauzl from 'yauzl';
import yazl from 'yazl';
import type { AppConfig } from '../../config/config.js';
import { dataSourceOptions, type Entities } from '../database/data-source.options.js';
import { MIGRATIONS_LOCK_KEY } from '../database/migrate.js';
import { MIGRATIONS } from '../database/migrations/index.js';
import {
  listForeignKeys,
  listSequences,
  listTables,
  loadOrder,
  type SequenceState,
  setDumpSettings,
  tablesWithUserTriggers,
} from './database-dump.js';

/** What `manifest.json` says; a restore refuses any other `format` or a newer `version`. */
export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  appVersion: string;
  /** The migrations the database had, in the order they ran; the last one names its schema. */
  migrations: string[];
  lastMigration: string | null;
  postgresVersion: string;
  createdAt: string;
  tables: Array<{ name: string; file: string; columns: string[]; rows: number; sha256: string }>;
  sequences: SequenceState[];
  /** Every file under the uploads folder (local storage), by its path there with `/`. */
  files: Array<{ path: string; file: string; size: number; sha256: string }>;
}

export const BACKUP_FORMAT = 'termpaste-backup';
export const BACKUP_FORMAT_VERSION = 1;
const MANIFEST = 'manifest.json';

/** A backup or restore refused or failed for a reason to show as it is (exit code 1). */
export class BackupError extends Error {}

const require = createRequire(import.meta.url);
const APP_VERSION = (require('../../../package.json') as { version: string }).version;

/** Hashes and counts what passes: the rows of COPY's text format each end with one newline. */
class Tally extends Transform {
  private readonly hash = createHash('sha256');
  rows = 0;
  bytes = 0;
  digest = '';

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) this.rows += 1;
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    this.digest = this.hash.digest('hex');
    done();
  }
}

const quoteList = (client: ClientBase, names: readonly string[]) =>
  names.map((name) => client.escapeIdentifier(name)).join(', ');

export interface CreateBackupOptions {
  /** The database at this address, or through the app's own DataSource (the scheduled job). */
  databaseUrl?: string;
  dataSource?: DataSource;
  /** `$DATA_DIR/uploads` with local storage; unset with S3 (the bucket keeps the avatars). */
  uploadsDir?: string | undefined;
  /** The archive to write (a `.part` file beside it until it is complete). */
  file: string;
}

/**
 * Writes one zip: every table of the database as COPY text, read in one REPEATABLE READ snapshot (a
 * consistent state while the forum keeps running), the upload files, and manifest.json with each part's
 * row count and sha256. No pg_dump needed (the embedded PostgreSQL ships none), and any server version.
 */
export async function createBackup(options: CreateBackupOptions): Promise<BackupManifest> {
  // TypeORM's own connection, for its list of the migrations run (read in the snapshot too).
  const own = options.dataSource === undefined;
  const source =
    options.dataSource ??
    new DataSource({
      ...dataSourceOptions(options.databaseUrl!, { entities: [], poolSize: 1 }),
      migrationsRun: false,
    });
  if (own) await source.initialize();
  const runner = source.createQueryRunner();
  await mkdir(path.dirname(path.resolve(options.file)), { recursive: true });
  const part = `${options.file}.${randomBytes(4).toString('hex')}.part`;
  const zip = new yazl.ZipFile();
  const output = createWriteStream(part, { mode: 0o600 });
  zip.outputStream.pipe(output);
  try {
    const client = (await runner.connect()) as ClientBase;
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await setDumpSettings(client);
    const tables = await listTables(client);
    const migrations = (await new MigrationExecutor(source, runner).getExecutedMigrations())
      .sort((a, b) => a.timestamp - b.timestamp || (a.id ?? 0) - (b.id ?? 0))
      .map((migration) => migration.name);
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_FORMAT_VERSION,
      appVersion: APP_VERSION,
      migrations,
      lastMigration: migrations.at(-1) ?? null,
      postgresVersion: (
        await client.query<{ v: string }>("SELECT current_setting('server_version') AS v")
      ).rows[0]!.v.split(' ')[0]!,
      createdAt: new Date().toISOString(),
      tables: [],
      sequences: await listSequences(client),
      files: [],
    };
    for (const table of tables) {
      const file = `tables/${table.name}.copy`;
      const copy = client.query(
        copyTo(
          `COPY (SELECT ${quoteList(client, table.columns)} FROM ${client.escapeIdentifier(table.name)}) TO STDOUT`,
        ),
      );
      const tally = new Tally();
      zip.addReadStream(tally, file, { compress: true });
      await pipeline(copy, tally);
      manifest.tables.push({
        name: table.name,
        file,
        columns: table.columns,
        rows: tally.rows,
        sha256: tally.digest,
      });
    }
    await client.query('COMMIT');
    if (options.uploadsDir !== undefined) {
      // Read just after the snapshot; an avatar replaced meanwhile (its old file deleted) is left out.
      for (const relative of await listFiles(options.uploadsDir)) {
        const body = await readFile(path.join(options.uploadsDir, relative)).catch(
          (error: NodeJS.ErrnoException) => {
            if (error.code === 'ENOENT') return undefined;
            throw error;
          },
        );
        if (body === undefined) continue;
        const file = `uploads/${relative}`;
        zip.addBuffer(body, file);
        manifest.files.push({ path: relative, file, size: body.length, sha256: sha256(body) });
      }
    }
    zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), MANIFEST);
    zip.end();
    await finished(output);
    await rename(part, options.file);
    return manifest;
  } catch (error) {
    // The connection may go back to the app's pool: not inside the snapshot.
    await runner.query('ROLLBACK').catch(() => undefined);
    zip.outputStream.unpipe(output);
    output.destroy();
    await rm(part, { force: true });
    throw error;
  } finally {
    await runner.release().catch(() => undefined);
    if (own) await source.destroy().catch(() => undefined);
  }
}

const sha256 = (body: Buffer) => createHash('sha256').update(body).digest('hex');

/** The files under `dir` (relative, with `/`), leaving out unfinished uploads (`.tmp/`, `*.part`). */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    },
  );
  return entries
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.part'))
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((relative) => !relative.startsWith('.tmp/'))
    .sort();
}

export interface RestoreBackupOptions {
  databaseUrl: string;
  /** Where the archive's upload files go (`$DATA_DIR/uploads`); unset: they are left out. */
  uploadsDir?: string | undefined;
  file: string;
  /** The app's entities, as the app's own migration run has them (TypeORM adds its metadata table for some). */
  entities: Entities;
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** Migrations of this release newer than the backup's, run after the load. */
  migrated: string[];
}

/** An archive opened for random access: its manifest and its entries by name. */
interface OpenArchive {
  zip: yauzl.ZipFile;
  entries: Map<string, yauzl.Entry>;
  manifest: BackupManifest;
}

const damaged = (file: string, why: string) =>
  new BackupError(`${file} is not a complete Termpaste backup (${why}): nothing was restored`);

async function openArchive(file: string): Promise<OpenArchive> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (error, opened) =>
      error ? reject(damaged(file, error.message)) : resolve(opened),
    ),
  );
  const entries = new Map<string, yauzl.Entry>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', (error: Error) => reject(damaged(file, error.message)));
    zip.readEntry();
  });
  const manifestEntry = entries.get(MANIFEST);
  if (!manifestEntry) {
    zip.close();
    throw damaged(file, `no ${MANIFEST}`);
  }
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse((await readEntry(zip, manifestEntry)).toString('utf8')) as BackupManifest;
  } catch (error) {
    zip.close();
    throw error instanceof BackupError ? error : damaged(file, `${MANIFEST}: ${(error as Error).message}`);
  }
  const problem =
    manifest.format !== BACKUP_FORMAT
      ? `${MANIFEST} does not name the ${BACKUP_FORMAT} format`
      : manifest.version > BACKUP_FORMAT_VERSION
        ? `format version ${manifest.version}, made by a newer Termpaste (${manifest.appVersion}); this one reads up to ${BACKUP_FORMAT_VERSION}`
        : [...manifest.tables, ...manifest.files].find((part) => !entries.has(part.file))?.file;
  if (problem !== undefined) {
    zip.close();
    throw damaged(file, entries.has(problem) || problem.includes(' ') ? problem : `${problem} is missing`);
  }
  return { zip, entries, manifest };
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
  );
}

async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await openEntry(zip, entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Loads an archive into an empty database and uploads folder, in one transaction: the backup's migrations,
 * every table (foreign-key order, our triggers off), sequences, newer migrations, each part checked before
 * the commit. Upload files are checked beside the uploads folder first, moved in after the commit.
 */
export async function restoreBackup(options: RestoreBackupOptions): Promise<RestoreResult> {
  const { zip, entries, manifest } = await openArchive(options.file);
  const known = new Map(MIGRATIONS.map((migration) => [migrationName(migration), migration]));
  const unknown = manifest.migrations.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    zip.close();
    throw new BackupError(
      `The backup was made by a newer Termpaste (${manifest.appVersion}): its migration ${unknown[0]} is ` +
        'not in this release. Restore it with that release or a newer one',
    );
  }
  const backupMigrations = manifest.migrations.map((name) => known.get(name)!);
  const { entities } = options;
  const full = new DataSource({
    ...dataSourceOptions(options.databaseUrl, { entities }),
    migrationsRun: false,
  });
  const upTo = new DataSource({
    ...dataSourceOptions(options.databaseUrl, { entities, poolSize: 1 }),
    migrations: backupMigrations,
    migrationsRun: false,
  });
  let staging: string | undefined;
  try {
    await full.initialize();
    const runner = full.createQueryRunner();
    const client = (await runner.connect()) as ClientBase;
    try {
      await assertEmpty(client);
      if (options.uploadsDir !== undefined) {
        const present = await listFiles(options.uploadsDir);
        if (present.length > 0) {
          throw new BackupError(
            `${options.uploadsDir} holds ${present.length} file${present.length === 1 ? '' : 's'} already: a restore needs it empty. Nothing was changed`,
          );
        }
        if (manifest.files.length > 0) {
          staging = `${options.uploadsDir}.restore-${randomBytes(4).toString('hex')}`;
          await extractFiles(zip, entries, manifest, staging, options.file);
        }
      }

      await client.query('BEGIN');
      try {
        // The lock the API and the worker migrate under: one starting meanwhile waits, then finds it done.
        await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATIONS_LOCK_KEY]);
        await assertEmpty(client);
        await setDumpSettings(client);
        await upTo.initialize();
        await runMigrations(upTo, runner);
        await loadTables(client, zip, entries, manifest, options.file);
        const migrated = await runMigrations(full, runner);
        await client.query('COMMIT');
        if (staging !== undefined) {
          const checked = staging;
          // Past the commit the files must not be lost with the staging folder.
          staging = undefined;
          await moveFiles(checked, options.uploadsDir!, manifest).catch((error: Error) => {
            throw new BackupError(
              `The database is restored, but the upload files could not be moved (${error.message}): ` +
                `move them from ${checked} into ${options.uploadsDir}`,
            );
          });
          await rm(checked, { recursive: true, force: true });
        }
        return { manifest, migrated };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    } finally {
      await runner.release();
    }
  } finally {
    zip.close();
    if (staging !== undefined) await rm(staging, { recursive: true, force: true });
    if (upTo.isInitialized) await upTo.destroy();
    if (full.isInitialized) await full.destroy();
  }
}

/** Refuses a database with anything in its schema. */
async function assertEmpty(client: ClientBase): Promise<void> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'S')`,
  );
  if (rows[0]!.n > 0) {
    throw new BackupError(
      `The database is not empty (${rows[0]!.n} tables, views or sequences): a restore goes into an ` +
        'empty database only (a new DATA_DIR, or a newly created database for DATABASE_URL). Nothing was changed',
    );
  }
}

function migrationName(migration: (typeof MIGRATIONS)[number]): string {
  const instance = new (migration as new () => { name?: string })();
  return instance.name ?? (migration as { name: string }).name;
}

/** Runs `source`'s pending migrations on `runner`, inside the transaction it has open. */
async function runMigrations(source: DataSource, runner: ReturnType<DataSource['createQueryRunner']>) {
  const executor = new MigrationExecutor(source, runner);
  executor.transaction = 'none';
  return (await executor.executePendingMigrations()).map((migration) => migration.name);
}

async function loadTables(
  client: ClientBase,
  zip: yauzl.ZipFile,
  entries: Map<string, yauzl.Entry>,
  manifest: BackupManifest,
  file: string,
): Promise<void> {
  const tables = await listTables(client);
  const present = new Map(tables.map((table) => [table.name, table]));
  for (const table of manifest.tables) {
    const there = present.get(table.name);
    const missing = there ? table.columns.filter((column) => !there.columns.includes(column)) : [];
    if (!there || missing.length > 0) {
      throw new BackupError(
        `The backup's table ${table.name}${missing.length > 0 ? ` (columns ${missing.join(', ')})` : ''} ` +
          `is not in the schema its migrations make: ${file} does not belong to this release's migrations`,
      );
    }
  }
  // Migrations may have seeded rows; the backup holds those as they were.
  if (tables.length > 0)
    await client.query(
      `TRUNCATE ${quoteList(
        client,
        tables.map((t) => t.name),
      )}`,
    );
  const triggered = await tablesWithUserTriggers(client);
  for (const table of triggered) {
    await client.query(`ALTER TABLE ${client.escapeIdentifier(table)} DISABLE TRIGGER USER`);
  }
  const { order, deferred } = loadOrder(
    manifest.tables.map((table) => table.name),
    await listForeignKeys(client),
  );
  for (const key of deferred) {
    await client.query(
      `ALTER TABLE ${client.escapeIdentifier(key.table)} DROP CONSTRAINT ${client.escapeIdentifier(key.name)}`,
    );
  }
  const byName = new Map(manifest.tables.map((table) => [table.name, table]));
  for (const name of order) {
    const table = byName.get(name)!;
    const tally = new Tally();
    const copy = client.query(
      copyFrom(`COPY ${client.escapeIdentifier(name)} (${quoteList(client, table.columns)}) FROM STDIN`),
    );
    try {
      await pipeline(await openEntry(zip, entries.get(table.file)!), tally, copy);
    } catch (error) {
      // PostgreSQL's own errors (pg's DatabaseError has a severity) say what the server refused.
      throw error instanceof Error && 'severity' in error
        ? new BackupError(`Loading table ${name} failed: ${error.message}. Nothing was restored`)
        : damaged(file, `${table.file}: ${(error as Error).message}`);
    }
    if (tally.digest !== table.sha256 || tally.rows !== table.rows) {
      throw damaged(file, `${table.file} does not match its checksum`);
    }
  }
  for (const key of deferred) {
    await client.query(
      `ALTER TABLE ${client.escapeIdentifier(key.table)} ADD CONSTRAINT ${client.escapeIdentifier(key.name)} ${key.definition}`,
    );
  }
  for (const table of triggered) {
    await client.query(`ALTER TABLE ${client.escapeIdentifier(table)} ENABLE TRIGGER USER`);
  }
  const sequences = new Set((await listSequences(client)).map((sequence) => sequence.name));
  for (const sequence of manifest.sequences.filter((s) => sequences.has(s.name))) {
    await client.query('SELECT setval($1::regclass, $2::bigint, $3)', [
      client.escapeIdentifier(sequence.name),
      sequence.lastValue,
      sequence.isCalled,
    ]);
  }
  for (const table of manifest.tables) {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM ${client.escapeIdentifier(table.name)}`,
    );
    if (Number(rows[0]!.n) !== table.rows) {
      throw new BackupError(`${table.name}: ${rows[0]!.n} rows loaded, the backup has ${table.rows}`);
    }
  }
}

/** Writes the archive's files under `staging`, each checked against its size and sha256. */
async function extractFiles(
  zip: yauzl.ZipFile,
  entries: Map<string, yauzl.Entry>,
  manifest: BackupManifest,
  staging: string,
  file: string,
): Promise<void> {
  for (const part of manifest.files) {
    if (
      part.path.split('/').some((segment) => segment === '..' || segment === '') ||
      path.isAbsolute(part.path)
    ) {
      throw damaged(file, `a file path leaves the uploads folder: ${part.path}`);
    }
    let body: Buffer;
    try {
      body = await readEntry(zip, entries.get(part.file)!);
    } catch (error) {
      throw damaged(file, `${part.file}: ${(error as Error).message}`);
    }
    if (body.length !== part.size || sha256(body) !== part.sha256) {
      throw damaged(file, `${part.file} does not match its checksum`);
    }
    const target = path.join(staging, ...part.path.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, body);
  }
}

async function moveFiles(staging: string, uploadsDir: string, manifest: BackupManifest): Promise<void> {
  for (const part of manifest.files) {
    const target = path.join(uploadsDir, ...part.path.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    await rename(path.join(staging, ...part.path.split('/')), target);
  }
}

/** The folder a backup reads avatars from and a restore writes them to: local storage only (S3 keeps its own). */
export function uploadsDirOf(config: Pick<AppConfig, 'storage'>): string | undefined {
  return config.storage.mode === 'local' ? config.storage.dir : undefined;
}

/** Every table's rows together, as a backup or restore reports them. */
export function manifestRows(manifest: BackupManifest): number {
  return manifest.tables.reduce((sum, table) => sum + table.rows, 0);
}

/** For the scheduled backups: whether `name` is an archive they wrote (and may prune). */
export const BACKUP_FILE = /^termpaste-backup-\d{8}T\d{6}Z\.zip$/;

/** Deletes the oldest archives named by time in `dir` beyond `keep`; other files stay. Resolves with those deleted. */
export async function pruneArchives(dir: string, keep: number): Promise<string[]> {
  const archives = (await readdir(dir)).filter((name) => BACKUP_FILE.test(name)).sort();
  const deleted = archives.slice(0, Math.max(0, archives.length - keep));
  for (const name of deleted) await rm(path.join(dir, name), { force: true });
  return deleted;
}

/** `termpaste-backup-20260101T120000Z.zip`: names that sort by time. */
export function backupFileName(at: Date = new Date()): string {
  return `termpaste-backup-${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')}.zip`;
}
