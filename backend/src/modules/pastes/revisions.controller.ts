import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req, UseGuards } from '@nestjs/common';
import {
  API,
  type EditedReply,
  type EditedPaste,
  type EditReplyBody,
  editReplySchema,
  type EditPasteBody,
  editPasteSchema,
  LINE_COMMENT_MESSAGES,
  POST_MESSAGES,
  type Revision,
  type RevisionList,
  REVISIONS_MESSAGES,
} from '@termpaste/contracts';
import type { Request } from 'express';
import { CurrentUser, OptionalCurrentUser } from '../auth/guards/current-user.decorator.js';
import { AllowSecrets, refuseSecrets } from '../../common/secrets.js';
import { parseId } from '../../common/parse-id.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { OptionalSessionGuard, SessionGuard } from '../auth/guards/session.guard.js';
import { NoTokens, TokenScope } from '../auth/tokens/token-scope.decorator.js';
import type { User } from '../users/entities/user.entity.js';
import { type Editor, EditsService } from './edits.service.js';
import { pasteLanguage } from './languages.js';
import { checkPasteSize, PasteJsonGuard } from './paste-intake.js';
import { WriteRateLimited } from '../auth/write-limits.js';
import { RevisionsService } from './revisions.service.js';
import { pasteRefParam } from './visibility.js';

const replyId = (raw: string) => parseId(raw, POST_MESSAGES.replyNotFound);
const versionNumber = (raw: string) => parseId(raw, REVISIONS_MESSAGES.revisionNotFound);

/** The member editing, with an admin's powers only in a session (an access token never carries them). */
function editorOf(req: Request, user: User): Editor {
  return { id: user.id, username: user.username, isAdmin: user.isAdmin && req.accessToken === undefined };
}

/**
 * Edits with history: `PATCH` a paste or a reply (its author or an admin, a member who may
 * write: WriterGuard), and the versions each edit keeps, open to anyone who may read the post.
 */
@Controller()
export class RevisionsController {
  constructor(
    private readonly edits: EditsService,
    private readonly revisions: RevisionsService,
    @InjectConfig() private readonly config: Pick<AppConfig, 'pasteMaxBytes'>,
  ) {}

  /**
   * A new paste's rules (the JSON read by PasteJsonGuard after the write limits): content at most
   * PASTE_MAX_BYTES (413), a known language (400), a secret a 422 unless `allowSecrets`.
   */
  @Patch(API.thread(':id'))
  @WriteRateLimited('edit', PasteJsonGuard)
  @TokenScope('pastes:write')
  async editPaste(
    @Req() req: Request,
    @CurrentUser() user: User,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(editPasteSchema)) body: EditPasteBody,
    @AllowSecrets() allowSecrets: boolean,
  ): Promise<EditedPaste> {
    const paste = pasteRefParam(id);
    if (body.content !== undefined) checkPasteSize(body.content, this.config.pasteMaxBytes);
    const language = body.language === undefined ? undefined : pasteLanguage(body.language);
    if (body.content !== undefined) await refuseSecrets(body.content, allowSecrets);
    return this.edits.editPaste(editorOf(req, user), paste, {
      title: body.title,
      content: body.content,
      language,
      // burnAfterReading cannot change once posted.
      visibility: body.visibility,
      expiresIn: body.expiresIn,
      tags: body.tags,
      signature: body.signature,
    });
  }

  @Patch(API.reply(':id'))
  @WriteRateLimited('edit')
  async editReply(
    @Req() req: Request,
    @CurrentUser() user: User,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(editReplySchema)) body: EditReplyBody,
    @AllowSecrets() allowSecrets: boolean,
  ): Promise<EditedReply> {
    const reply = replyId(id);
    await refuseSecrets(body.content, allowSecrets);
    return this.edits.editReply(editorOf(req, user), reply, body.content);
  }

  /**
   * The paste's author applies a line comment's suggestion (line-comments.ts): a new version through the
   * edit path, counted as an edit (429), crediting the suggester; the new text at most PASTE_MAX_BYTES.
   */
  @Post(API.threadSuggestionApply(':id', ':replyId'))
  @WriteRateLimited('edit')
  @TokenScope('pastes:write')
  @HttpCode(200)
  applySuggestion(
    @Req() req: Request,
    @CurrentUser() user: User,
    @Param('id') id: string,
    @Param('replyId') reply: string,
  ): Promise<EditedPaste> {
    const paste = pasteRefParam(id);
    const comment = parseId(reply, LINE_COMMENT_MESSAGES.commentNotFound);
    return this.edits.applySuggestion(editorOf(req, user), paste, comment, (content) =>
      checkPasteSize(content, this.config.pasteMaxBytes),
    );
  }

  @Get(API.threadRevisions(':id'))
  @UseGuards(OptionalSessionGuard)
  pasteRevisions(@Param('id') id: string, @OptionalCurrentUser() viewer: User | null): Promise<RevisionList> {
    return this.revisions.pasteRevisions(pasteRefParam(id), viewer?.id ?? null);
  }

  @Get(API.threadRevision(':id', ':n'))
  @UseGuards(OptionalSessionGuard)
  pasteRevision(
    @Param('id') id: string,
    @Param('n') n: string,
    @OptionalCurrentUser() viewer: User | null,
  ): Promise<Revision> {
    return this.revisions.pasteRevision(pasteRefParam(id), versionNumber(n), viewer?.id ?? null);
  }

  @Get(API.replyRevisions(':id'))
  @UseGuards(OptionalSessionGuard)
  replyRevisions(@Param('id') id: string, @OptionalCurrentUser() viewer: User | null): Promise<RevisionList> {
    return this.revisions.replyRevisions(replyId(id), viewer?.id ?? null);
  }

  @Get(API.replyRevision(':id', ':n'))
  @UseGuards(OptionalSessionGuard)
  replyRevision(
    @Param('id') id: string,
    @Param('n') n: string,
    @OptionalCurrentUser() viewer: User | null,
  ): Promise<Revision> {
    return this.revisions.replyRevision(replyId(id), versionNumber(n), viewer?.id ?? null);
  }

  /**
   * Removes a version (a secret edited out, say): its author or an admin, signed in on the site (no
   * access token: removing history is no script's business), 204.
   */
  @Delete(API.threadRevision(':id', ':n'))
  @NoTokens()
  @UseGuards(SessionGuard)
  @HttpCode(204)
  async purgePasteRevision(
    @Req() req: Request,
    @CurrentUser() user: User,
    @Param('id') id: string,
    @Param('n') n: string,
  ): Promise<void> {
    await this.revisions.purgePasteRevision(editorOf(req, user), pasteRefParam(id), versionNumber(n));
  }

  @Delete(API.replyRevision(':id', ':n'))
  @NoTokens()
  @UseGuards(SessionGuard)
  @HttpCode(204)
  async purgeReplyRevision(
    @Req() req: Request,
    @CurrentUser() user: User,
    @Param('id') id: string,
    @Param('n') n: string,
  ): Promise<void> {
    await this.revisions.purgeReplyRevision(editorOf(req, user), replyId(id), versionNumber(n));
  }
}
