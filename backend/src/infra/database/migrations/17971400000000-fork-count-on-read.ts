import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The fork count is counted on read, not kept on write: otherwise every way a fork can go (deleted,
 * expired, burnt, hidden) would have to move it. The column goes.
 */
export class ForkCountOnRead17971400000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE threads DROP COLUMN fork_count');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE threads ADD COLUMN fork_count integer NOT NULL DEFAULT 0');
    await queryRunner.query(`
      UPDATE threads t SET fork_count = f.count
      FROM (SELECT forked_from_id AS id, count(*)::int AS count FROM threads WHERE listed GROUP BY 1) f
      WHERE f.id = t.id`);
  }
}
