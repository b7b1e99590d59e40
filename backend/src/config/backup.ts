import path from 'node:path';
import { CronExpressionParser } from 'cron-parser';
import { z } from 'zod';
import type { EnvVars } from './env.js';
import { nonEmpty, wholeNumber } from './values.js';

/** Scheduled backups (`termpaste backup` on a timer of the queue): off unless BACKUP_CRON is set. */
export interface BackupConfig {
  /** A cron pattern (five fields, or six with seconds), in UTC; unset: no scheduled backups. */
  cron: string | undefined;
  /** Where the archives go: BACKUP_DIR, default `$DATA_DIR/backups`. */
  dir: string;
  /** How many scheduled archives to keep; older ones are deleted after each run. */
  keep: number;
}

export const BACKUP_KEEP_DEFAULT = 7;

export const backupEnv = {
  BACKUP_CRON: nonEmpty
    .refine(
      (pattern) => {
        try {
          CronExpressionParser.parse(pattern, { tz: 'UTC' });
          return true;
        } catch {
          return false;
        }
      },
      { message: 'must be a cron pattern such as "0 3 * * *" (minute hour day month weekday, in UTC)' },
    )
    .optional(),
  BACKUP_DIR: nonEmpty.optional(),
  BACKUP_KEEP: wholeNumber(1, 10_000, ' of archives').optional(),
} satisfies Record<string, z.ZodType>;

export function backupConfig(vars: EnvVars, dataDir: string, cwd: string): BackupConfig {
  return {
    cron: vars.BACKUP_CRON,
    dir: vars.BACKUP_DIR === undefined ? path.join(dataDir, 'backups') : path.resolve(cwd, vars.BACKUP_DIR),
    keep: vars.BACKUP_KEEP ?? BACKUP_KEEP_DEFAULT,
  };
}
