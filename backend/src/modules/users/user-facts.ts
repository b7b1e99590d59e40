import type { PublicAuthor } from '@termpaste/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { authorJson } from './author-sql.js';

type Db = Pick<DataSource | EntityManager, 'query'>;

/** What staff see of a member in the review queue: their public face and their standing. */
export interface UserFacts {
  id: number;
  author: PublicAuthor;
  username: string;
  bio: string | null;
  joinedAt: Date;
  pastes: number;
  replies: number;
  isAdmin: boolean;
  isBanned: boolean;
  bannedUntil: Date | null;
  silencedUntil: Date | null;
}

/** Members `ids` (those whose accounts still exist), for the review queue and flags of members. */
export async function userFacts(db: Db, ids: readonly number[]): Promise<Map<number, UserFacts>> {
  if (ids.length === 0) return new Map();
  const rows: Array<{
    id: number;
    author: PublicAuthor;
    username: string;
    bio: string | null;
    created_at: Date;
    thread_count: number;
    reply_count: number;
    is_admin: boolean;
    is_banned: boolean;
    banned_until: Date | null;
    silenced_until: Date | null;
  }> = await db.query(
    `SELECT u.id, ${authorJson('u')} AS author, u.username::text AS username, u.bio, u.created_at,
       u.thread_count, u.reply_count, u.is_admin, u.is_banned, u.banned_until, u.silenced_until
     FROM users u WHERE u.id = ANY ($1::int[])`,
    [ids],
  );
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        author: row.author,
        username: row.username,
        bio: row.bio,
        joinedAt: row.created_at,
        pastes: row.thread_count,
        replies: row.reply_count,
        isAdmin: row.is_admin,
        isBanned: row.is_banned,
        bannedUntil: row.banned_until,
        silencedUntil: row.silenced_until,
      },
    ]),
  );
}

/** Every admin's id (the review queue's live count goes to each). */
export async function adminIds(db: Db): Promise<number[]> {
  const rows: Array<{ id: number }> = await db.query('SELECT id FROM users WHERE is_admin ORDER BY id');
  return rows.map((row) => row.id);
}
