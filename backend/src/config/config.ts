import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type CappedReputationReason,
  CHAT_RATE_LIMIT_DEFAULTS,
  FORUM_RATE_LIMIT_DEFAULTS,
  REPUTATION_DAILY_CAP_DEFAULTS,
  PRIVATE_MESSAGE_RATE_LIMIT_DEFAULTS,
  UPLOAD_RATE_LIMIT_DEFAULT_PER_HOUR,
  PRODUCT_NAME_DEFAULT,
  REMOTE_NAMES,
  type RemoteName,
  VERIFY_RESEND_RATE_LIMIT_DEFAULTS,
} from '@termpaste/contracts';
import { z } from 'zod';
import { StartupError } from '../common/startup-error.js';

/** Where the database lives: started by us under DATA_DIR, or an external server. */
export type DatabaseConfig =
  { mode: 'embedded'; dir: string; port: number | undefined } | { mode: 'external'; url: string };

/** The whole configuration, parsed once at start-up from the environment. */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  redisUrl: string | undefined;
  /**
   * PROCESS_JOBS: whether this API process runs the queue's jobs (default on). Off on API instances
   * whose jobs separate workers (main.worker.ts) run; only with REDIS_URL.
   */
  processJobs: boolean;
  /** WORKER_HEALTH_PORT: where a worker (main.worker.ts) answers `GET /health` (default 3002). */
  workerHealthPort: number;
  smtpUrl: string | undefined;
  /** Without a trailing slash. */
  publicUrl: string;
  /**
   * Whether PUBLIC_URL was given. Unset, publicUrl is `http://localhost:$PORT` and any loopback origin
   * (localhost, 127.0.0.1, [::1], any port) counts as our own site; set, only its origin does (besides
   * ALLOWED_ORIGINS).
   */
  publicUrlSet: boolean;
  sessionSecret: string;
  productName: string;
  frontendsDir: string;
  /** Entries of remotes.json to replace (remote name to entry URL). */
  remoteUrls: Partial<Record<RemoteName, string>>;
  /**
   * Lower-cased; the account with this address becomes the owner once it verifies it. Unset: a verified
   * member claims ownership with the one-time setup code of the start-up log.
   */
  ownerEmail: string | undefined;
  /**
   * REQUIRE_VERIFIED_EMAIL (default on): members write (post, reply, vote, message, chat, edit their
   * profile) only once their e-mail address is verified. Off: they write at once (closed installs).
   */
  requireVerifiedEmail: boolean;
  /** Origins besides our own that may send state-changing requests (the admin remote's, say). */
  allowedOrigins: string[];
  rateLimits: RateLimitConfig;
  /** REPUTATION_DAILY_CAP_*: the points a member may earn a day (UTC) by each reason (0: none). */
  reputationDailyCaps: Record<CappedReputationReason, number>;
  /** How often the live socket (`/ws/chat`) pings each client; one that missed the last ping is dropped. */
  liveHeartbeatMs: number;
  /**
   * JOB_LOCK_SECONDS: how long a queue worker's lock on a running job lasts without renewal, and how often
   * workers look for stalled jobs. A job whose worker died is taken up again after about twice this.
   */
  jobLockMs: number;
  /**
   * VIEW_FLUSH_SECONDS: how often the paste views counted in memory are added to the database (and on
   * shutdown); a crash loses at most this long's views.
   */
  viewFlushMs: number;
  /** DATABASE_POOL_SIZE: PostgreSQL connections this process opens at most. */
  databasePoolSize: number;
  /** Where avatars are stored: local disk under `$DATA_DIR/uploads`, or an S3-compatible bucket. */
  storage: StorageConfig;
  /** LOG_FORMAT: `json` (pino, one JSON object a line) or `pretty` (Nest's console output). */
  logFormat: LogFormat;
  /** LOG_LEVEL: the least severe level written (default info). */
  logLevel: LogLevel;
  /** The origins of REMOTE_URLS entries given as absolute URLs (the Content-Security-Policy allows them). */
  remoteOrigins: string[];
  /**
   * TRUST_PROXY: which proxies in front of the API to believe about the client's address and scheme
   * (X-Forwarded-For, X-Forwarded-Proto): Express's `trust proxy` value, or false for none.
   */
  trustProxy: TrustProxy;
}

