import { Injectable, Logger } from '@nestjs/common';
import {
  CHAT_HISTORY_SIZE,
  type ChatMessage,
  LIVE_EVENT,
  rankChanges,
  REPUTATION,
} from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { announcePagesChanged, EventsPort } from '../../infra/events/events.port.js';
import { ReputationService } from '../ranks/reputation.service.js';
import { authorJoin, authorJson } from '../users/author-sql.js';
import type { User } from '../users/entities/user.entity.js';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { ChatMessage as ChatMessageEntity } from './entities/chat-message.entity.js';
import { chatColumns, type ChatRow, LINE_COLUMNS, type LineRow, toChatMessage } from './chat-rows.js';

/** A chat message as the review queue and flags read it. */
export type ChatLine = LineRow;

const LINE_SELECT = selectColumns(ChatMessageEntity, 'm', LINE_COLUMNS);

/** The global chat: one store behind both API variants, live through the events port. */
@Injectable()
export class ChatService {
  private readonly logger = new Logger('Chat');

  constructor(
    private readonly dataSource: DataSource,
    private readonly events: EventsPort,
    private readonly reputation: ReputationService,
  ) {}

  /**
   * Hides (`hidden`) or shows chat message `messageId` pending review, in `manager`'s transaction (the
   * moderation module's way to this table); answers its author, or null when it is missing or already so.
   */
  async setHidden(
    manager: EntityManager,
    messageId: number,
    hidden: boolean,
  ): Promise<{ authorId: number | null } | null> {
    // An UPDATE answers [rows, count] through TypeORM.
    const [[row]]: [Array<Row<ChatMessageEntity, 'authorId'>>, number] = await manager.query(
      `UPDATE chat_messages SET hidden_at = ${hidden ? 'now()' : 'NULL'}
       WHERE id = $1 AND (hidden_at IS NULL) = $2
       RETURNING ${selectColumns(ChatMessageEntity, 'chat_messages', ['authorId'])}`,
      [messageId, hidden],
    );
    return row ?? null;
  }

  /** Chat messages `ids` (those still there), for a flag and the review queue. */
  async lines(db: DataSource | EntityManager, ids: readonly number[]): Promise<ChatLine[]> {
    if (ids.length === 0) return [];
    return db.query(
      `SELECT ${LINE_SELECT}, m.hidden_at IS NOT NULL AS hidden FROM chat_messages m WHERE m.id = ANY ($1::int[])`,
      [ids],
    );
  }

  /** Deletes chat message `messageId` (staff agreed with its flags), in `manager`'s transaction. */
  async remove(manager: EntityManager, messageId: number): Promise<boolean> {
    const [, count] = (await manager.query('DELETE FROM chat_messages WHERE id = $1', [messageId])) as [
      unknown,
      number,
    ];
    return count > 0;
  }

  /**
   * After the commit: every chat socket replaces the line with the placeholder (hidden or deleted), or
   * puts it back as it reads now (shown again). Best effort, as every live event.
   */
  async announceHidden(messageId: number, hidden: boolean): Promise<void> {
    try {
      if (hidden) {
        await this.events.publish({ to: 'all', event: { type: LIVE_EVENT.chatHidden, id: messageId } });
        return;
      }
      const [row]: ChatRow[] = await this.dataSource.query(
        `SELECT ${chatColumns('m')}, m.hidden_at IS NOT NULL AS hidden, ${authorJson('a')} AS author
         FROM chat_messages m ${authorJoin('a', 'm.author_id')} WHERE m.id = $1`,
        [messageId],
      );
      if (row) {
        await this.events.publish({
          to: 'all',
          event: { type: LIVE_EVENT.chatShown, message: toChatMessage(row) },
        });
      }
    } catch (error) {
      this.logger.warn(
        `Chat message ${messageId} not announced: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** The latest CHAT_HISTORY_SIZE messages, newest first. */
  async history(): Promise<ChatMessage[]> {
    const rows: ChatRow[] = await this.dataSource.query(
      `SELECT ${chatColumns('m')}, m.hidden_at IS NOT NULL AS hidden, ${authorJson('a')} AS author
       FROM chat_messages m ${authorJoin('a', 'm.author_id')}
       ORDER BY m.created_at DESC, m.id DESC LIMIT $1`,
      [CHAT_HISTORY_SIZE],
    );
    return rows.map(toChatMessage);
  }

  /**
   * A new message and the author's +1 reputation (within the day's cap, on the ledger) in one
   * transaction; once committed, it goes live to every socket in both shapes the clients read
   * (`chat_message` and `new_message`).
   */
  async post(author: User, content: string): Promise<ChatMessage> {
    let earned = 0;
    const message = await this.dataSource.transaction(async (manager) => {
      const [row]: ChatRow[] = await manager.query(
        `WITH m AS (
           INSERT INTO chat_messages (author_id, content) VALUES ($1, $2)
           RETURNING id, content, created_at, author_id
         )
         SELECT ${chatColumns('m')}, ${authorJson('a')} AS author
         FROM m ${authorJoin('a', 'm.author_id')}`,
        [author.id, content],
      );
      const change = await this.reputation.earn(manager, author.id, 'chat', REPUTATION.chatMessage, {
        sourceId: row!.id,
      });
      earned = change.points;
      // The author as they are now, the new reputation counted.
      if (row!.author) row!.author.reputation = change.reputation;
      return toChatMessage(row!);
    });
    await this.publish(message);
    await this.reputationChanged(author, earned);
    return message;
  }

  /**
   * The author's profile shows their reputation; every page they wrote on shows their rank, which
   * changes only at a threshold of the ladder.
   */
  private reputationChanged(author: User, earned: number): Promise<void> {
    if (earned === 0) return Promise.resolve();
    const change = rankChanges(author.reputation, earned)
      ? { all: true as const }
      : { profiles: [author.id] };
    return announcePagesChanged(this.events, change, this.logger);
  }

  /** The message is saved whatever happens here: a live event that cannot go out is only logged. */
  private async publish(message: ChatMessage): Promise<void> {
    try {
      await this.events.publish({ to: 'all', event: { type: LIVE_EVENT.chatMessage, message } });
      await this.events.publish({ to: 'all', event: { type: LIVE_EVENT.newMessage, message } });
    } catch (error) {
      this.logger.error(
        `Chat message ${message.id} saved but not sent live`,
        error instanceof Error ? error.stack : String(error),
      );
    }
  }
}
