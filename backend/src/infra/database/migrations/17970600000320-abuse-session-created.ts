import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When each session was created (its sign-in: a sign-in always starts a new session id), for the
 * sessions' absolute lifetime (SESSION_MAX_AGE_DAYS). Sessions stored before this count from the
 * upgrade: their sign-in time was never kept, and ending them all at once would sign everybody out. A
 * default of now() is evaluated once for the existing rows and rewrites nothing.
 */
export class SessionCreatedAbuse17970600000320 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE sessions ADD COLUMN created_at timestamptz NOT NULL DEFAULT now()');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE sessions DROP COLUMN created_at');
  }
}