/**
 * `false`: no proxy (the client address is the connection's); a number: that many proxies in front,
 * the client address is the one the outermost of them saw; a list: the proxies' addresses or networks
 * (or loopback, linklocal, uniquelocal).
 */
export type TrustProxy = false | number | string[];

/** Express's names for address ranges TRUST_PROXY may list. */
const TRUST_PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

const TRUST_PROXY_HELP =
  'must be off, the number of proxies in front of the API (1 for one nginx), or their addresses or ' +
  'networks separated by commas (10.0.0.0/8, loopback...)';

/** An address, or a network in CIDR form (`10.0.0.0/8`, `fd00::/8`). */
function isAddressOrNetwork(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

const trustProxy = z.string().transform((raw, ctx): TrustProxy => {
  const value = raw.trim().toLowerCase();
  if (['off', 'false', '0'].includes(value)) return false;
  if (value === 'true') {
    return fail(
      ctx,
      'must not be true: that would believe an X-Forwarded-For any client sends (give the number of ' +
        'proxies in front of the API, 1 for one nginx, or their addresses)',
    );
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops >= 1 && hops <= 10 ? hops : fail(ctx, TRUST_PROXY_HELP);
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const ok = entries.every((entry) => TRUST_PROXY_NAMES.includes(entry) || isAddressOrNetwork(entry));
  return ok ? entries : fail(ctx, TRUST_PROXY_HELP);
});

export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The log format unless LOG_FORMAT says otherwise: JSON in production (NODE_ENV=production, or an
 * external database), Nest's readable console output for `npm start` on one machine.
 */
export function defaultLogFormat(env: Record<string, string | undefined>): LogFormat {
  return env.NODE_ENV === 'production' || (env.DATABASE_URL ?? '') !== '' ? 'json' : 'pretty';
}

/** Avatar storage: local disk (the backend takes presigned upload forms), or S3 when S3_BUCKET is set. */
export type StorageConfig =
  | { mode: 'local'; dir: string }
  | {
      mode: 's3';
      bucket: string;
      region: string;
      /** An S3-compatible endpoint (MinIO, R2…); unset: AWS. */
      endpoint: string | undefined;
      /** Both or neither; neither: the SDK's default credential chain. */
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      /** Where objects are read from (a CDN, a public bucket address), without a trailing slash. */
      publicUrl: string | undefined;
      forcePathStyle: boolean;
    };

/** The region used when S3_REGION is unset. */
export const S3_REGION_DEFAULT = 'us-east-1';

/** Attempts allowed per client address, and per account or e-mail where the request names one. */
export interface RateLimitConfig {
  enabled: boolean;
  /** Per address and per account. */
  loginPerMinute: number;
  /** Per address. */
  loginPerHour: number;
  /** Per address. */
  registerPerHour: number;
  /** Per address. */
  forgotPasswordPerHour: number;
  forgotPasswordPerEmailPerHour: number;
  /** Per address. */
  resetPasswordPerHour: number;
  /** Password changes (`POST /api/change-password`) an hour, per member and per address. */
  changePasswordPerHour: number;
  /** Chat messages per member in `chatWindowSeconds` (both chat POST routes together). */
  chatMessages: number;
  chatWindowSeconds: number;
  /** Private messages per member (support requests included), a minute and an hour. */
  messagesPerMinute: number;
  messagesPerHour: number;
  /** Upload addresses (`POST /api/objects/upload`) per member an hour. */
  uploadsPerHour: number;
  /** Pastes, replies and votes per member, a minute and an hour. */
  pastesPerMinute: number;
  pastesPerHour: number;
  repliesPerMinute: number;
  repliesPerHour: number;
  votesPerMinute: number;
  votesPerHour: number;
  /** Members @mentioned per member an hour, in pastes and replies together. */
  mentionsPerHour: number;
  /** Re-sent verification links per member an hour. */
  verifyEmailPerHour: number;
  /** Re-sent verification links per client address an hour. */
  verifyEmailPerAddressPerHour: number;
}

/** Rate limit defaults, close to Discourse's. */
export const RATE_LIMIT_DEFAULTS: Omit<RateLimitConfig, 'enabled'> = {
  loginPerMinute: 6,
  loginPerHour: 30,
  registerPerHour: 5,
  forgotPasswordPerHour: 5,
  forgotPasswordPerEmailPerHour: 3,
  resetPasswordPerHour: 10,
  changePasswordPerHour: 10,
  chatMessages: CHAT_RATE_LIMIT_DEFAULTS.messages,
  chatWindowSeconds: CHAT_RATE_LIMIT_DEFAULTS.windowSeconds,
  messagesPerMinute: PRIVATE_MESSAGE_RATE_LIMIT_DEFAULTS.perMinute,
  messagesPerHour: PRIVATE_MESSAGE_RATE_LIMIT_DEFAULTS.perHour,
  uploadsPerHour: UPLOAD_RATE_LIMIT_DEFAULT_PER_HOUR,
  ...FORUM_RATE_LIMIT_DEFAULTS,
  verifyEmailPerHour: VERIFY_RESEND_RATE_LIMIT_DEFAULTS.perMemberPerHour,
  verifyEmailPerAddressPerHour: VERIFY_RESEND_RATE_LIMIT_DEFAULTS.perAddressPerHour,
};

/** Where a worker serves its health check unless WORKER_HEALTH_PORT says otherwise. */
export const WORKER_HEALTH_PORT_DEFAULT = 3002;

/** Who reads the configuration: the API server (main.ts) or a queue worker (main.worker.ts). */
export interface LoadConfigOptions {
  /**
   * `worker`: DATABASE_URL and REDIS_URL are required (a worker takes jobs from Redis and runs them on
   * the shared database), SESSION_SECRET is not (a worker serves no sessions) and PROCESS_JOBS is ignored.
   */
  role?: 'api' | 'worker';
}

/** The live socket's default heartbeat: a ping every 30 seconds. */
export const LIVE_HEARTBEAT_MS_DEFAULT = 30_000;

/** BullMQ's own default lock and stalled-check period. */
export const JOB_LOCK_SECONDS_DEFAULT = 30;

/** Paste views are stored every 5 seconds unless VIEW_FLUSH_SECONDS says otherwise. */
export const VIEW_FLUSH_SECONDS_DEFAULT = 5;
export const VIEW_FLUSH_SECONDS_MAX = 300;

/**
 * Connections per process unless DATABASE_POOL_SIZE says otherwise: twice pg's 10, so that concurrent
 * writes keep PostgreSQL busy while others wait for their commit to reach the disk. Mind PostgreSQL's
 * max_connections (100 by default) across every instance and worker.
 */
export const DATABASE_POOL_SIZE_DEFAULT = 20;
export const DATABASE_POOL_SIZE_MAX = 500;

export class ConfigError extends StartupError {
  override readonly name = 'ConfigError';
}

export const SESSION_SECRET_MIN_LENGTH = 32;
export const SESSION_SECRET_FILE = 'session-secret';

/** The repository's frontends/ folder: src/config and dist/config sit at the same depth. */
const DEFAULT_FRONTENDS_DIR = fileURLToPath(new URL('../../../frontends', import.meta.url));

/** Values we never echo back in an error message (they may hold passwords). */
const SECRET_VARIABLES = new Set([
  'DATABASE_URL',
  'REDIS_URL',
  'SMTP_URL',
  'SESSION_SECRET',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
]);

function fail(ctx: z.RefinementCtx, message: string): typeof z.NEVER {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

const portNumber = z.string().transform((raw, ctx) => {
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) return fail(ctx, 'must be a port number');
  return port;
});

const urlWithProtocols = (protocols: readonly string[]) =>
  z.string().transform((raw, ctx) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return fail(ctx, `must be a URL (${protocols.map((p) => `${p}//`).join(' or ')}…)`);
    }
    if (!protocols.includes(url.protocol)) {
      return fail(ctx, `must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
    }
    return raw;
  });

const remoteUrls = z.string().transform((raw, ctx) => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return fail(ctx, 'must be a JSON object mapping a remote name to its entry URL');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return fail(ctx, 'must be a JSON object mapping a remote name to its entry URL');
  }
  const result: Partial<Record<RemoteName, string>> = {};
  for (const [name, url] of Object.entries(parsed)) {
    if (!(REMOTE_NAMES as readonly string[]).includes(name)) {
      return fail(ctx, `names an unknown remote "${name}" (known: ${REMOTE_NAMES.join(', ')})`);
    }
    if (typeof url !== 'string' || !isEntryUrl(url)) {
      return fail(ctx, `must map "${name}" to an http(s) URL or an absolute path`);
    }
    result[name as RemoteName] = url;
  }
  return result;
});

function isEntryUrl(value: string): boolean {
  if (value.startsWith('/') && !value.startsWith('//')) return true;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

const nonEmpty = z.string().trim().min(1, 'must not be blank');

/** A whole number from `min` to `max`, else `must be a whole number<unit> from <min> to <max>`. */
const wholeNumber = (min: number, max: number, unit = '') =>
  z
    .string()
    .transform((raw, ctx) =>
      /^\d+$/.test(raw) && Number(raw) >= min && Number(raw) <= max
        ? Number(raw)
        : fail(ctx, `must be a whole number${unit} from ${min} to ${max}`),
    );

const positiveCount = z.string().transform((raw, ctx) => {
  const count = Number(raw);
  if (!/^\d+$/.test(raw) || count < 1) return fail(ctx, 'must be a whole number of at least 1');
  return count;
});

/** REPUTATION_DAILY_CAP_*: points a day, 0 (that reason earns nothing) to a million. */
const dailyCap = wholeNumber(0, 1_000_000, ' of points');

const onOff = z.enum(['on', 'off'], { error: 'must be on or off' });

/** A comma-separated list of http(s) origins, each kept as `URL.origin` (no path, no trailing slash). */
const originList = z.string().transform((raw, ctx) => {
  const origins: string[] = [];
  for (const entry of raw.split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      return fail(ctx, `must list origins like https://admin.example.com, separated by commas ("${entry}")`);
    }
    if (!['http:', 'https:'].includes(url.protocol) || (url.pathname !== '/' && url.pathname !== '')) {
      return fail(ctx, `must list origins like https://admin.example.com, separated by commas ("${entry}")`);
    }
    origins.push(url.origin);
  }
  return origins;
});

const envSchema = z.object({
  PORT: portNumber.optional(),
  HOST: nonEmpty.optional(),
  DATA_DIR: nonEmpty.optional(),
  DATABASE_URL: urlWithProtocols(['postgres:', 'postgresql:']).optional(),
  REDIS_URL: urlWithProtocols(['redis:', 'rediss:']).optional(),
  PROCESS_JOBS: onOff.optional(),
  WORKER_HEALTH_PORT: portNumber.optional(),
  SMTP_URL: urlWithProtocols(['smtp:', 'smtps:']).optional(),
  PUBLIC_URL: urlWithProtocols(['http:', 'https:']).optional(),
  SESSION_SECRET: z
    .string()
    .min(SESSION_SECRET_MIN_LENGTH, `must be at least ${SESSION_SECRET_MIN_LENGTH} characters long`)
    .optional(),
  PRODUCT_NAME: nonEmpty.optional(),
  FRONTENDS_DIR: nonEmpty.optional(),
  REMOTE_URLS: remoteUrls.optional(),
  EMBEDDED_PG_PORT: portNumber.optional(),
  OWNER_EMAIL: z.string().trim().email('must be an e-mail address').optional(),
  REQUIRE_VERIFIED_EMAIL: z
    .enum(['true', 'false', 'on', 'off'], { error: 'must be true or false' })
    .optional(),
  ALLOWED_ORIGINS: originList.optional(),
  TRUST_PROXY: trustProxy.optional(),
  RATE_LIMITS: onOff.optional(),
  RATE_LIMIT_LOGIN_PER_MINUTE: positiveCount.optional(),
  RATE_LIMIT_LOGIN_PER_HOUR: positiveCount.optional(),
  RATE_LIMIT_REGISTER_PER_HOUR: positiveCount.optional(),
  RATE_LIMIT_FORGOT_PASSWORD_PER_HOUR: positiveCount.optional(),
  RATE_LIMIT_FORGOT_PASSWORD_PER_EMAIL_PER_HOUR: positiveCount.optional(),
  RATE_LIMIT_RESET_PASSWORD_PER_HOUR: positiveCount.optional(),
  RATE_LIMIT_CHANGE_PASSWORD_PER_HOUR: positiveCount.optional(),
  RATE_LIMIT_CHAT_MESSAGES: positiveCount.optional(),
  RATE_LIMIT_CHAT_WINDOW_SECONDS: positiveCount.optional(),
  RATE_LIMIT_MESSAGES_PER_MINUTE: positiveCount.optional(),
  RATE_LIMIT_MESSAGES_PER_HOUR: positiveCount.optional(),
  RATE_LIMIT_UPLOADS_PER_HOUR: positiveCount.optional(),
  RATE_LIMIT_PASTES_PER_MINUTE: positiveCount.optional(),
  RATE_LIMIT_PASTES_PER_HOUR: positiveCount.optional(),
  RATE_LIMIT_REPLIES_PER_MINUTE: positiveCount.optional(),
  RATE_LIMIT_REPLIES_PER_HOUR: positiveCount.optional(),
  RATE_LIMIT_VOTES_PER_MINUTE: positiveCount.optional(),
  RATE_LIMIT_VOTES_PER_HOUR: positiveCount.optional(),
  RATE_LIMIT_MENTIONS_PER_HOUR: positiveCount.optional(),
  REPUTATION_DAILY_CAP_PASTES: dailyCap.optional(),
  REPUTATION_DAILY_CAP_REPLIES: dailyCap.optional(),
  REPUTATION_DAILY_CAP_CHAT: dailyCap.optional(),
  REPUTATION_DAILY_CAP_VOTES: dailyCap.optional(),
  RATE_LIMIT_VERIFY_EMAIL_PER_HOUR: positiveCount.optional(),
  RATE_LIMIT_VERIFY_EMAIL_PER_ADDRESS_PER_HOUR: positiveCount.optional(),
  LIVE_HEARTBEAT_MS: positiveCount.optional(),
  JOB_LOCK_SECONDS: wholeNumber(5, 600, ' of seconds').optional(),
  VIEW_FLUSH_SECONDS: wholeNumber(1, VIEW_FLUSH_SECONDS_MAX, ' of seconds').optional(),
  DATABASE_POOL_SIZE: wholeNumber(1, DATABASE_POOL_SIZE_MAX).optional(),
  S3_BUCKET: nonEmpty.optional(),
  S3_REGION: nonEmpty.optional(),
  S3_ENDPOINT: urlWithProtocols(['http:', 'https:']).optional(),
  S3_ACCESS_KEY_ID: nonEmpty.optional(),
  S3_SECRET_ACCESS_KEY: nonEmpty.optional(),
  S3_PUBLIC_URL: urlWithProtocols(['http:', 'https:']).optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  LOG_FORMAT: z.enum(LOG_FORMATS, { error: 'must be json or pretty' }).optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).optional(),
});

