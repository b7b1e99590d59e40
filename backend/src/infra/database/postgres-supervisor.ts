import { setTimeout as sleep } from 'node:timers/promises';
import type { LoggerService } from '@nestjs/common';
import { type EmbeddedPostgresServer, type PostgresExit, PostgresStoppedError } from './embedded-postgres.js';

/** Restarts tried in a row before giving up (a crash soon after a restart continues the count). */
export const DATABASE_RESTART_TRIES = 3;
/** The wait before each try after the first (the first is at once): 1 s, then 2 s. */
export const DATABASE_RESTART_DELAYS_MS = [1000, 2000];
/** A crash within this long of the database coming back continues the count of tries. */
export const DATABASE_STABLE_MS = 60_000;

export interface SuperviseOptions {
  logger: Pick<LoggerService, 'log' | 'warn' | 'error'>;
  tries?: number;
  /** Waits before the second, third… try (the last value repeats). */
  delaysMs?: readonly number[];
  stableMs?: number;
  /** Called once, when the last try failed; the error says why (with PostgreSQL's own lines). */
  onGiveUp: (error: Error) => void;
}

export interface Supervisor {
  /** Stops watching (the server's own stop() also ends a restart under way). */
  stop(): void;
}

/**
 * Restarts the embedded PostgreSQL when it ends on its own (crash, OOM, `kill -9`), so it recovers and the
 * pool reconnects (503 meanwhile); `tries` attempts, then `onGiveUp`.
 */
export function supervisePostgres(server: EmbeddedPostgresServer, options: SuperviseOptions): Supervisor {
  const { logger, onGiveUp } = options;
  const tries = options.tries ?? DATABASE_RESTART_TRIES;
  const delays = options.delaysMs ?? DATABASE_RESTART_DELAYS_MS;
  const stableMs = options.stableMs ?? DATABASE_STABLE_MS;
  let watching = true;
  /** Tries made since the database last stayed up for `stableMs`. */
  let triesMade = 0;
  let backAt = 0;

  const recover = async (exit: PostgresExit): Promise<void> => {
    const stoppedAt = Date.now();
    const again = triesMade > 0 && stoppedAt - backAt < stableMs;
    if (!again) triesMade = 0;
    let lastError = `PostgreSQL ${describeExit(exit)}`;
    let message = again
      ? `The database stopped unexpectedly again, ${stoppedAt - backAt} ms after it came back (${lastError})`
      : `The database stopped unexpectedly (${lastError})`;
    for (;;) {
      if (!watching || server.isStopped) return;
      if (triesMade >= tries) {
        const error = new Error(
          `The database could not be restarted after ${tries} tries; Termpaste stops. Last error: ${lastError}`,
        );
        logger.error(error.message);
        watching = false;
        onGiveUp(error);
        return;
      }
      triesMade++;
      const wait = triesMade === 1 ? 0 : delays[Math.min(triesMade - 2, delays.length - 1)]!;
      logger.warn(`${message}; restarting (try ${triesMade} of ${tries})${wait > 0 ? ` in ${wait} ms` : ''}`);
      if (wait > 0) await sleep(wait);
      if (!watching || server.isStopped) return;
      try {
        await server.restart();
        backAt = Date.now();
        logger.log(
          `The database is back after ${backAt - stoppedAt} ms (PostgreSQL ran its crash recovery; ` +
            'connections are made anew as requests need them)',
        );
        return;
      } catch (error) {
        if (error instanceof PostgresStoppedError) return;
        lastError = error instanceof Error ? error.message : String(error);
        message = `The database did not start (${summary(lastError)})`;
      }
    }
  };

  const unsubscribe = server.onUnexpectedExit((exit) => {
    if (!watching) return;
    recover(exit).catch((error: unknown) =>
      logger.error('Restarting the database failed', error instanceof Error ? error.stack : String(error)),
    );
  });
  return {
    stop: () => {
      watching = false;
      unsubscribe();
    },
  };
}

function describeExit({ code, signal }: PostgresExit): string {
  return signal ? `killed by ${signal}` : `exited with code ${code}`;
}

/** The line of PostgreSQL's output that says why it stopped (its last FATAL or PANIC), else the first. */
function summary(message: string): string {
  const lines = message.split('\n');
  return lines.findLast((line) => /\b(FATAL|PANIC):/.test(line))?.trim() ?? lines[0]!;
}
