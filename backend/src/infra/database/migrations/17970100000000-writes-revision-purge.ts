import type { MigrationInterface, QueryRunner } from 'typeorm';

const PURGE_ACTIONS = ['thread.revision_purge', 'reply.revision_purge'];

/** The audit actions the check allows now, read from the constraint itself (other migrations add theirs). */
async function auditActions(queryRunner: QueryRunner): Promise<string[]> {
  const [row]: Array<{ def: string }> = await queryRunner.query(
    `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'audit_log_action_check'`,
  );
  return [...(row?.def ?? '').matchAll(/'([^']+)'/g)].map((match) => match[1]!);
}

async function setAuditActions(queryRunner: QueryRunner, actions: string[]): Promise<void> {
  await queryRunner.query('ALTER TABLE audit_log DROP CONSTRAINT audit_log_action_check');
  await queryRunner.query(
    `ALTER TABLE audit_log ADD CONSTRAINT audit_log_action_check CHECK (action IN (${actions
      .map((action) => `'${action}'`)
      .join(', ')}))`,
  );
}

/** Versions that can be removed (`purged_at`), keeping the row so history shows the gap (docs/schema.md). */
export class WritesRevisionPurge17970100000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE thread_revisions
        ADD COLUMN purged_at timestamptz,
        ALTER COLUMN title DROP NOT NULL,
        ALTER COLUMN content DROP NOT NULL,
        ADD CONSTRAINT thread_revisions_purged_check
          CHECK ((purged_at IS NULL) = (content IS NOT NULL AND title IS NOT NULL))`);
    await queryRunner.query(`
      ALTER TABLE reply_revisions
        ADD COLUMN purged_at timestamptz,
        ALTER COLUMN content DROP NOT NULL,
        ADD CONSTRAINT reply_revisions_purged_check CHECK ((purged_at IS NULL) = (content IS NOT NULL))`);
    const actions = await auditActions(queryRunner);
    await setAuditActions(queryRunner, [
      ...actions.filter((a) => !PURGE_ACTIONS.includes(a)),
      ...PURGE_ACTIONS,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DELETE FROM audit_log WHERE action IN ('thread.revision_purge', 'reply.revision_purge')`,
    );
    const actions = await auditActions(queryRunner);
    await setAuditActions(
      queryRunner,
      actions.filter((a) => !PURGE_ACTIONS.includes(a)),
    );
    await queryRunner.query('DELETE FROM reply_revisions WHERE purged_at IS NOT NULL');
    await queryRunner.query('DELETE FROM thread_revisions WHERE purged_at IS NOT NULL');
    await queryRunner.query(`
      ALTER TABLE reply_revisions
        DROP CONSTRAINT reply_revisions_purged_check,
        DROP COLUMN purged_at,
        ALTER COLUMN content SET NOT NULL`);
    await queryRunner.query(`
      ALTER TABLE thread_revisions
        DROP CONSTRAINT thread_revisions_purged_check,
        DROP COLUMN purged_at,
        ALTER COLUMN title SET NOT NULL,
        ALTER COLUMN content SET NOT NULL`);
  }
}
