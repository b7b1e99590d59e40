import { pipeline } from 'node:stream/promises';
import {
  Controller,
  Get,
  NotFoundException,
  PayloadTooLargeException,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { API, LIMITS, SETTINGS_MESSAGES } from '@termpaste/contracts';
import type { Request, Response } from 'express';
import { AVATAR_CACHE_CONTROL } from './object-keys.js';
import { LocalStorage, type UploadQuery } from './local.storage.js';

export const FILE_NOT_FOUND = 'File not found';

const PREFIX = `${API.uploads}/`;

/** The object key a request names: its raw (undecoded) path after `/api/uploads/`, checked later. */
function requestedKey(req: Request): string {
  return req.path.startsWith(PREFIX) ? req.path.slice(PREFIX.length) : '';
}

/**
 * After a refused upload: reads and drops what the client still sends, so it gets to read our answer,
 * but no more than one avatar's worth; past that the connection is cut.
 */
function discardRest(req: Request): void {
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
 * The local storage adapter's own HTTP side: presigned PUTs (the signature is the authorization, no
 * session needed) and the stored files. No JSON body parser runs on these paths (see app.ts): the body
 * streams straight to disk.
 */
@Controller()
export class LocalUploadsController {
  constructor(private readonly storage: LocalStorage) {}

  /**
   * 403 for a bad signature or an expired address, 413 over the signed limit (by Content-Length up front,
   * and by counting while streaming), 415 unless the bytes are a PNG, JPEG, GIF or WebP; 200, empty.
   */
  @Put(`${PREFIX.slice(1)}*key`)
  async upload(@Req() req: Request, @Res() res: Response, @Query() query: UploadQuery): Promise<void> {
    try {
      const key = requestedKey(req);
      const { maxBytes } = this.storage.verifyUpload(key, query);
      const declared = req.headers['content-length'];
      if (declared !== undefined && Number(declared) > maxBytes) {
        throw new PayloadTooLargeException(SETTINGS_MESSAGES.uploadTooLarge);
      }
      await this.storage.receive(key, req, maxBytes);
    } catch (error) {
      discardRest(req);
      throw error;
    }
    res.status(200).end();
  }

  /** A stored object with the type its bytes tell, never sniffed further by the browser; else 404. */
  @Get(`${PREFIX.slice(1)}*key`)
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
