import {
  BadRequestException,
  ForbiddenException,
  Injectable,
  Logger,
  NotFoundException,
  Optional,
} from '@nestjs/common';
import {
  ADMIN_MESSAGES,
  adminActionRefusal,
  type AdminUser,
  type AdminUserAction,
  type AdminUsersPage,
  type AuditAction,
  hasAvatar,
  LIVE_EVENT,
  PREMIUM_RANK_NAMES,
  type PremiumRankName,
} from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { announcePagesChanged, EventsPort } from '../../infra/events/events.port.js';
import { StoragePort } from '../../infra/storage/storage.port.js';
import type { User } from '../users/entities/user.entity.js';
import { UserAdminService, type SuspensionState } from '../users/user-admin.service.js';
import { UsersService } from '../users/users.service.js';
import { SessionsService } from '../auth/sessions.service.js';
import { type AuditRecord, AuditService } from '../audit/audit.service.js';
import { revokeUserTokens } from '../auth/tokens/access-tokens.service.js';
import { AccountDeletionService } from '../account/account-deletion.service.js';

/**
 * The acting admin, as the admin guard loaded them for this request; id null: the command line (CLI_STAFF),
 * which acts with the owner's rights.
 */
export type Actor = Pick<User, 'username' | 'isAdmin' | 'isOwner'> & { id: number | null };

/** The command line as an actor: audited as `cli`, with the owner's rights (the owner's account stays protected). */
export const CLI_STAFF: Actor = { id: null, username: 'cli', isAdmin: true, isOwner: true };

/** Work another module does in an action's transaction, on the locked target (moderation's history row). */
export type SuspensionHook = (manager: EntityManager, target: User) => Promise<void>;

/** A ban for ever, without a reason: the spec's ban. */
const FOREVER: SuspensionState = { until: null, reason: null };

/** What the audit entry keeps of the target's ban before a change. */
function banTerms(target: User) {
  return {
    isBanned: target.isBanned,
    ...(target.isBanned
      ? { bannedUntil: target.bannedUntil?.toISOString() ?? null, banReason: target.banReason }
      : {}),
  };
}

function silenceTerms(target: User) {
  return {
    silencedUntil: target.silencedUntil?.toISOString() ?? null,
    ...(target.silencedUntil ? { silenceReason: target.silenceReason } : {}),
  };
}

/** Work to do once the action's transaction has committed. */
interface AfterCommit {
  /** Members to sign out live (their sockets closed on every instance). */
  signOut?: number;
  /** Avatar URLs whose stored objects (if ours) are to be removed. */
  removeAvatars?: Array<string | null>;
}

/**
 * The admin panel's member management. Each action is one transaction: lock the target, check the
 * permission table, change the account, write the audit entry; live sign-out and avatar removal follow
 * the commit.
 */
@Injectable()
export class AdminService {
  private readonly logger = new Logger('Admin');

  constructor(
    private readonly dataSource: DataSource,
    private readonly accounts: UsersService,
    private readonly userAdmin: UserAdminService,
    private readonly sessions: SessionsService,
    private readonly audit: AuditService,
    private readonly deletion: AccountDeletionService,
    private readonly events: EventsPort,
    /** Absent until a storage adapter is configured: then there is no stored object to remove. */
    @Optional() private readonly storage?: StoragePort,
  ) {}

  /** Newest members first, ADMIN_USERS_PAGE_SIZE a page; `q` keeps those whose username or e-mail contains it. */
  users(q: string, cursor?: string): Promise<AdminUsersPage> {
    return this.userAdmin.page(q, cursor);
  }

  /**
   * Bans the member (default: for ever, no reason) and signs them out everywhere: sessions and tokens
   * revoked (an unban does not bring tokens back), sockets closed. Same terms: no change. `within` runs
   * in the same transaction when the ban changes.
   */
  ban(
    actor: Actor,
    userId: number,
    ban: SuspensionState = FOREVER,
    within?: SuspensionHook,
  ): Promise<AdminUser> {
    return this.act(actor, userId, 'ban', async (manager, target) => {
      await this.sessions.revokeUserSessions(target.id, { manager });
      await revokeUserTokens(manager, target.id, 'ban');
      const same =
        target.isBanned &&
        target.bannedUntil?.getTime() === ban.until?.getTime() &&
        target.banReason === ban.reason;
      if (!same) {
        await this.userAdmin.setBan(manager, target.id, ban);
        await this.record(manager, actor, target, 'user.ban', banTerms(target), {
          isBanned: true,
          bannedUntil: ban.until?.toISOString() ?? null,
          banReason: ban.reason,
        });
        await within?.(manager, target);
      }
      return { signOut: target.id };
    });
  }

