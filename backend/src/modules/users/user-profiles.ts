import { type DirectoryUser, type UserProfile, USERS_PAGE_SIZE, type UsersPage } from '@termpaste/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { decodeCursor, encodeCursor } from '../../common/keyset-cursor.js';
import { containsPattern } from '../../common/like-pattern.js';
import { ownedActiveRank } from './author-sql.js';
import { bannedNow } from './user-sql.js';

type Db = Pick<DataSource | EntityManager, 'query'>;

/** A public profile as the users table holds it; the profiles module adds the newest pastes. */
export type PublicProfile = Omit<UserProfile, 'recentThreads'>;

/** The profile fields a user edits themselves; an absent or null one is cleared. */
export interface ProfileFields {
  firstName?: string | null | undefined;
  lastName?: string | null | undefined;
  bio?: string | null | undefined;
}

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

/**
 * The users directory: users by reputation (highest first, then newest), keyset-paged 50 at a time;
 * `filter` keeps those whose username contains it, in any letter case (the trigram index serves it).
 */
export async function directoryPage(db: Db, filter: string, cursor?: string): Promise<UsersPage> {
  // The cursor: the last user's (reputation, id).
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
  const rows: DirectoryRow[] = await db.query(
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

/** User `userId`'s public fields, or null when there is no such account. */
export async function publicProfile(db: Db, userId: number): Promise<PublicProfile | null> {
  const [user]: Array<Record<string, unknown>> = await db.query(
    `SELECT u.id, u.username::text AS username, u.first_name, u.last_name, u.avatar_url,
       u.profile_image_url, u.bio, u.reputation, ${ownedActiveRank('u')} AS active_premium_rank,
       u.owned_premium_ranks, u.thread_count, u.reply_count, u.created_at, u.is_admin, u.is_owner,
       ${bannedNow('u')} AS is_banned
     FROM users u WHERE u.id = $1`,
    [userId],
  );
  if (!user) return null;
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
  };
}

/** Replaces first name, last name and bio. */
export async function setProfileFields(db: Db, userId: number, fields: ProfileFields): Promise<void> {
  await db.query(
    'UPDATE users SET first_name = $2, last_name = $3, bio = $4, updated_at = now() WHERE id = $1',
    [userId, fields.firstName ?? null, fields.lastName ?? null, fields.bio ?? null],
  );
}

/** The user's avatar URL, their row locked until `manager`'s transaction ends; undefined: no such account. */
export async function lockAvatarUrl(
  manager: EntityManager,
  userId: number,
): Promise<{ avatarUrl: string | null } | undefined> {
  const [row]: Array<{ avatar_url: string | null }> = await manager.query(
    'SELECT avatar_url FROM users WHERE id = $1 FOR UPDATE',
    [userId],
  );
  return row && { avatarUrl: row.avatar_url };
}

/** Sets the user's avatar URL, in `manager`'s transaction. */
export async function setAvatarUrl(manager: EntityManager, userId: number, avatarUrl: string): Promise<void> {
  await manager.query('UPDATE users SET avatar_url = $2, updated_at = now() WHERE id = $1', [
    userId,
    avatarUrl,
  ]);
}
