import path from 'node:path';
import {
  type CappedReputationReason,
  LIVE_VISITOR_SOCKETS_PER_ADDRESS_DEFAULT,
  PRODUCT_NAME_DEFAULT,
  type RemoteName,
} from '@termpaste/contracts';
import { type BackupConfig, backupConfig } from './backup.js';
import { type DatabaseConfig, DATABASE_POOL_SIZE_DEFAULT, databaseConfig } from './database.js';
import { type Env, parseEnv } from './env.js';
import { frontendsDir, remoteOrigins } from './frontends.js';
import { metricsConfig, type MetricsConfig } from './metrics.js';
import {
  EXPIRY_TIME_SCALE_DEFAULT,
  LIVE_HEARTBEAT_MS_DEFAULT,
  VIEW_FLUSH_SECONDS_DEFAULT,
} from './intervals.js';
import { checkJobRunners, JOB_LOCK_SECONDS_DEFAULT, WORKER_HEALTH_PORT_DEFAULT } from './jobs.js';
import { defaultLogFormat, type LogFormat, type LogLevel } from './logging.js';
import { type ModerationConfig, moderationConfig } from './moderation.js';
import { type MailingsConfig, mailingsConfig } from './mailings.js';
import { PASTE_MAX_BYTES_DEFAULT } from './pastes.js';
import { type RateLimitConfig, rateLimitConfig } from './rate-limits.js';
import { type ReadReplicasConfig, readReplicasConfig } from './read-replicas.js';
import { sessionCacheMs } from './session-cache.js';
import { reputationDailyCaps } from './reputation-caps.js';
import { withSecretFiles } from './secret-files.js';
import { sessionSecret } from './session-secret.js';
import { type SsoConfig, ssoConfig } from './sso.js';
import { type StorageConfig, storageConfig } from './storage.js';
import { type TrustProxy, trustProxyConfig } from './trust-proxy.js';

// Each concern parses in its own file; importers keep reading them all from here.
export { ConfigError } from './config-error.js';
export { type DatabaseConfig, DATABASE_POOL_SIZE_DEFAULT, DATABASE_POOL_SIZE_MAX } from './database.js';
export {
  EXPIRY_TIME_SCALE_DEFAULT,
  EXPIRY_TIME_SCALE_MAX,
  LIVE_HEARTBEAT_MS_DEFAULT,
  VIEW_FLUSH_SECONDS_DEFAULT,
  VIEW_FLUSH_SECONDS_MAX,
} from './intervals.js';
export { JOB_LOCK_SECONDS_DEFAULT, WORKER_HEALTH_PORT_DEFAULT } from './jobs.js';
export { defaultLogFormat, LOG_FORMATS, type LogFormat, LOG_LEVELS, type LogLevel } from './logging.js';
export { MODERATION_DEFAULTS, type ModerationConfig } from './moderation.js';
export { PASTE_MAX_BYTES_DEFAULT, PASTE_MAX_BYTES_MAX } from './pastes.js';
export { type ReadReplicasConfig } from './read-replicas.js';
export { RATE_LIMIT_DEFAULTS, type RateLimitConfig } from './rate-limits.js';
export { SESSION_SECRET_FILE, SESSION_SECRET_MIN_LENGTH } from './session-secret.js';
export { S3_REGION_DEFAULT, type StorageConfig } from './storage.js';
export { GITHUB_URL_DEFAULT, type GithubConfig, type OidcProviderConfig, type SsoConfig } from './sso.js';
export { type TrustProxy } from './trust-proxy.js';

/** The whole configuration, parsed once at start-up from the environment. */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  /** DATABASE_READ_URL, DATABASE_READ_MAX_LAG_MS, DATABASE_READ_CHECK_MS: the read replicas. */
  readReplicas: ReadReplicasConfig;
  redisUrl: string | undefined;
  /**
   * PROCESS_JOBS: whether this API process runs the queue's jobs (default on). Off on API instances
   * whose jobs separate workers (main.worker.ts) run; only with REDIS_URL.
   */
  processJobs: boolean;
  /**
   * MIGRATE_ON_START (default on): the API and the worker apply pending migrations as they start, one
   * process at a time; off, they refuse to start while any is pending (`termpaste migrate` applies them).
   */
  migrateOnStart: boolean;
  /** WORKER_HEALTH_PORT: where a worker (main.worker.ts) answers `GET /health` (default 3002). */
  workerHealthPort: number;
  smtpUrl: string | undefined;
  /** Without a trailing slash. */
  publicUrl: string;
  /**
   * Whether PUBLIC_URL was given; unset, any loopback origin counts as our own site, set, only its origin.
   */
  publicUrlSet: boolean;
  sessionSecret: string;
  /** A session ends this many days after its sign-in, however active (SESSION_MAX_AGE_DAYS). */
  sessionMaxAgeDays: number;
  /** SESSION_CACHE_MS: how long a signed-in read may use its session as read a moment ago (≤ 1 s). */
  sessionCacheMs: number;
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
   * LIVE_VISITOR_SOCKETS_PER_ADDRESS: live sockets of visitors (`?scope=public`, public events only) one
   * client address may hold at once, over every instance; 0: visitors get no socket.
   */
  liveVisitorSocketsPerAddress: number;
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
  /**
   * PASTE_MAX_BYTES: the largest paste's content, in bytes of UTF-8 (default 1 MiB), on `POST /api/pastes`
   * and the web form (`POST /api/threads`); a larger one is refused with 413.
   */
  pasteMaxBytes: number;
  /**
   * EXPIRY_TIME_SCALE, for tests and demos only: how many times faster a paste's expiry choice passes
   * (default 1; 60 makes `10m` ten seconds).
   */
  expiryTimeScale: number;
  /** Where avatars are stored: local disk under `$DATA_DIR/uploads`, or an S3-compatible bucket. */
  storage: StorageConfig;
  /** Scheduled backups: BACKUP_CRON, BACKUP_DIR, BACKUP_KEEP. */
  backup: BackupConfig;
  /** Flags, holds for approval, new members' limits, the spam signals, Akismet, suspensions' clock. */
  moderation: ModerationConfig;
  /** Notification mails and digests: MAIL_AWAY_MINUTES, MAIL_SWEEP_SECONDS, MAIL_DIGEST_AWAY_DAYS. */
  mailings: MailingsConfig;
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
  /** Single sign-on: OIDC_PROVIDERS, GitHub (GITHUB_*) and LOCAL_LOGIN (password sign-in, default on). */
  sso: SsoConfig;
  /** METRICS_TOKEN and METRICS_LISTEN: who may read `GET /metrics` (nobody by default). */
  metrics: MetricsConfig;
}

