import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Logger,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  ACCOUNT_MESSAGES,
  API,
  type DeleteAccountBody,
  deleteAccountSchema,
  type DeleteConfirmBody,
  deleteConfirmSchema,
  type ExportDownloadQuery,
  exportDownloadQuerySchema,
  type ExportStatusBody,
} from '@termpaste/contracts';
import type { Request, Response } from 'express';
import { CurrentUser } from '../auth/guards/current-user.decorator.js';
import { parseId } from '../../common/parse-id.js';
import { SessionGuard } from '../auth/guards/session.guard.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { SignedInRateLimited } from '../auth/rate-limit.guard.js';
import { SESSION_COOKIE, sessionCookieOptions } from '../auth/session.middleware.js';
import { signOut } from '../auth/sign-in.js';
import { NoTokens } from '../auth/tokens/token-scope.decorator.js';
import type { User } from '../users/entities/user.entity.js';
import { AccountService } from './account.service.js';
import { ExportsService } from './exports.service.js';

/**
 * The member's own account: their data export and leaving. Session only: a personal access token can
 * neither export nor delete the account (403), whatever its scopes.
 */
@Controller()
@NoTokens()
export class AccountController {
  private readonly logger = new Logger('Account');

  constructor(
    private readonly account: AccountService,
    private readonly exports: ExportsService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** 202 `{status: 'queued'}`; 429 with Retry-After within a day of the last export. */
  @Post(API.userExport)
  @HttpCode(202)
  @UseGuards(SessionGuard)
  async requestExport(
    @CurrentUser() user: User,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ status: string }> {
    const status = await this.exports.request(user.id, (seconds) =>
      res.setHeader('Retry-After', String(seconds)),
    );
    return { status };
  }

  @Get(API.userExport)
  @UseGuards(SessionGuard)
  exportStatus(@CurrentUser() user: User): Promise<ExportStatusBody> {
    return this.exports.status(user.id);
  }

  /** The archive, by its signed link, for its member's session only (404 for anyone else, 410 once expired). */
  @Get(API.userExportDownload(':id'))
  @UseGuards(SessionGuard)
  async download(
    @CurrentUser() user: User,
    @Param('id') id: string,
    @Query(new ZodValidationPipe(exportDownloadQuerySchema)) { expires, signature }: ExportDownloadQuery,
    @Res() res: Response,
  ): Promise<void> {
    const exportId = parseId(id, ACCOUNT_MESSAGES.exportNotFound);
    const { stream, requestedAt } = await this.exports.open(user.id, exportId, expires, signature);
    const day = requestedAt.toISOString().slice(0, 10);
    res.setHeader('Content-Type', 'application/zip');
    res.setHeader('Content-Disposition', `attachment; filename="termpaste-${user.username}-${day}.zip"`);
    res.setHeader('Cache-Control', 'private, no-store');
    stream.on('error', (error) => {
      this.logger.warn(`Export ${exportId} download failed: ${error.message}`);
      res.destroy(error);
    });
    stream.pipe(res);
  }

  /**
   * 204 once the account is deleted (its session ended, cookie cleared, sockets closed); 202 with a
   * message for a member without a password, who confirms by the mailed link.
   */
  @Delete(API.userAccount)
  @SignedInRateLimited('delete-account')
  async deleteOwn(
    @CurrentUser() user: User,
    @Body(new ZodValidationPipe(deleteAccountSchema)) body: DeleteAccountBody,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ message: string } | undefined> {
    const outcome = await this.account.deleteOwn(user, body.password, body.keepContent);
    if (outcome === 'mailed') {
      res.status(202);
      return { message: ACCOUNT_MESSAGES.deleteLinkSent };
    }
    await this.endSession(req, res);
    res.status(204);
    return undefined;
  }

  /** The mailed link's page: 204 once the account is deleted; 400 for a used, expired or unknown link. */
  @Post(API.userDeleteConfirm)
  @HttpCode(204)
  async confirmDelete(
    @Body(new ZodValidationPipe(deleteConfirmSchema)) body: DeleteConfirmBody,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    await this.account.confirm(body.token);
    await this.endSession(req, res);
  }

  /** The session row went with the account; the browser's cookie goes too. */
  private async endSession(req: Request, res: Response): Promise<void> {
    await signOut(req).catch(() => undefined);
    res.clearCookie(SESSION_COOKIE, sessionCookieOptions(this.config));
  }
}
