import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { Readable } from 'node:stream';
import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Logger,
  PayloadTooLargeException,
  ServiceUnavailableException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { LIMITS, SETTINGS_MESSAGES } from '@termpaste/contracts';
import { bucketBaseUrl, type S3StorageConfig } from './s3-address.js';
import { s3Client } from './s3-client.js';
import {
  AVATAR_CACHE_CONTROL,
  isAvatarKey,
  isExportKey,
  isObjectKey,
  isPendingKey,
  keyUnder,
  newAvatarKey,
  newPendingKey,
  objectKeyOwner,
  PENDING_CONTENT_TYPE,
  SNIFF_BYTES,
  sniffImageType,
} from './object-keys.js';
import { type PresignedUpload, StoragePort, type StoredObject } from './storage.port.js';
import { UPLOAD_ALREADY_DONE } from './local.storage.js';
import { UPLOAD_INTERRUPTED } from './upload-form.js';

/** The 503 message when the bucket cannot be asked (unreachable, refusing our credentials). */
export const STORAGE_UNAVAILABLE = 'Avatar storage is unavailable; try again later';

export { bucketBaseUrl, type S3StorageConfig } from './s3-address.js';

function isNotFound(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return error.$metadata.httpStatusCode === 404 || error.name === 'NotFound' || error.name === 'NoSuchKey';
}

/** The object changed since it was checked (a new upload with the same form meanwhile). */
function isChanged(error: unknown): boolean {
  return error instanceof S3ServiceException && error.$metadata.httpStatusCode === 412;
}

/** A conditional write raced another one to the same key. */
function isConflict(error: unknown): boolean {
  return error instanceof S3ServiceException && error.$metadata.httpStatusCode === 409;
}

