import { z } from 'zod';
import { backupEnv } from './backup.js';
import { mailingsEnv } from './mailings.js';
import { ConfigError } from './config-error.js';
import { DATABASE_POOL_SIZE_MAX } from './database.js';
import { remoteUrls } from './frontends.js';
import { EXPIRY_TIME_SCALE_MAX, VIEW_FLUSH_SECONDS_MAX } from './intervals.js';
import { LOG_FORMATS, LOG_LEVELS } from './logging.js';
import { metricsListen, metricsToken } from './metrics.js';
import { FLAG_HIDE_THRESHOLD_MAX, MODERATION_TIME_SCALE_MAX } from './moderation.js';
import { originList } from './origins.js';
import { PASTE_MAX_BYTES_MAX } from './pastes.js';
import { readReplicasEnv } from './read-replicas.js';
import { sessionCacheEnv } from './session-cache.js';
import { SECRET_VARIABLES } from './secret-files.js';
import { SESSION_SECRET_MIN_LENGTH } from './session-secret.js';
import { githubUrl, oidcProviders } from './sso.js';
import { trustProxy } from './trust-proxy.js';
import { nonEmpty, onOff, portNumber, positiveCount, urlWithProtocols, wholeNumber } from './values.js';

export type Env = Record<string, string | undefined>;

/** REPUTATION_DAILY_CAP_*: points a day, 0 (that reason earns nothing) to a million. */
const dailyCap = wholeNumber(0, 1_000_000, ' of points');