  /** Lifts the member's ban; `within` runs in the same transaction when they were banned. */
  unban(actor: Actor, userId: number, within?: SuspensionHook): Promise<AdminUser> {
    return this.act(actor, userId, 'unban', async (manager, target) => {
      if (target.isBanned) {
        await this.userAdmin.setBan(manager, target.id, null);
        await this.record(manager, actor, target, 'user.unban', banTerms(target), { isBanned: false });
        await within?.(manager, target);
      }
      return {};
    });
  }

  /**
   * Silences the member (read-only) until `silence.until`, for `silence.reason`; new terms replace a
   * silence in force. `within` runs in the same transaction when the silence changes.
   */
  silence(
    actor: Actor,
    userId: number,
    silence: SuspensionState & { until: Date },
    within?: SuspensionHook,
  ): Promise<AdminUser> {
    return this.act(actor, userId, 'silence', async (manager, target) => {
      const same =
        target.silencedUntil?.getTime() === silence.until.getTime() &&
        target.silenceReason === silence.reason;
      if (!same) {
        await this.userAdmin.setSilence(manager, target.id, silence);
        await this.record(manager, actor, target, 'user.silence', silenceTerms(target), {
          silencedUntil: silence.until.toISOString(),
          silenceReason: silence.reason,
        });
        await within?.(manager, target);
      }
      return {};
    });
  }

  /** Lifts the member's silence; `within` runs in the same transaction when they were silenced. */
  unsilence(actor: Actor, userId: number, within?: SuspensionHook): Promise<AdminUser> {
    return this.act(actor, userId, 'unsilence', async (manager, target) => {
      if (target.silencedUntil !== null) {
        await this.userAdmin.setSilence(manager, target.id, null);
        await this.record(manager, actor, target, 'user.unsilence', silenceTerms(target), {
          silencedUntil: null,
        });
        await within?.(manager, target);
      }
      return {};
    });
  }

  /** `username` has passed registration's rules (usernameSchema); 409 when another account has it. */
  rename(actor: Actor, userId: number, username: string): Promise<AdminUser> {
    return this.act(actor, userId, 'rename', async (manager, target) => {
      if (target.username === username) return {};
      await this.userAdmin.rename(manager, target.id, username);
      await this.record(manager, actor, target, 'user.rename', { username: target.username }, { username });
      return {};
    });
  }

  /** Removes the member's avatar (400 when there is none); the stored object goes once committed. */
  deleteAvatar(actor: Actor, userId: number): Promise<AdminUser> {
    return this.act(actor, userId, 'avatar', async (manager, target) => {
      if (!hasAvatar(target)) throw new BadRequestException(ADMIN_MESSAGES.noAvatar);
      await this.userAdmin.clearAvatar(manager, target.id);
      await this.record(
        manager,
        actor,
        target,
        'user.avatar_delete',
        { avatarUrl: target.avatarUrl, profileImageUrl: target.profileImageUrl },
        { avatarUrl: null, profileImageUrl: null },
      );
      return { removeAvatars: [target.avatarUrl, target.profileImageUrl] };
    });
  }

  /**
   * Deletes the account in one transaction, as the member's own deletion does (AccountDeletionService);
   * `keepContent` keeps their posts under a NULL author. Sockets closed and files removed after commit.
   */
  async deleteUser(actor: Actor, userId: number, keepContent = true): Promise<void> {
    const erased = await this.transaction(actor, userId, 'delete', (manager, target) =>
      this.deletion.erase(manager, target, keepContent, { self: false, admin: actor }),
    );
    await this.deletion.finish(erased);
  }

  /**
   * Deletes a spammer in one transaction: the account with their pastes, replies and chat lines, as
   * deleteUser without keepContent, audited as `user.spammer_delete` with what `within` (the moderation
   * module's memory of their address, run first in the same transaction) returns.
   */
  async deleteSpammer(
    actor: Actor,
    userId: number,
    within: (manager: EntityManager, target: User) => Promise<Record<string, unknown>>,
  ): Promise<void> {
    const erased = await this.transaction(actor, userId, 'spammer', async (manager, target) => {
      const remembered = await within(manager, target);
      return this.deletion.erase(manager, target, false, {
        self: false,
        admin: actor,
        action: 'user.spammer_delete',
        after: remembered,
      });
    });
    await this.deletion.finish(erased);
  }

