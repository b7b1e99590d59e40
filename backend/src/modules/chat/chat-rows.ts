import type { ChatMessage as ChatMessageShape, PublicAuthor } from '@termpaste/contracts';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { ChatMessage } from './entities/chat-message.entity.js';

const CHAT_COLUMNS = ['id', 'content', 'createdAt'] as const;

/** A chat line as members read it: its columns with the line as `alias`, beside its author. */
export const chatColumns = (alias: string): string => selectColumns(ChatMessage, alias, CHAT_COLUMNS);

export type ChatRow = Row<ChatMessage, (typeof CHAT_COLUMNS)[number]> & {
  author: PublicAuthor | null;
  /** Not selected for a line just posted. */
  hidden?: boolean;
};

export function toChatMessage({ id, content, createdAt, author, hidden = false }: ChatRow): ChatMessageShape {
  return {
    id,
    // A hidden line's text is nobody's: everyone gets the same history, shown as a placeholder.
    content: hidden ? '' : content,
    createdAt: createdAt.toISOString(),
    author,
    hidden,
  };
}

/** A chat line as the review queue and flags read it. */
export const LINE_COLUMNS = ['id', 'authorId', 'content', 'createdAt'] as const;
export type LineRow = Row<ChatMessage, (typeof LINE_COLUMNS)[number]> & { hidden: boolean };
