import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Uploads handed out but not yet claimed, so the sweep can delete unclaimed files (docs/schema.md). */
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
