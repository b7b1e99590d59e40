import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  Get,
  Param,
  Put,
  Query,
  UseGuards,
} from '@nestjs/common';
import {
  ADMIN_MESSAGES,
  ADMIN_TEXTS,
  type AdminDeleteUserQuery,
  adminDeleteUserQuerySchema,
  type AdminRanksBody,
  adminRanksSchema,
  type AdminUser,
  type AdminUsersPage,
  type AdminUsersQuery,
  adminUsersQuerySchema,
  adminRoleSchema,
  API,
  type AuditPage,
  type AuditQuery,
  auditQuerySchema,
  usernameSchema,
} from '@termpaste/contracts';
import type { z } from 'zod';
import { CurrentUser } from '../auth/guards/current-user.decorator.js';
import { parseId } from '../../common/parse-id.js';
import { AdminGuard } from '../auth/guards/writer.guard.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import type { User } from '../users/entities/user.entity.js';
import { AdminService } from './admin.service.js';
import { AuditService } from '../audit/audit.service.js';

const userId = (raw: string) => parseId(raw, ADMIN_MESSAGES.userNotFound);

/**
 * A new username by registration's rules: blank is 400 `Username cannot be empty`, any other breach that
 * rule's 400.
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
 * The admin panel's calls: the users table, what admins do to accounts, the audit log. Ban and unban
 * are the moderation module's (bans have terms). 401 signed out or banned, 403 for members.
 */
@Controller()
@UseGuards(AdminGuard)
export class AdminController {
  constructor(
    private readonly admin: AdminService,
    private readonly audit: AuditService,
  ) {}

  /** Newest members first, keyset-paged; `q` filters by a part of the username or e-mail. */
  @Get(API.adminUsers)
  users(
    @Query(new ZodValidationPipe(adminUsersQuerySchema)) { q, cursor }: AdminUsersQuery,
  ): Promise<AdminUsersPage> {
    return this.admin.users(q, cursor);
  }

  /** `?keepContent=false` deletes their pastes and replies too; by default they stay, as Anonymous. */
  @Delete(API.adminUser(':id'))
  async deleteUser(
    @CurrentUser() actor: User,
    @Param('id') id: string,
    @Query(new ZodValidationPipe(adminDeleteUserQuerySchema)) query: AdminDeleteUserQuery,
  ): Promise<{ message: string }> {
    await this.admin.deleteUser(actor, userId(id), query.keepContent !== 'false');
    return { message: ADMIN_TEXTS.deleted };
  }

  @Put(API.adminUserUsername(':id'))
  rename(@CurrentUser() actor: User, @Param('id') id: string, @Body() body: unknown): Promise<AdminUser> {
    const target = userId(id);
    return this.admin.rename(actor, target, newUsername(body));
  }

  @Delete(API.adminUserAvatar(':id'))
  deleteAvatar(@CurrentUser() actor: User, @Param('id') id: string): Promise<AdminUser> {
    return this.admin.deleteAvatar(actor, userId(id));
  }

  /** The VIP grades the member owns (beyond the spec: there is no payment flow, admins grant them). */
  @Put(API.adminUserGrades(':id'))
  grades(
    @CurrentUser() actor: User,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(adminRanksSchema)) body: AdminRanksBody,
  ): Promise<AdminUser> {
    return this.admin.setRanks(actor, userId(id), body.grades);
  }

  /** Grants or revokes admin: the owner only (beyond the spec). */
  @Put(API.adminUserRole(':id'))
  role(
    @CurrentUser() actor: User,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(adminRoleSchema)) body: z.infer<typeof adminRoleSchema>,
  ): Promise<AdminUser> {
    return this.admin.setAdmin(actor, userId(id), body.isAdmin);
  }

  /** The staff action log, newest first, keyset-paged; filtered by action and by a part of a name. */
  @Get(API.adminAudit)
  auditLog(
    @Query(new ZodValidationPipe(auditQuerySchema)) { action, q, cursor }: AuditQuery,
  ): Promise<AuditPage> {
    return this.audit.page({ action, q, cursor });
  }
}
