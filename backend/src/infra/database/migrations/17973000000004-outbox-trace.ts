import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each outbox row may carry the trace of the write it follows (a W3C traceparent, with tracing on), so
 * its job's spans join that trace. Nullable, no default: adding it rewrites nothing.
 */
export class OutboxTrace17973000000004 implements MigrationInterface {
  name = 'OutboxTrace17973000000004';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE outbox ADD COLUMN traceparent text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE outbox DROP COLUMN traceparent');
  }
}