  /** Sets the VIP grades the member owns; an active grade no longer owned is cleared. */
  setRanks(actor: Actor, userId: number, grades: readonly PremiumRankName[]): Promise<AdminUser> {
    // Catalogue order, each once.
    const owned = PREMIUM_RANK_NAMES.filter((name) => grades.includes(name));
    return this.act(actor, userId, 'grades', async (manager, target) => {
      const active =
        target.activePremiumRank !== null && (owned as string[]).includes(target.activePremiumRank)
          ? target.activePremiumRank
          : null;
      const same =
        owned.length === target.ownedPremiumRanks.length &&
        owned.every((name) => target.ownedPremiumRanks.includes(name)) &&
        active === target.activePremiumRank;
      if (same) return {};
      await this.userAdmin.setRanks(manager, target.id, owned, active);
      await this.record(
        manager,
        actor,
        target,
        'user.grades',
        { ownedPremiumRanks: target.ownedPremiumRanks, activePremiumRank: target.activePremiumRank },
        { ownedPremiumRanks: owned, activePremiumRank: active },
      );
      return {};
    });
  }

  /** Grants or revokes admin (the owner only; the owner's own role is fixed). */
  setAdmin(actor: Actor, userId: number, isAdmin: boolean): Promise<AdminUser> {
    return this.act(actor, userId, 'role', async (manager, target) => {
      if (target.isAdmin === isAdmin) return {};
      await this.userAdmin.setAdmin(manager, target.id, isAdmin);
      await this.record(
        manager,
        actor,
        target,
        isAdmin ? 'user.admin_grant' : 'user.admin_revoke',
        { isAdmin: target.isAdmin },
        { isAdmin },
      );
      return {};
    });
  }

  /** Runs `change` on the locked, permitted target; returns the account as it is after the commit. */
  private async act(
    actor: Actor,
    userId: number,
    action: AdminUserAction,
    change: (manager: EntityManager, target: User) => Promise<AfterCommit>,
  ): Promise<AdminUser> {
    let after: AfterCommit = {};
    const user = await this.transaction(actor, userId, action, async (manager, target) => {
      after = await change(manager, target);
      return this.userAdmin.view(manager, target.id);
    });
    await this.afterCommit(after);
    // Their sessions are read afresh on every instance: a role or a ban counts at once.
    await this.sessions.memberChanged(userId);
    return user;
  }

  /** One transaction: the target locked (404 when missing), the permission table checked (403), then `work`. */
  private transaction<T>(
    actor: Actor,
    userId: number,
    action: AdminUserAction,
    work: (manager: EntityManager, target: User) => Promise<T>,
  ): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      const target = await this.accounts.lockById(manager, userId);
      if (!target) throw new NotFoundException(ADMIN_MESSAGES.userNotFound);
      const refused = adminActionRefusal(actor, target, action);
      if (refused) throw new ForbiddenException(refused);
      return work(manager, target);
    });
  }

  private record(
    manager: EntityManager,
    actor: Actor,
    target: User,
    action: AuditAction,
    before: AuditRecord['before'],
    after: AuditRecord['after'],
  ): Promise<void> {
    return this.audit.record(manager, actor, {
      action,
      targetType: 'user',
      targetId: target.id,
      targetLabel: target.username,
      before,
      after,
    });
  }

  /**
   * Tells every instance that pages changed (a member's name, avatar, grades, ban and votes show on
   * them), signs the member out live and removes stored avatars; a failure is logged, the action stands.
   */
  private async afterCommit({ signOut, removeAvatars = [] }: AfterCommit): Promise<void> {
    await announcePagesChanged(this.events, { all: true }, this.logger);
    if (signOut !== undefined) {
      await this.events
        .publish({ to: 'user', userId: signOut, event: { type: LIVE_EVENT.signedOut } })
        .catch((error: unknown) =>
          this.logger.warn(`Could not sign member ${signOut} out live: ${describe(error)}`),
        );
    }
    for (const url of new Set(removeAvatars)) {
      const key = url && this.storage ? this.storage.keyOfPublicUrl(url) : null;
      if (!key) continue;
      await this.storage!.delete(key).catch((error: unknown) =>
        this.logger.warn(`Could not remove the avatar object ${key}: ${describe(error)}`),
      );
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
