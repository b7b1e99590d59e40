import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a presigned PUT address was used: it takes one upload only. Cleared when refused or interrupted,
 * so the client may retry; kept once the file is stored.
 */
export class AvatarPutUploads17970500000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE pending_uploads ADD COLUMN put_at timestamptz');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE pending_uploads DROP COLUMN put_at');
  }
}
