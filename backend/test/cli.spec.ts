import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { ADMIN_MESSAGES, API, MODERATION_MESSAGES, PAGES } from '@termpaste/contracts';
import supertest from 'supertest';
import { bootstrap, type RunningServer } from '../src/bootstrap.js';
import { CLI_USAGE, runCli } from '../src/cli/admin-cli.js';
import { usageOf } from '../src/cli/command.js';
import { COMMANDS } from '../src/cli/commands.js';
import { setupCode } from '../src/cli/commands/setup-code.js';
import { ban } from '../src/cli/commands/suspensions.js';
import { freePort } from '../src/infra/free-port.js';
import { OUTBOX_DIR } from '../src/infra/mail/mail.processor.js';
import { newAccount, PASSWORD, registered, registeredUnverified, verifyByMail } from './support/accounts.js';
import { CapturingLogger } from './support/capturing-logger.js';
import { parseMessage } from './support/eml.js';
import { processesMentioning } from './support/processes.js';
import { waitFor } from './support/wait-for.js';
import { createTestApp, TEST_SESSION_SECRET, type TestApp } from './support/test-app.js';
import { FAST_POSTGRES, makeTempDir } from './support/throwaway-postgres.js';

/** The newest mail to `to` whose subject starts with `subject`, from the outbox folder, as text. */
async function mailFile(t: TestApp, to: string, subject: string): Promise<string> {
  const dir = path.join(t.config.dataDir, OUTBOX_DIR);
  return waitFor(`a mail "${subject}" to ${to}`, async () => {
    const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.eml'));
    for (const name of names.sort().reverse()) {
      const message = parseMessage(await readFile(path.join(dir, name), 'utf8'));
      if (message.headers.get('to')?.toLowerCase() !== to.toLowerCase()) continue;
      if (message.headers.get('subject')?.startsWith(subject)) return message.body;
    }
    return undefined;
  });
}