/**
 * Avatars in an S3-compatible bucket: the browser POSTs to the bucket under a presigned policy (one
 * pending key, at most 10 MB, a harmless Content-Type). A policy cannot be revoked, so a claim checks
 * the object and copies it (if unchanged) to a fresh `avatars/` key. Why each step: docs/backend.md.
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
    this.client = client ?? s3Client(config);
    this.bucketBase = bucketBaseUrl(config);
    this.publicBase = config.publicUrl ? `${config.publicUrl}/` : this.bucketBase;
  }

  async presignUpload(userId: number, expiresInSeconds: number): Promise<PresignedUpload> {
    const key = newPendingKey(userId);
    const { url, fields } = await createPresignedPost(this.client, {
      Bucket: this.config.bucket,
      Key: key,
      Conditions: [
        ['content-length-range', 1, LIMITS.avatarMaxBytes],
        ['eq', '$Content-Type', PENDING_CONTENT_TYPE],
      ],
      Fields: { 'Content-Type': PENDING_CONTENT_TYPE },
      Expires: expiresInSeconds,
    });
    return { key, ticket: { uploadURL: url, method: 'POST', fields, objectURL: `${this.bucketBase}${key}` } };
  }

  /**
   * Streams a presigned PUT's body into the bucket as it arrives, once its first bytes show an image: a
   * PutObject of exactly `size` bytes (S3 stores all of them or nothing), as PENDING_CONTENT_TYPE, only
   * if the key holds nothing (`If-None-Match: *`, else 409).
   */
  async put(key: string, source: Readable, size: number): Promise<StoredObject> {
    if (!isPendingKey(key)) throw new ForbiddenException(SETTINGS_MESSAGES.uploadInvalid);
    if (size > LIMITS.avatarMaxBytes) throw new PayloadTooLargeException(SETTINGS_MESSAGES.uploadTooLarge);
    // A client that goes away midway aborts the PutObject: S3 would otherwise wait for the bytes promised.
    const abort = new AbortController();
    const cut = () => {
      if (!source.readableEnded) abort.abort();
    };
    source.on('error', cut);
    source.on('close', cut);
    try {
      const chunks = source.iterator({ destroyOnReturn: false }) as AsyncIterableIterator<Buffer>;
      let head = Buffer.alloc(0);
      try {
        while (head.length < Math.min(SNIFF_BYTES, size)) {
          const next = await chunks.next();
          if (next.done) break;
          head = Buffer.concat([head, next.value]);
        }
      } catch {
        throw new BadRequestException(UPLOAD_INTERRUPTED);
      }
      const contentType = sniffImageType(head.subarray(0, SNIFF_BYTES));
      if (!contentType) throw new UnsupportedMediaTypeException(SETTINGS_MESSAGES.uploadNotImage);
      const body = Readable.from(
        (async function* () {
          yield head;
          yield* { [Symbol.asyncIterator]: () => chunks };
        })(),
        { objectMode: false },
      );
      body.on('error', () => undefined); // reported through the aborted PutObject
      try {
        await this.client.send(
          new PutObjectCommand({
            Bucket: this.config.bucket,
            Key: key,
            Body: body,
            ContentLength: size,
            ContentType: PENDING_CONTENT_TYPE,
            IfNoneMatch: '*',
          }),
          { abortSignal: abort.signal },
        );
      } catch (error) {
        body.destroy();
        if (abort.signal.aborted) throw new BadRequestException(UPLOAD_INTERRUPTED);
        if (isChanged(error) || isConflict(error)) throw new ConflictException(UPLOAD_ALREADY_DONE);
        this.logger.warn(`Storing ${key} failed: ${error instanceof Error ? error.message : String(error)}`);
        throw new ServiceUnavailableException(STORAGE_UNAVAILABLE);
      }
      return { key, contentType, size };
    } finally {
      source.off('error', cut);
      source.off('close', cut);
    }
  }

  ownedKey(userId: number, url: string): string | null {
    const key = keyUnder(url, [this.publicBase, this.bucketBase]);
    return key !== null && objectKeyOwner(key) === userId ? key : null;
  }

  async claim(key: string): Promise<StoredObject | null> {
    if (!isObjectKey(key)) return null;
    try {
      return await this.copyToAvatar(key);
    } catch (error) {
      this.logger.warn(`Claiming ${key} failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new ServiceUnavailableException(STORAGE_UNAVAILABLE);
    }
  }

  private async copyToAvatar(key: string): Promise<StoredObject | null> {
    const { bucket } = this.config;
    let size: number;
    let etag: string | undefined;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      size = head.ContentLength ?? 0;
      etag = head.ETag;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
    if (size > LIMITS.avatarMaxBytes || size === 0 || !etag) {
      await this.delete(key);
      return null;
    }
    const avatar = newAvatarKey(objectKeyOwner(key)!);
    let contentType: ReturnType<typeof sniffImageType>;
    try {
      const first = await this.client.send(
        new GetObjectCommand({
          Bucket: bucket,
          Key: key,
          Range: `bytes=0-${SNIFF_BYTES - 1}`,
          IfMatch: etag,
        }),
      );
      contentType = sniffImageType((await first.Body?.transformToByteArray()) ?? new Uint8Array());
      if (!contentType) {
        await this.delete(key);
        return null;
      }
      await this.client.send(
        new CopyObjectCommand({
          Bucket: bucket,
          Key: avatar,
          CopySource: `${bucket}/${key}`,
          CopySourceIfMatch: etag,
          MetadataDirective: 'REPLACE',
          ContentType: contentType,
          CacheControl: AVATAR_CACHE_CONTROL,
        }),
      );
    } catch (error) {
      // Replaced or removed since the HeadObject: what was checked is no longer there to copy.
      if (isChanged(error) || isNotFound(error)) return null;
      throw error;
    }
    // Left behind only if this fails: its pending_uploads row stays, so the uploads sweep removes it.
    await this.delete(key).catch(() => undefined);
    return { key: avatar, contentType, size };
  }

  publicUrl(key: string): string {
    return `${this.publicBase}${key}`;
  }

  keyOfPublicUrl(url: string): string | null {
    if (!url.startsWith(this.publicBase)) return null;
    const key = url.slice(this.publicBase.length);
    return isAvatarKey(key) ? key : null;
  }

  async putPrivate(key: string, body: Buffer, contentType: string): Promise<void> {
    if (!isExportKey(key)) throw new Error(`Not a private object key: ${key}`);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.config.bucket,
        Key: key,
        Body: body,
        ContentLength: body.length,
        ContentType: contentType,
        CacheControl: 'private, no-store',
      }),
    );
  }

  async read(key: string): Promise<Readable | null> {
    if (!isAvatarKey(key) && !isExportKey(key)) return null;
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: key }));
      return (object.Body as Readable | undefined) ?? null;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    if (!isObjectKey(key) && !isExportKey(key)) return;
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: key }));
    } catch (error) {
      if (isNotFound(error)) return;
      this.logger.warn(`Could not delete ${key}: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
  }
}