/** Who reads the configuration: the API server (main.ts) or a queue worker (main.worker.ts). */
export interface LoadConfigOptions {
  /**
   * `worker`: DATABASE_URL and REDIS_URL are required (a worker takes jobs from Redis and runs them on
   * the shared database), SESSION_SECRET is not (a worker serves no sessions) and PROCESS_JOBS is ignored.
   */
  role?: 'api' | 'worker';
}

/** Sessions end this long after their sign-in, whatever their activity (the cookie rolls 30 days). */
export const SESSION_MAX_AGE_DAYS_DEFAULT = 90;

/**
 * Parses the environment into the typed configuration, or throws a ConfigError naming each bad
 * variable. Embedded without SESSION_SECRET, the secret is generated once into
 * `$DATA_DIR/session-secret` (0600), so sessions survive a restart.
 */
export function loadConfig(
  env: Env = process.env,
  cwd: string = process.cwd(),
  { role = 'api' }: LoadConfigOptions = {},
): AppConfig {
  const { vars, present } = parseEnv(withSecretFiles(env, cwd));
  const embedded = vars.DATABASE_URL === undefined;
  checkJobRunners(vars, role);
  const port = vars.PORT ?? 3000;
  const publicUrl = (vars.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const dataDir = path.resolve(cwd, vars.DATA_DIR ?? '.data');
  const trustProxy = trustProxyConfig(vars.TRUST_PROXY, publicUrl);
  const secret = sessionSecret(vars.SESSION_SECRET, { role, embedded, dataDir });

  return {
    port,
    host: vars.HOST ?? (embedded ? '127.0.0.1' : '0.0.0.0'),
    dataDir,
    database: databaseConfig(vars.DATABASE_URL, vars.EMBEDDED_PG_PORT, dataDir),
    readReplicas: readReplicasConfig(vars),
    redisUrl: vars.REDIS_URL,
    processJobs: role === 'worker' || vars.PROCESS_JOBS !== 'off',
    migrateOnStart: vars.MIGRATE_ON_START !== 'off',
    workerHealthPort: vars.WORKER_HEALTH_PORT ?? WORKER_HEALTH_PORT_DEFAULT,
    smtpUrl: vars.SMTP_URL,
    publicUrl,
    publicUrlSet: vars.PUBLIC_URL !== undefined,
    sessionSecret: secret,
    sessionMaxAgeDays: vars.SESSION_MAX_AGE_DAYS ?? SESSION_MAX_AGE_DAYS_DEFAULT,
    sessionCacheMs: sessionCacheMs(vars),
    productName: vars.PRODUCT_NAME ?? PRODUCT_NAME_DEFAULT,
    frontendsDir: frontendsDir(vars.FRONTENDS_DIR, cwd),
    remoteUrls: vars.REMOTE_URLS ?? {},
    ownerEmail: vars.OWNER_EMAIL?.toLowerCase(),
    requireVerifiedEmail: vars.REQUIRE_VERIFIED_EMAIL !== 'false' && vars.REQUIRE_VERIFIED_EMAIL !== 'off',
    allowedOrigins: vars.ALLOWED_ORIGINS ?? [],
    rateLimits: rateLimitConfig(vars),
    reputationDailyCaps: reputationDailyCaps(vars),
    liveHeartbeatMs: vars.LIVE_HEARTBEAT_MS ?? LIVE_HEARTBEAT_MS_DEFAULT,
    liveVisitorSocketsPerAddress:
      vars.LIVE_VISITOR_SOCKETS_PER_ADDRESS ?? LIVE_VISITOR_SOCKETS_PER_ADDRESS_DEFAULT,
    jobLockMs: (vars.JOB_LOCK_SECONDS ?? JOB_LOCK_SECONDS_DEFAULT) * 1000,
    viewFlushMs: (vars.VIEW_FLUSH_SECONDS ?? VIEW_FLUSH_SECONDS_DEFAULT) * 1000,
    databasePoolSize: vars.DATABASE_POOL_SIZE ?? DATABASE_POOL_SIZE_DEFAULT,
    pasteMaxBytes: vars.PASTE_MAX_BYTES ?? PASTE_MAX_BYTES_DEFAULT,
    expiryTimeScale: vars.EXPIRY_TIME_SCALE ?? EXPIRY_TIME_SCALE_DEFAULT,
    storage: storageConfig(vars, dataDir),
    backup: backupConfig(vars, dataDir, cwd),
    moderation: moderationConfig(vars),
    mailings: mailingsConfig(vars),
    logFormat: vars.LOG_FORMAT ?? defaultLogFormat(present),
    logLevel: vars.LOG_LEVEL ?? 'info',
    remoteOrigins: remoteOrigins(vars.REMOTE_URLS ?? {}),
    trustProxy,
    sso: ssoConfig(vars),
    metrics: metricsConfig(vars),
  };
}
