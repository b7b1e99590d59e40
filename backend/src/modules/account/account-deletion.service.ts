import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { announcePagesChanged, EventsPort } from '../../infra/events/events.port.js';
import { OutboxService } from '../../infra/outbox/outbox.service.js';
import { StoragePort } from '../../infra/storage/storage.port.js';
import { type AuditActor, AuditService } from '../audit/audit.service.js';
import { forgetAddressInAudit } from '../audit/forget-address.js';
import { signOutLive } from '../auth/live-sign-out.js';
import { SessionsService } from '../auth/sessions.service.js';
import { deleteChatOf } from '../chat/user-chat.js';
import { deleteMessagesOf } from '../messages/user-messages.js';
import { UserPostsService } from '../pastes/user-posts.js';
import { forgetUploadsOf } from '../uploads/user-uploads.js';
import type { User } from '../users/entities/user.entity.js';
import { UserAdminService } from '../users/user-admin.service.js';
import { VotesService } from '../votes/votes.service.js';
import { ExportsService } from './exports.service.js';

/** What is left to do once the deletion's transaction has committed. */
export interface Erased {
  userId: number;
  /** Stored objects to remove: the avatar, unclaimed uploads, export archives. */
  keys: string[];
  pastes: number[];
}

/**
 * Who deleted the account, for the audit entry: the member themself, or an admin (who may record it as
 * another action, a spammer's deletion, with more to say in its `after`).
 */
export type Eraser =
  | { self: true }
  | { self: false; admin: AuditActor; action?: 'user.spammer_delete'; after?: Record<string, unknown> };

/**
 * Deletes an account, for the member's own deletion and the admin's alike, in the caller's transaction
 * holding the account row. Afterwards the e-mail address is stored nowhere (audit log and waiting outbox
 * jobs included). `finish` then signs them out live and removes their files. What goes: docs/backend.md.
 */
@Injectable()
export class AccountDeletionService {
  private readonly logger = new Logger('AccountDeletion');

  constructor(
    private readonly votes: VotesService,
    private readonly posts: UserPostsService,
    private readonly sessions: SessionsService,
    private readonly userAdmin: UserAdminService,
    private readonly audit: AuditService,
    private readonly exports: ExportsService,
    private readonly outbox: OutboxService,
    private readonly events: EventsPort,
    private readonly storage: StoragePort,
  ) {}

  async erase(manager: EntityManager, target: User, keepContent: boolean, by: Eraser): Promise<Erased> {
    const userId = target.id;
    // Their pastes first, then the targets of their votes (lock-order.ts).
    await this.posts.lock(manager, userId, keepContent);
    await this.votes.takeBackAllOf(manager, userId);
    const pastes = await this.posts.remove(manager, userId, keepContent);
    if (!keepContent) await deleteChatOf(manager, userId);
    await deleteMessagesOf(manager, userId);
    await this.sessions.revokeUserSessions(userId, { manager });
    const keys = [
      ...(await forgetUploadsOf(manager, userId)),
      ...(await this.exports.keysOf(manager, userId)),
      ...[target.avatarUrl, target.profileImageUrl].flatMap((url) => {
        const key = url ? this.storage.keyOfPublicUrl(url) : null;
        return key ? [key] : [];
      }),
    ];
    await this.audit.record(manager, by.self ? { id: userId, username: target.username } : by.admin, {
      action: (!by.self && by.action) || 'user.delete',
      targetType: 'user',
      targetId: userId,
      targetLabel: target.username,
      before: {
        username: target.username,
        isAdmin: target.isAdmin,
        isBanned: target.isBanned,
        reputation: target.reputation,
        threadCount: target.threadCount,
        replyCount: target.replyCount,
      },
      after: { keepContent, by: by.self ? 'member' : 'admin', ...(by.self ? {} : by.after) },
    });
    await forgetAddressInAudit(manager, target.email);
    await this.outbox.forgetAddress(manager, target.email);
    await this.userAdmin.delete(manager, userId);
    return { userId, keys: [...new Set(keys)], pastes };
  }

  /** After the commit: every page that showed them changes, their sockets close, their files go. */
  async finish(erased: Erased): Promise<void> {
    await announcePagesChanged(this.events, { all: true }, this.logger);
    await signOutLive(this.events, this.logger, erased.userId);
    for (const key of erased.keys) {
      await this.storage
        .delete(key)
        .catch((error: unknown) =>
          this.logger.warn(
            `Could not remove ${key} of deleted account ${erased.userId}: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
    }
  }
}
