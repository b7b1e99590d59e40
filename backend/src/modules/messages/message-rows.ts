import type { PrivateMessage, PublicAuthor } from '@termpaste/contracts';
import { createdMicros } from '../../common/keyset-cursor.js';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { authorJson } from '../users/author-sql.js';
import { Message } from './entities/message.entity.js';

const COLUMNS = ['id', 'subject', 'content', 'createdAt', 'isRead', 'recipientAddress'] as const;

/** The columns of a message `m`, with its sender `s` and recipient `r` joined. */
export const MESSAGE_SELECT = `${selectColumns(Message, 'm', COLUMNS)},
  ${createdMicros('m')} AS "createdMicros", ${authorJson('s')} AS sender, ${authorJson('r')} AS recipient`;

export type MessageRow = Row<Message, (typeof COLUMNS)[number]> & {
  createdMicros: string;
  sender: PublicAuthor | null;
  recipient: PublicAuthor | null;
};

/**
 * The message as `view` sees it: its sender never learns which member an e-mail address reached (the
 * address as typed instead), its recipient sees themselves and not the address.
 */
export function toMessage(row: MessageRow, view: 'sender' | 'recipient'): PrivateMessage {
  const byAddress = view === 'sender' ? row.recipientAddress : null;
  return {
    id: row.id,
    sender: row.sender,
    recipient: byAddress === null ? row.recipient : null,
    recipientAddress: byAddress,
    subject: row.subject,
    content: row.content,
    createdAt: row.createdAt.toISOString(),
    isRead: row.isRead,
  };
}
