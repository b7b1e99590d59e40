import { ConfigError } from './config-error.js';
import type { EnvVars } from './env.js';

/** Where a worker serves its health check unless WORKER_HEALTH_PORT says otherwise. */
export const WORKER_HEALTH_PORT_DEFAULT = 3002;

/** BullMQ's own default lock and stalled-check period. */
export const JOB_LOCK_SECONDS_DEFAULT = 30;

/**
 * Refuses a set-up where no process would run the queue's jobs: a worker without the Redis and the
 * database it shares with the API, or an API told not to run them with no Redis for a worker to read.
 */
export function checkJobRunners(vars: EnvVars, role: 'api' | 'worker'): void {
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
}
