import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The transactional outbox (infra/outbox). Rows come and go all the time, so autovacuum runs every 1000
 * dead rows: the relay's `ORDER BY id LIMIT n` then never walks far through dead index entries.
 */
export class Outbox1796500000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE outbox (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        queue text NOT NULL,
        name text NOT NULL,
        data jsonb NOT NULL,
        job_id text,
        created_at timestamptz NOT NULL DEFAULT now()
      ) WITH (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE outbox');
  }
}
