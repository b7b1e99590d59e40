import {
  Controller,
  HttpException,
  HttpStatus,
  PayloadTooLargeException,
  Put,
  Query,
  Req,
  Res,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import {
  API,
  AVATAR_CONTENT_TYPES,
  LIMITS,
  SETTINGS_MESSAGES,
  type UploadAddressQuery,
  uploadAddressQuerySchema,
} from '@termpaste/contracts';
import type { Request, Response } from 'express';
import { SignedRequest } from '../../common/signed-request.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import { discardRest, requestedKey } from './local-uploads.controller.js';
import { UploadsService } from './uploads.service.js';

/**
 * The Content-Types a PUT may declare: none, the generic one, or an avatar's (what a browser sends for
 * the file). The bytes decide the type anyway; a declared HTML, SVG or form is refused before reading.
 */
const PUT_CONTENT_TYPES: ReadonlySet<string> = new Set(['application/octet-stream', ...AVATAR_CONTENT_TYPES]);

/**
 * Presigned PUT addresses, whatever the storage: the signature is the authorization (no session or
 * Origin, as with S3). No body parser runs here (app.ts): the file streams into the storage.
 */
@Controller()
export class UploadAddressController {
  constructor(private readonly uploads: UploadsService) {}

  /**
   * Before reading the body: 403 not as signed or expired, 415 not an image type, 411 no Content-Length,
   * 413 over 10 MB; then 409 if the address was used, then the storage's answer; 200, empty, as S3 answers.
   */
  @Put(API.upload('*key'))
  @SignedRequest()
  async put(
    @Req() req: Request,
    @Res() res: Response,
    @Query(new ZodValidationPipe(uploadAddressQuerySchema)) query: UploadAddressQuery,
  ): Promise<void> {
    // A client going away is seen by the storage as its body stopping short, never thrown from here.
    req.on('error', () => undefined);
    try {
      const key = requestedKey(req);
      const search = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
      this.uploads.addresses.verify(key, query, [...new URLSearchParams(search).keys()]);
      const type = req.headers['content-type']?.split(';')[0]!.trim().toLowerCase();
      if (type !== undefined && type !== '' && !PUT_CONTENT_TYPES.has(type)) {
        throw new UnsupportedMediaTypeException(SETTINGS_MESSAGES.uploadNotImage);
      }
      const declared = req.headers['content-length'];
      if (declared === undefined || !/^\d{1,12}$/.test(declared)) {
        throw new HttpException(SETTINGS_MESSAGES.uploadLengthRequired, HttpStatus.LENGTH_REQUIRED);
      }
      const size = Number(declared);
      if (size > LIMITS.avatarMaxBytes) throw new PayloadTooLargeException(SETTINGS_MESSAGES.uploadTooLarge);
      await this.uploads.put(key, req, size);
    } catch (error) {
      discardRest(req);
      throw error;
    }
    res.status(200).end();
  }
}
