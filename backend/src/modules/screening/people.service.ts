import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import {
  MODERATION_MESSAGES,
  PEOPLE_LIST_MAX,
  type PeopleList,
  type PersonEntry,
} from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { authorJoin, authorJson } from '../users/author-sql.js';
import { existingUser } from '../users/user-sql.js';
import { UsersService } from '../users/users.service.js';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { Block } from './entities/block.entity.js';
import { Mute } from './entities/mute.entity.js';
import { type EntryRow, toEntry } from './screening-rows.js';

/** A member's two lists: whom they muted, whom they blocked. */
export type PeopleListKind = 'mutes' | 'blocks';

/** Each list's table (both `user_id` → `member_id`, one row a pair). */
const TABLES: Record<PeopleListKind, string> = { mutes: 'member_mutes', blocks: 'member_blocks' };

/** An entry's time, with the entry as `p` (the same column in both tables). */
const ENTRY_CREATED = selectColumns(Mute, 'p', ['createdAt']);

/**
 * Members' mutes and blocks, as the rest of the forum asks about them: a block keeps the blocked
 * member's private messages and mentions from the member who blocked them (staff always get through).
 * Muting only changes what the member's own screens show (they read the lists from `GET /api/user/mutes`).
 */
@Injectable()
export class PeopleService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
  ) {}

  /** Whether member `userId` blocked member `targetId`. */
  async blocks(db: DataSource | EntityManager, userId: number, targetId: number): Promise<boolean> {
    const [row] = await db.query('SELECT 1 FROM member_blocks WHERE user_id = $1 AND member_id = $2', [
      userId,
      targetId,
    ]);
    return row !== undefined;
  }

  /** Of `userIds`, those who blocked member `targetId` (a mention of them by that member is dropped). */
  async blockersAmong(
    db: DataSource | EntityManager,
    targetId: number,
    userIds: readonly number[],
  ): Promise<Set<number>> {
    if (userIds.length === 0) return new Set();
    const rows: Array<Row<Block, 'userId'>> = await db.query(
      `SELECT ${selectColumns(Block, 'b', ['userId'])} FROM member_blocks b
       WHERE b.member_id = $1 AND b.user_id = ANY ($2::int[])`,
      [targetId, userIds],
    );
    return new Set(rows.map((row) => row.userId));
  }

  /** The member's list, newest first. */
  async list(kind: PeopleListKind, userId: number): Promise<PeopleList> {
    const rows: EntryRow[] = await this.dataSource.query(
      `SELECT ${authorJson('a')} AS member, ${ENTRY_CREATED}
       FROM ${TABLES[kind]} p ${authorJoin('a', 'p.member_id')}
       WHERE p.user_id = $1 AND a.id IS NOT NULL
       ORDER BY p.created_at DESC, p.member_id DESC LIMIT $2`,
      [userId, PEOPLE_LIST_MAX],
    );
    return { members: rows.map(toEntry) };
  }

  /**
   * Puts member `targetId` on the member's list and returns the entry; again is no change (the entry as
   * it was). Refused: oneself (400), a member who does not exist (404), staff on the block list (400),
   * a list already holding PEOPLE_LIST_MAX members (400).
   */
  async add(kind: PeopleListKind, userId: number, targetId: number): Promise<PersonEntry> {
    if (targetId === userId) {
      throw new BadRequestException(
        kind === 'mutes' ? MODERATION_MESSAGES.muteSelf : MODERATION_MESSAGES.blockSelf,
      );
    }
    const target = await this.users.findById(targetId);
    if (!target) throw new NotFoundException(MODERATION_MESSAGES.userNotFound);
    // Staff must always reach members about moderation.
    if (kind === 'blocks' && (target.isAdmin || target.isOwner)) {
      throw new BadRequestException(MODERATION_MESSAGES.blockStaff);
    }
    const table = TABLES[kind];
    // One statement: the size check and the insert see the same list; an entry already there stays.
    const [row]: EntryRow[] = await this.dataSource.query(
      `WITH existing AS (
         SELECT created_at FROM ${table} WHERE user_id = $1 AND member_id = $2
       ), added AS (
         INSERT INTO ${table} (user_id, member_id)
         SELECT $1, u.id FROM (${existingUser('$2')}) u WHERE NOT EXISTS (SELECT 1 FROM existing)
           AND (SELECT count(*) FROM ${table} WHERE user_id = $1) < $3
         ON CONFLICT DO NOTHING
         RETURNING created_at
       ), entry AS (SELECT created_at FROM existing UNION ALL SELECT created_at FROM added)
       SELECT ${authorJson('a')} AS member, e.created_at AS "createdAt" FROM entry e ${authorJoin('a', '$2::int')}`,
      [userId, targetId, PEOPLE_LIST_MAX],
    );
    if (!row) {
      // Not there and not added: the list is full, a twin request added it a moment ago, or the member
      // was deleted meanwhile.
      const [raced]: EntryRow[] = await this.dataSource.query(
        `SELECT ${authorJson('a')} AS member, ${ENTRY_CREATED} FROM ${table} p ${authorJoin('a', 'p.member_id')}
         WHERE p.user_id = $1 AND p.member_id = $2`,
        [userId, targetId],
      );
      if (raced) return toEntry(raced);
      const [{ count }]: Array<{ count: number }> = await this.dataSource.query(
        `SELECT count(*)::int AS count FROM ${table} WHERE user_id = $1`,
        [userId],
      );
      if (count < PEOPLE_LIST_MAX) throw new NotFoundException(MODERATION_MESSAGES.userNotFound);
      throw new BadRequestException(MODERATION_MESSAGES.listFull);
    }
    if (row.member === null) throw new NotFoundException(MODERATION_MESSAGES.userNotFound);
    return toEntry(row);
  }

  /** Takes member `targetId` off the member's list; not on it is no change. */
  async remove(kind: PeopleListKind, userId: number, targetId: number): Promise<void> {
    await this.dataSource.query(`DELETE FROM ${TABLES[kind]} WHERE user_id = $1 AND member_id = $2`, [
      userId,
      targetId,
    ]);
  }
}
