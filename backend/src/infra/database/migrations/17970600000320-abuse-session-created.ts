import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When each session was created, for SESSION_MAX_AGE_DAYS. Existing sessions count from the upgrade:
 * ending them all at once would sign everybody out. A default of now() rewrites nothing.
 */
export class SessionCreatedAbuse17970600000320 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE sessions ADD COLUMN created_at timestamptz NOT NULL DEFAULT now()');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE sessions DROP COLUMN created_at');
  }
}
