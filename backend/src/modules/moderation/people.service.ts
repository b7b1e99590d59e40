import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';

/**
 * Members' mutes and blocks, as the rest of the forum asks about them: a block keeps the blocked
 * member's private messages and mentions from the member who blocked them (staff always get through).
 * Muting only changes what the member's own screens show (they read the lists from `GET /api/user/mutes`).
 */
@Injectable()
export class PeopleService {
  /** Whether member `userId` blocked member `memberId`. */
  async blocks(db: DataSource | EntityManager, userId: number, memberId: number): Promise<boolean> {
    const [row] = await db.query('SELECT 1 FROM member_blocks WHERE user_id = $1 AND member_id = $2', [
      userId,
      memberId,
    ]);
    return row !== undefined;
  }

  /** Of `userIds`, those who blocked member `memberId` (a mention of them by that member is dropped). */
  async blockersAmong(
    db: DataSource | EntityManager,
    memberId: number,
    userIds: readonly number[],
  ): Promise<Set<number>> {
    if (userIds.length === 0) return new Set();
    const rows: Array<{ user_id: number }> = await db.query(
      'SELECT user_id FROM member_blocks WHERE member_id = $1 AND user_id = ANY ($2::int[])',
      [memberId, userIds],
    );
    return new Set(rows.map((row) => row.user_id));
  }
}
