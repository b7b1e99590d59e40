import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  UseGuards,
} from '@nestjs/common';
import {
  ADMIN_MESSAGES,
  ADMIN_TEXTS,
  type AdminGradesBody,
  adminGradesSchema,
  type AdminUser,
  type AdminUsersPage,
  adminRoleSchema,
  type AuditAction,
  type AuditPage,
  usernameSchema,
} from '@termpaste/contracts';
import type { z } from 'zod';
import { CurrentUser } from '../../common/current-user.decorator.js';
import { singleQueryValue } from '../../common/keyset-cursor.js';
import { parseId } from '../../common/parse-id.js';
import { AdminGuard } from '../../common/writer.guard.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import type { User } from '../users/entities/user.entity.js';
import { AdminService } from './admin.service.js';
import {
  ADMIN_FILTER_MAX,
  ADMIN_FILTER_TOO_LONG,
  AuditService,
  isAuditAction,
  UNKNOWN_AUDIT_ACTION,
} from './audit.service.js';

const userId = (raw: string) => parseId(raw, ADMIN_MESSAGES.userNotFound);

/** A list filter (`q`): one string, NUL characters dropped (no name holds one), trimmed, at most 64. */
function filterText(raw: unknown): string {
  const text = (singleQueryValue(raw) ?? '').replaceAll('\0', '').trim();
  if (text.length > ADMIN_FILTER_MAX) throw new BadRequestException(ADMIN_FILTER_TOO_LONG);
  return text;
}

/**
 * A new username by registration's rules: blank is 400 `Username cannot be empty` (SPEC §5), any other
 * breach is 400 with that rule's message.
 */
function newUsername(body: unknown): string {
  const raw = (body as { username?: unknown } | null | undefined)?.username;
  if (typeof raw !== 'string' || raw.trim() === '')
    throw new BadRequestException(ADMIN_MESSAGES.usernameEmpty);
  const parsed = usernameSchema.safeParse(raw);
  if (!parsed.success) throw new BadRequestException(parsed.error.issues[0]?.message ?? 'Invalid username');
  return parsed.data;
}

/**
 * The admin panel's calls (SPEC §7, §6 enforced here): the users table, what admins do to accounts, and
 * the audit log. Admins only: 401 signed out or banned, 403 `Admin privileges required` for members.
 */
@Controller('api/admin')
@UseGuards(AdminGuard)
export class AdminController {
  constructor(
    private readonly admin: AdminService,
    private readonly audit: AuditService,
  ) {}

  /** Newest members first, keyset-paged; `q` filters by a part of the username or e-mail. */
  @Get('users')
  users(@Query('q') q: unknown, @Query('cursor') cursor: unknown): Promise<AdminUsersPage> {
    return this.admin.users(filterText(q), singleQueryValue(cursor));
  }

  @Post('users/:id/ban')
  @HttpCode(200)
  ban(@CurrentUser() actor: User, @Param('id') id: string): Promise<AdminUser> {
    return this.admin.ban(actor, userId(id));
  }

  @Post('users/:id/unban')
  @HttpCode(200)
  unban(@CurrentUser() actor: User, @Param('id') id: string): Promise<AdminUser> {
    return this.admin.unban(actor, userId(id));
  }

  @Delete('users/:id')
  async deleteUser(@CurrentUser() actor: User, @Param('id') id: string): Promise<{ message: string }> {
    await this.admin.deleteUser(actor, userId(id));
    return { message: ADMIN_TEXTS.deleted };
  }

  @Put('users/:id/username')
  rename(@CurrentUser() actor: User, @Param('id') id: string, @Body() body: unknown): Promise<AdminUser> {
    const target = userId(id);
    return this.admin.rename(actor, target, newUsername(body));
  }

  @Delete('users/:id/avatar')
  deleteAvatar(@CurrentUser() actor: User, @Param('id') id: string): Promise<AdminUser> {
    return this.admin.deleteAvatar(actor, userId(id));
  }

  /** The VIP grades the member owns (beyond the spec: there is no payment flow, admins grant them). */
  @Put('users/:id/grades')
  grades(
    @CurrentUser() actor: User,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(adminGradesSchema)) body: AdminGradesBody,
  ): Promise<AdminUser> {
    return this.admin.setGrades(actor, userId(id), body.grades);
  }

  /** Grants or revokes admin: the owner only (beyond the spec). */
  @Put('users/:id/admin')
  role(
    @CurrentUser() actor: User,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(adminRoleSchema)) body: z.infer<typeof adminRoleSchema>,
  ): Promise<AdminUser> {
    return this.admin.setAdmin(actor, userId(id), body.isAdmin);
  }

  /** The staff action log, newest first, keyset-paged; filtered by action and by a part of a name. */
  @Get('audit')
  auditLog(
    @Query('action') action: unknown,
    @Query('q') q: unknown,
    @Query('cursor') cursor: unknown,
  ): Promise<AuditPage> {
    let only: AuditAction | undefined;
    if (action !== undefined && action !== '') {
      if (typeof action !== 'string' || !isAuditAction(action))
        throw new BadRequestException(UNKNOWN_AUDIT_ACTION);
      only = action;
    }
    return this.audit.page({
      action: only,
      q: filterText(q),
      cursor: singleQueryValue(cursor),
    });
  }
}
