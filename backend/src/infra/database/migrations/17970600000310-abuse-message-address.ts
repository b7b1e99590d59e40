import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The e-mail address a private message was sent to, as the sender typed it; NULL for a message sent to
 * a username (every message before this). The sender's views show it instead of the member it reached, so
 * sending by e-mail never tells who owns an address. A nullable column without a default rewrites nothing.
 */
export class MessageAddressAbuse17970600000310 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE private_messages ADD COLUMN recipient_address text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE private_messages DROP COLUMN recipient_address');
  }
}