type Env = Record<string, string | undefined>;

function describeIssues(error: z.ZodError, env: Env): string {
  return error.issues
    .map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      const raw = env[name];
      const got = raw === undefined || SECRET_VARIABLES.has(name) ? '' : ` (got ${JSON.stringify(raw)})`;
      return `${name} ${issue.message}${got}`;
    })
    .join('; ');
}

/**
 * Parses the environment into the typed configuration, or throws a ConfigError naming each bad
 * variable. In embedded mode without SESSION_SECRET, the secret is generated once and kept in
 * `$DATA_DIR/session-secret` (mode 0600), so sessions survive a restart.
 */
export function loadConfig(
  env: Env = process.env,
  cwd: string = process.cwd(),
  { role = 'api' }: LoadConfigOptions = {},
): AppConfig {
  // An empty variable (`FOO=` in a compose file) means "not set".
  const present: Env = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(`Invalid configuration: ${describeIssues(parsed.error, present)}`);
  }
  const vars = parsed.data;
  const embedded = vars.DATABASE_URL === undefined;
  if (role === 'worker') {
    const missing = (['DATABASE_URL', 'REDIS_URL'] as const).filter((name) => vars[name] === undefined);
    if (missing.length > 0) {
      throw new ConfigError(
        `Invalid configuration: a worker needs ${missing.join(' and ')} ` +
          '(it takes jobs from Redis at REDIS_URL and runs them on the PostgreSQL at DATABASE_URL, ' +
          'the same as the API instances use); without REDIS_URL, `npm start` runs the jobs itself',
      );
    }
  } else if (vars.PROCESS_JOBS === 'off' && vars.REDIS_URL === undefined) {
    throw new ConfigError(
      'Invalid configuration: PROCESS_JOBS=off needs REDIS_URL (without Redis the jobs run in this ' +
        'process, and no worker could take them): set REDIS_URL and run a worker, or unset PROCESS_JOBS',
    );
  }
  const port = vars.PORT ?? 3000;
  const publicUrl = (vars.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const dataDir = path.resolve(cwd, vars.DATA_DIR ?? '.data');

  if (vars.TRUST_PROXY === false && publicUrl.startsWith('https:')) {
    throw new ConfigError(
      'Invalid configuration: TRUST_PROXY is off but PUBLIC_URL is https, so a TLS-terminating proxy is ' +
        'in front of the API: set TRUST_PROXY to the number of proxies (1 for one nginx) or their addresses',
    );
  }

  let sessionSecret = vars.SESSION_SECRET;
  if (sessionSecret === undefined && role === 'worker') {
    // A worker signs no cookies: nothing to require, nothing to generate.
    sessionSecret = '';
  } else if (sessionSecret === undefined) {
    if (!embedded) {
      throw new ConfigError(
        'Invalid configuration: SESSION_SECRET must be set when DATABASE_URL is set ' +
          `(at least ${SESSION_SECRET_MIN_LENGTH} characters, the same on every instance)`,
      );
    }
    sessionSecret = readOrCreateSessionSecret(dataDir);
  }

  return {
    port,
    host: vars.HOST ?? (embedded ? '127.0.0.1' : '0.0.0.0'),
    dataDir,
    database: embedded
      ? { mode: 'embedded', dir: path.join(dataDir, 'pg'), port: vars.EMBEDDED_PG_PORT }
      : { mode: 'external', url: vars.DATABASE_URL! },
    redisUrl: vars.REDIS_URL,
    processJobs: role === 'worker' || vars.PROCESS_JOBS !== 'off',
    workerHealthPort: vars.WORKER_HEALTH_PORT ?? WORKER_HEALTH_PORT_DEFAULT,
    smtpUrl: vars.SMTP_URL,
    publicUrl,
    publicUrlSet: vars.PUBLIC_URL !== undefined,
    sessionSecret,
    productName: vars.PRODUCT_NAME ?? PRODUCT_NAME_DEFAULT,
    frontendsDir: vars.FRONTENDS_DIR ? path.resolve(cwd, vars.FRONTENDS_DIR) : DEFAULT_FRONTENDS_DIR,
    remoteUrls: vars.REMOTE_URLS ?? {},
    ownerEmail: vars.OWNER_EMAIL?.toLowerCase(),
    requireVerifiedEmail: vars.REQUIRE_VERIFIED_EMAIL !== 'false' && vars.REQUIRE_VERIFIED_EMAIL !== 'off',
    allowedOrigins: vars.ALLOWED_ORIGINS ?? [],
    rateLimits: {
      enabled: vars.RATE_LIMITS !== 'off',
      loginPerMinute: vars.RATE_LIMIT_LOGIN_PER_MINUTE ?? RATE_LIMIT_DEFAULTS.loginPerMinute,
      loginPerHour: vars.RATE_LIMIT_LOGIN_PER_HOUR ?? RATE_LIMIT_DEFAULTS.loginPerHour,
      registerPerHour: vars.RATE_LIMIT_REGISTER_PER_HOUR ?? RATE_LIMIT_DEFAULTS.registerPerHour,
      forgotPasswordPerHour:
        vars.RATE_LIMIT_FORGOT_PASSWORD_PER_HOUR ?? RATE_LIMIT_DEFAULTS.forgotPasswordPerHour,
      forgotPasswordPerEmailPerHour:
        vars.RATE_LIMIT_FORGOT_PASSWORD_PER_EMAIL_PER_HOUR ??
        RATE_LIMIT_DEFAULTS.forgotPasswordPerEmailPerHour,
      resetPasswordPerHour:
        vars.RATE_LIMIT_RESET_PASSWORD_PER_HOUR ?? RATE_LIMIT_DEFAULTS.resetPasswordPerHour,
      changePasswordPerHour:
        vars.RATE_LIMIT_CHANGE_PASSWORD_PER_HOUR ?? RATE_LIMIT_DEFAULTS.changePasswordPerHour,
      chatMessages: vars.RATE_LIMIT_CHAT_MESSAGES ?? RATE_LIMIT_DEFAULTS.chatMessages,
      chatWindowSeconds: vars.RATE_LIMIT_CHAT_WINDOW_SECONDS ?? RATE_LIMIT_DEFAULTS.chatWindowSeconds,
      messagesPerMinute: vars.RATE_LIMIT_MESSAGES_PER_MINUTE ?? RATE_LIMIT_DEFAULTS.messagesPerMinute,
      messagesPerHour: vars.RATE_LIMIT_MESSAGES_PER_HOUR ?? RATE_LIMIT_DEFAULTS.messagesPerHour,
      uploadsPerHour: vars.RATE_LIMIT_UPLOADS_PER_HOUR ?? RATE_LIMIT_DEFAULTS.uploadsPerHour,
      pastesPerMinute: vars.RATE_LIMIT_PASTES_PER_MINUTE ?? RATE_LIMIT_DEFAULTS.pastesPerMinute,
      pastesPerHour: vars.RATE_LIMIT_PASTES_PER_HOUR ?? RATE_LIMIT_DEFAULTS.pastesPerHour,
      repliesPerMinute: vars.RATE_LIMIT_REPLIES_PER_MINUTE ?? RATE_LIMIT_DEFAULTS.repliesPerMinute,
      repliesPerHour: vars.RATE_LIMIT_REPLIES_PER_HOUR ?? RATE_LIMIT_DEFAULTS.repliesPerHour,
      votesPerMinute: vars.RATE_LIMIT_VOTES_PER_MINUTE ?? RATE_LIMIT_DEFAULTS.votesPerMinute,
      votesPerHour: vars.RATE_LIMIT_VOTES_PER_HOUR ?? RATE_LIMIT_DEFAULTS.votesPerHour,
      mentionsPerHour: vars.RATE_LIMIT_MENTIONS_PER_HOUR ?? RATE_LIMIT_DEFAULTS.mentionsPerHour,
      verifyEmailPerHour: vars.RATE_LIMIT_VERIFY_EMAIL_PER_HOUR ?? RATE_LIMIT_DEFAULTS.verifyEmailPerHour,
      verifyEmailPerAddressPerHour:
        vars.RATE_LIMIT_VERIFY_EMAIL_PER_ADDRESS_PER_HOUR ?? RATE_LIMIT_DEFAULTS.verifyEmailPerAddressPerHour,
    },
    reputationDailyCaps: {
      paste: vars.REPUTATION_DAILY_CAP_PASTES ?? REPUTATION_DAILY_CAP_DEFAULTS.paste,
      reply: vars.REPUTATION_DAILY_CAP_REPLIES ?? REPUTATION_DAILY_CAP_DEFAULTS.reply,
      chat: vars.REPUTATION_DAILY_CAP_CHAT ?? REPUTATION_DAILY_CAP_DEFAULTS.chat,
      vote: vars.REPUTATION_DAILY_CAP_VOTES ?? REPUTATION_DAILY_CAP_DEFAULTS.vote,
    },
    liveHeartbeatMs: vars.LIVE_HEARTBEAT_MS ?? LIVE_HEARTBEAT_MS_DEFAULT,
    jobLockMs: (vars.JOB_LOCK_SECONDS ?? JOB_LOCK_SECONDS_DEFAULT) * 1000,
    viewFlushMs: (vars.VIEW_FLUSH_SECONDS ?? VIEW_FLUSH_SECONDS_DEFAULT) * 1000,
    databasePoolSize: vars.DATABASE_POOL_SIZE ?? DATABASE_POOL_SIZE_DEFAULT,
    storage: storageConfig(vars, dataDir),
    logFormat: vars.LOG_FORMAT ?? defaultLogFormat(present),
    logLevel: vars.LOG_LEVEL ?? 'info',
    remoteOrigins: remoteOrigins(vars.REMOTE_URLS ?? {}),
    // Unset: served over https means behind one TLS-terminating proxy; over http, none.
    trustProxy: vars.TRUST_PROXY ?? (publicUrl.startsWith('https:') ? 1 : false),
  };
}

