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
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import { EdgeCached } from '../../http/edge-cache.js';
import { CurrentUser } from '../auth/guards/current-user.decorator.js';
import { AdminGuard } from '../auth/guards/writer.guard.js';
import type { User } from '../users/entities/user.entity.js';
import { TagsService } from './tags.service.js';

/**
 * Tags by use, a tag's pastes, a language's pastes: open to anyone, listed pastes only, the same for all
 * (a cache in front may share a visitor's).
 */
@Controller()
@UseInterceptors(EdgeCached)
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @Get(API.tags)
  list(@Query(new ZodValidationPipe(tagsQuerySchema)) { q }: TagsQuery): Promise<TagList> {
    return this.tags.list(q);
  }

  @Get(API.tag(':name'))
  page(
    @Param('name') name: string,
    @Query(new ZodValidationPipe(cursorQuerySchema)) { cursor }: CursorQuery,
  ): Promise<TagPage> {
    return this.tags.page(name, cursor);
  }

  @Get(API.language(':name'))
  language(
    @Param('name') name: string,
    @Query(new ZodValidationPipe(cursorQuerySchema)) { cursor }: CursorQuery,
  ): Promise<LanguagePage> {
    return this.tags.language(name, cursor);
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
