import { Injectable } from '@nestjs/common';
import type { ReviewDecision } from '@termpaste/contracts';
import type { Actor } from '../admin/admin.service.js';

/**
 * Posts held for approval (the spam signals, a new member's first posts): APPROVE makes the post as its
 * author submitted it (their notification says so), REJECT drops it (and tells them).
 */
@Injectable()
export class HeldPostsService {
  /** Decides held item `itemId` (`approve` or `reject`), recorded in the audit log. */
  async decide(
    _itemId: number,
    _decision: Extract<ReviewDecision, 'approve' | 'reject'>,
    _actor: Actor,
  ): Promise<void> {
    throw new Error('Held posts are not built yet');
  }
}
