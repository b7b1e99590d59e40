import type { Readable } from 'node:stream';
import type { UploadForm } from '@termpaste/contracts';

/**
 * The storage port: where uploaded files (avatars) live. Besides the forms, both take the presigned PUTs
 * the backend receives itself (`put`). Two adapters implement it: local disk under
 * `$DATA_DIR/uploads`, whose presigned (HMAC, expiring) upload forms the backend takes itself, and an
 * S3-compatible bucket with presigned POST policies when S3_BUCKET is set. Both hand out the same
 * ticket: a form to POST, signed for one `pending/` key, a size of at most 10 MB and the Content-Type
 * PENDING_CONTENT_TYPE. Claiming an upload copies it to a fresh `avatars/` key no form is signed for.
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
   * Stores the body of a presigned PUT (checked by the caller: its signature, and `size`, its
   * Content-Length, at most 10 MB) under the pending `key`, as PENDING_CONTENT_TYPE: 415 unless its first
   * bytes are a PNG, JPEG, GIF or WebP (nothing stored), 409 when the key holds an object already, 400
   * when the client stops sending halfway. Never replaces an object; nothing partial is ever kept. The
   * source is never destroyed, so the caller can still answer.
   */
  abstract put(key: string, source: Readable, size: number): Promise<StoredObject>;
  /**
   * The key of an object of ours that belongs to `userId` (a pending upload or an avatar), from its
   * object URL or public URL; null for anything else (another member's object, an external URL, garbage).
   */
  abstract ownedKey(userId: number, url: string): string | null;
  /**
   * Makes the pending upload `key` an avatar: null when it is not there, or is no image of at most
   * 10 MB (then it is deleted). Otherwise copies it to a new `avatars/` key of the same member, stored
   * with the type its bytes tell and long cache headers, deletes the pending object, and returns the
   * copy. Whatever is uploaded to the pending key later never changes the copy.
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
