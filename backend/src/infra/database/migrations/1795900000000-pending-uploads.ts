import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Uploads handed out but not yet claimed (SPEC §7 upload flow: `POST /api/objects/upload`, the PUT, then
 * `PUT /api/user/avatar`). A row is written with each presigned address and removed when the member makes
 * the object their avatar; the uploads sweep deletes the objects of rows older than its grace period, so
 * files uploaded and never claimed do not pile up in storage. No foreign key: a deleted member's unclaimed
 * objects are swept too.
 */
export class PendingUploads1795900000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE pending_uploads (
        key text PRIMARY KEY,
        user_id integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX pending_uploads_created_idx ON pending_uploads (created_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE pending_uploads');
  }
}
