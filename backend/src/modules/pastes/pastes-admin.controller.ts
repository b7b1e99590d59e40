import { Controller, Delete, Get, Header, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import {
  API,
  type CursorQuery,
  cursorQuerySchema,
  POST_MESSAGES,
  OWN_POSTS_MESSAGES,
  type PasteDetail,
  type PasteFlags,
  type TrashPage,
} from '@termpaste/contracts';
import { CurrentUser } from '../auth/guards/current-user.decorator.js';
import { parseId } from '../../common/parse-id.js';
import { AdminGuard } from '../auth/guards/writer.guard.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import type { User } from '../users/entities/user.entity.js';
import { PasteAdminService } from './paste-admin.service.js';
import { TrashService } from './trash.service.js';
import { pasteRefParam } from './visibility.js';

const threadId = (raw: string) => parseId(raw, POST_MESSAGES.pasteNotFound);
const replyId = (raw: string) => parseId(raw, POST_MESSAGES.replyNotFound);

/** Moderation of pastes and replies: admins only, each action recorded in the audit log. */
@Controller()
@UseGuards(AdminGuard)
export class PastesAdminController {
  constructor(
    private readonly pasteAdmin: PasteAdminService,
    private readonly trash: TrashService,
  ) {}

  /**
   * A paste by its number or key, as staff read it to moderate it (a private one too: recorded in the
   * audit log as 'thread.private_read' unless it is the admin's own). Never kept by any cache.
   */
  @Get(API.adminThread(':id'))
  @Header('Cache-Control', 'private, no-store')
  @Header('X-Robots-Tag', 'noindex')
  read(@CurrentUser() admin: User, @Param('id') id: string): Promise<PasteDetail> {
    return this.pasteAdmin.readPaste(pasteRefParam(id), admin);
  }

  @Post(API.adminThreadPin(':id'))
  @HttpCode(200)
  pin(@CurrentUser() admin: User, @Param('id') id: string): Promise<PasteFlags> {
    return this.pasteAdmin.toggle(threadId(id), 'isPinned', admin);
  }

  @Post(API.adminThreadLock(':id'))
  @HttpCode(200)
  lock(@CurrentUser() admin: User, @Param('id') id: string): Promise<PasteFlags> {
    return this.pasteAdmin.toggle(threadId(id), 'isLocked', admin);
  }

  @Post(API.adminThreadFeatured(':id'))
  @HttpCode(200)
  featured(@CurrentUser() admin: User, @Param('id') id: string): Promise<PasteFlags> {
    return this.pasteAdmin.toggle(threadId(id), 'isFeatured', admin);
  }

  @Delete(API.adminThread(':id'))
  async deletePaste(@CurrentUser() admin: User, @Param('id') id: string): Promise<{ message: string }> {
    await this.pasteAdmin.deletePaste(threadId(id), admin);
    return { message: 'Thread deleted successfully' };
  }

  @Delete(API.adminReply(':id'))
  async deleteReply(@CurrentUser() admin: User, @Param('id') id: string): Promise<{ message: string }> {
    await this.pasteAdmin.deleteReply(replyId(id), admin);
    return { message: 'Reply deleted successfully' };
  }

  /** Deleted pastes and replies of the last TRASH_DAYS days, newest first. */
  @Get(API.adminTrash)
  trashPage(@Query(new ZodValidationPipe(cursorQuerySchema)) { cursor }: CursorQuery): Promise<TrashPage> {
    return this.trash.trash(cursor);
  }

  @Post(API.adminThreadRestore(':id'))
  @HttpCode(200)
  async restorePaste(@CurrentUser() admin: User, @Param('id') id: string): Promise<{ message: string }> {
    await this.trash.restorePaste(parseId(id, OWN_POSTS_MESSAGES.notInTrash), admin);
    return { message: OWN_POSTS_MESSAGES.pasteRestored };
  }

  @Post(API.adminReplyRestore(':id'))
  @HttpCode(200)
  async restoreReply(@CurrentUser() admin: User, @Param('id') id: string): Promise<{ message: string }> {
    await this.trash.restoreReply(parseId(id, OWN_POSTS_MESSAGES.notInTrash), admin);
    return { message: OWN_POSTS_MESSAGES.replyRestored };
  }
}
