import { Controller, Delete, Get, Header, HttpCode, Param, Query, UseGuards } from '@nestjs/common';
import {
  API,
  type CursorQuery,
  cursorQuerySchema,
  MODERATION_MESSAGES,
  type SpamMarksPage,
} from '@termpaste/contracts';
import { CurrentUser } from '../auth/guards/current-user.decorator.js';
import { parseId } from '../../common/parse-id.js';
import { AdminGuard } from '../auth/guards/writer.guard.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import type { User } from '../users/entities/user.entity.js';
import { SpamMarksService } from '../screening/spam-marks.service.js';

/**
 * The spam marks delete spammer remembered, for staff to see and forget (admins only: 401 signed out
 * or banned, 403 for members and personal access tokens).
 */
@Controller()
@UseGuards(AdminGuard)
export class SpamMarksController {
  constructor(private readonly marks: SpamMarksService) {}

  @Get(API.adminSpamMarks)
  @Header('Cache-Control', 'no-store')
  page(@Query(new ZodValidationPipe(cursorQuerySchema)) { cursor }: CursorQuery): Promise<SpamMarksPage> {
    return this.marks.page(cursor);
  }

  @Delete(API.adminSpamMark(':id'))
  @HttpCode(204)
  async forget(@CurrentUser() actor: User, @Param('id') id: string): Promise<void> {
    await this.marks.forget(actor, parseId(id, MODERATION_MESSAGES.spamMarkNotFound));
  }
}
