import { Injectable } from '@nestjs/common';
import type { PasteRef, SpamSignal } from '@termpaste/contracts';
import type { EntityManager } from 'typeorm';

/**
 * A post held for approval, as `review_items.payload` keeps it: what the queue shows (as members would
 * see it) and the request that approving it replays as its author.
 */
export interface HeldPayload {
  title: string | null;
  content: string;
  language: string | null;
  /** The paste a held reply is on. */
  threadRef: PasteRef | null;
  parentId: number | null;
  /** The create request's body (and how it came: the web form, `POST /api/pastes`), to replay. */
  request: Record<string, unknown>;
}

/**
 * The review queue's rows, as the posting paths open them (held posts) — the lower half of the
 * moderation module, which the threads module may use without a cycle. Deciding them is ReviewService's.
 */
@Injectable()
export class ReviewItems {
  /** Opens a held post's item in `manager`'s transaction; answers its id. */
  async openHeld(
    manager: EntityManager,
    held: {
      targetType: 'paste' | 'reply';
      authorId: number;
      signals: readonly SpamSignal[];
      payload: HeldPayload;
    },
  ): Promise<number> {
    const [row]: Array<{ id: number }> = await manager.query(
      `INSERT INTO review_items (kind, target_type, author_id, signals, payload)
       VALUES ('held', $1, $2, $3::text[], $4::jsonb) RETURNING id`,
      [held.targetType, held.authorId, held.signals, JSON.stringify(held.payload)],
    );
    return row!.id;
  }
}
