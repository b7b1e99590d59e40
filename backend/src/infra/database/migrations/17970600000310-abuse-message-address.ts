import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The address a message was sent to, as typed (NULL when sent to a username): the sender sees it instead
 * of the member it reached, so sending by e-mail never tells who owns an address.
 */
export class MessageAddressAbuse17970600000310 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE private_messages ADD COLUMN recipient_address text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE private_messages DROP COLUMN recipient_address');
  }
}
