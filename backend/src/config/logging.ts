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
