import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import {
  DeleteObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { BackupS3Config } from '../../config/backup.js';
import { s3Client } from '../storage/s3-client.js';
import { BACKUP_FILE } from './backup.js';

/** Where in BACKUP_S3_BUCKET the archives go. */
export const BACKUP_S3_PREFIX = 'backups/';

/** The scheduled archives in a bucket (BACKUP_S3_BUCKET): uploaded, listed and pruned. */
export class S3Backups {
  private readonly client: S3Client;

  constructor(private readonly config: BackupS3Config) {
    this.client = s3Client(config);
  }

  /** Uploads `file` as `backups/<its name>`; resolves with the key. */
  async upload(file: string): Promise<string> {
    const key = `${BACKUP_S3_PREFIX}${path.basename(file)}`;
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.config.bucket,
        Key: key,
        // Streamed from disk, never held in memory whole (one PUT: archives up to S3's 5 GB limit).
        Body: createReadStream(file),
        ContentLength: (await stat(file)).size,
        ContentType: 'application/zip',
      }),
    );
    return key;
  }

  /** The archives' keys, oldest first (their names sort by time). */
  async list(): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.config.bucket,
          Prefix: BACKUP_S3_PREFIX,
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key && BACKUP_FILE.test(object.Key.slice(BACKUP_S3_PREFIX.length))) keys.push(object.Key);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }

  /** Deletes the oldest archives past `keep`; resolves with their keys. */
  async prune(keep: number): Promise<string[]> {
    const keys = await this.list();
    const deleted = keys.slice(0, Math.max(0, keys.length - keep));
    for (const key of deleted) {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: key }));
    }
    return deleted;
  }

  destroy(): void {
    this.client.destroy();
  }
}