/** Runs the CLI as `npm run admin -- ...args` would, capturing what it prints; env.STDIN is its input. */
async function cli({ STDIN, ...env }: Record<string, string>, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    env,
    stdin: async () => STDIN ?? '',
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

        // create-user with that address: verified at once, so the owner.
        const created = await cli(appEnv, 'create-user', 'the_boss', 'Boss@Example.com', '--admin');
        expect(created).toMatchObject({ code: 0, err: '' });
        expect(created.out).toMatch(
          /^Created the_boss <Boss@Example.com> \(the owner: OWNER_EMAIL\), address verified\nSet the password at: /,
        );
        expect(await app.dataSource.query('SELECT username, is_owner, is_admin FROM users')).toEqual([
          { username: 'the_boss', is_owner: true, is_admin: true },
        ]);
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

describe('npm run admin -- create-user / reset-password / ban / unban', () => {
  let t: TestApp;
  let env: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'http://forum.example.test' } });
    env = {
      DATABASE_URL: t.database.url,
      SESSION_SECRET: TEST_SESSION_SECRET,
      PUBLIC_URL: 'http://forum.example.test',
    };
    await registered(t); // the owner
  });

  afterAll(async () => {
    await t.close();
  });

  /** The audit log's entries about `username`, oldest first. */
  const auditOf = (username: string) =>
    t.dataSource.query(
      `SELECT actor_id AS "actorId", actor_name AS "actorName", action, after FROM audit_log
       WHERE target_label = $1 ORDER BY id`,
      [username],
    );

  /** The token of a link the CLI printed, checked to be on PUBLIC_URL. */
  const tokenIn = (out: string): string => {
    const match = /http:\/\/forum\.example\.test\/reset-password\?token=([\w-]{43})\n/.exec(`${out}\n`);
    expect(match).not.toBeNull();
    return match![1]!;
  };

  const signIn = (usernameOrEmail: string, password: string) =>
    t.browser().post(API.login).send({ usernameOrEmail, password });

  describe('create-user', () => {
    it('creates a verified member and prints a one-time link that sets the password', async () => {
      const { username, email } = newAccount();
      const result = await cli(env, 'create-user', username, email);
      expect(result.code).toBe(0);
      expect(result.err).toBe('');
      expect(result.out).toMatch(
        new RegExp(
          `^Created ${username} <${email}>, address verified\\nSet the password at: \\S+\\nIt works once, until \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\.$`,
        ),
      );
      const token = tokenIn(result.out);
      await signIn(username, PASSWORD).expect(401);

      await t.browser().post(API.resetPassword).send({ token, newPassword: PASSWORD }).expect(200);
      const browser = t.browser();
      await browser.post(API.login).send({ usernameOrEmail: username, password: PASSWORD }).expect(200);
      expect((await browser.get(API.currentUser).expect(200)).body).toMatchObject({
        username,
        emailVerified: true,
        isAdmin: false,
      });
      // The link works once.
      await t
        .browser()
        .post(API.resetPassword)
        .send({ token, newPassword: `${PASSWORD}!` })
        .expect(400);
      expect(await auditOf(username)).toEqual([
        {
          actorId: null,
          actorName: 'cli',
          action: 'user.create',
          after: { emailVerified: true, isAdmin: false, isOwner: false, password: false },
        },
      ]);
    });

    it('takes the password from standard input with --password-stdin, and --admin', async () => {
      const { username, email } = newAccount();
      const result = await cli(
        { ...env, STDIN: `${PASSWORD}\n` },
        'create-user',
        username,
        email,
        '--password-stdin',
        '--admin',
      );
      expect(result).toEqual({
        code: 0,
        out: `Created ${username} <${email}> (admin), address verified`,
        err: '',
      });
      const browser = t.browser();
      await browser.post(API.login).send({ usernameOrEmail: email, password: PASSWORD }).expect(200);
      expect((await browser.get(API.currentUser).expect(200)).body).toMatchObject({ isAdmin: true });
      expect(await auditOf(username)).toEqual([
        expect.objectContaining({
          action: 'user.create',
          after: { emailVerified: true, isAdmin: true, isOwner: false, password: true },
        }),
      ]);
    });

    it.each([
      [['UPPER ME', 'a@example.com'], 'Username may contain only letters, digits, _ and -'],
      [['fine_name', 'not-an-address'], 'Enter a valid email address'],
    ])('refuses %j: exit 1', async (args, message) => {
      expect(await cli(env, 'create-user', ...args)).toEqual({ code: 1, out: '', err: message });
    });

    it('refuses a short password, and a taken username or address (any letter case): exit 1', async () => {
      const { username, email } = newAccount();
      expect(
        await cli({ ...env, STDIN: 'short\n' }, 'create-user', username, email, '--password-stdin'),
      ).toEqual({ code: 1, out: '', err: 'Password must be at least 8 characters' });
      expect((await cli(env, 'create-user', username, email)).code).toBe(0);
      expect(await cli(env, 'create-user', username.toUpperCase(), `other_${email}`)).toEqual({
        code: 1,
        out: '',
        err: 'Username is already taken',
      });
      expect(await cli(env, 'create-user', `${username}x`, email.toUpperCase())).toEqual({
        code: 1,
        out: '',
        err: 'Email is already registered',
      });
      expect((await auditOf(username)).length).toBe(1);
    });
  });

  describe('reset-password', () => {
    it('prints a one-time link on PUBLIC_URL whose token resets the password through the API', async () => {
      const { browser, account } = await registered(t);
      const first = await cli(env, 'reset-password', account.username.toUpperCase());
      const second = await cli(env, 'reset-password', account.username);
      expect(second.code).toBe(0);
      expect(second.out).toMatch(
        new RegExp(`^Reset link for ${account.username}: \\S+\\nIt works once, until .+ UTC\\.$`),
      );
      // A new link voids the older one, as a new mailed link does.
      await t
        .browser()
        .post(API.resetPassword)
        .send({ token: tokenIn(first.out), newPassword: 'new pass 1' })
        .expect(400);
      await t
        .browser()
        .post(API.resetPassword)
        .send({ token: tokenIn(second.out), newPassword: 'new pass 1' })
        .expect(200);
      // Signed out everywhere; the new password opens the account.
      await browser.get(API.currentUser).expect(401);
      await signIn(account.username, PASSWORD).expect(401);
      await signIn(account.username, 'new pass 1').expect(200);
      expect(await auditOf(account.username)).toEqual([
        expect.objectContaining({ actorId: null, actorName: 'cli', action: 'user.reset_link' }),
        expect.objectContaining({ actorId: null, actorName: 'cli', action: 'user.reset_link' }),
      ]);
    });

    it('says so for an unknown user, and refuses a banned one: exit 1', async () => {
      expect(await cli(env, 'reset-password', 'nobody_at_all')).toEqual({
        code: 1,
        out: '',
        err: 'No user named "nobody_at_all"',
      });
      const { account } = await registered(t);
      expect((await cli(env, 'ban', account.username)).code).toBe(0);
      expect(await cli(env, 'reset-password', account.username)).toEqual({
        code: 1,
        out: '',
        err: `${account.username} is banned: unban them first (termpaste unban ${account.username})`,
      });
    });
  });

  describe('ban / unban', () => {
    it('bans for N days with a reason as the admin panel does: signed out, mailed, audited; unban lifts it', async () => {
      const { browser, account, user } = await registered(t);
      const result = await cli(env, 'ban', account.username, '--reason', 'spam links', '--days=3');
      expect(result).toEqual({
        code: 0,
        out: `${account.username} is banned for 3 days (reason: spam links)`,
        err: '',
      });
      await browser.get(API.currentUser).expect(401);
      expect((await signIn(account.username, PASSWORD)).status).toBe(403);
      const [suspension] = await t.dataSource.query(
        `SELECT kind, reason, actor_id AS "actorId", round(extract(epoch FROM ends_at - starts_at) / 86400)::int AS days
         FROM suspensions WHERE user_id = $1`,
        [user.id],
      );
      expect(suspension).toEqual({ kind: 'ban', reason: 'spam links', actorId: null, days: 3 });
      // The mail goes out through the running app's outbox relay.
      expect(await mailFile(t, account.email, 'Your Termpaste account is suspended')).toContain(
        'Reason: spam links',
      );

      expect(await cli(env, 'unban', account.username)).toEqual({
        code: 0,
        out: `${account.username} is no longer banned`,
        err: '',
      });
      await signIn(account.username, PASSWORD).expect(200);
      expect(await cli(env, 'unban', account.username)).toEqual({
        code: 0,
        out: `${account.username} is not banned: nothing to do`,
        err: '',
      });
      expect(await auditOf(account.username)).toEqual([
        expect.objectContaining({
          actorId: null,
          actorName: 'cli',
          action: 'user.ban',
          after: expect.objectContaining({ isBanned: true, banReason: 'spam links' }),
        }),
        expect.objectContaining({ actorId: null, actorName: 'cli', action: 'user.unban' }),
      ]);
    });

    it('bans for ever without --days', async () => {
      const { account } = await registered(t);
      expect(await cli(env, 'ban', account.username)).toEqual({
        code: 0,
        out: `${account.username} is banned for ever`,
        err: '',
      });
    });

    it('never bans the owner; says so for an unknown user: exit 1', async () => {
      const [owner] = await t.dataSource.query('SELECT username FROM users WHERE is_owner');
      expect(await cli(env, 'ban', owner.username)).toEqual({
        code: 1,
        out: '',
        err: ADMIN_MESSAGES.ownerProtected,
      });
      const [row] = await t.dataSource.query('SELECT is_banned FROM users WHERE is_owner');
      expect(row.is_banned).toBe(false);
      expect(await auditOf(owner.username)).toEqual([]);
      for (const command of ['ban', 'unban']) {
        expect(await cli(env, command, 'nobody_at_all')).toEqual({
          code: 1,
          out: '',
          err: 'No user named "nobody_at_all"',
        });
      }
    });

    it.each([
      [['neo', '--days', '0'], MODERATION_MESSAGES.daysInvalid],
      [['neo', '--days', 'soon'], MODERATION_MESSAGES.daysInvalid],
      [['neo', '--days', '2.5'], MODERATION_MESSAGES.daysInvalid],
      [['neo', '--reason'], '--reason needs a value'],
      [['neo', '--forever'], 'Unknown option --forever for ban'],
      [['neo', '--days', '1', '--days', '2'], '--days given twice'],
      [[], 'Missing <username> for ban'],
    ])('refuses ban %j with the usage: exit 2', async (args, message) => {
      const result = await cli(env, 'ban', ...args);
      expect(result).toMatchObject({ code: 2, out: '' });
      expect(result.err).toBe(`${message}\n\n${usageOf(ban)}`);
    });
  });

  describe('--help', () => {
    it('lists every command with its arguments', async () => {
      const result = await cli(env, '--help');
      expect(result).toMatchObject({ code: 0, err: '' });
      for (const command of COMMANDS) {
        expect(result.out).toContain(`  ${command.name} ${command.usage}`.trimEnd());
      }
    });

    it.each([
      ['ban', '--help'],
      ['help', 'ban'],
      ['ban', 'neo', '-h'],
    ])('describes one command for %j', async (...args) => {
      expect(await cli(env, ...args)).toEqual({ code: 0, out: usageOf(ban), err: '' });
    });

    it('names an unknown command: exit 2', async () => {
      expect(await cli(env, 'help', 'promote')).toMatchObject({ code: 2, out: '' });
    });
  });
});
