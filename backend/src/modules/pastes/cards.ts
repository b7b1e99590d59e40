import { REF_COLUMNS } from './visibility.js';
import { createdMicros } from '../../common/keyset-cursor.js';
import { selectColumns } from '../../infra/database/columns.js';
import { authorJoin, authorJson } from '../users/author-sql.js';
import { Paste } from './entities/paste.entity.js';
import { CARD_PROPERTIES } from './paste-rows.js';

/**
 * A paste's card, as every list shows it (home, featured, search, a profile): its columns and joins,
 * read as a CardRow (paste-rows.ts).
 */
export const CARD_COLUMNS = `${selectColumns(Paste, 't', CARD_PROPERTIES)}, ${REF_COLUMNS('t')},
  ${createdMicros('t')} AS "createdMicros",
  ${authorJson('a')} AS author, ${authorJson('l')} AS "lastReplyAuthor"`;

export const CARD_FROM = `threads t ${authorJoin('a', 't.author_id')}
  ${authorJoin('l', 't.last_reply_author_id')}`;
