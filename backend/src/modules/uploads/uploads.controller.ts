import { Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { API, type UploadTicket } from '@termpaste/contracts';
import { CurrentUser } from '../auth/guards/current-user.decorator.js';
import { WriterGuard } from '../auth/guards/writer.guard.js';
import { RateLimited } from '../auth/rate-limit.guard.js';
import type { User } from '../users/entities/user.entity.js';
import { UploadsService } from './uploads.service.js';

/** Upload forms for members: signed in (else 401) and not banned (else 403). */
@Controller()
@UseGuards(WriterGuard)
export class UploadsController {
  constructor(private readonly uploads: UploadsService) {}

  /** A presigned form to upload a new avatar file with (contracts' uploadTicketSchema). */
  @Post(API.objectsUpload)
  @HttpCode(200)
  @RateLimited('upload')
  ticket(@CurrentUser() user: User): Promise<UploadTicket> {
    return this.uploads.ticket(user.id);
  }
}
