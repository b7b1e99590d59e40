import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Logger, ServiceUnavailableException } from '@nestjs/common';
import { LIMITS } from '@termpaste/contracts';
import { bucketBaseUrl, type S3StorageConfig } from './s3-address.js';
import {
  AVATAR_CACHE_CONTROL,
  avatarKeyOwner,
  isAvatarKey,
  keyUnder,
  newAvatarKey,
  SNIFF_BYTES,
  sniffImageType,
} from './object-keys.js';
import { type PresignedUpload, StoragePort, type StoredObject } from './storage.port.js';

/** The 503 message when the bucket cannot be asked (unreachable, refusing our credentials). */
export const STORAGE_UNAVAILABLE = 'Avatar storage is unavailable; try again later';

export { bucketBaseUrl, type S3StorageConfig } from './s3-address.js';

function isNotFound(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return error.$metadata.httpStatusCode === 404 || error.name === 'NotFound' || error.name === 'NoSuchKey';
}

/**
 * Avatars in an S3-compatible bucket. The browser PUTs straight to a URL presigned by the AWS SDK (which
 * can limit neither size nor type), so the checks happen when the object is claimed as an avatar
 * (`stat`): HeadObject for its size, a ranged GET of its first bytes for its type; an object failing
 * them is deleted. An object that passes is copied onto itself with the Content-Type its bytes tell (not
 * the one the browser sent) and long cache headers, so the bucket serves it as what it is.
 */
export class S3Storage extends StoragePort {
  private readonly logger = new Logger('S3Storage');
  private readonly client: S3Client;
  private readonly bucketBase: string;
  private readonly publicBase: string;

  constructor(
    private readonly config: S3StorageConfig,
    client?: S3Client,
  ) {
    super();
    this.client =
      client ??
      new S3Client({
        region: config.region,
        ...(config.endpoint ? { endpoint: config.endpoint } : {}),
        forcePathStyle: config.forcePathStyle,
        ...(config.accessKeyId && config.secretAccessKey
          ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
          : {}),
        // Otherwise the SDK signs the CRC32 of the (absent) body into the presigned PUT, and every
        // real upload to it fails its checksum.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
    this.bucketBase = bucketBaseUrl(config);
    this.publicBase = config.publicUrl ? `${config.publicUrl}/` : this.bucketBase;
  }

  async presignUpload(userId: number, expiresInSeconds: number): Promise<PresignedUpload> {
    const key = newAvatarKey(userId);
    const uploadURL = await getSignedUrl(
      this.client,
      new PutObjectCommand({ Bucket: this.config.bucket, Key: key }),
      { expiresIn: expiresInSeconds },
    );
    return { key, uploadURL };
  }

  ownedKey(userId: number, url: string): string | null {
    const key = keyUnder(url, [this.publicBase, this.bucketBase]);
    return key !== null && avatarKeyOwner(key) === userId ? key : null;
  }

  async stat(key: string): Promise<StoredObject | null> {
    if (!isAvatarKey(key)) return null;
    try {
      return await this.check(key);
    } catch (error) {
      this.logger.warn(`Checking ${key} failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new ServiceUnavailableException(STORAGE_UNAVAILABLE);
    }
  }

  private async check(key: string): Promise<StoredObject | null> {
    let size: number;
    let storedType: string | undefined;
    let cacheControl: string | undefined;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: key }));
      size = head.ContentLength ?? 0;
      storedType = head.ContentType;
      cacheControl = head.CacheControl;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
    if (size > LIMITS.avatarMaxBytes || size === 0) {
      await this.delete(key);
      return null;
    }
    const first = await this.client.send(
      new GetObjectCommand({ Bucket: this.config.bucket, Key: key, Range: `bytes=0-${SNIFF_BYTES - 1}` }),
    );
    const bytes = (await first.Body?.transformToByteArray()) ?? new Uint8Array();
    const contentType = sniffImageType(bytes);
    if (!contentType) {
      await this.delete(key);
      return null;
    }
    if (storedType !== contentType || cacheControl !== AVATAR_CACHE_CONTROL) {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.config.bucket,
          Key: key,
          CopySource: `${this.config.bucket}/${key}`,
          MetadataDirective: 'REPLACE',
          ContentType: contentType,
          CacheControl: AVATAR_CACHE_CONTROL,
        }),
      );
    }
    return { key, contentType, size };
  }

  publicUrl(key: string): string {
    return `${this.publicBase}${key}`;
  }

  keyOfPublicUrl(url: string): string | null {
    if (!url.startsWith(this.publicBase)) return null;
    const key = url.slice(this.publicBase.length);
    return isAvatarKey(key) ? key : null;
  }

  async delete(key: string): Promise<void> {
    if (!isAvatarKey(key)) return;
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: key }));
    } catch (error) {
      if (isNotFound(error)) return;
      this.logger.warn(`Could not delete ${key}: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
  }
}
