import { Injectable, Logger } from '@nestjs/common';
import { LIVE_EVENT } from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { EventsPort } from '../../infra/events/events.port.js';
import type { HeldPost, ReviewQueue } from '../screening/review-queue.js';
import { adminIds } from '../users/user-facts.js';
import type { Row } from '../../infra/database/columns.js';
import type { ReviewItem } from './entities/review-item.entity.js';

/**
 * The review queue's rows, as the posting paths open them (held posts, through the screening module's
 * ReviewQueuePort, where ReviewItemsModule registers this). Deciding them is ReviewService's.
 */
@Injectable()
export class ReviewItems implements ReviewQueue {
  private readonly logger = new Logger('Review');

  constructor(
    private readonly dataSource: DataSource,
    private readonly events: EventsPort,
  ) {}

  /**
   * Tells every admin's sockets how many items are open now, after a post was held or a signal hid one
   * (best effort: the navigation refetches anyway).
   */
  async announceCount(): Promise<void> {
    try {
      const [row]: Array<{ count: number }> = await this.dataSource.query(
        "SELECT count(*)::int AS count FROM review_items WHERE status = 'open'",
      );
      for (const userId of await adminIds(this.dataSource)) {
        await this.events.publish({
          to: 'user',
          userId,
          event: { type: LIVE_EVENT.reviewCount, count: row?.count ?? 0 },
        });
      }
    } catch (error) {
      this.logger.warn(
        `Review count not announced: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** Opens a held post's item in `manager`'s transaction; answers its id. */
  async openHeld(manager: EntityManager, held: HeldPost): Promise<number> {
    const [row]: Array<Row<ReviewItem, 'id'>> = await manager.query(
      `INSERT INTO review_items (kind, target_type, author_id, signals, payload)
       VALUES ('held', $1, $2, $3::text[], $4::jsonb) RETURNING id`,
      [held.targetType, held.authorId, held.signals, JSON.stringify(held.payload)],
    );
    return row!.id;
  }
}
