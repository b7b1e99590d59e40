import { rm } from 'node:fs/promises';
import path from 'node:path';
import { API, PAGES } from '@termpaste/contracts';
import supertest from 'supertest';
import { bootstrap, type RunningServer } from '../src/bootstrap.js';
import { CLI_USAGE, runCli } from '../src/cli/admin-cli.js';
import { usageOf } from '../src/cli/command.js';
import { setupCode } from '../src/cli/commands/setup-code.js';
import { freePort } from '../src/infra/free-port.js';
import { newAccount, registered, registeredUnverified, verifyByMail } from './support/accounts.js';
import { CapturingLogger } from './support/capturing-logger.js';
import { processesMentioning } from './support/processes.js';
import { createTestApp, TEST_SESSION_SECRET, type TestApp } from './support/test-app.js';
import { FAST_POSTGRES, makeTempDir } from './support/throwaway-postgres.js';

/** Runs the CLI as `npm run cli -- ...args` would, capturing what it prints. */
async function cli(env: Record<string, string>, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    env,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    embeddedPostgres: FAST_POSTGRES,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('npm run cli -- make-admin / revoke-admin', () => {
  let t: TestApp;
  let env: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    env = { DATABASE_URL: t.database.url, SESSION_SECRET: TEST_SESSION_SECRET };
  });

  afterAll(async () => {
    await t.close();
  });

  it('grants and revokes admin by username, in any letter case; a signed-in user sees it at once', async () => {
    await registered(t); // the owner
    const { browser, account } = await registered(t);

    expect(await cli(env, 'make-admin', account.username.toUpperCase())).toEqual({
      code: 0,
      out: `${account.username} is now an admin`,
      err: '',
    });
    expect((await browser.get(API.currentUser).expect(200)).body.isAdmin).toBe(true);

    expect(await cli(env, 'make-admin', account.username)).toMatchObject({
      code: 0,
      out: `${account.username} is already an admin: nothing to do`,
    });

    expect(await cli(env, 'revoke-admin', account.username)).toEqual({
      code: 0,
      out: `${account.username} is no longer an admin`,
      err: '',
    });
    expect((await browser.get(API.currentUser).expect(200)).body.isAdmin).toBe(false);
    expect(await cli(env, 'revoke-admin', account.username)).toMatchObject({
      code: 0,
      out: `${account.username} is not an admin: nothing to do`,
    });
  });

  it('never takes admin from the owner', async () => {
    const [owner] = await t.dataSource.query('SELECT username FROM users WHERE is_owner');
    expect(await cli(env, 'revoke-admin', owner.username)).toEqual({
      code: 1,
      out: '',
      err: `${owner.username} is the owner: the owner is always an admin`,
    });
    const [row] = await t.dataSource.query('SELECT is_admin FROM users WHERE is_owner');
    expect(row.is_admin).toBe(true);
  });

  it('says so for an unknown user: exit 1', async () => {
    expect(await cli(env, 'make-admin', 'nobody_at_all')).toEqual({
      code: 1,
      out: '',
      err: 'No user named "nobody_at_all"',
    });
  });

  it.each([[[]], [['make-admin']], [['promote', 'neo']], [['make-admin', 'neo', 'trinity']]])(
    'prints the usage for %j: exit 2',
    async (args) => {
      const result = await cli(env, ...args);
      expect(result.code).toBe(2);
      expect(result.err).toContain('Usage: termpaste');
    },
  );

  it('prints the usage on help: exit 0', async () => {
    expect(await cli(env, 'help')).toEqual({ code: 0, out: CLI_USAGE, err: '' });
  });

  it('names a bad configuration: exit 1', async () => {
    const result = await cli(
      { DATABASE_URL: 'mysql://db/x', SESSION_SECRET: TEST_SESSION_SECRET },
      'make-admin',
      'neo',
    );
    expect(result).toMatchObject({ code: 1, out: '' });
    expect(result.err).toMatch(/^Invalid configuration: DATABASE_URL must start with postgres:\/\//);
  });

  describe('setup-code', () => {
    it('prints a new setup code that makes a verified member the owner, once', async () => {
      const app = await createTestApp();
      try {
        const appEnv = { DATABASE_URL: app.database.url, SESSION_SECRET: TEST_SESSION_SECRET };
        const result = await cli(appEnv, 'setup-code');
        expect(result.code).toBe(0);
        expect(result.err).toBe('');
        const code = /^Setup code: ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})$/m.exec(result.out)?.[1];
        expect(code).toBeDefined();
        expect(result.out).toContain(
          `Sign in with a verified account and enter it at ${app.config.publicUrl}${PAGES.ownerSetup} to become the owner. It works once.`,
        );
        const member = await registeredUnverified(app);
        await verifyByMail(app, member.account.email);
        const claimed = await member.browser.post(API.ownerClaim).send({ code }).expect(200);
        expect(claimed.body).toMatchObject({ isOwner: true, isAdmin: true });

        expect(await cli(appEnv, 'setup-code')).toEqual({
          code: 1,
          out: '',
          err: `${member.account.username} is the owner already: no setup code applies`,
        });
      } finally {
        await app.close();
      }
    });

    it('applies no setup code with OWNER_EMAIL: exit 1', async () => {
      const app = await createTestApp({ env: { OWNER_EMAIL: 'Boss@Example.com' } });
      try {
        const appEnv = {
          DATABASE_URL: app.database.url,
          SESSION_SECRET: TEST_SESSION_SECRET,
          OWNER_EMAIL: 'Boss@Example.com',
        };
        expect(await cli(appEnv, 'setup-code')).toEqual({
          code: 1,
          out: '',
          err:
            'OWNER_EMAIL is set (boss@example.com): that account becomes the owner once it verifies its ' +
            'address; no setup code applies',
        });
        expect(await app.dataSource.query('SELECT id FROM owner_setup_codes')).toEqual([]);
      } finally {
        await app.close();
      }
    });

    it('takes no argument', async () => {
      const result = await cli(env, 'setup-code', 'neo');
      expect(result).toMatchObject({ code: 2, out: '' });
      expect(result.err).toBe(`Too many arguments for setup-code: neo\n\n${usageOf(setupCode)}`);
    });
  });

  describe('in embedded mode (DATABASE_URL unset)', () => {
    let dataDir: string;
    let embeddedEnv: Record<string, string>;
    let server: RunningServer | undefined;

    beforeAll(async () => {
      dataDir = await makeTempDir('termpaste-cli-');
      embeddedEnv = {
        DATA_DIR: dataDir,
        PORT: String(await freePort()),
        FRONTENDS_DIR: path.join(dataDir, 'web'),
      };
    });

    afterAll(async () => {
      await server?.shutdown();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('refuses when there is no database yet', async () => {
      const result = await cli(embeddedEnv, 'make-admin', 'neo');
      expect(result.code).toBe(1);
      expect(result.err).toBe(
        `There is no Termpaste database in ${path.join(dataDir, 'pg')} yet: start Termpaste once (npm start), or set DATA_DIR`,
      );
    });

    it('uses the PostgreSQL of a running Termpaste, and starts its own when none runs', async () => {
      server = await bootstrap({
        env: embeddedEnv,
        logger: new CapturingLogger(),
        handleSignals: false,
        embeddedPostgres: FAST_POSTGRES,
      });
      const browser = supertest.agent(server.url).set('Origin', server.url);
      await browser.post(API.register).send(newAccount()).expect(201); // the owner
      const account = newAccount();
      await browser.post(API.register).send(account).expect(201);

      const granted = await cli(embeddedEnv, 'make-admin', account.username);
      expect(granted.code).toBe(0);
      expect(granted.out).toBe(
        `Using the database of the running Termpaste (PostgreSQL pid ${server.database!.pid} on ${path.join(dataDir, 'pg')})\n` +
          `${account.username} is now an admin`,
      );
      expect((await browser.get(API.currentUser).expect(200)).body.isAdmin).toBe(true);

      await server.shutdown();
      server = undefined;
      expect(await cli(embeddedEnv, 'revoke-admin', account.username)).toEqual({
        code: 0,
        out: `${account.username} is no longer an admin`,
        err: '',
      });
      // The PostgreSQL it started is stopped again.
      expect(await processesMentioning(dataDir)).toEqual([]);
    });
  });
});
