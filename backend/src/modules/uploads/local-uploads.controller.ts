import { pipeline } from 'node:stream/promises';
import { Controller, Get, NotFoundException, PayloadTooLargeException, Post, Req, Res } from '@nestjs/common';
import { API, LIMITS, SETTINGS_MESSAGES } from '@termpaste/contracts';
import type { Request, Response } from 'express';
import { SignedRequest } from '../../common/signed-request.js';
import { AVATAR_CACHE_CONTROL } from '../../infra/storage/object-keys.js';
import { LocalStorage } from '../../infra/storage/local.storage.js';
import { readUploadForm } from '../../infra/storage/upload-form.js';

export const FILE_NOT_FOUND = 'File not found';

const PREFIX = `${API.uploads}/`;

/** What an upload form may carry besides the file: its signed fields and their multipart framing. */
export const UPLOAD_FORM_OVERHEAD_BYTES = 16 * 1024;

/** The object key a request names: its raw (undecoded) path after `/api/uploads/`, checked later. */
export function requestedKey(req: Request): string {
  return req.path.startsWith(PREFIX) ? req.path.slice(PREFIX.length) : '';
}

/**
 * After a refused upload: reads and drops what the client still sends, so it gets to read our answer,
 * but no more than one avatar's worth; past that the connection is cut.
 */
export function discardRest(req: Request): void {
  if (req.complete || req.destroyed) return;
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LIMITS.avatarMaxBytes) req.socket.destroy();
  });
  req.on('error', () => undefined);
  req.resume();
}

/**
 * The local storage adapter's own HTTP side: presigned upload forms (the signature is the authorization:
 * no session, and no Origin or Referer, so a script or curl can upload as to S3) and the avatars. No body
 * parser runs on these paths (see app.ts): the file streams straight to disk.
 */
@Controller()
export class LocalUploadsController {
  constructor(private readonly storage: LocalStorage) {}

  /**
   * A presigned upload form (LocalStorage): 413 over the limit, 400 no form or file, 403 not as signed or
   * expired, 409 while an unclaimed upload holds the key, 415 unless an image; 204, as S3 answers.
   */
  @Post(API.uploads)
  @SignedRequest()
  async upload(@Req() req: Request, @Res() res: Response): Promise<void> {
    try {
      const declared = req.headers['content-length'];
      if (declared !== undefined && Number(declared) > LIMITS.avatarMaxBytes + UPLOAD_FORM_OVERHEAD_BYTES) {
        throw new PayloadTooLargeException(SETTINGS_MESSAGES.uploadTooLarge);
      }
      await readUploadForm(req, async (fields, file) => {
        const { key, maxBytes } = this.storage.verifyUpload(fields);
        await this.storage.receive(key, file, maxBytes);
      });
    } catch (error) {
      discardRest(req);
      throw error;
    }
    res.status(204).end();
  }

  /** An avatar with the type its bytes tell, never sniffed further by the browser; else 404. */
  @Get(API.upload('*key'))
  async download(@Req() req: Request, @Res() res: Response): Promise<void> {
    const object = await this.storage.openObject(requestedKey(req));
    if (!object) throw new NotFoundException(FILE_NOT_FOUND);
    res.setHeader('Content-Type', object.contentType);
    res.setHeader('Content-Length', String(object.size));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', AVATAR_CACHE_CONTROL);
    res.setHeader('Content-Security-Policy', "default-src 'none'");
    if (req.method === 'HEAD') {
      object.stream.destroy();
      res.end();
      return;
    }
    // A client that goes away midway ends the copy; the file handle closes with the stream.
    await pipeline(object.stream, res).catch(() => undefined);
  }
}
