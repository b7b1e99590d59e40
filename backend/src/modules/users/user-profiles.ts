import { type UserProfile, USERS_PAGE_SIZE, type UsersPage } from '@termpaste/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { decodeCursor, encodeCursor } from '../../common/keyset-cursor.js';
import { containsPattern } from '../../common/like-pattern.js';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { User } from './entities/user.entity.js';
import {
  DIRECTORY_SELECT,
  type DirectoryRow,
  PROFILE_SELECT,
  type ProfileRow,
  toDirectoryUser,
  toPublicProfile,
} from './user-rows.js';

type Db = Pick<DataSource | EntityManager, 'query'>;

/** A public profile as the users table holds it; the profiles module adds the newest pastes. */
export type PublicProfile = Omit<UserProfile, 'recentThreads'>;

/** The profile fields a user edits themselves; an absent or null one is cleared. */
export interface ProfileFields {
  firstName?: string | null | undefined;
  lastName?: string | null | undefined;
  bio?: string | null | undefined;
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
    `SELECT ${DIRECTORY_SELECT}
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
  const [row]: ProfileRow[] = await db.query(`SELECT ${PROFILE_SELECT} FROM users u WHERE u.id = $1`, [
    userId,
  ]);
  return row ? toPublicProfile(row) : null;
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
  const [row]: Array<Row<User, 'avatarUrl'>> = await manager.query(
    `SELECT ${selectColumns(User, 'u', ['avatarUrl'])} FROM users u WHERE u.id = $1 FOR UPDATE`,
    [userId],
  );
  return row;
}

/** Sets the user's avatar URL, in `manager`'s transaction. */
export async function setAvatarUrl(manager: EntityManager, userId: number, avatarUrl: string): Promise<void> {
  await manager.query('UPDATE users SET avatar_url = $2, updated_at = now() WHERE id = $1', [
    userId,
    avatarUrl,
  ]);
}
