import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The paste count over 16 slots, so concurrent writes stop queueing on one row's lock (docs/schema.md). */
export class ForumStatsSlots1796020000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE forum_stats ADD COLUMN slot smallint NOT NULL DEFAULT 0');
    // Dropping the old key column drops its primary key and its CHECK (id) with it.
    await queryRunner.query('ALTER TABLE forum_stats DROP COLUMN id');
    await queryRunner.query(`
      ALTER TABLE forum_stats ALTER COLUMN slot DROP DEFAULT,
        ADD CONSTRAINT forum_stats_pkey PRIMARY KEY (slot),
        ADD CONSTRAINT forum_stats_slot_check CHECK (slot BETWEEN 0 AND 15)`);
    await queryRunner.query(
      'INSERT INTO forum_stats (slot, thread_count) SELECT s, 0 FROM generate_series(1, 15) s',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'UPDATE forum_stats SET thread_count = (SELECT GREATEST(sum(thread_count), 0) FROM forum_stats) WHERE slot = 0',
    );
    await queryRunner.query('DELETE FROM forum_stats WHERE slot <> 0');
    await queryRunner.query(`
      ALTER TABLE forum_stats DROP CONSTRAINT forum_stats_pkey, DROP CONSTRAINT forum_stats_slot_check,
        ADD COLUMN id boolean NOT NULL DEFAULT true CHECK (id)`);
    await queryRunner.query('ALTER TABLE forum_stats ADD PRIMARY KEY (id), DROP COLUMN slot');
  }
}
