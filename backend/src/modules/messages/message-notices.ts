import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { NoticeBuilder } from '../notifications/notice-registry.js';
import { type MessageJobData, notificationSource } from '../notifications/notifications.queue.js';
import { authorJoin } from '../users/author-sql.js';

/** A new private message, as its notification job reads it. */
export interface MessageNotice {
  subject: string;
  senderId: number | null;
  /** The sender's username; null once their account is gone. */
  sender: string | null;
  recipientId: number | null;
  isRead: boolean;
}

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
      `SELECT m.subject, m.sender_id AS "senderId", s.username::text AS sender, m.recipient_id AS "recipientId",
         m.is_read AS "isRead"
       FROM private_messages m ${authorJoin('s', 'm.sender_id')} WHERE m.id = $1`,
      [messageId],
    );
    return row;
  }
}
