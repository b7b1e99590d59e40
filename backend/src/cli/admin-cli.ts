import { existsSync } from 'node:fs';
import path from 'node:path';
import { PAGES } from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import { EMBEDDED_DATABASE_NAME } from '../bootstrap.js';
import { StartupError } from '../common/startup-error.js';
import { type AppConfig, loadConfig } from '../config/config.js';
import { dataSourceOptions } from '../infra/database/data-source.options.js';
import { ENTITIES } from '../entities.js';
import {
  EmbeddedPostgresServer,
  type EmbeddedPostgresOptions,
  findRunningPostgres,
} from '../infra/database/embedded-postgres.js';
import { AuditService, CLI_ACTOR } from '../modules/audit/audit.service.js';
import { OwnerService } from '../modules/auth/owner.service.js';
import { type AdminChange, UsersService } from '../modules/users/users.service.js';
import { BACKUP_USAGE, runBackupCli } from './backup-cli.js';

export const CLI_USAGE = [
  'Usage: npm run cli -- <command> [<username>]',
  '',
  'Commands:',
  '  make-admin <username>     let the user moderate (admin panel, pin, lock, feature, delete)',
  '  revoke-admin <username>   take that away again (never from the owner)',
  '  setup-code                print a new one-time code that makes a verified member the owner',
  '                            (without OWNER_EMAIL, while there is no owner)',
  ...BACKUP_USAGE,
].join('\n');

export interface CliOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Where results go (stdout by default) and problems (stderr by default), one line per call. */
  out?: (line: string) => void;
  err?: (line: string) => void;
  /** Overrides for an embedded PostgreSQL the CLI starts itself (tests skip fsync). */
  embeddedPostgres?: Partial<Omit<EmbeddedPostgresOptions, 'dir'>>;
}

interface Connection {
  url: string;
  close(): Promise<void>;
}

/**
 * `npm run cli -- make-admin <username>` and `revoke-admin <username>`. In embedded mode it uses a running
 * `npm start`'s PostgreSQL if any (two servers cannot share the data directory), else starts its own.
 * Returns the exit code: 0 done (or nothing to do), 1 refused or failed.
 */
export async function runCli(argv: readonly string[], options: CliOptions = {}): Promise<number> {
  const out = options.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = options.err ?? ((line: string) => process.stderr.write(`${line}\n`));
  const backup = await runBackupCli(argv, options);
  if (backup !== undefined) return backup;
  const [command, username, ...extra] = argv;
  if (command === 'help' || command === '--help') {
    out(CLI_USAGE);
    return 0;
  }
  const adminCommand = (command === 'make-admin' || command === 'revoke-admin') && !!username;
  const setupCommand = command === 'setup-code' && username === undefined;
  if ((!adminCommand && !setupCommand) || extra.length > 0) {
    err(argv.length === 0 ? CLI_USAGE : `Not a command: ${argv.join(' ')}\n\n${CLI_USAGE}`);
    return 1;
  }

  let connection: Connection | undefined;
  let dataSource: DataSource | undefined;
  try {
    const config = loadConfig(options.env ?? process.env, options.cwd ?? process.cwd());
    connection = await connect(config, options, out);
    const db = await new DataSource(dataSourceOptions(connection.url, { entities: ENTITIES })).initialize();
    dataSource = db;
    const users = new UsersService(db);
    if (setupCommand) return await printSetupCode(new OwnerService(db, users, config), config, out, err);
    const audit = new AuditService(db);
    const grant = command === 'make-admin';
    // The change and its audit log entry (actor `cli`) in one transaction.
    const { change, user } = await db.transaction(async (manager) => {
      const result = await users.setAdmin(username!, grant, manager);
      if (result.user && (result.change === 'granted' || result.change === 'revoked')) {
        await audit.record(manager, CLI_ACTOR, {
          action: grant ? 'user.admin_grant' : 'user.admin_revoke',
          targetType: 'user',
          targetId: result.user.id,
          targetLabel: result.user.username,
          before: { isAdmin: !grant },
          after: { isAdmin: grant },
        });
      }
      return result;
    });
    const name = user?.username ?? username;
    const results: Record<AdminChange, [code: number, line: string]> = {
      granted: [0, `${name} is now an admin`],
      revoked: [0, `${name} is no longer an admin`],
      unchanged: [
        0,
        grant ? `${name} is already an admin: nothing to do` : `${name} is not an admin: nothing to do`,
      ],
      'not-found': [1, `No user named "${username}"`],
      owner: [1, `${name} is the owner: the owner is always an admin`],
    };
    const [code, line] = results[change];
    (code === 0 ? out : err)(line);
    return code;
  } catch (error) {
    err(error instanceof StartupError ? error.message : `Failed: ${(error as Error).stack ?? String(error)}`);
    return 1;
  } finally {
    await dataSource?.destroy().catch(() => undefined);
    await connection?.close();
  }
}

/** `setup-code`: a new code (older ones stay valid until one is used), or why none applies. */
async function printSetupCode(
  owners: OwnerService,
  config: AppConfig,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  const result = await owners.issueSetupCode();
  if (result.issued) {
    out(
      `Setup code: ${result.code}\n` +
        `Sign in with a verified account and enter it at ${config.publicUrl}${PAGES.ownerSetup} to become ` +
        'the owner. It works once.',
    );
    return 0;
  }
  err(
    result.reason === 'owner'
      ? `${result.owner} is the owner already: no setup code applies`
      : `OWNER_EMAIL is set (${result.ownerEmail}): that account becomes the owner once it verifies its ` +
          'address; no setup code applies',
  );
  return 1;
}

async function connect(
  config: AppConfig,
  options: CliOptions,
  out: (line: string) => void,
): Promise<Connection> {
  const { database } = config;
  if (database.mode === 'external') return { url: database.url, close: async () => undefined };

  const running = await findRunningPostgres(database.dir);
  if (running) {
    out(`Using the database of the running Termpaste (PostgreSQL pid ${running.pid} on ${database.dir})`);
    return { url: running.url(EMBEDDED_DATABASE_NAME), close: async () => undefined };
  }
  if (!existsSync(path.join(database.dir, 'PG_VERSION'))) {
    throw new StartupError(
      `There is no Termpaste database in ${database.dir} yet: start Termpaste once (npm start), or set DATA_DIR`,
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