// The keys' order is the order a ConfigError lists the bad variables in.
const envSchema = z.object({
  PORT: portNumber.optional(),
  HOST: nonEmpty.optional(),
  DATA_DIR: nonEmpty.optional(),
  DATABASE_URL: urlWithProtocols(['postgres:', 'postgresql:']).optional(),
  ...readReplicasEnv,
  ...sessionCacheEnv,
  REDIS_URL: urlWithProtocols(['redis:', 'rediss:']).optional(),
  PROCESS_JOBS: onOff.optional(),
  MIGRATE_ON_START: onOff.optional(),
  WORKER_HEALTH_PORT: portNumber.optional(),
  SMTP_URL: urlWithProtocols(['smtp:', 'smtps:']).optional(),
  PUBLIC_URL: urlWithProtocols(['http:', 'https:']).optional(),
  SESSION_SECRET: z
    .string()
    .min(SESSION_SECRET_MIN_LENGTH, `must be at least ${SESSION_SECRET_MIN_LENGTH} characters long`)
    .optional(),
  SESSION_MAX_AGE_DAYS: wholeNumber(1, 3650, ' of days').optional(),
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
  RATE_LIMIT_LOGIN_PER_ACCOUNT_PER_HOUR: positiveCount.optional(),
  RATE_LIMIT_LOGIN_SLOWDOWN_MS: wholeNumber(0, 60_000, ' of milliseconds').optional(),
  RATE_LIMIT_REGISTER_PER_HOUR: positiveCount.optional(),
  RATE_LIMIT_FORGOT_PASSWORD_PER_HOUR: positiveCount.optional(),
  RATE_LIMIT_FORGOT_PASSWORD_PER_EMAIL_PER_HOUR: positiveCount.optional(),
  RATE_LIMIT_FORGOT_PASSWORD_INTERVAL_SECONDS: wholeNumber(1, 86_400, ' of seconds').optional(),
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
  RATE_LIMIT_EDITS_PER_HOUR: positiveCount.optional(),
  RATE_LIMIT_EDITS_PER_ADDRESS_PER_HOUR: positiveCount.optional(),
  RATE_LIMIT_PROFILE_SAVES_PER_HOUR: positiveCount.optional(),
  RATE_LIMIT_PROFILE_SAVES_PER_ADDRESS_PER_HOUR: positiveCount.optional(),
  REPUTATION_DAILY_CAP_PASTES: dailyCap.optional(),
  REPUTATION_DAILY_CAP_REPLIES: dailyCap.optional(),
  REPUTATION_DAILY_CAP_CHAT: dailyCap.optional(),
  REPUTATION_DAILY_CAP_VOTES: dailyCap.optional(),
  RATE_LIMIT_VERIFY_EMAIL_PER_HOUR: positiveCount.optional(),
  RATE_LIMIT_VERIFY_EMAIL_PER_ADDRESS_PER_HOUR: positiveCount.optional(),
  RATE_LIMIT_TOKEN_REQUESTS_PER_MINUTE: positiveCount.optional(),
  RATE_LIMIT_SEARCH_PER_MINUTE: positiveCount.optional(),
  LIVE_HEARTBEAT_MS: positiveCount.optional(),
  LIVE_VISITOR_SOCKETS_PER_ADDRESS: wholeNumber(0, 10_000, ' of sockets').optional(),
  JOB_LOCK_SECONDS: wholeNumber(5, 600, ' of seconds').optional(),
  VIEW_FLUSH_SECONDS: wholeNumber(1, VIEW_FLUSH_SECONDS_MAX, ' of seconds').optional(),
  DATABASE_POOL_SIZE: wholeNumber(1, DATABASE_POOL_SIZE_MAX).optional(),
  PASTE_MAX_BYTES: wholeNumber(1, PASTE_MAX_BYTES_MAX, ' of bytes').optional(),
  EXPIRY_TIME_SCALE: wholeNumber(1, EXPIRY_TIME_SCALE_MAX).optional(),
  S3_BUCKET: nonEmpty.optional(),
  S3_REGION: nonEmpty.optional(),
  S3_ENDPOINT: urlWithProtocols(['http:', 'https:']).optional(),
  S3_ACCESS_KEY_ID: nonEmpty.optional(),
  S3_SECRET_ACCESS_KEY: nonEmpty.optional(),
  S3_PUBLIC_URL: urlWithProtocols(['http:', 'https:']).optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  LOG_FORMAT: z.enum(LOG_FORMATS, { error: 'must be json or pretty' }).optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).optional(),
  OIDC_PROVIDERS: oidcProviders.optional(),
  GITHUB_CLIENT_ID: nonEmpty.optional(),
  GITHUB_CLIENT_SECRET: nonEmpty.optional(),
  GITHUB_URL: githubUrl.optional(),
  LOCAL_LOGIN: onOff.optional(),
  RATE_LIMIT_FLAGS_PER_HOUR: positiveCount.optional(),
  MODERATION_FLAG_HIDE_THRESHOLD: wholeNumber(1, FLAG_HIDE_THRESHOLD_MAX).optional(),
  MODERATION_HOLD_FIRST_POSTS: wholeNumber(0, 1000, ' of posts').optional(),
  MODERATION_NEW_MEMBER_POSTS: wholeNumber(0, 1000, ' of posts').optional(),
  MODERATION_NEW_MEMBER_MAX_LINKS: wholeNumber(0, 1000, ' of links').optional(),
  RATE_LIMIT_NEW_MEMBER_POSTS_PER_HOUR: positiveCount.optional(),
  MODERATION_DUPLICATE_ACCOUNTS: wholeNumber(2, 1000, ' of accounts').optional(),
  MODERATION_BURST_POSTS: wholeNumber(2, 10_000, ' of posts').optional(),
  AKISMET_KEY: nonEmpty.optional(),
  AKISMET_URL: urlWithProtocols(['http:', 'https:']).optional(),
  MODERATION_TIME_SCALE: wholeNumber(1, MODERATION_TIME_SCALE_MAX).optional(),
  ...backupEnv,
  ...mailingsEnv,
  METRICS_TOKEN: metricsToken.optional(),
  METRICS_LISTEN: metricsListen.optional(),
});

/** The environment's variables, each parsed to its type; unset ones undefined. */
export type EnvVars = z.infer<typeof envSchema>;

function describeIssues(error: z.ZodError, env: Env): string {
  return error.issues
    .map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      const raw = env[name];
      const got =
        raw === undefined || (SECRET_VARIABLES as readonly string[]).includes(name)
          ? ''
          : ` (got ${JSON.stringify(raw)})`;
      return `${name} ${issue.message}${got}`;
    })
    .join('; ');
}

/**
 * Parses each variable on its own, or throws one ConfigError naming every bad one. Returns the parsed
 * values and the variables that are set, as given.
 */
export function parseEnv(env: Env): { vars: EnvVars; present: Env } {
  // An empty variable (`FOO=` in a compose file) means "not set".
  const present: Env = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(`Invalid configuration: ${describeIssues(parsed.error, present)}`);
  }
  return { vars: parsed.data, present };
}
