import type { Readable } from 'node:stream';
import type { UploadForm } from '@termpaste/contracts';

/**
 * The storage port for uploaded files (avatars): local disk, or an S3-compatible bucket with S3_BUCKET.
 * Both hand out a form signed for one `pending/` key, at most 10 MB and PENDING_CONTENT_TYPE, take
 * presigned PUTs through the backend (`put`), and claim an upload by copying it to a fresh `avatars/` key.
 */
export interface PresignedUpload {
  /** The form (contracts' uploadFormSchema, `url` here `uploadURL`) and the object's address. */
  ticket: {
    uploadURL: string;
    method: UploadForm['method'];
    fields: UploadForm['fields'];
    objectURL: string;
  };
  /** The object's key (`pending/<userId>/<random>`). */
  key: string;
}

export interface StoredObject {
  key: string;
  contentType: string;
  size: number;
}

export abstract class StoragePort {
  /** A presigned upload form for a new pending object of `userId`, valid for `expiresInSeconds`. */
  abstract presignUpload(userId: number, expiresInSeconds: number): Promise<PresignedUpload>;
  /**
   * Stores a presigned PUT's body (signature and size checked by the caller) under the pending `key`: 415
   * unless an image, 409 when the key is taken, 400 when the client stops halfway. Never replaces, never
   * keeps a partial object, never destroys the source (the caller still answers).
   */
  abstract put(key: string, source: Readable, size: number): Promise<StoredObject>;
  /**
   * The key of an object of ours that belongs to `userId` (a pending upload or an avatar), from its
   * object URL or public URL; null for anything else (another member's object, an external URL, garbage).
   */
  abstract ownedKey(userId: number, url: string): string | null;
  /**
   * Makes the pending upload `key` an avatar: null when absent or not an image of at most 10 MB (then
   * deleted); else a copy under a new `avatars/` key, typed by its bytes, so later uploads to the pending
   * key never change it.
   */
  abstract claim(key: string): Promise<StoredObject | null>;
  /** The URL the object is served at (what becomes avatarUrl). */
  abstract publicUrl(key: string): string;
  /** The key behind one of our public URLs, or null for a URL that is not ours. */
  abstract keyOfPublicUrl(url: string): string | null;
  /**
   * Stores a private object the backend itself wrote (an export archive, `exports/` keys only: anything
   * else throws), replacing nothing the member could name. Never served by a public URL.
   */
  abstract putPrivate(key: string, body: Buffer, contentType: string): Promise<void>;
  /** Reads an avatar or an export archive back; null when it is not there (or for any other key). */
  abstract read(key: string): Promise<Readable | null>;
  /** Removes an object (avatars, uploads, export archives); one that is gone already is fine. */
  abstract delete(key: string): Promise<void>;
}
