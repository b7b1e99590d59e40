import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Private messages, notifications and chat, keyset-paged on (created_at, id). A notification is unique
 * per member and source (`reply:12`), so its job can run twice; unread counts are kept on write.
 */
export class Messaging1795700000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE private_messages (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        sender_id integer REFERENCES users (id) ON DELETE SET NULL,
        recipient_id integer REFERENCES users (id) ON DELETE SET NULL,
        subject text NOT NULL,
        content text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        is_read boolean NOT NULL DEFAULT false
      )`);
    await queryRunner.query(
      'CREATE INDEX private_messages_inbox_idx ON private_messages (recipient_id, created_at DESC, id DESC)',
    );
    await queryRunner.query(
      'CREATE INDEX private_messages_sent_idx ON private_messages (sender_id, created_at DESC, id DESC)',
    );

    await queryRunner.query(`
      CREATE TABLE notifications (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        type text NOT NULL,
        content text NOT NULL,
        thread_id integer REFERENCES threads (id) ON DELETE SET NULL,
        actor_id integer REFERENCES users (id) ON DELETE SET NULL,
        source text NOT NULL,
        is_read boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT notifications_type_check CHECK (type IN ('reply', 'message', 'mention')),
        CONSTRAINT notifications_once_key UNIQUE (user_id, source)
      )`);
    await queryRunner.query(
      'CREATE INDEX notifications_user_idx ON notifications (user_id, created_at DESC, id DESC)',
    );
    await queryRunner.query(`
      CREATE TABLE notification_counters (
        user_id integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        unread integer NOT NULL DEFAULT 0 CHECK (unread >= 0)
      )`);

    await queryRunner.query(`
      CREATE TABLE chat_messages (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        author_id integer REFERENCES users (id) ON DELETE SET NULL,
        content text NOT NULL CHECK (char_length(content) BETWEEN 1 AND 500),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await queryRunner.query(
      'CREATE INDEX chat_messages_recent_idx ON chat_messages (created_at DESC, id DESC)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE chat_messages');
    await queryRunner.query('DROP TABLE notification_counters');
    await queryRunner.query('DROP TABLE notifications');
    await queryRunner.query('DROP TABLE private_messages');
  }
}
