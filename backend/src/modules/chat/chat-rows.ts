import type { ChatMessage as ChatMessageShape, PublicAuthor } from '@termpaste/contracts';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { ChatMessage } from './entities/chat-message.entity.js';

const CHAT_COLUMNS = ['id', 'content', 'createdAt'] as const;

/** A chat line as members read it: its columns with the line as `alias`, beside its author. */
export const chatColumns = (alias: string): string => selectColumns(ChatMessage, alias, CHAT_COLUMNS);

export type ChatRow = Row<ChatMessage, (typeof CHAT_COLUMNS)[number]> & {
  author: PublicAuthor | null;
  hidden?: boolean;
};

export function toChatMessage({ id, content, createdAt, author, hidden }: ChatRow): ChatMessageShape {
  const shownHidden = hidden === true;
  return {
    id,
    // A hidden line's text is nobody's: everyone gets the same history, shown as a placeholder.
    content: shownHidden ? '' : content,
    createdAt: createdAt.toISOString(),
    author,
    hidden: shownHidden,
  };
}

/** A chat line as the review queue and flags read it. */
export const LINE_COLUMNS = ['id', 'authorId', 'content', 'createdAt'] as const;
export type LineRow = Row<ChatMessage, (typeof LINE_COLUMNS)[number]> & { hidden: boolean };
