import {
  BadRequestException,
  ForbiddenException,
  Injectable,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import {
  LIVE_EVENT,
  MODERATION_MESSAGES,
  MESSAGES_PAGE_SIZE,
  type MessagesPage,
  MESSAGING_MESSAGES,
  type PrivateMessage,
  type SendMessageBody,
} from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import { keysetPage } from '../../common/keyset-cursor.js';
import { EventsPort } from '../../infra/events/events.port.js';
import { outboxInsertSql } from '../../infra/outbox/outbox.js';
import { traceparent } from '../../infra/tracing/tracing.js';
import { OutboxService } from '../../infra/outbox/outbox.service.js';
import { notificationJobSql, notificationSource } from '../notifications/notifications.queue.js';
import { blockedBySql, hiddenByBlockSql } from '../screening/people-sql.js';
import { PeopleService } from '../screening/people.service.js';
import { NotificationsService } from '../notifications/notifications.service.js';
import { authorJoin } from '../users/author-sql.js';
import type { User } from '../users/entities/user.entity.js';
import { existingUser, userIdByEmail, staffExcept } from '../users/user-sql.js';
import { UsersService } from '../users/users.service.js';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { Message } from './entities/message.entity.js';
import { MESSAGE_SELECT, type MessageRow, toMessage } from './message-rows.js';

const WITH_PEOPLE = (from: string) => `${from} m ${authorJoin('s', 'm.sender_id')}
  ${authorJoin('r', 'm.recipient_id')}`;

/**
 * In the statement that stores messages (CTE `m`): each one's notification job, to the outbox, with the
 * trace in parameter `traceparent`.
 */
const messageJobSql = (traceparent: string): string =>
  outboxInsertSql('m', notificationJobSql('message', traceparent)).sql;

/** Whom a message to an address reached, beside MESSAGE_SELECT. */
const RECIPIENT_ID = selectColumns(Message, 'm', ['recipientId']);

/** Staff reach every member, whoever blocked them. */
const isStaff = (user: Pick<User, 'isAdmin' | 'isOwner'>) => user.isAdmin || user.isOwner;

/** Private messages between members: the inbox, the sent list, sending and reading. */
@Injectable()
export class MessagesService {
  private readonly logger = new Logger('Messages');

  constructor(
    private readonly dataSource: DataSource,
    private readonly notifications: NotificationsService,
    private readonly events: EventsPort,
    private readonly outbox: OutboxService,
    private readonly users: UsersService,
    private readonly people: PeopleService,
  ) {}

  /**
   * Messages to the member (`inbox`: not those of a member they blocked) or from them (`sent`), newest
   * first, MESSAGES_PAGE_SIZE a page.
   */
  async list(userId: number, box: 'inbox' | 'sent', cursor?: string): Promise<MessagesPage> {
    const { rows, nextCursor } = await keysetPage<MessageRow>(
      (sql, params) => this.dataSource.query(sql, params),
      {
        alias: 'm',
        select: MESSAGE_SELECT,
        from: WITH_PEOPLE('private_messages'),
        // A member the recipient blocked is out of their inbox (until unblocked); the sent list is as sent.
        where:
          box === 'inbox'
            ? `m.recipient_id = $1 AND NOT ${hiddenByBlockSql('$1', 'm.sender_id')}`
            : 'm.sender_id = $1',
        params: [userId],
        pageSize: MESSAGES_PAGE_SIZE,
        cursor,
      },
    );
    const view = box === 'inbox' ? 'recipient' : 'sender';
    return { messages: rows.map((row) => toMessage(row, view)), nextCursor };
  }

  /**
   * Sends a message to the member named by `recipientEmail`: an e-mail address or a username, either in
   * any letter case. Stored with its notification job (to the outbox); then the message is pushed live.
   */
  async send(sender: User, body: SendMessageBody): Promise<PrivateMessage> {
    // A username cannot hold `@`; an e-mail address always does.
    if (body.recipientEmail.includes('@')) return this.sendToAddress(sender, body);
    const recipient = await this.users.findByUsername(body.recipientEmail);
    if (!recipient) throw new NotFoundException(MESSAGING_MESSAGES.userNotFound);
    if (recipient.id === sender.id) throw new BadRequestException(MESSAGING_MESSAGES.messageToSelf);
    if (!isStaff(sender) && (await this.people.blocks(this.dataSource, recipient.id, sender.id))) {
      throw new ForbiddenException(MODERATION_MESSAGES.blockedYou);
    }
    // One statement, with the notification job: committed when it returns. A recipient deleted meanwhile
    // leaves recipient_id NULL.
    const [row]: MessageRow[] = await this.dataSource.query(
      `WITH m AS (
         INSERT INTO private_messages (sender_id, recipient_id, subject, content)
         SELECT $1, u.id, $3, $4 FROM (${existingUser('$2')}) u
         RETURNING *), queued AS (${messageJobSql('$5')})
       SELECT ${MESSAGE_SELECT} FROM ${WITH_PEOPLE('m')}`,
      [sender.id, recipient.id, body.subject, body.content, traceparent()],
    );
    if (!row) throw new NotFoundException(MESSAGING_MESSAGES.userNotFound);
    this.outbox.committed();
    await this.announce(toMessage(row, 'recipient'), recipient.id);
    return toMessage(row, 'sender');
  }

  /**
   * A message to an e-mail address answers the same whether a member has it or not (201, no recipient), so
   * sending cannot match addresses to members: one statement either way, and an address nobody has (or
   * whose member blocked the sender) keeps the message in the sent list only.
   */
  private async sendToAddress(sender: User, body: SendMessageBody): Promise<PrivateMessage> {
    const address = body.recipientEmail;
    // Only the sender's own address is refused: they know it already, so that tells them nothing.
    if (address.toLowerCase() === sender.email.toLowerCase()) {
      throw new BadRequestException(MESSAGING_MESSAGES.messageToSelf);
    }
    const [row]: Array<MessageRow & Row<Message, 'recipientId'>> = await this.dataSource.query(
      `WITH m AS (
         INSERT INTO private_messages (sender_id, recipient_id, recipient_address, subject, content)
         SELECT $1, (SELECT r.id FROM (${userIdByEmail('$2::text')}) r
                     WHERE $5 OR NOT ${blockedBySql('r.id', '$1')}), $2::text, $3, $4
         RETURNING *), queued AS (${messageJobSql('$6')})
       SELECT ${MESSAGE_SELECT}, ${RECIPIENT_ID} FROM ${WITH_PEOPLE('m')}`,
      [sender.id, address, body.subject, body.content, isStaff(sender), traceparent()],
    );
    this.outbox.committed();
    // Not awaited: the answer must not take longer when the address is a member's.
    if (row!.recipientId !== null && row!.recipientId !== sender.id) {
      void this.announce(toMessage(row!, 'recipient'), row!.recipientId);
    }
    return toMessage(row!, 'sender');
  }

  /**
   * A support request (`POST /api/support`): one private message to the owner and to every admin, except
   * the sender and banned accounts, stored in one statement with their notification jobs, then each
   * pushed live as any message. Returns the messages sent (none when the sender is the only staff member).
   */
  async sendToStaff(sender: User, subject: string, content: string): Promise<PrivateMessage[]> {
    const rows: MessageRow[] = await this.dataSource.query(
      `WITH m AS (
         INSERT INTO private_messages (sender_id, recipient_id, subject, content)
         SELECT $1, u.id, $2, $3 FROM (${staffExcept('$1')}) u
         ORDER BY u.id
         RETURNING *), queued AS (${messageJobSql('$4')})
       SELECT ${MESSAGE_SELECT} FROM ${WITH_PEOPLE('m')} ORDER BY m.id`,
      [sender.id, subject, content, traceparent()],
    );
    const messages = rows.map((row) => toMessage(row, 'recipient'));
    if (messages.length > 0) this.outbox.committed();
    for (const message of messages) {
      if (message.recipient) await this.announce(message, message.recipient.id);
    }
    return messages;
  }

  /** Once a message is stored (its notification job with it): the message is pushed live. */
  private async announce(message: PrivateMessage, recipientId: number): Promise<void> {
    try {
      await this.events.publish({
        to: 'user',
        userId: recipientId,
        event: { type: LIVE_EVENT.privateMessage, message },
      });
    } catch (error) {
      this.logger.warn(
        `Live private_message event not published: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /**
   * Marks a message read, and its 'message' notification with it, for its recipient only (anyone else: 404,
   * as for a message that does not exist; so is one from a member the recipient blocked, as in the inbox).
   */
  async markRead(userId: number, messageId: number): Promise<PrivateMessage> {
    const [row]: MessageRow[] = await this.dataSource.query(
      `WITH m AS (
         UPDATE private_messages SET is_read = true
         WHERE id = $1 AND recipient_id = $2 AND NOT ${hiddenByBlockSql('$2', 'sender_id')} RETURNING *)
       SELECT ${MESSAGE_SELECT} FROM ${WITH_PEOPLE('m')}`,
      [messageId, userId],
    );
    if (!row) throw new NotFoundException(MESSAGING_MESSAGES.messageNotFound);
    await this.notifications.markSourceRead(userId, notificationSource('message', messageId));
    return toMessage(row, 'recipient');
  }
}
