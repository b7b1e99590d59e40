/**
 * The storage port: where uploaded files (avatars) live. Two adapters implement it: local disk under
 * `$DATA_DIR/uploads` with presigned (HMAC, expiring) PUT addresses served by the backend, and an
 * S3-compatible bucket presigned by the AWS SDK when S3_BUCKET is set.
 */
export interface PresignedUpload {
  /** Where the browser PUTs the file. */
  uploadURL: string;
  /** The object's key (`avatars/<userId>/<random>`). */
  key: string;
}

export interface StoredObject {
  key: string;
  contentType: string;
  size: number;
}

export abstract class StoragePort {
  /** A presigned PUT address for a new object of `userId`, valid for `expiresInSeconds`. */
  abstract presignUpload(userId: number, expiresInSeconds: number): Promise<PresignedUpload>;
  /**
   * The key of an object of ours that `userId` uploaded, from its upload address or public URL; null
   * for anything else (another member's object, an external URL, garbage).
   */
  abstract ownedKey(userId: number, url: string): string | null;
  /** The stored object, once uploaded (its type told by its bytes), or null. */
  abstract stat(key: string): Promise<StoredObject | null>;
  /** The URL the object is served at (what becomes avatarUrl). */
  abstract publicUrl(key: string): string;
  /** The key behind one of our public URLs, or null for a URL that is not ours. */
  abstract keyOfPublicUrl(url: string): string | null;
  /** Removes an object; one that is gone already is fine. */
  abstract delete(key: string): Promise<void>;
}
