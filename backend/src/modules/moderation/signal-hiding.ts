import { Injectable } from '@nestjs/common';
import { signalHiddenNotice, type SpamSignal } from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import { NotificationsService } from '../notifications/notifications.service.js';
import { PostHidingService } from '../pastes/post-hiding.js';
import { ReviewItems } from './review-items.js';
import type { Row } from '../../infra/database/columns.js';
import type { ReviewItem } from './entities/review-item.entity.js';

/** A post a signal found after it was published (the Akismet check). */
export interface SignalledPost {
  targetType: 'paste' | 'reply';
  targetId: number;
  /** The paste it is, or is on (the author's notification links it). */
  threadId: number;
  authorId: number;
  /** A paste's title, for the notification. */
  title: string | null;
}

/**
 * Hiding a published post by a spam signal, pending review: the post is hidden (PostHidingService) and
 * its open flagged review item is opened or gains the signal, `hidden`, in one transaction; its author
 * is told (a 'moderation' notification) and the admins' open count moves, once it committed.
 */
@Injectable()
export class SignalHiding {
  constructor(
    private readonly dataSource: DataSource,
    private readonly hiding: PostHidingService,
    private readonly notifications: NotificationsService,
    private readonly reviewItems: ReviewItems,
  ) {}

  /** Hides `post` for `signal`; answers the review item's id. A post gone meanwhile is left alone (null). */
  async hide(post: SignalledPost, signal: SpamSignal): Promise<number | null> {
    const done = await this.dataSource.transaction(async (manager) => {
      const change =
        post.targetType === 'paste'
          ? await this.hiding.setPasteHidden(manager, post.targetId, true)
          : await this.hiding.setReplyHidden(manager, post.targetId, true);
      // Not hidden now: gone, or hidden already (by members' flags): then only the item gains the signal.
      const [open]: Array<Row<ReviewItem, 'id'>> = await manager.query(
        `SELECT id FROM review_items WHERE target_type = $1 AND target_id = $2 AND status = 'open'`,
        [post.targetType, post.targetId],
      );
      if (!change && !open) return null;
      const [item]: Array<Row<ReviewItem, 'id'>> = await manager.query(
        `INSERT INTO review_items (kind, target_type, target_id, author_id, signals, hidden)
         VALUES ('flagged', $1, $2, $3, ARRAY[$4]::text[], true)
         ON CONFLICT (target_type, target_id) WHERE status = 'open' AND target_id IS NOT NULL
         DO UPDATE SET hidden = true, updated_at = now(),
           signals = ARRAY(SELECT DISTINCT s FROM unnest(review_items.signals || EXCLUDED.signals) AS s ORDER BY s)
         RETURNING id`,
        [post.targetType, post.targetId, post.authorId, signal],
      );
      return { itemId: item!.id, change };
    });
    if (!done) return null;
    await this.reviewItems.announceCount();
    if (done.change) {
      await this.hiding.announce(done.change);
      await this.notifications.createOnce([
        {
          userId: post.authorId,
          type: 'moderation',
          content: signalHiddenNotice(post.targetType, post.title),
          threadId: post.threadId,
          actorId: null,
          source: `${signal}:${post.targetType}:${post.targetId}`,
        },
      ]);
    }
    return done.itemId;
  }
}
