import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When an upload's presigned PUT address was used (`PUT /api/uploads/<key>`): the address takes one
 * upload only. Set as a PUT starts, cleared again when it is refused or interrupted (so the client may
 * send it again), kept once the file is stored.
 */
export class AvatarPutUploads17970500000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE pending_uploads ADD COLUMN put_at timestamptz');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE pending_uploads DROP COLUMN put_at');
  }
}
