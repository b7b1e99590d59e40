import path from 'node:path';
import { ConfigError } from './config-error.js';
import type { EnvVars } from './env.js';

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

const S3_VARIABLES = [
  'S3_REGION',
  'S3_ENDPOINT',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_PUBLIC_URL',
  'S3_FORCE_PATH_STYLE',
] as const;

export function storageConfig(vars: EnvVars, dataDir: string): StorageConfig {
  if (vars.S3_BUCKET === undefined) {
    // The backups' bucket (BACKUP_S3_BUCKET) is reached with the same settings.
    const stray =
      vars.BACKUP_S3_BUCKET === undefined ? S3_VARIABLES.filter((name) => vars[name] !== undefined) : [];
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
