import { Injectable, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
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
 * What the notifications module's job reads of a new private message (the messages module's table). On
 * its own, with no dependencies, so the notifications module can import it while the messages module
 * imports the notifications module.
 */
@Injectable()
export class MessageNotices {
  constructor(private readonly dataSource: DataSource) {}

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

@Module({ providers: [MessageNotices], exports: [MessageNotices] })
export class MessageNoticesModule {}
