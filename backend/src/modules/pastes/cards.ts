import type { PublicAuthor, ThreadCard } from '@termpaste/contracts';
import { REF_COLUMNS, refOf, type RefRow } from './visibility.js';
import { createdMicros } from '../../common/keyset-cursor.js';
import { authorJoin, authorJson } from '../users/author-sql.js';

/** A paste's card, as every list shows it (home, featured, search, a profile): its columns and joins. */
export const CARD_COLUMNS = `t.id, t.title, t.created_at, t.view_count, t.vote_score, t.reply_count, t.is_pinned,
  t.is_locked, t.is_featured, t.last_reply_at, t.expires_at, ${REF_COLUMNS('t')},
  ${createdMicros('t')} AS "createdMicros",
  ${authorJson('a')} AS author, ${authorJson('l')} AS last_reply_author`;

export const CARD_FROM = `threads t ${authorJoin('a', 't.author_id')}
  ${authorJoin('l', 't.last_reply_author_id')}`;

export interface CardRow extends RefRow {
  expires_at: Date | null;
  id: number;
  title: string;
  created_at: Date;
  view_count: number;
  vote_score: number;
  reply_count: number;
  is_pinned: boolean;
  is_locked: boolean;
  is_featured: boolean;
  last_reply_at: Date | null;
  createdMicros: string;
  author: PublicAuthor | null;
  last_reply_author: PublicAuthor | null;
}

export function toCard(row: CardRow): ThreadCard {
  return {
    id: refOf(row.id, row),
    title: row.title,
    createdAt: row.created_at.toISOString(),
    author: row.author,
    viewCount: row.view_count,
    voteScore: row.vote_score,
    replyCount: row.reply_count,
    isPinned: row.is_pinned,
    isLocked: row.is_locked,
    isFeatured: row.is_featured,
    lastReplyAt: row.last_reply_at?.toISOString() ?? null,
    lastReplyAuthor: row.last_reply_author,
    visibility: row.pasteVisibility,
    expiresAt: row.expires_at?.toISOString() ?? null,
  };
}
