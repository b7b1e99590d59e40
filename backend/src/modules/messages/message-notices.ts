import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { NoticeBuilder } from '../notifications/notice-registry.js';
import { type MessageJobData, notificationSource } from '../notifications/notifications.queue.js';
import { authorJoin } from '../users/author-sql.js';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { Message } from './entities/message.entity.js';

const NOTICE_COLUMNS = ['subject', 'senderId', 'recipientId', 'isRead'] as const;
const NOTICE_SELECT = selectColumns(Message, 'm', NOTICE_COLUMNS);

/** A new private message, as its notification job reads it: with the sender's username, null once gone. */
export type MessageNotice = Row<Message, (typeof NOTICE_COLUMNS)[number]> & { sender: string | null };

/**
 * The notifications of a new private message, for the notifications module's jobs (registered with its
 * NoticeRegistry by MessageNoticesModule): reads it from the messages module's table.
 */
@Injectable()
export class MessageNotices {
  constructor(private readonly dataSource: DataSource) {}

  /** A new private message: its recipient, unless they have opened it already. */
  readonly builder: NoticeBuilder = {
    idKey: 'messageId' satisfies keyof MessageJobData,
    build: async (messageId) => {
      const message = await this.message(messageId);
      if (!message || message.senderId === null || message.sender === null) return undefined;
      if (message.recipientId === null || message.recipientId === message.senderId) return undefined;
      // Opened before this job ran: the recipient has seen it, so a notification would only be noise.
      if (message.isRead) return undefined;
      return {
        actorId: message.senderId,
        due: [
          {
            userId: message.recipientId,
            type: 'message',
            content: `${message.sender} sent you a message: "${message.subject}"`,
            threadId: null,
            actorId: message.senderId,
            source: notificationSource('message', messageId),
          },
        ],
      };
    },
  };

  /** The message, or undefined when it is gone. */
  async message(messageId: number): Promise<MessageNotice | undefined> {
    const [row]: MessageNotice[] = await this.dataSource.query(
      `SELECT ${NOTICE_SELECT}, s.username::text AS sender
       FROM private_messages m ${authorJoin('s', 'm.sender_id')} WHERE m.id = $1`,
      [messageId],
    );
    return row;
  }
}
