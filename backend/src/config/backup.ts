import path from 'node:path';
import { CronExpressionParser } from 'cron-parser';
import { z } from 'zod';
import { ConfigError } from './config-error.js';
import type { EnvVars } from './env.js';
import { S3_REGION_DEFAULT } from './storage.js';
import { nonEmpty, wholeNumber } from './values.js';

/** Scheduled backups (`termpaste backup` on a timer of the queue): off unless BACKUP_CRON is set. */
export interface BackupConfig {
  /** A cron pattern (five fields, or six with seconds), in UTC; unset: no scheduled backups. */
  cron: string | undefined;
  /** Where the archives go: BACKUP_DIR, default `$DATA_DIR/backups`. */
  dir: string;
  /** How many scheduled archives to keep; older ones are deleted after each run. */
  keep: number;
  /**
   * The scheduled archives go to this bucket (under `backups/`) instead of BACKUP_DIR, reached with
   * the S3_* settings of the avatars' bucket.
   */
  s3: BackupS3Config | undefined;
}

export interface BackupS3Config {
  bucket: string;
  region: string;
  endpoint: string | undefined;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
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
  BACKUP_S3_BUCKET: nonEmpty.optional(),
} satisfies Record<string, z.ZodType>;

export function backupConfig(vars: EnvVars, dataDir: string, cwd: string): BackupConfig {
  if (
    vars.BACKUP_S3_BUCKET !== undefined &&
    (vars.S3_ACCESS_KEY_ID === undefined) !== (vars.S3_SECRET_ACCESS_KEY === undefined)
  ) {
    throw new ConfigError(
      'Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together ' +
        "(or neither, for the AWS SDK's default credentials)",
    );
  }
  return {
    cron: vars.BACKUP_CRON,
    dir: vars.BACKUP_DIR === undefined ? path.join(dataDir, 'backups') : path.resolve(cwd, vars.BACKUP_DIR),
    keep: vars.BACKUP_KEEP ?? BACKUP_KEEP_DEFAULT,
    s3:
      vars.BACKUP_S3_BUCKET === undefined
        ? undefined
        : {
            bucket: vars.BACKUP_S3_BUCKET,
            region: vars.S3_REGION ?? S3_REGION_DEFAULT,
            endpoint: vars.S3_ENDPOINT?.replace(/\/+$/, ''),
            accessKeyId: vars.S3_ACCESS_KEY_ID,
            secretAccessKey: vars.S3_SECRET_ACCESS_KEY,
            forcePathStyle: vars.S3_FORCE_PATH_STYLE === 'true',
          },
  };
}
