import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { API, uploadTicketSchema } from '@termpaste/contracts';
import { Client } from 'pg';
import supertest from 'supertest';
import { DataSource } from 'typeorm';
import { runCli } from '../src/cli/admin-cli.js';
import { loadConfig } from '../src/config/config.js';
import { ENTITIES } from '../src/entities.js';
import { createBackup, restoreBackup } from '../src/infra/backup/backup.js';
import { dataSourceOptions } from '../src/infra/database/data-source.options.js';
import { MIGRATIONS } from '../src/infra/database/migrations/index.js';
import { BACKUP_QUEUE, BACKUP_SCHEDULE } from '../src/infra/backup/backup.queue.js';
import { listSequences, listTables } from '../src/infra/backup/database-dump.js';
import { ScheduledBackups } from '../src/infra/backup/scheduled-backups.js';
import { QueuePort } from '../src/infra/queue/queue.port.js';
import { type Browser, registered } from './support/accounts.js';
import { startFakeS3 } from './support/fake-s3.js';
import { databaseUrl, withAdminClient } from './support/postgres.js';
import { createTestApp, TEST_SESSION_SECRET, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A migration's timestamp: the digits its class name ends with. */
const stamp = (migration: { name: string }) => Number(/(\d+)$/.exec(migration.name)![1]);

/** Every table's rows, ordered, as JSON text (generated columns too), and every sequence's state. */
async function snapshot(url: string): Promise<Record<string, string>> {
  const client = new Client(url);
  await client.connect();
  try {
    const result: Record<string, string> = {};
    for (const { name } of await listTables(client)) {
      const table = client.escapeIdentifier(name);
      const { rows } = await client.query<{ rows: string }>(
        `SELECT coalesce(json_agg(to_jsonb(x) ORDER BY to_jsonb(x)::text), '[]')::text AS rows FROM ${table} x`,
      );
      result[name] = rows[0]!.rows;
    }
    for (const sequence of await listSequences(client))
      result[`sequence ${sequence.name}`] = JSON.stringify(sequence);
    return result;
  } finally {
    await client.end();
  }
}

async function files(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const result: Record<string, string> = {};
  for (const entry of entries.filter((e) => e.isFile())) {
    const file = path.join(entry.parentPath, entry.name);
    result[path.relative(dir, file)] = (await readFile(file)).toString('base64');
  }
  return result;
}

/** A new database with nothing in it, as an operator creates one for a restore. */
async function emptyDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `restore_${randomBytes(6).toString('hex')}`;
  await withAdminClient((client) => client.query(`CREATE DATABASE ${name} TEMPLATE template0`));
  return {
    url: databaseUrl(name),
    drop: async () => {
      await withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

async function tableCount(url: string): Promise<number> {
  const client = new Client(url);
  await client.connect();
  try {
    return (await listTables(client)).length;
  } finally {
    await client.end();
  }
}

/** The CLI as an operator runs it, on `url` and `dataDir`; its exit code and what it printed. */
async function cli(argv: string[], url: string, dataDir: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    env: { DATABASE_URL: url, DATA_DIR: dataDir, SESSION_SECRET: TEST_SESSION_SECRET },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('termpaste backup and restore', () => {
  let t: TestApp;
  let work: string;
  let archive: string;
  let pasteId: number;
  const drops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'termpaste-backup-'));
    t = await createTestApp({
      env: { BACKUP_CRON: '0 3 * * *', BACKUP_DIR: path.join(work, 'scheduled'), BACKUP_KEEP: '2' },
    });
    archive = path.join(work, 'site.zip');
    // Data made through the API: members, a paste with replies, votes and a revision, messages, an avatar,
    // staff actions in the audit log.
    const owner = await registered(t);
    const alice = await registered(t);
    const bob = await registered(t);
    const paste = (
      await alice.browser
        .post(API.threads)
        .send({ title: 'Backed up', content: 'one\ntwo\n', language: 'rust' })
        .expect(201)
    ).body as { id: number };
    pasteId = paste.id;
    const reply = (
      await bob.browser.post(API.threadReplies(paste.id)).send({ content: 'a reply' }).expect(201)
    ).body as { id: number };
    await alice.browser
      .post(API.threadReplies(paste.id))
      .send({ content: 'tab\there, "quotes", \\ back\\slash' })
      .expect(201);
    await bob.browser.post(API.votes).send({ threadId: paste.id, value: 1 }).expect(200);
    await alice.browser.post(API.votes).send({ replyId: reply.id, value: -1 }).expect(200);
    await alice.browser.patch(API.thread(paste.id)).send({ content: 'one\ntwo\nthree\n' }).expect(200);
    await alice.browser
      .post(API.messages)
      .send({ recipientEmail: bob.user.email, subject: 'Hi', content: 'multi\nline\r\nünïcode 🚀' })
      .expect(201);
    await setAvatar(alice.browser);
    await owner.browser.post(API.adminThreadPin(paste.id)).expect(200);
    await owner.browser.post(API.adminUserBan(bob.user.id)).expect(200);
    // The mail that follows leaves the outbox soon: waited for, so the tables stay as backed up.
    await waitFor('the outbox relayed', async () => {
      const [row] = (await t.dataSource.query('SELECT count(*)::int AS n FROM outbox')) as Array<{
        n: number;
      }>;
      return row!.n === 0;
    });
  });

  afterAll(async () => {
    for (const drop of drops) await drop();
    await t?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  async function setAvatar(browser: Browser): Promise<void> {
    const ticket = uploadTicketSchema.parse((await browser.post(API.objectsUpload).expect(200)).body);
    const form = supertest(t.url).post(new URL(ticket.form.url).pathname);
    for (const [name, value] of Object.entries(ticket.form.fields)) void form.field(name, value);
    await form.attach('file', PNG, { filename: 'a.png', contentType: 'image/png' }).expect(204);
    await browser.put(API.userAvatar).send({ avatarURL: ticket.objectURL }).expect(200);
  }

  it('restores into an empty database and DATA_DIR every row, sequence and upload file as they were', async () => {
    const made = await cli(['backup', '--out', archive], t.database.url, t.config.dataDir);
    expect(made).toMatchObject({ code: 0, err: '' });
    expect(made.out).toMatch(/^Backup written to .*site\.zip: \d+ tables, \d+ rows, 1 file \(PostgreSQL 18/);

    const target = await emptyDatabase();
    drops.push(target.drop);
    const dataDir = path.join(work, 'restored-data');
    const restored = await cli(['restore', archive], target.url, dataDir);
    expect(restored).toMatchObject({ code: 0, err: '' });
    expect(restored.out).toMatch(
      /^Restored .*site\.zip \(made .* by Termpaste .*\): \d+ tables, \d+ rows, 1 file$/,
    );

    const before = await snapshot(t.database.url);
    const after = await snapshot(target.url);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    for (const name of Object.keys(before)) expect([name, after[name]]).toEqual([name, before[name]]);
    expect(before.users).toContain('"is_banned": true');
    expect(Object.keys(await files(path.join(dataDir, 'uploads')))).toHaveLength(1);
    expect(await files(path.join(dataDir, 'uploads'))).toEqual(
      await files(path.join(t.config.dataDir, 'uploads')),
    );

    // The restored forum serves the restored data.
    const app = await createTestApp({
      database: { name: 'restored', url: target.url, drop: async () => undefined },
    });
    try {
      const shown = (await app.http.get(API.thread(pasteId)).expect(200)).body as {
        title: string;
        content: string;
      };
      expect(shown).toMatchObject({ title: 'Backed up', content: 'one\ntwo\nthree\n' });
    } finally {
      await app.close();
    }
  });

  it('refuses a database that is not empty, and changes nothing', async () => {
    const before = await snapshot(t.database.url);
    const refused = await cli(['restore', archive], t.database.url, path.join(work, 'other-data'));
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(
      /^The database is not empty \(\d+ tables, views or sequences\): a restore goes into an empty database only/,
    );
    expect(await snapshot(t.database.url)).toEqual(before);

    // An empty database, but upload files already there.
    const target = await emptyDatabase();
    drops.push(target.drop);
    const dataDir = path.join(work, 'used-data');
    await mkdir(path.join(dataDir, 'uploads', 'avatars'), { recursive: true });
    await writeFile(path.join(dataDir, 'uploads', 'avatars', 'someone'), 'x');
    const used = await cli(['restore', archive], target.url, dataDir);
    expect(used).toMatchObject({
      code: 1,
      err: `${path.join(dataDir, 'uploads')} holds 1 file already: a restore needs it empty. Nothing was changed`,
    });
    expect(await tableCount(target.url)).toBe(0);
  });

  it('refuses a truncated or corrupt archive with a clear message, leaving the database untouched', async () => {
    const whole = await readFile(archive);
    const truncated = path.join(work, 'truncated.zip');
    await writeFile(truncated, whole.subarray(0, Math.floor(whole.length / 2)));
    const target = await emptyDatabase();
    drops.push(target.drop);
    const cut = await cli(['restore', truncated], target.url, path.join(work, 'cut-data'));
    expect(cut.code).toBe(1);
    expect(cut.err).toMatch(
      /truncated\.zip is not a complete Termpaste backup \(.+\): nothing was restored$/,
    );
    expect(await tableCount(target.url)).toBe(0);

    // One byte changed inside the data of the biggest table: found by its checksum (or by inflate).
    const corrupt = path.join(work, 'corrupt.zip');
    await copyFile(archive, corrupt);
    const bytes = await readFile(corrupt);
    const users = bytes.indexOf(Buffer.from('tables/users.copy'));
    bytes[users + 'tables/users.copy'.length + 20] ^= 0x55;
    await writeFile(corrupt, bytes);
    const bad = await cli(['restore', corrupt], target.url, path.join(work, 'bad-data'));
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(
      /corrupt\.zip is not a complete Termpaste backup \(tables\/users\.copy.*\): nothing was restored$/,
    );
    expect(await tableCount(target.url)).toBe(0);
    expect(await files(path.join(work, 'bad-data'))).toEqual({});
  });

  it('backs up on BACKUP_CRON as a repeatable job, keeping the newest BACKUP_KEEP archives', async () => {
    expect(t.app.get(QueuePort).repeatableJobs).toContainEqual(
      expect.objectContaining({ queue: BACKUP_QUEUE, id: BACKUP_SCHEDULE, pattern: '0 3 * * *' }),
    );
    const dir = path.join(work, 'scheduled');
    await mkdir(dir, { recursive: true });
    for (const old of ['termpaste-backup-20200101T030000Z.zip', 'termpaste-backup-20200102T030000Z.zip']) {
      await writeFile(path.join(dir, old), 'old');
    }
    await writeFile(path.join(dir, 'keep-me.txt'), 'not an archive of ours');
    await t.app.get(ScheduledBackups).process({ id: 'x', name: 'backup', data: {}, attemptsMade: 0 });
    const left = (await readdir(dir)).sort();
    expect(left).toEqual([
      'keep-me.txt',
      'termpaste-backup-20200102T030000Z.zip',
      expect.stringMatching(/^termpaste-backup-\d{8}T\d{6}Z\.zip$/),
    ]);
    // The archive written is a whole backup of this database.
    const written = left.find((name) => name.endsWith('Z.zip') && !name.startsWith('termpaste-backup-2020'))!;
    const target = await emptyDatabase();
    drops.push(target.drop);
    const restored = await cli(
      ['restore', path.join(dir, written)],
      target.url,
      path.join(work, 'cron-data'),
    );
    expect(restored).toMatchObject({ code: 0, err: '' });
  });

  it('with BACKUP_S3_BUCKET, uploads the archive to the bucket and prunes there (the S3_* settings reach it)', async () => {
    const bucket = 'termpaste-backups';
    const keys = {
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    };
    const s3 = await startFakeS3({ bucket, region: 'eu-central-1', ...keys });
    try {
      const config = loadConfig(
        {
          DATABASE_URL: t.database.url,
          SESSION_SECRET: TEST_SESSION_SECRET,
          DATA_DIR: t.config.dataDir,
          BACKUP_CRON: '0 3 * * *',
          BACKUP_KEEP: '1',
          BACKUP_DIR: path.join(work, 's3-staging'),
          BACKUP_S3_BUCKET: bucket,
          S3_ENDPOINT: s3.endpoint,
          S3_REGION: 'eu-central-1',
          S3_FORCE_PATH_STYLE: 'true',
          S3_ACCESS_KEY_ID: keys.accessKeyId,
          S3_SECRET_ACCESS_KEY: keys.secretAccessKey,
        },
        work,
      );
      // The avatars stay local: the S3 settings are the backups' only.
      expect(config.storage.mode).toBe('local');
      const old = { contentType: 'application/zip', etag: '"old"', lastModified: new Date(0) };
      s3.objects.set('backups/termpaste-backup-20200101T030000Z.zip', { ...old, body: Buffer.from('old') });
      s3.objects.set('elsewhere/keep.txt', { ...old, body: Buffer.from('other') });
      const backups = new ScheduledBackups(t.dataSource, t.app.get(QueuePort), config);
      const { file, deleted } = await backups.run(new Date('2026-01-02T03:00:00Z'));
      expect(file).toBe(`s3://${bucket}/backups/termpaste-backup-20260102T030000Z.zip`);
      expect(deleted).toEqual(['backups/termpaste-backup-20200101T030000Z.zip']);
      expect([...s3.objects.keys()].sort()).toEqual([
        'backups/termpaste-backup-20260102T030000Z.zip',
        'elsewhere/keep.txt',
      ]);
      const archive = s3.objects.get('backups/termpaste-backup-20260102T030000Z.zip')!;
      expect(archive.body.subarray(0, 2).toString()).toBe('PK');
      // Nothing left behind where it was written first.
      expect(await readdir(path.join(work, 's3-staging'))).toEqual([]);
    } finally {
      await s3.close();
    }
  });

  it('refuses a BACKUP_CRON that is no cron pattern', () => {
    expect(() =>
      loadConfig(
        { DATABASE_URL: t.database.url, SESSION_SECRET: TEST_SESSION_SECRET, BACKUP_CRON: 'nightly' },
        work,
      ),
    ).toThrow(
      'BACKUP_CRON must be a cron pattern such as "0 3 * * *" (minute hour day month weekday, in UTC) (got "nightly")',
    );
  });

  it('restores a backup of an older release, then runs the migrations it lacks', async () => {
    const older = await emptyDatabase();
    drops.push(older.drop);
    // The schema as the release before the last two migrations left it.
    const byTime = [...MIGRATIONS].sort((a, b) => stamp(a) - stamp(b));
    const old = new DataSource({
      ...dataSourceOptions(older.url, { entities: ENTITIES }),
      migrations: byTime.slice(0, -2),
      migrationsRun: false,
    });
    await old.initialize();
    await old.runMigrations();
    await old.destroy();
    const file = path.join(work, 'older.zip');
    const manifest = await createBackup({ databaseUrl: older.url, file });
    expect(manifest.migrations).toHaveLength(MIGRATIONS.length - 2);

    const target = await emptyDatabase();
    drops.push(target.drop);
    const { migrated } = await restoreBackup({ databaseUrl: target.url, file, entities: ENTITIES });
    expect(migrated).toEqual(byTime.slice(-2).map((migration) => migration.name));
    const client = new Client(target.url);
    await client.connect();
    const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM migrations');
    await client.end();
    expect(rows[0]!.n).toBe(MIGRATIONS.length);
  });

  it('backup --keep N prunes the archives named by time in BACKUP_DIR; refuses a bad N or --out', async () => {
    const dataDir = path.join(work, 'keep-data');
    const dir = path.join(dataDir, 'backups');
    await mkdir(dir, { recursive: true });
    for (const old of ['termpaste-backup-20200101T030000Z.zip', 'termpaste-backup-20200102T030000Z.zip']) {
      await writeFile(path.join(dir, old), 'old');
    }
    await writeFile(path.join(dir, 'mine.zip'), 'not named by time');
    const kept = await cli(['backup', '--keep', '2'], t.database.url, dataDir);
    expect(kept).toMatchObject({ code: 0, err: '' });
    expect(kept.out).toMatch(/^Backup written to .*\nDeleted 1 older backups \(--keep 2\)$/);
    const left = (await readdir(dir)).sort();
    expect(left).toEqual([
      'mine.zip',
      'termpaste-backup-20200102T030000Z.zip',
      expect.stringMatching(/^termpaste-backup-\d{8}T\d{6}Z\.zip$/),
    ]);
    for (const bad of ['0', '-1', '2.5', 'all']) {
      expect(await cli(['backup', '--keep', bad], t.database.url, dataDir)).toMatchObject({
        code: 2,
        err: '--keep must be a whole number of archives, 1 or more',
      });
    }
    expect(
      await cli(['backup', '--keep', '2', '--out', path.join(work, 'x.zip')], t.database.url, dataDir),
    ).toMatchObject({
      code: 2,
      err: '--keep prunes the archives named by time in BACKUP_DIR: leave out --out',
    });
    expect((await readdir(dir)).length).toBe(3);
  });

  it('says how to call it', async () => {
    const usage = await cli(['restore'], t.database.url, t.config.dataDir);
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/^Missing FILE for restore\n\nUsage: termpaste restore <FILE>\n/);
    const help = await cli(['help'], t.database.url, t.config.dataDir);
    expect(help.out).toContain(
      '  backup [--out FILE] [--keep N]\n      write one archive of the database and the local avatars',
    );
    expect(help.out).toContain('  restore <FILE>\n');
    const missing = await cli(['restore', path.join(work, 'nope.zip')], t.database.url, t.config.dataDir);
    expect(missing).toMatchObject({ code: 1, err: `No such file: ${path.join(work, 'nope.zip')}` });
  });
});