/** The distinct origins of the entries that are absolute URLs (a path is on our own origin). */
function remoteOrigins(urls: Partial<Record<RemoteName, string>>): string[] {
  const origins = Object.values(urls)
    .filter((url) => !url.startsWith('/'))
    .map((url) => new URL(url).origin);
  return [...new Set(origins)];
}

const S3_VARIABLES = [
  'S3_REGION',
  'S3_ENDPOINT',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_PUBLIC_URL',
  'S3_FORCE_PATH_STYLE',
] as const;

function storageConfig(vars: z.infer<typeof envSchema>, dataDir: string): StorageConfig {
  if (vars.S3_BUCKET === undefined) {
    const stray = S3_VARIABLES.filter((name) => vars[name] !== undefined);
    if (stray.length > 0) {
      throw new ConfigError(
        `Invalid configuration: ${stray.join(', ')} ${stray.length > 1 ? 'are' : 'is'} set but S3_BUCKET is not ` +
          '(set S3_BUCKET to store avatars in S3, or unset these to store them under DATA_DIR)',
      );
    }
    return { mode: 'local', dir: path.join(dataDir, 'uploads') };
  }
  if ((vars.S3_ACCESS_KEY_ID === undefined) !== (vars.S3_SECRET_ACCESS_KEY === undefined)) {
    throw new ConfigError(
      'Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together ' +
        "(or neither, for the AWS SDK's default credentials)",
    );
  }
  return {
    mode: 's3',
    bucket: vars.S3_BUCKET,
    region: vars.S3_REGION ?? S3_REGION_DEFAULT,
    endpoint: vars.S3_ENDPOINT?.replace(/\/+$/, ''),
    accessKeyId: vars.S3_ACCESS_KEY_ID,
    secretAccessKey: vars.S3_SECRET_ACCESS_KEY,
    publicUrl: vars.S3_PUBLIC_URL?.replace(/\/+$/, ''),
    forcePathStyle: vars.S3_FORCE_PATH_STYLE === 'true',
  };
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
