import type { PublicAuthor } from '@termpaste/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { authorJson } from './author-sql.js';
import { User } from './entities/user.entity.js';

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

const FACT_COLUMNS = [
  'id',
  'username',
  'bio',
  'createdAt',
  'threadCount',
  'replyCount',
  'isAdmin',
  'isBanned',
  'bannedUntil',
  'silencedUntil',
] as const;
const FACTS_SELECT = `${selectColumns(User, 'u', FACT_COLUMNS)}, ${authorJson('u')} AS author`;

type FactsRow = Row<User, (typeof FACT_COLUMNS)[number]> & { author: PublicAuthor };

const toFacts = ({ createdAt, threadCount, replyCount, ...row }: FactsRow): UserFacts => ({
  ...row,
  joinedAt: createdAt,
  pastes: threadCount,
  replies: replyCount,
});

/** Members `ids` (those whose accounts still exist), for the review queue and flags of members. */
export async function userFacts(db: Db, ids: readonly number[]): Promise<Map<number, UserFacts>> {
  if (ids.length === 0) return new Map();
  const rows: FactsRow[] = await db.query(
    `SELECT ${FACTS_SELECT} FROM users u WHERE u.id = ANY ($1::int[])`,
    [ids],
  );
  return new Map(rows.map((row) => [row.id, toFacts(row)]));
}

/** Every admin's id (the review queue's live count goes to each). */
export async function adminIds(db: Db): Promise<number[]> {
  const rows: Array<Row<User, 'id'>> = await db.query('SELECT id FROM users WHERE is_admin ORDER BY id');
  return rows.map((row) => row.id);
}
