import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import {
  POST_MESSAGES,
  heldDecidedNotice,
  MODERATION_MESSAGES,
  type ReviewDecision,
} from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import type { Actor } from '../admin/admin.service.js';
import { AuditService, excerpt } from '../audit/audit.service.js';
import { NotificationsService } from '../notifications/notifications.service.js';
import { PastesService, type HeldRequest } from '../pastes/pastes.service.js';
import { UsersService } from '../users/users.service.js';
import type { HeldPost } from '../screening/review-queue.js';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { ReviewItem } from './entities/review-item.entity.js';

const HELD_COLUMNS = ['id', 'kind', 'status', 'targetType', 'authorId', 'payload'] as const;
const HELD_SELECT = selectColumns(ReviewItem, 'i', HELD_COLUMNS);

/**
 * Posts held for approval (the spam signals, a new member's first posts): APPROVE makes the post as its
 * author submitted it (their notification says so), REJECT drops it (and tells them).
 */
@Injectable()
export class HeldPostsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pastes: PastesService,
    private readonly users: UsersService,
    private readonly audit: AuditService,
    private readonly notifications: NotificationsService,
  ) {}

  /**
   * Decides held item `itemId` with its row locked and audited: 404 none, 400 a flagged one, 409 decided.
   * Approving replays the author's request unscreened in the same transaction (409, item still open, when
   * the paste or the author is gone). The author is told.
   */
  async decide(
    itemId: number,
    decision: Extract<ReviewDecision, 'approve' | 'reject'>,
    actor: Actor,
  ): Promise<void> {
    const decided = await this.dataSource.transaction(async (manager) => {
      const [item]: Array<Row<ReviewItem, (typeof HELD_COLUMNS)[number]>> = await manager.query(
        `SELECT ${HELD_SELECT} FROM review_items i WHERE i.id = $1 FOR UPDATE`,
        [itemId],
      );
      if (!item) throw new NotFoundException(MODERATION_MESSAGES.itemNotFound);
      if (item.kind !== 'held') throw new BadRequestException(MODERATION_MESSAGES.decisionForFlags);
      if (item.status !== 'open') throw new ConflictException(MODERATION_MESSAGES.itemDecided);
      // A held item holds a submitted paste or reply, and its payload.
      const payload = item.payload!;
      const held = {
        kind: item.targetType as HeldPost['targetType'],
        title: payload.title,
        content: payload.content,
      };
      const label = held.title ?? excerpt(held.content);

      if (decision === 'reject') {
        await manager.query(
          `UPDATE review_items SET status = 'rejected', decided_at = now(), decided_by = $2, updated_at = now()
           WHERE id = $1`,
          [itemId, actor.id],
        );
        await this.audit.record(manager, actor, {
          action: 'review.reject',
          targetType: 'user',
          targetId: item.authorId ?? 0,
          targetLabel: label,
          before: null,
          after: { itemId, kind: held.kind },
        });
        return { held, authorId: item.authorId, threadId: null, after: undefined };
      }

      const author = item.authorId === null ? null : await this.users.findById(item.authorId, manager);
      if (!author) throw new ConflictException(MODERATION_MESSAGES.heldAuthorGone);
      let made: Awaited<ReturnType<PastesService['replay']>>;
      try {
        made = await this.pastes.replay(manager, author, payload.request as unknown as HeldRequest);
      } catch (error) {
        // The paste (or the reply answered) went away while the reply waited.
        const gone =
          error instanceof NotFoundException ||
          (error instanceof BadRequestException && error.message === POST_MESSAGES.parentNotInPaste);
        if (gone) throw new ConflictException(MODERATION_MESSAGES.heldPasteGone);
        throw error;
      }
      await manager.query(
        `UPDATE review_items SET status = 'approved', target_id = $3, decided_at = now(), decided_by = $2,
           updated_at = now()
         WHERE id = $1`,
        [itemId, actor.id, made.id],
      );
      await this.audit.record(manager, actor, {
        action: 'review.approve',
        targetType: made.kind === 'paste' ? 'thread' : 'reply',
        targetId: made.id,
        targetLabel: label,
        before: null,
        after: { itemId, authorId: author.id },
      });
      return { held, authorId: author.id, threadId: made.threadId, after: made.after };
    });
    await decided.after?.();
    if (decided.authorId === null) return;
    await this.notifications.createOnce([
      {
        userId: decided.authorId,
        type: 'moderation',
        content: heldDecidedNotice(decided.held, decision),
        threadId: decided.threadId,
        actorId: actor.id,
        source: `review:${itemId}`,
      },
    ]);
  }
}
