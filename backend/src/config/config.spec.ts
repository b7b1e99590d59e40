import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ConfigError,
  GITHUB_URL_DEFAULT,
  loadConfig,
  RATE_LIMIT_DEFAULTS,
  S3_REGION_DEFAULT,
  SESSION_SECRET_FILE,
} from './config.js';

const SECRET = 's'.repeat(32);
const EXTERNAL = { DATABASE_URL: 'postgres://u:p@db:5432/termpaste', SESSION_SECRET: SECRET };

describe('loadConfig', () => {
  let cwd: string;

  beforeEach(() => {
    cwd = mkdtempSync(path.join(os.tmpdir(), 'termpaste-config-'));
  });

  afterEach(() => {
    rmSync(cwd, { recursive: true, force: true });
  });

  function configError(env: Record<string, string>): string {
    try {
      loadConfig(env, cwd);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('expected a ConfigError');
  }

  describe('defaults', () => {
    it('runs embedded on 127.0.0.1:3000 with data in ./.data', () => {
      const config = loadConfig({}, cwd);
      expect(config).toMatchObject({
        port: 3000,
        host: '127.0.0.1',
        dataDir: path.join(cwd, '.data'),
        database: { mode: 'embedded', dir: path.join(cwd, '.data', 'pg'), port: undefined },
        redisUrl: undefined,
        smtpUrl: undefined,
        publicUrl: 'http://localhost:3000',
        productName: 'Termpaste',
        remoteUrls: {},
      });
    });

    it("finds the built frontends in the repository's frontends/ folder", () => {
      const repoFrontends = fileURLToPath(new URL('../../../frontends', import.meta.url));
      expect(loadConfig({}, cwd).frontendsDir).toBe(repoFrontends);
    });

    it('listens on every interface with an external database', () => {
      const config = loadConfig(EXTERNAL, cwd);
      expect(config.host).toBe('0.0.0.0');
      expect(config.database).toEqual({ mode: 'external', url: EXTERNAL.DATABASE_URL });
    });

    it('says whether PUBLIC_URL was given (unset: loopback origins are our own site)', () => {
      expect(loadConfig({}, cwd).publicUrlSet).toBe(false);
      expect(loadConfig({ PUBLIC_URL: '' }, cwd).publicUrlSet).toBe(false);
      expect(loadConfig({ PUBLIC_URL: 'http://localhost:3000' }, cwd).publicUrlSet).toBe(true);
    });

    it('derives PUBLIC_URL from PORT, and drops a trailing slash from a given one', () => {
      expect(loadConfig({ PORT: '8080' }, cwd).publicUrl).toBe('http://localhost:8080');
      expect(loadConfig({ PUBLIC_URL: 'https://forum.example.com/' }, cwd).publicUrl).toBe(
        'https://forum.example.com',
      );
    });

    it('resolves DATA_DIR and FRONTENDS_DIR against the working directory', () => {
      const config = loadConfig({ DATA_DIR: 'state', FRONTENDS_DIR: 'web' }, cwd);
      expect(config.dataDir).toBe(path.join(cwd, 'state'));
      expect(config.frontendsDir).toBe(path.join(cwd, 'web'));
    });

    it('treats an empty variable as unset', () => {
      expect(loadConfig({ PORT: '', DATABASE_URL: '' }, cwd)).toMatchObject({
        port: 3000,
        database: { mode: 'embedded' },
      });
    });

    it('takes every variable', () => {
      const config = loadConfig(
        {
          ...EXTERNAL,
          PORT: '4000',
          HOST: '::',
          REDIS_URL: 'redis://cache:6379',
          SMTP_URL: 'smtp://mail:25',
          PRODUCT_NAME: 'Pastebin of Doom',
          EMBEDDED_PG_PORT: '5439',
        },
        cwd,
      );
      expect(config).toMatchObject({
        port: 4000,
        host: '::',
        redisUrl: 'redis://cache:6379',
        smtpUrl: 'smtp://mail:25',
        productName: 'Pastebin of Doom',
        sessionSecret: SECRET,
      });
      expect(loadConfig({ EMBEDDED_PG_PORT: '5439' }, cwd).database).toMatchObject({ port: 5439 });
    });
  });

  describe('fails fast naming the bad variable', () => {
    it.each([
      [{ PORT: 'abc' }, 'Invalid configuration: PORT must be a port number (got "abc")'],
      [{ PORT: '70000' }, 'Invalid configuration: PORT must be a port number (got "70000")'],
      [
        { EMBEDDED_PG_PORT: '-1' },
        'Invalid configuration: EMBEDDED_PG_PORT must be a port number (got "-1")',
      ],
      [{ PUBLIC_URL: 'forum.example.com' }, 'Invalid configuration: PUBLIC_URL must be a URL'],
      [
        { PUBLIC_URL: 'ftp://forum.example.com' },
        'Invalid configuration: PUBLIC_URL must start with http:// or https://',
      ],
      [
        { DATABASE_URL: 'mysql://db/x', SESSION_SECRET: SECRET },
        'Invalid configuration: DATABASE_URL must start with postgres://',
      ],
      [{ REDIS_URL: 'localhost:6379' }, 'Invalid configuration: REDIS_URL must'],
      [{ SMTP_URL: 'http://mail' }, 'Invalid configuration: SMTP_URL must start with smtp://'],
      [
        { SESSION_SECRET: 'short' },
        'Invalid configuration: SESSION_SECRET must be at least 32 characters long',
      ],
      [{ HOST: '   ' }, 'Invalid configuration: HOST must not be blank'],
      [{ PRODUCT_NAME: ' ' }, 'Invalid configuration: PRODUCT_NAME must not be blank'],
    ])('%j', (env, message) => {
      expect(configError(env)).toContain(message);
    });

    it('never echoes a secret', () => {
      const message = configError({ SESSION_SECRET: 'hunter2', DATABASE_URL: 'mysql://root:pw@db/x' });
      expect(message).not.toMatch(/hunter2|pw@/);
      expect(message).toMatch(/DATABASE_URL .*; SESSION_SECRET /);
    });

    it('requires SESSION_SECRET with an external database', () => {
      expect(configError({ DATABASE_URL: EXTERNAL.DATABASE_URL })).toMatch(
        /^Invalid configuration: SESSION_SECRET must be set when DATABASE_URL is set/,
      );
    });
  });

  describe('accounts', () => {
    it('has no owner e-mail, no extra origins and Discourse-like rate limits by default', () => {
      expect(loadConfig({}, cwd)).toMatchObject({
        ownerEmail: undefined,
        allowedOrigins: [],
        rateLimits: {
          enabled: true,
          loginPerMinute: 6,
          loginPerHour: 30,
          registerPerHour: 5,
          forgotPasswordPerHour: 5,
          forgotPasswordPerEmailPerHour: 3,
          resetPasswordPerHour: 10,
          changePasswordPerHour: 10,
          chatMessages: 5,
          chatWindowSeconds: 10,
        },
        liveHeartbeatMs: 30_000,
        liveVisitorSocketsPerAddress: 8,
      });
      expect(loadConfig({}, cwd).rateLimits).toEqual({ enabled: true, ...RATE_LIMIT_DEFAULTS });
    });

    it('takes LIVE_VISITOR_SOCKETS_PER_ADDRESS from 0 (no visitor sockets) to 10000, and refuses others', () => {
      expect(loadConfig({ LIVE_VISITOR_SOCKETS_PER_ADDRESS: '0' }, cwd).liveVisitorSocketsPerAddress).toBe(0);
      expect(loadConfig({ LIVE_VISITOR_SOCKETS_PER_ADDRESS: '3' }, cwd).liveVisitorSocketsPerAddress).toBe(3);
      for (const bad of ['-1', '1.5', 'many', '10001']) {
        expect(configError({ LIVE_VISITOR_SOCKETS_PER_ADDRESS: bad })).toBe(
          `Invalid configuration: LIVE_VISITOR_SOCKETS_PER_ADDRESS must be a whole number of sockets from 0 to 10000 (got "${bad}")`,
        );
      }
    });

    it('lower-cases OWNER_EMAIL', () => {
      expect(loadConfig({ OWNER_EMAIL: ' The.Boss@Example.COM ' }, cwd).ownerEmail).toBe(
        'the.boss@example.com',
      );
    });

    it('keeps the origin of each of ALLOWED_ORIGINS', () => {
      expect(
        loadConfig({ ALLOWED_ORIGINS: 'https://admin.example.com/, http://localhost:3104,,' }, cwd)
          .allowedOrigins,
      ).toEqual(['https://admin.example.com', 'http://localhost:3104']);
    });

    it('takes every rate limit, and RATE_LIMITS=off', () => {
      const config = loadConfig(
        {
          RATE_LIMITS: 'off',
          RATE_LIMIT_LOGIN_PER_MINUTE: '1',
          RATE_LIMIT_LOGIN_PER_HOUR: '2',
          RATE_LIMIT_REGISTER_PER_HOUR: '3',
          RATE_LIMIT_FORGOT_PASSWORD_PER_HOUR: '4',
          RATE_LIMIT_FORGOT_PASSWORD_PER_EMAIL_PER_HOUR: '5',
          RATE_LIMIT_RESET_PASSWORD_PER_HOUR: '6',
          RATE_LIMIT_CHANGE_PASSWORD_PER_HOUR: '19',
          RATE_LIMIT_CHAT_MESSAGES: '7',
          RATE_LIMIT_CHAT_WINDOW_SECONDS: '8',
          RATE_LIMIT_MESSAGES_PER_MINUTE: '9',
          RATE_LIMIT_MESSAGES_PER_HOUR: '10',
          RATE_LIMIT_UPLOADS_PER_HOUR: '11',
          RATE_LIMIT_PASTES_PER_MINUTE: '12',
          RATE_LIMIT_PASTES_PER_HOUR: '13',
          RATE_LIMIT_REPLIES_PER_MINUTE: '14',
          RATE_LIMIT_REPLIES_PER_HOUR: '15',
          RATE_LIMIT_VOTES_PER_MINUTE: '16',
          RATE_LIMIT_VOTES_PER_HOUR: '17',
          RATE_LIMIT_MENTIONS_PER_HOUR: '18',
          RATE_LIMIT_EDITS_PER_HOUR: '23',
          RATE_LIMIT_EDITS_PER_ADDRESS_PER_HOUR: '24',
          RATE_LIMIT_PROFILE_SAVES_PER_HOUR: '25',
          RATE_LIMIT_PROFILE_SAVES_PER_ADDRESS_PER_HOUR: '26',
          RATE_LIMIT_VERIFY_EMAIL_PER_HOUR: '20',
          RATE_LIMIT_VERIFY_EMAIL_PER_ADDRESS_PER_HOUR: '21',
          RATE_LIMIT_TOKEN_REQUESTS_PER_MINUTE: '22',
          RATE_LIMIT_LOGIN_PER_ACCOUNT_PER_HOUR: '23',
          RATE_LIMIT_LOGIN_SLOWDOWN_MS: '0',
          RATE_LIMIT_FORGOT_PASSWORD_INTERVAL_SECONDS: '25',
          RATE_LIMIT_SEARCH_PER_MINUTE: '26',
        },
        cwd,
      );
      expect(config.rateLimits).toEqual({
        enabled: false,
        loginPerMinute: 1,
        loginPerHour: 2,
        registerPerHour: 3,
        forgotPasswordPerHour: 4,
        forgotPasswordPerEmailPerHour: 5,
        resetPasswordPerHour: 6,
        changePasswordPerHour: 19,
        chatMessages: 7,
        chatWindowSeconds: 8,
        messagesPerMinute: 9,
        messagesPerHour: 10,
        uploadsPerHour: 11,
        pastesPerMinute: 12,
        pastesPerHour: 13,
        repliesPerMinute: 14,
        repliesPerHour: 15,
        votesPerMinute: 16,
        votesPerHour: 17,
        mentionsPerHour: 18,
        editsPerHour: 23,
        editsPerAddressPerHour: 24,
        profileSavesPerHour: 25,
        profileSavesPerAddressPerHour: 26,
        verifyEmailPerHour: 20,
        verifyEmailPerAddressPerHour: 21,
        tokenRequestsPerMinute: 22,
        loginPerAccountPerHour: 23,
        loginSlowdownMs: 0,
        forgotPasswordEmailIntervalSeconds: 25,
        searchPerMinute: 26,
      });
    });

    it('requires verified e-mail addresses unless REQUIRE_VERIFIED_EMAIL is false (or off)', () => {
      expect(loadConfig({}, cwd).requireVerifiedEmail).toBe(true);
      expect(loadConfig({ REQUIRE_VERIFIED_EMAIL: 'true' }, cwd).requireVerifiedEmail).toBe(true);
      expect(loadConfig({ REQUIRE_VERIFIED_EMAIL: 'false' }, cwd).requireVerifiedEmail).toBe(false);
      expect(loadConfig({ REQUIRE_VERIFIED_EMAIL: 'off' }, cwd).requireVerifiedEmail).toBe(false);
      expect(loadConfig({}, cwd).rateLimits).toMatchObject({
        verifyEmailPerHour: 3,
        verifyEmailPerAddressPerHour: 10,
      });
    });

    it('ends sessions 90 days after sign-in unless SESSION_MAX_AGE_DAYS says otherwise (1 to 3650)', () => {
      expect(loadConfig({}, cwd).sessionMaxAgeDays).toBe(90);
      expect(loadConfig({ SESSION_MAX_AGE_DAYS: '7' }, cwd).sessionMaxAgeDays).toBe(7);
      for (const days of ['0', '3651', '1.5', 'week']) {
        expect(configError({ SESSION_MAX_AGE_DAYS: days })).toContain(
          `SESSION_MAX_AGE_DAYS must be a whole number of days from 1 to 3650 (got "${days}")`,
        );
      }
    });

    it('slows sign-in on an account past 30 attempts an hour by 2 s, one reset mail per 5 minutes, 30 searches a minute', () => {
      expect(loadConfig({}, cwd).rateLimits).toMatchObject({
        loginPerAccountPerHour: 30,
        loginSlowdownMs: 2000,
        forgotPasswordEmailIntervalSeconds: 300,
        searchPerMinute: 30,
      });
    });

    it.each([
      [{ OWNER_EMAIL: 'boss' }, 'OWNER_EMAIL must be an e-mail address (got "boss")'],
      [{ REQUIRE_VERIFIED_EMAIL: 'no' }, 'REQUIRE_VERIFIED_EMAIL must be true or false (got "no")'],
      [
        { ALLOWED_ORIGINS: 'admin.example.com' },
        'ALLOWED_ORIGINS must list origins like https://admin.example.com',
      ],
      [{ ALLOWED_ORIGINS: 'https://admin.example.com/panel' }, 'ALLOWED_ORIGINS must list origins'],
      [{ ALLOWED_ORIGINS: 'ftp://files.example.com' }, 'ALLOWED_ORIGINS must list origins'],
      [{ RATE_LIMITS: 'no' }, 'RATE_LIMITS must be on or off (got "no")'],
      [
        { RATE_LIMIT_LOGIN_PER_MINUTE: '0' },
        'RATE_LIMIT_LOGIN_PER_MINUTE must be a whole number of at least 1',
      ],
      [
        { RATE_LIMIT_LOGIN_SLOWDOWN_MS: '60001' },
        'RATE_LIMIT_LOGIN_SLOWDOWN_MS must be a whole number of milliseconds from 0 to 60000',
      ],
      [
        { RATE_LIMIT_FORGOT_PASSWORD_INTERVAL_SECONDS: '0' },
        'RATE_LIMIT_FORGOT_PASSWORD_INTERVAL_SECONDS must be a whole number of seconds from 1 to 86400',
      ],
      [
        { RATE_LIMIT_SEARCH_PER_MINUTE: '0' },
        'RATE_LIMIT_SEARCH_PER_MINUTE must be a whole number of at least 1',
      ],
      [
        { RATE_LIMIT_REGISTER_PER_HOUR: '2.5' },
        'RATE_LIMIT_REGISTER_PER_HOUR must be a whole number of at least 1',
      ],
    ])('refuses %j', (env, message) => {
      expect(configError(env)).toContain(`Invalid configuration: ${message}`);
    });
  });

  describe('REPUTATION_DAILY_CAP_*', () => {
    it('caps a day’s points per reason: 50 for pastes, 40 replies, 20 chat, 50 votes unless told', () => {
      expect(loadConfig({}, cwd).reputationDailyCaps).toEqual({ paste: 50, reply: 40, chat: 20, vote: 50 });
      expect(
        loadConfig(
          {
            REPUTATION_DAILY_CAP_PASTES: '0',
            REPUTATION_DAILY_CAP_REPLIES: '2',
            REPUTATION_DAILY_CAP_CHAT: '3',
            REPUTATION_DAILY_CAP_VOTES: '1000000',
          },
          cwd,
        ).reputationDailyCaps,
      ).toEqual({ paste: 0, reply: 2, chat: 3, vote: 1_000_000 });
    });

    it.each(['-1', '1000001', '2.5', 'lots'])('refuses %j', (value) => {
      expect(configError({ REPUTATION_DAILY_CAP_CHAT: value })).toContain(
        `Invalid configuration: REPUTATION_DAILY_CAP_CHAT must be a whole number of points from 0 to 1000000 (got "${value}")`,
      );
    });
  });

  describe('JOB_LOCK_SECONDS', () => {
    it("is BullMQ's 30 s unless told, in milliseconds", () => {
      expect(loadConfig({}, cwd).jobLockMs).toBe(30_000);
      expect(loadConfig({ JOB_LOCK_SECONDS: '5' }, cwd).jobLockMs).toBe(5_000);
      expect(loadConfig({ JOB_LOCK_SECONDS: '600' }, cwd).jobLockMs).toBe(600_000);
    });

    it.each(['4', '601', '7.5', 'soon'])('refuses %j', (value) => {
      expect(configError({ JOB_LOCK_SECONDS: value })).toContain(
        `Invalid configuration: JOB_LOCK_SECONDS must be a whole number of seconds from 5 to 600 (got "${value}")`,
      );
    });
  });

  describe('VIEW_FLUSH_SECONDS', () => {
    it('stores paste views every 5 s unless told, in milliseconds', () => {
      expect(loadConfig({}, cwd).viewFlushMs).toBe(5_000);
      expect(loadConfig({ VIEW_FLUSH_SECONDS: '1' }, cwd).viewFlushMs).toBe(1_000);
      expect(loadConfig({ VIEW_FLUSH_SECONDS: '300' }, cwd).viewFlushMs).toBe(300_000);
    });

    it.each(['0', '301', '2.5', 'often'])('refuses %j', (value) => {
      expect(configError({ VIEW_FLUSH_SECONDS: value })).toContain(
        `Invalid configuration: VIEW_FLUSH_SECONDS must be a whole number of seconds from 1 to 300 (got "${value}")`,
      );
    });
  });

  describe('EXPIRY_TIME_SCALE', () => {
    it('lets expiry choices pass at their own pace unless told (tests and demos)', () => {
      expect(loadConfig({}, cwd).expiryTimeScale).toBe(1);
      expect(loadConfig({ EXPIRY_TIME_SCALE: '60' }, cwd).expiryTimeScale).toBe(60);
      expect(loadConfig({ EXPIRY_TIME_SCALE: '100000' }, cwd).expiryTimeScale).toBe(100_000);
    });

    it.each(['0', '100001', '1.5', 'fast'])('refuses %j', (value) => {
      expect(configError({ EXPIRY_TIME_SCALE: value })).toContain(
        `Invalid configuration: EXPIRY_TIME_SCALE must be a whole number from 1 to 100000 (got "${value}")`,
      );
    });
  });

  describe('DATABASE_POOL_SIZE', () => {
    it('opens at most 20 connections unless told', () => {
      expect(loadConfig({}, cwd).databasePoolSize).toBe(20);
      expect(loadConfig({ DATABASE_POOL_SIZE: '1' }, cwd).databasePoolSize).toBe(1);
      expect(loadConfig({ DATABASE_POOL_SIZE: '500' }, cwd).databasePoolSize).toBe(500);
    });

    it.each(['0', '501', '7.5', 'many'])('refuses %j', (value) => {
      expect(configError({ DATABASE_POOL_SIZE: value })).toContain(
        `Invalid configuration: DATABASE_POOL_SIZE must be a whole number from 1 to 500 (got "${value}")`,
      );
    });
  });

  describe('PASTE_MAX_BYTES', () => {
    it('takes pastes of up to 1 MiB unless told', () => {
      expect(loadConfig({}, cwd).pasteMaxBytes).toBe(1_048_576);
      expect(loadConfig({ PASTE_MAX_BYTES: '1' }, cwd).pasteMaxBytes).toBe(1);
      expect(loadConfig({ PASTE_MAX_BYTES: '4194304' }, cwd).pasteMaxBytes).toBe(4_194_304);
    });

    it.each(['0', '4194305', '1.5', '1MiB'])('refuses %j', (value) => {
      expect(configError({ PASTE_MAX_BYTES: value })).toContain(
        `Invalid configuration: PASTE_MAX_BYTES must be a whole number of bytes from 1 to 4194304 (got "${value}")`,
      );
    });
  });

  describe('TRUST_PROXY', () => {
    it('trusts no proxy on http and one on https unless told', () => {
      expect(loadConfig({}, cwd).trustProxy).toBe(false);
      expect(loadConfig({ PUBLIC_URL: 'https://paste.example.com' }, cwd).trustProxy).toBe(1);
    });

    it.each([
      ['1', 1],
      ['2', 2],
      ['off', false],
      ['0', false],
      ['loopback', ['loopback']],
      ['10.0.0.0/8, 127.0.0.1 ,fd00::/8', ['10.0.0.0/8', '127.0.0.1', 'fd00::/8']],
    ])('takes %j', (value, expected) => {
      expect(loadConfig({ TRUST_PROXY: value }, cwd).trustProxy).toEqual(expected);
    });

    it.each(['true', 'yes', '11', '10.0.0.0/33', 'nginx', '1.2.3', '10.0.0.0/8/1', '::1/129'])(
      'refuses %j',
      (value) => {
        expect(configError({ TRUST_PROXY: value })).toContain('Invalid configuration: TRUST_PROXY must');
      },
    );

    it('refuses off with an https PUBLIC_URL: a TLS proxy is in front and secure cookies need it trusted', () => {
      expect(configError({ TRUST_PROXY: 'off', PUBLIC_URL: 'https://paste.example.com' })).toContain(
        'TRUST_PROXY is off but PUBLIC_URL is https',
      );
    });
  });

  describe('jobs (PROCESS_JOBS) and workers', () => {
    const REDIS = { REDIS_URL: 'redis://cache:6379' };

    it('processes jobs by default, and a worker answers on port 3002', () => {
      expect(loadConfig({}, cwd)).toMatchObject({ processJobs: true, workerHealthPort: 3002 });
      expect(loadConfig({ ...EXTERNAL, ...REDIS, PROCESS_JOBS: 'on' }, cwd).processJobs).toBe(true);
    });

    it('takes PROCESS_JOBS=off with REDIS_URL, and WORKER_HEALTH_PORT', () => {
      const config = loadConfig(
        { ...EXTERNAL, ...REDIS, PROCESS_JOBS: 'off', WORKER_HEALTH_PORT: '4002' },
        cwd,
      );
      expect(config).toMatchObject({ processJobs: false, workerHealthPort: 4002 });
    });

    it('reads METRICS_TOKEN and METRICS_LISTEN (host:port, [v6]:port); neither by default', () => {
      expect(loadConfig(EXTERNAL, cwd).metrics).toEqual({ token: undefined, listen: undefined });
      const token = 't'.repeat(16);
      expect(
        loadConfig({ ...EXTERNAL, METRICS_TOKEN: token, METRICS_LISTEN: '0.0.0.0:9464' }, cwd).metrics,
      ).toEqual({ token, listen: { host: '0.0.0.0', port: 9464 } });
      expect(loadConfig({ ...EXTERNAL, METRICS_LISTEN: '[::1]:9464' }, cwd).metrics.listen).toEqual({
        host: '::1',
        port: 9464,
      });
    });

    it.each([
      [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN must be at least 16 characters long'],
      [
        { METRICS_LISTEN: '9464' },
        'METRICS_LISTEN must be host:port (e.g. 0.0.0.0:9464 or [::1]:9464) (got "9464")',
      ],
      [{ METRICS_LISTEN: 'localhost:70000' }, 'METRICS_LISTEN must be host:port'],
    ])('refuses %j', (env, message) => {
      expect(configError({ ...EXTERNAL, ...env })).toContain(message);
    });

    it('never echoes METRICS_TOKEN in an error', () => {
      expect(configError({ ...EXTERNAL, METRICS_TOKEN: 'secret' })).not.toContain('secret');
    });

    it('refuses PROCESS_JOBS=off without REDIS_URL, saying why', () => {
      expect(configError({ ...EXTERNAL, PROCESS_JOBS: 'off' })).toBe(
        'Invalid configuration: PROCESS_JOBS=off needs REDIS_URL (without Redis the jobs run in this ' +
          'process, and no worker could take them): set REDIS_URL and run a worker, or unset PROCESS_JOBS',
      );
      expect(configError({ PROCESS_JOBS: 'off' })).toMatch(/PROCESS_JOBS=off needs REDIS_URL/);
    });

    it.each([
      [{ PROCESS_JOBS: 'no' }, 'Invalid configuration: PROCESS_JOBS must be on or off (got "no")'],
      [{ WORKER_HEALTH_PORT: '0' }, 'Invalid configuration: WORKER_HEALTH_PORT must be a port number'],
    ])('refuses %j', (env, message) => {
      expect(configError(env)).toContain(message);
    });

    describe('for a worker', () => {
      const workerConfigError = (env: Record<string, string>): string => {
        try {
          loadConfig(env, cwd, { role: 'worker' });
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigError);
          return (error as Error).message;
        }
        throw new Error('expected a ConfigError');
      };

      it('requires DATABASE_URL and REDIS_URL, naming the missing ones', () => {
        expect(workerConfigError({})).toMatch(
          /^Invalid configuration: a worker needs DATABASE_URL and REDIS_URL \(it takes jobs from Redis/,
        );
        expect(workerConfigError(EXTERNAL)).toMatch(/^Invalid configuration: a worker needs REDIS_URL \(/);
        expect(workerConfigError({ ...REDIS, SESSION_SECRET: SECRET })).toMatch(
          /^Invalid configuration: a worker needs DATABASE_URL \(/,
        );
      });

      it('needs no SESSION_SECRET, creates no file, and always processes jobs', () => {
        const config = loadConfig(
          { DATABASE_URL: EXTERNAL.DATABASE_URL, ...REDIS, PROCESS_JOBS: 'off', DATA_DIR: 'data' },
          cwd,
          { role: 'worker' },
        );
        expect(config).toMatchObject({ processJobs: true, redisUrl: REDIS.REDIS_URL, sessionSecret: '' });
        expect(() => statSync(path.join(cwd, 'data'))).toThrow();
      });
    });
  });

  describe('REMOTE_URLS', () => {
    it('overrides entries by remote name', () => {
      const config = loadConfig(
        { REMOTE_URLS: '{"admin":"https://admin.example.com/mf-manifest.json"}' },
        cwd,
      );
      expect(config.remoteUrls).toEqual({ admin: 'https://admin.example.com/mf-manifest.json' });
    });

    it('accepts an absolute path', () => {
      expect(loadConfig({ REMOTE_URLS: '{"forum":"/cdn/forum/mf-manifest.json"}' }, cwd).remoteUrls).toEqual({
        forum: '/cdn/forum/mf-manifest.json',
      });
    });

    it.each([
      ['{admin:', 'REMOTE_URLS must be a JSON object mapping a remote name to its entry URL (got "{admin:")'],
      ['["admin"]', 'REMOTE_URLS must be a JSON object'],
      [
        '{"blog":"https://blog.example.com/mf-manifest.json"}',
        'REMOTE_URLS names an unknown remote "blog" (known: forum, messaging, settings, admin)',
      ],
      ['{"admin":42}', 'REMOTE_URLS must map "admin" to an http(s) URL or an absolute path'],
      [
        '{"admin":"javascript:alert(1)"}',
        'REMOTE_URLS must map "admin" to an http(s) URL or an absolute path',
      ],
    ])('refuses %s', (value, message) => {
      expect(configError({ REMOTE_URLS: value })).toContain(message);
    });

    it('lists the distinct origins of absolute entries (a path is our own origin)', () => {
      const urls = {
        admin: 'https://admin.example.com/mf-manifest.json',
        forum: 'https://cdn.example.com:8443/forum/remoteEntry.js',
        messaging: 'https://cdn.example.com:8443/messaging/remoteEntry.js',
        settings: '/cdn/settings/remoteEntry.js',
      };
      expect(loadConfig({ REMOTE_URLS: JSON.stringify(urls) }, cwd).remoteOrigins).toEqual([
        'https://admin.example.com',
        'https://cdn.example.com:8443',
      ]);
      expect(loadConfig({}, cwd).remoteOrigins).toEqual([]);
    });
  });

  describe('logs', () => {
    it('are readable console lines on one machine, JSON in production, at level info', () => {
      expect(loadConfig({}, cwd)).toMatchObject({ logFormat: 'pretty', logLevel: 'info' });
      expect(loadConfig({ NODE_ENV: 'production' }, cwd).logFormat).toBe('json');
      expect(loadConfig(EXTERNAL, cwd).logFormat).toBe('json');
    });

    it('follow LOG_FORMAT and LOG_LEVEL', () => {
      expect(loadConfig({ ...EXTERNAL, LOG_FORMAT: 'pretty', LOG_LEVEL: 'debug' }, cwd)).toMatchObject({
        logFormat: 'pretty',
        logLevel: 'debug',
      });
      expect(loadConfig({ LOG_FORMAT: 'json' }, cwd).logFormat).toBe('json');
      expect(configError({ LOG_FORMAT: 'xml' })).toContain('LOG_FORMAT must be json or pretty');
      expect(configError({ LOG_LEVEL: 'loud' })).toContain('LOG_LEVEL must be one of fatal, error');
    });
  });

  describe('avatar storage', () => {
    const S3 = { S3_BUCKET: 'avatars' };

    it('is local disk under $DATA_DIR/uploads without S3_BUCKET', () => {
      expect(loadConfig({ DATA_DIR: 'state' }, cwd).storage).toEqual({
        mode: 'local',
        dir: path.join(cwd, 'state', 'uploads'),
      });
    });

    it('is S3 with S3_BUCKET, in us-east-1 with the default credentials unless told otherwise', () => {
      expect(loadConfig(S3, cwd).storage).toEqual({
        mode: 's3',
        bucket: 'avatars',
        region: S3_REGION_DEFAULT,
        endpoint: undefined,
        accessKeyId: undefined,
        secretAccessKey: undefined,
        publicUrl: undefined,
        forcePathStyle: false,
      });
      expect(S3_REGION_DEFAULT).toBe('us-east-1');
    });

    it('takes every S3 variable, dropping trailing slashes from the URLs', () => {
      const config = loadConfig(
        {
          ...S3,
          S3_REGION: 'eu-central-1',
          S3_ENDPOINT: 'http://minio:9000/',
          S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
          S3_SECRET_ACCESS_KEY: 'very-secret',
          S3_PUBLIC_URL: 'https://cdn.example.com/avatars/',
          S3_FORCE_PATH_STYLE: 'true',
        },
        cwd,
      );
      expect(config.storage).toEqual({
        mode: 's3',
        bucket: 'avatars',
        region: 'eu-central-1',
        endpoint: 'http://minio:9000',
        accessKeyId: 'AKIAEXAMPLE',
        secretAccessKey: 'very-secret',
        publicUrl: 'https://cdn.example.com/avatars',
        forcePathStyle: true,
      });
    });

    it.each([
      [{ ...S3, S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT must'],
      [{ ...S3, S3_PUBLIC_URL: 'ftp://cdn' }, 'S3_PUBLIC_URL must start with http:// or https://'],
      [{ ...S3, S3_FORCE_PATH_STYLE: 'yes' }, 'S3_FORCE_PATH_STYLE must be true or false (got "yes")'],
      [{ ...S3, S3_BUCKET: ' ' }, 'S3_BUCKET must not be blank'],
      [{ S3_REGION: 'eu-west-1' }, 'S3_REGION is set but S3_BUCKET is not'],
      [
        { S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'true' },
        'S3_ENDPOINT, S3_FORCE_PATH_STYLE are set but S3_BUCKET is not',
      ],
      [
        { ...S3, S3_ACCESS_KEY_ID: 'AKIAEXAMPLE' },
        'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
      ],
    ])('refuses %j', (env, message) => {
      expect(configError(env)).toContain(`Invalid configuration: ${message}`);
    });

    it('never echoes the S3 credentials', () => {
      const message = configError({ S3_ACCESS_KEY_ID: '', S3_SECRET_ACCESS_KEY: ' ', ...S3 });
      expect(message).toMatch(/S3_SECRET_ACCESS_KEY must not be blank$/);
    });
  });

  describe('single sign-on (OIDC_PROVIDERS, GITHUB_*, LOCAL_LOGIN)', () => {
    const KEYCLOAK = {
      id: 'keycloak',
      name: 'Keycloak',
      issuer: 'https://sso.example.com/realms/forum/',
      clientId: 'termpaste',
      clientSecret: 'kc-secret-value',
    };
    const oidc = (...entries: unknown[]) => ({ OIDC_PROVIDERS: JSON.stringify(entries) });

    it('has no provider and keeps password sign-in by default', () => {
      expect(loadConfig({}, cwd).sso).toEqual({ oidc: [], github: undefined, localLogin: true });
      expect(loadConfig({ OIDC_PROVIDERS: '[]' }, cwd).sso.oidc).toEqual([]);
    });

    it('takes OIDC providers in order, trimmed, the issuer without its trailing slash', () => {
      const gitea = { ...KEYCLOAK, id: 'gitea-2', name: ' Gitea ', issuer: 'https://git.example.com' };
      expect(loadConfig(oidc(KEYCLOAK, gitea), cwd).sso.oidc).toEqual([
        { ...KEYCLOAK, issuer: 'https://sso.example.com/realms/forum' },
        { ...gitea, name: 'Gitea' },
      ]);
    });

    it('takes an http issuer on loopback only (a test provider)', () => {
      for (const issuer of ['http://127.0.0.1:9000', 'http://localhost:9000/oidc', 'http://[::1]:9000']) {
        expect(loadConfig(oidc({ ...KEYCLOAK, issuer }), cwd).sso.oidc[0]!.issuer).toBe(issuer);
      }
    });

    it('takes GitHub with both variables, on github.com unless GITHUB_URL says otherwise', () => {
      const keys = { GITHUB_CLIENT_ID: 'Iv1.abc', GITHUB_CLIENT_SECRET: 'gh-secret' };
      expect(loadConfig(keys, cwd).sso.github).toEqual({
        clientId: 'Iv1.abc',
        clientSecret: 'gh-secret',
        url: 'https://github.com',
        apiUrl: 'https://api.github.com',
      });
      expect(GITHUB_URL_DEFAULT).toBe('https://github.com');
      expect(loadConfig({ ...keys, GITHUB_URL: 'https://ghe.example.com/' }, cwd).sso.github).toMatchObject({
        url: 'https://ghe.example.com',
        apiUrl: 'https://ghe.example.com/api/v3',
      });
      expect(loadConfig({ ...keys, GITHUB_URL: 'http://127.0.0.1:7000' }, cwd).sso.github).toMatchObject({
        url: 'http://127.0.0.1:7000',
        apiUrl: 'http://127.0.0.1:7000/api/v3',
      });
    });

    it('turns password sign-in off with LOCAL_LOGIN=off when a provider is set up', () => {
      expect(loadConfig({ ...oidc(KEYCLOAK), LOCAL_LOGIN: 'off' }, cwd).sso.localLogin).toBe(false);
      expect(
        loadConfig({ GITHUB_CLIENT_ID: 'a', GITHUB_CLIENT_SECRET: 'b', LOCAL_LOGIN: 'off' }, cwd).sso
          .localLogin,
      ).toBe(false);
      expect(loadConfig({ LOCAL_LOGIN: 'on' }, cwd).sso.localLogin).toBe(true);
    });

    it.each([
      [
        { OIDC_PROVIDERS: '{nope' },
        'OIDC_PROVIDERS must be a JSON array of {id, name, issuer, clientId, clientSecret} (it is not valid JSON)',
      ],
      [
        { OIDC_PROVIDERS: '{"id":"x"}' },
        'OIDC_PROVIDERS must be a JSON array of {id, name, issuer, clientId, clientSecret}',
      ],
      [
        oidc('keycloak'),
        'OIDC_PROVIDERS entry 1 must be an object {id, name, issuer, clientId, clientSecret}',
      ],
      [
        oidc(KEYCLOAK, { ...KEYCLOAK, id: 'other', clientSecrect: 'x' }),
        'OIDC_PROVIDERS entry 2 has an unknown field "clientSecrect" (the fields are id, name, issuer, clientId, clientSecret)',
      ],
      [oidc({ ...KEYCLOAK, name: undefined }), 'OIDC_PROVIDERS entry 1 needs name, a non-empty string'],
      [
        oidc({ ...KEYCLOAK, clientSecret: ' ' }),
        'OIDC_PROVIDERS entry 1 needs clientSecret, a non-empty string',
      ],
      [oidc({ ...KEYCLOAK, clientId: 42 }), 'OIDC_PROVIDERS entry 1 needs clientId, a non-empty string'],
      [
        oidc({ ...KEYCLOAK, id: 'Key Cloak' }),
        'OIDC_PROVIDERS entry 1: id must be 1 to 32 lower-case letters, digits and dashes, not starting with a dash (got "Key Cloak")',
      ],
      [oidc({ ...KEYCLOAK, id: '-kc' }), 'OIDC_PROVIDERS entry 1: id must be 1 to 32 lower-case letters'],
      [
        oidc({ ...KEYCLOAK, id: 'k'.repeat(33) }),
        'OIDC_PROVIDERS entry 1: id must be 1 to 32 lower-case letters',
      ],
      [
        oidc({ ...KEYCLOAK, id: 'github' }),
        'OIDC_PROVIDERS entry 1: id must not be "github" (GitHub is set up by GITHUB_CLIENT_ID)',
      ],
      [
        oidc(KEYCLOAK, { ...KEYCLOAK, name: 'Again' }),
        'OIDC_PROVIDERS entry 2: id "keycloak" is used twice (each provider needs its own)',
      ],
      [
        oidc({ ...KEYCLOAK, issuer: 'sso.example.com' }),
        'OIDC_PROVIDERS entry 1 (keycloak): issuer must be an http(s) URL',
      ],
      [
        oidc({ ...KEYCLOAK, issuer: 'ftp://sso.example.com' }),
        'OIDC_PROVIDERS entry 1 (keycloak): issuer must be an http(s) URL',
      ],
      [
        oidc({ ...KEYCLOAK, issuer: 'http://sso.example.com' }),
        'OIDC_PROVIDERS entry 1 (keycloak): issuer must use https (http only on a loopback address, such as http://127.0.0.1:9000)',
      ],
      [
        { GITHUB_CLIENT_ID: 'a' },
        'GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET must be set together (or neither, for no GitHub sign-in)',
      ],
      [{ GITHUB_CLIENT_SECRET: 'b' }, 'GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET must be set together'],
      [{ GITHUB_CLIENT_ID: ' ', GITHUB_CLIENT_SECRET: 'b' }, 'GITHUB_CLIENT_ID must not be blank'],
      [
        { GITHUB_URL: 'https://ghe.example.com' },
        'GITHUB_URL is set but GITHUB_CLIENT_ID is not (set GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET for GitHub sign-in, or unset GITHUB_URL)',
      ],
      [
        { GITHUB_CLIENT_ID: 'a', GITHUB_CLIENT_SECRET: 'b', GITHUB_URL: 'ghe.example.com' },
        'GITHUB_URL must be an http(s) URL (got "ghe.example.com")',
      ],
      [
        { GITHUB_CLIENT_ID: 'a', GITHUB_CLIENT_SECRET: 'b', GITHUB_URL: 'http://ghe.example.com' },
        'GITHUB_URL must use https (http only on a loopback address, such as http://127.0.0.1:9000)',
      ],
      [{ LOCAL_LOGIN: 'no' }, 'LOCAL_LOGIN must be on or off (got "no")'],
      [
        { LOCAL_LOGIN: 'off' },
        'LOCAL_LOGIN is off but no sign-in provider is set up, so nobody could sign in (set OIDC_PROVIDERS or GITHUB_CLIENT_ID, or LOCAL_LOGIN=on)',
      ],
    ])('refuses %j', (env, message) => {
      expect(configError(env as Record<string, string>)).toContain(`Invalid configuration: ${message}`);
    });

    it('never echoes OIDC_PROVIDERS or GITHUB_CLIENT_SECRET (they hold client secrets)', () => {
      const message = configError({
        OIDC_PROVIDERS: JSON.stringify([{ ...KEYCLOAK, issuer: 'http://sso.example.com' }]),
        GITHUB_CLIENT_ID: 'a',
        GITHUB_CLIENT_SECRET: ' ',
      });
      expect(message).not.toMatch(/kc-secret-value|got/);
      expect(message).toMatch(/OIDC_PROVIDERS entry 1 .*; GITHUB_CLIENT_SECRET must not be blank$/);
    });
  });

  describe('session secret in embedded mode', () => {
    it('is generated once, kept in $DATA_DIR/session-secret with mode 0600, and reused', () => {
      const first = loadConfig({ DATA_DIR: 'data' }, cwd);
      const file = path.join(cwd, 'data', SESSION_SECRET_FILE);
      expect(first.sessionSecret.length).toBeGreaterThanOrEqual(32);
      expect(readFileSync(file, 'utf8').trim()).toBe(first.sessionSecret);
      expect(statSync(file).mode & 0o777).toBe(0o600);

      expect(loadConfig({ DATA_DIR: 'data' }, cwd).sessionSecret).toBe(first.sessionSecret);
    });

    it('differs between installations', () => {
      expect(loadConfig({ DATA_DIR: 'a' }, cwd).sessionSecret).not.toBe(
        loadConfig({ DATA_DIR: 'b' }, cwd).sessionSecret,
      );
    });

    it('is not generated when SESSION_SECRET is set', () => {
      expect(loadConfig({ DATA_DIR: 'data', SESSION_SECRET: SECRET }, cwd).sessionSecret).toBe(SECRET);
      expect(() => statSync(path.join(cwd, 'data', SESSION_SECRET_FILE))).toThrow();
    });

    it('tightens a kept secret file readable by others', () => {
      const file = path.join(cwd, SESSION_SECRET_FILE);
      writeFileSync(file, 'k'.repeat(40), { mode: 0o644 });
      expect(loadConfig({ DATA_DIR: '.' }, cwd).sessionSecret).toBe('k'.repeat(40));
      expect(statSync(file).mode & 0o777).toBe(0o600);
    });

    it('refuses a kept secret that is too short', () => {
      writeFileSync(path.join(cwd, SESSION_SECRET_FILE), 'short\n', { mode: 0o600 });
      expect(configError({ DATA_DIR: '.' })).toMatch(/session-secret must hold at least 32 characters/);
    });
  });
});
