import { Injectable, NotFoundException } from '@nestjs/common';
import {
  type DirectoryUser,
  FORUM_MESSAGES,
  type UserProfile,
  USERS_PAGE_SIZE,
  type UsersPage,
} from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import { decodeCursor, encodeCursor } from '../../common/keyset-cursor.js';
import { containsPattern } from '../../common/like-pattern.js';
import { ForumService } from '../threads/forum.service.js';
import { ownedActiveRank } from './author-sql.js';
import { bannedNow } from './member-sql.js';

interface DirectoryRow {
  id: number;
  username: string;
  avatar_url: string | null;
  profile_image_url: string | null;
  first_name: string | null;
  last_name: string | null;
  reputation: number;
  active_premium_rank: string | null;
  thread_count: number;
  reply_count: number;
  created_at: Date;
  is_admin: boolean;
  is_owner: boolean;
}

function toDirectoryUser(row: DirectoryRow): DirectoryUser {
  return {
    id: row.id,
    username: row.username,
    avatarUrl: row.avatar_url,
    profileImageUrl: row.profile_image_url,
    firstName: row.first_name,
    lastName: row.last_name,
    reputation: row.reputation,
    activePremiumRank: row.active_premium_rank,
    threadCount: row.thread_count,
    replyCount: row.reply_count,
    createdAt: row.created_at.toISOString(),
    isAdmin: row.is_admin,
    isOwner: row.is_owner,
  };
}

/** The members as others see them (directory, profiles): public fields only. */
@Injectable()
export class MembersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly forum: ForumService,
  ) {}

  /**
   * The users directory: members by reputation (highest first, then newest), keyset-paged 50 at a time;
   * `filter` keeps those whose username contains it, in any letter case (the trigram index serves it).
   */
  async directory(filter: string, cursor?: string): Promise<UsersPage> {
    // The cursor: the last member's (reputation, id).
    const after = cursor ? decodeCursor(cursor, 'int') : undefined;
    const params: unknown[] = [USERS_PAGE_SIZE + 1];
    const conditions: string[] = [];
    if (filter) {
      params.push(containsPattern(filter));
      conditions.push(`lower(u.username::text) LIKE $${params.length}`);
    }
    if (after) {
      params.push(Number(after.key), after.id);
      conditions.push(`(u.reputation, u.id) < ($${params.length - 1}::integer, $${params.length}::integer)`);
    }
    const rows: DirectoryRow[] = await this.dataSource.query(
      `SELECT u.id, u.username::text AS username, u.avatar_url, u.profile_image_url, u.first_name, u.last_name,
         u.reputation, ${ownedActiveRank('u')} AS active_premium_rank, u.thread_count, u.reply_count,
         u.created_at, u.is_admin, u.is_owner
       FROM users u ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''}
       ORDER BY u.reputation DESC, u.id DESC LIMIT $1`,
      params,
    );
    const users = rows.slice(0, USERS_PAGE_SIZE).map(toDirectoryUser);
    const last = users.at(-1);
    return {
      users,
      nextCursor: rows.length > USERS_PAGE_SIZE && last ? encodeCursor(last.reputation, last.id) : null,
    };
  }

  /**
   * A member's profile; `own` (the member reads their own) lists their unlisted and private pastes too.
   * `threadCount` counts listed pastes only, whoever reads it.
   */
  async profile(userId: number, { own = false } = {}): Promise<UserProfile> {
    const [user]: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT u.id, u.username::text AS username, u.first_name, u.last_name, u.avatar_url,
         u.profile_image_url, u.bio, u.reputation, ${ownedActiveRank('u')} AS active_premium_rank,
         u.owned_premium_ranks, u.thread_count, u.reply_count, u.created_at, u.is_admin, u.is_owner,
         ${bannedNow('u')} AS is_banned
       FROM users u WHERE u.id = $1`,
      [userId],
    );
    if (!user) throw new NotFoundException(FORUM_MESSAGES.userNotFound);
    const recentThreads = await this.forum.recentByAuthor(userId, { own });
    return {
      id: user['id'] as number,
      username: user['username'] as string,
      firstName: user['first_name'] as string | null,
      lastName: user['last_name'] as string | null,
      avatarUrl: user['avatar_url'] as string | null,
      profileImageUrl: user['profile_image_url'] as string | null,
      bio: user['bio'] as string | null,
      reputation: user['reputation'] as number,
      activePremiumRank: user['active_premium_rank'] as string | null,
      ownedPremiumRanks: user['owned_premium_ranks'] as string[],
      threadCount: user['thread_count'] as number,
      replyCount: user['reply_count'] as number,
      createdAt: (user['created_at'] as Date).toISOString(),
      isAdmin: user['is_admin'] as boolean,
      isOwner: user['is_owner'] as boolean,
      isBanned: user['is_banned'] as boolean,
      recentThreads,
    };
  }
}
