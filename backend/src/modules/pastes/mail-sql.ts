import { hiddenByBlockSql } from '../screening/people-sql.js';
import { authorJoin } from '../users/author-sql.js';
import { listedSql } from './visibility.js';

/*
 * Read-only fragments for the mails of the mailings module: whether what a notification names is still
 * shown, and the digest's top pastes. Arguments are SQL expressions.
 */

/**
 * A notification's `source` (`reply:<id>`) names a reply still shown: not deleted, not hidden, not removed
 * for good. Any other source: true.
 */
export const replySourceShownSql = (source: string) =>
  `(CASE WHEN ${source} ~ '^reply:[0-9]+$' THEN EXISTS (SELECT 1 FROM replies shown
    WHERE shown.id = substring(${source} from 7)::integer AND shown.deleted_at IS NULL
      AND shown.hidden_at IS NULL) ELSE true END)`;

/** A digest's paste: listed ones only, so its number is its ref. */
export interface DigestPaste {
  id: number;
  title: string;
  language: string | null;
  voteScore: number;
  replyCount: number;
  author: string | null;
}

/**
 * The top listed pastes created since `since`, by votes and replies, none by a member `viewer` blocked;
 * `$limit` at most. Columns as DigestPaste.
 */
export const topPastesSql = (since: string, viewer: string, limit: string) =>
  `SELECT t.id, t.title, t.language, t.vote_score AS "voteScore", t.reply_count AS "replyCount",
     a.username::text AS author
   FROM threads t ${authorJoin('a', 't.author_id')}
   WHERE ${listedSql('t')} AND t.created_at >= ${since} AND NOT ${hiddenByBlockSql(viewer, 't.author_id')}
   ORDER BY t.vote_score + t.reply_count DESC, t.created_at DESC, t.id DESC
   LIMIT ${limit}`;
