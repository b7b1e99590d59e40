import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Req,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import {
  API,
  type CursorQuery,
  cursorQuerySchema,
  type LanguagePage,
  type MergeTagBody,
  mergeTagSchema,
  type RenameTagBody,
  renameTagSchema,
  TAG_ADMIN_MESSAGES,
  type TagList,
  type TagPage,
  type TagsQuery,
  tagsQuerySchema,
} from '@termpaste/contracts';
import type { Request } from 'express';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import { EdgeCached } from '../../http/edge-cache.js';
import { wantsFresh } from '../../http/page-cache.js';
import { ReadDatabase } from '../../infra/database/read-database.js';
import { CurrentUser } from '../auth/guards/current-user.decorator.js';
import { AdminGuard } from '../auth/guards/writer.guard.js';
import type { User } from '../users/entities/user.entity.js';
import { TagsService } from './tags.service.js';

/**
 * Tags by use, a tag's pastes, a language's pastes: open to anyone, listed pastes only, the same for all
 * (a cache in front may share a visitor's). Read on a read replica when one is healthy (they may lag a
 * moment), on the primary for a member who just wrote.
 */
@Controller()
@UseInterceptors(EdgeCached)
export class TagsController {
  constructor(
    private readonly tags: TagsService,
    private readonly reads: ReadDatabase,
  ) {}

  @Get(API.tags)
  list(
    @Query(new ZodValidationPipe(tagsQuerySchema)) { q }: TagsQuery,
    @Req() req: Request,
  ): Promise<TagList> {
    return this.reads.read(() => this.tags.list(q), { primary: wantsFresh(req) });
  }

  @Get(API.tag(':name'))
  page(
    @Param('name') name: string,
    @Query(new ZodValidationPipe(cursorQuerySchema)) { cursor }: CursorQuery,
    @Req() req: Request,
  ): Promise<TagPage> {
    return this.reads.read(() => this.tags.page(name, cursor), { primary: wantsFresh(req) });
  }

  @Get(API.language(':name'))
  language(
    @Param('name') name: string,
    @Query(new ZodValidationPipe(cursorQuerySchema)) { cursor }: CursorQuery,
    @Req() req: Request,
  ): Promise<LanguagePage> {
    return this.reads.read(() => this.tags.language(name, cursor), { primary: wantsFresh(req) });
  }
}

/** The admins' tags: every tag, and rename, merge and delete, each recorded in the audit log. */
@Controller()
@UseGuards(AdminGuard)
export class TagsAdminController {
  constructor(private readonly tags: TagsService) {}

  @Get(API.adminTags)
  list(@Query(new ZodValidationPipe(tagsQuerySchema)) { q }: TagsQuery): Promise<TagList> {
    return this.tags.adminList(q);
  }

  @Patch(API.adminTag(':name'))
  async rename(
    @CurrentUser() admin: User,
    @Param('name') name: string,
    @Body(new ZodValidationPipe(renameTagSchema)) body: RenameTagBody,
  ): Promise<{ message: string }> {
    await this.tags.rename(admin, name, body.name);
    return { message: TAG_ADMIN_MESSAGES.renamed };
  }

  @Post(API.adminTagMerge(':name'))
  @HttpCode(200)
  async merge(
    @CurrentUser() admin: User,
    @Param('name') name: string,
    @Body(new ZodValidationPipe(mergeTagSchema)) body: MergeTagBody,
  ): Promise<{ message: string }> {
    await this.tags.merge(admin, name, body.into);
    return { message: TAG_ADMIN_MESSAGES.merged };
  }

  @Delete(API.adminTag(':name'))
  async remove(@CurrentUser() admin: User, @Param('name') name: string): Promise<{ message: string }> {
    await this.tags.remove(admin, name);
    return { message: TAG_ADMIN_MESSAGES.deleted };
  }
}
