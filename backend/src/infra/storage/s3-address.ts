import type { StorageConfig } from '../../config/config.js';

// Apart from s3.storage.ts, so that the security headers can name the bucket without loading the AWS SDK
// (loaded only in S3 mode).

export type S3StorageConfig = Extract<StorageConfig, { mode: 's3' }>;

/**
 * Where the bucket's objects live, ending with a slash: the address presigned URLs point at. With an
 * endpoint (MinIO, R2…) path-style is `<endpoint>/<bucket>/`, virtual-hosted `<scheme>//<bucket>.<host>/`;
 * on AWS `https://<bucket>.s3.<region>.amazonaws.com/` (path-style `https://s3.<region>.amazonaws.com/<bucket>/`).
 */
export function bucketBaseUrl(config: S3StorageConfig): string {
  if (config.endpoint) {
    const endpoint = new URL(config.endpoint);
    const pathPrefix = endpoint.pathname.replace(/\/+$/, '');
    if (config.forcePathStyle) return `${endpoint.origin}${pathPrefix}/${config.bucket}/`;
    return `${endpoint.protocol}//${config.bucket}.${endpoint.host}${pathPrefix}/`;
  }
  const host = `s3.${config.region}.amazonaws.com`;
  return config.forcePathStyle ? `https://${host}/${config.bucket}/` : `https://${config.bucket}.${host}/`;
}
