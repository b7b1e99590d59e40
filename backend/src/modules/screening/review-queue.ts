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

/** A post just held, as the posting paths hand it to the review queue. */
export interface HeldPost {
  targetType: 'paste' | 'reply';
  authorId: number;
  signals: readonly SpamSignal[];
  payload: HeldPayload;
}

/** What the posting paths ask of the review queue, whose rows the moderation module keeps. */
export interface ReviewQueue {
  /** Opens a held post's item in `manager`'s transaction; answers its id. */
  openHeld(manager: EntityManager, held: HeldPost): Promise<number>;
  /** Tells the staff how many items are open now (best effort). */
  announceCount(): Promise<void>;
}

/**
 * The posting paths' way to the review queue: moderation sits above them, so it registers its queue
 * here when it starts instead of being imported.
 */
@Injectable()
export class ReviewQueuePort implements ReviewQueue {
  private queue: ReviewQueue | undefined;

  register(queue: ReviewQueue): void {
    this.queue = queue;
  }

  openHeld(manager: EntityManager, held: HeldPost): Promise<number> {
    return this.registered().openHeld(manager, held);
  }

  announceCount(): Promise<void> {
    return this.registered().announceCount();
  }

  private registered(): ReviewQueue {
    if (!this.queue) throw new Error('No review queue registered (the moderation module registers it)');
    return this.queue;
  }
}
