import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { type FileHandle, link, mkdir, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  HttpException,
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { API, type AvatarContentType, LIMITS, SETTINGS_MESSAGES } from '@termpaste/contracts';
import {
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
import { UPLOAD_INTERRUPTED } from './upload-form.js';

/** The 409 message for a second upload to an address (a form: while the first one is there, unclaimed). */
export const UPLOAD_ALREADY_DONE = SETTINGS_MESSAGES.uploadUsed;

/** The signed fields of an upload form, by lowercased name, besides the file. */
export const UPLOAD_FIELDS = ['key', 'content-type', 'expires', 'max', 'signature'] as const;

export interface LocalStorageOptions {
  /** `$DATA_DIR/uploads`. */
  dir: string;
  /** PUBLIC_URL, without a trailing slash. */
  publicUrl: string;
  /** SESSION_SECRET: the signing key is derived from it. */
  secret: string;
}

/** A stored object opened for reading. */
export interface OpenedObject extends StoredObject {
  stream: ReadStream;
}

const DIGITS = /^\d{1,12}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Avatars on local disk under `$DATA_DIR/uploads`. The backend takes the upload itself, as S3 takes a
 * presigned POST: a form signed (HMAC under a key derived from SESSION_SECRET) for one pending key, type,
 * expiry and size. Claiming copies it to a fresh `avatars/` key; only avatars are served. docs/backend.md.
 */
export class LocalStorage extends StoragePort {
  private readonly base: string;
  private readonly signingKey: Buffer;
  private readonly tmpDir: string;

  private readonly formUrl: string;

  constructor(private readonly options: LocalStorageOptions) {
    super();
    this.formUrl = `${options.publicUrl}${API.uploads}`;
    this.base = `${this.formUrl}/`;
    this.signingKey = Buffer.from(
      hkdfSync('sha256', options.secret, 'termpaste', 'termpaste upload address signing', 32),
    );
    this.tmpDir = path.join(options.dir, '.tmp');
  }

  async presignUpload(userId: number, expiresInSeconds: number): Promise<PresignedUpload> {
    const key = newPendingKey(userId);
    const expires = Math.floor(Date.now() / 1000) + expiresInSeconds;
    const max = LIMITS.avatarMaxBytes;
    return {
      key,
      ticket: {
        uploadURL: this.formUrl,
        method: 'POST',
        fields: {
          key,
          'Content-Type': PENDING_CONTENT_TYPE,
          expires: String(expires),
          max: String(max),
          signature: this.sign(key, PENDING_CONTENT_TYPE, expires, max),
        },
        objectURL: `${this.base}${key}`,
      },
    };
  }

  ownedKey(userId: number, url: string): string | null {
    const key = keyUnder(url, [this.base]);
    return key !== null && objectKeyOwner(key) === userId ? key : null;
  }

  async claim(key: string): Promise<StoredObject | null> {
    const owner = objectKeyOwner(key);
    if (owner === null) return null;
    const opened = await this.openFile(key);
    if (!opened) {
      // Not there, or no image (receive keeps none, but a file is checked wherever it came from).
      await this.delete(key);
      return null;
    }
    await opened.handle.close();
    if (opened.object.size > LIMITS.avatarMaxBytes || opened.object.size === 0) {
      await this.delete(key);
      return null;
    }
    const avatar = newAvatarKey(owner);
    await mkdir(path.dirname(this.filePath(avatar)), { recursive: true });
    // A link, not a rename: it never replaces (the new key is unused anyway). Uploads never write into an
    // existing file (receive links a new one in), so the avatar cannot change through the pending key.
    await link(this.filePath(key), this.filePath(avatar));
    await rm(this.filePath(key), { force: true });
    return { ...opened.object, key: avatar };
  }

  publicUrl(key: string): string {
    return `${this.base}${key}`;
  }

  keyOfPublicUrl(url: string): string | null {
    return url.startsWith(this.base) && isAvatarKey(url.slice(this.base.length))
      ? url.slice(this.base.length)
      : null;
  }

  async delete(key: string): Promise<void> {
    if (!isObjectKey(key) && !isExportKey(key)) return;
    await rm(this.filePath(key), { force: true });
  }

  async putPrivate(key: string, body: Buffer, _contentType: string): Promise<void> {
    if (!isExportKey(key)) throw new Error(`Not a private object key: ${key}`);
    const file = this.filePath(key);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    // Written aside, then renamed: a reader never sees half an archive.
    const tmp = `${file}.${randomBytes(6).toString('hex')}.part`;
    await writeFile(tmp, body, { mode: 0o600 });
    await rename(tmp, file);
  }

  async read(key: string): Promise<Readable | null> {
    if (!isAvatarKey(key) && !isExportKey(key)) return null;
    const file = this.filePath(key);
    const there = await stat(file).then(
      (info) => info.isFile(),
      () => false,
    );
    return there ? createReadStream(file) : null;
  }

  /**
   * Checks the fields of an upload form (lowercased names): 403 `Invalid upload address` unless they are
   * exactly the signed ones and the signature is ours for this pending key, Content-Type, expiry and
   * limit, then 403 `Request has expired` past its expiry. Returns the key and the byte limit.
   */
  verifyUpload(fields: ReadonlyMap<string, string>): { key: string; maxBytes: number } {
    const [key, contentType, expires, max, signature] = UPLOAD_FIELDS.map((name) => fields.get(name));
    if (
      fields.size !== UPLOAD_FIELDS.length ||
      key === undefined ||
      contentType === undefined ||
      expires === undefined ||
      max === undefined ||
      signature === undefined ||
      !isPendingKey(key) ||
      !DIGITS.test(expires) ||
      !DIGITS.test(max) ||
      !SIGNATURE.test(signature)
    ) {
      throw new ForbiddenException(SETTINGS_MESSAGES.uploadInvalid);
    }
    const expected = Buffer.from(this.sign(key, contentType, Number(expires), Number(max)));
    if (!timingSafeEqual(expected, Buffer.from(signature))) {
      throw new ForbiddenException(SETTINGS_MESSAGES.uploadInvalid);
    }
    if (Number(expires) < Math.floor(Date.now() / 1000)) {
      throw new ForbiddenException(SETTINGS_MESSAGES.uploadExpired);
    }
    return { key, maxBytes: Math.min(Number(max), LIMITS.avatarMaxBytes) };
  }

  /**
   * Streams an upload to a temporary file under the pending `key`: 413 past `maxBytes`, 415 unless PNG,
   * JPEG, GIF or WebP, 409 when the key is taken. Nothing kept on failure; on success it appears whole.
   * The source is never destroyed, so the caller can still answer and drain.
   */
  async receive(key: string, source: Readable, maxBytes: number): Promise<StoredObject> {
    if (!isPendingKey(key)) throw new ForbiddenException(SETTINGS_MESSAGES.uploadInvalid);
    const final = this.filePath(key);
    await mkdir(this.tmpDir, { recursive: true });
    await mkdir(path.dirname(final), { recursive: true });
    const tmp = path.join(this.tmpDir, `${randomBytes(12).toString('hex')}.part`);
    const out = createWriteStream(tmp, { flags: 'wx', mode: 0o644 });
    out.on('error', () => undefined); // reported through the write and end callbacks
    let size = 0;
    let head = Buffer.alloc(0);
    let contentType: AvatarContentType | null = null;
    try {
      for await (const chunk of source.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxBytes) throw new PayloadTooLargeException(SETTINGS_MESSAGES.uploadTooLarge);
        if (contentType === null && head.length < SNIFF_BYTES) {
          head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
          if (head.length >= SNIFF_BYTES) contentType = imageOrThrow(head);
        }
        await new Promise<void>((resolve, reject) =>
          out.write(chunk, (error) => (error ? reject(error) : resolve())),
        );
      }
      contentType ??= imageOrThrow(head);
      await new Promise<void>((resolve, reject) => {
        out.once('error', reject);
        out.end(() => resolve());
      });
    } catch (error) {
      // Closed first: a file still being opened would otherwise appear after the rm.
      out.destroy();
      await finished(out).catch(() => undefined);
      await rm(tmp, { force: true });
      if (error instanceof HttpException) throw error;
      if (isClientAbort(error)) throw new BadRequestException(UPLOAD_INTERRUPTED);
      throw error;
    }
    try {
      // link, unlike rename, never replaces: an object never changes under its key.
      await link(tmp, final);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
        throw new ConflictException(UPLOAD_ALREADY_DONE);
      }
      throw error;
    } finally {
      await rm(tmp, { force: true });
    }
    return { key, contentType, size };
  }

  put(key: string, source: Readable, size: number): Promise<StoredObject> {
    return this.receive(key, source, size);
  }

  /** An avatar to send, with its type told by its bytes; null when there is none (or for an upload). */
  async openObject(key: string): Promise<OpenedObject | null> {
    if (!isAvatarKey(key)) return null;
    const opened = await this.openFile(key);
    if (!opened) return null;
    // The stream closes the file handle when it ends or is destroyed.
    return { ...opened.object, stream: opened.handle.createReadStream({ start: 0 }) };
  }

  private async openFile(key: string): Promise<{ handle: FileHandle; object: StoredObject } | null> {
    if (!isObjectKey(key)) return null;
    let handle: FileHandle;
    try {
      handle = await open(this.filePath(key), 'r');
    } catch (error) {
      if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return null;
      throw error;
    }
    try {
      const info = await handle.stat();
      const head = Buffer.alloc(SNIFF_BYTES);
      const { bytesRead } = info.isFile() ? await handle.read(head, 0, SNIFF_BYTES, 0) : { bytesRead: 0 };
      const contentType = info.isFile() ? sniffImageType(head.subarray(0, bytesRead)) : null;
      if (!contentType) {
        await handle.close();
        return null;
      }
      return { handle, object: { key, contentType, size: info.size } };
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  private filePath(key: string): string {
    // The key was checked against the strict shape of object-keys.ts: letters, digits, `_`, `-`, `/`.
    const file = path.join(this.options.dir, ...key.split('/'));
    const [kind] = key.split('/');
    if (
      (kind !== 'avatars' && kind !== 'pending' && kind !== 'exports') ||
      !file.startsWith(path.join(this.options.dir, kind) + path.sep)
    ) {
      throw new Error(`Object key escapes the uploads folder: ${key}`);
    }
    return file;
  }

  private sign(key: string, contentType: string, expires: number, max: number): string {
    return createHmac('sha256', this.signingKey)
      .update(`POST\n${key}\n${contentType}\n${expires}\n${max}`)
      .digest('base64url');
  }
}

function imageOrThrow(head: Buffer): AvatarContentType {
  const type = sniffImageType(head);
  if (!type) throw new UnsupportedMediaTypeException(SETTINGS_MESSAGES.uploadNotImage);
  return type;
}

function isClientAbort(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return (
    code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || (error as Error)?.message === 'aborted'
  );
}
