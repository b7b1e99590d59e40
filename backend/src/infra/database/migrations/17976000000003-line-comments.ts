import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Comments on lines: a top-level reply may point at lines of a version of its paste (with a hash of
 * them, to tell when a later version changed them) and suggest a replacement; `suggestion_applied` is
 * the version applying it made, and that version credits the suggester.
 */
export class LineComments17976000000003 implements MigrationInterface {
  name = 'LineComments17976000000003';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE replies
        ADD COLUMN anchor_from integer,
        ADD COLUMN anchor_to integer,
        ADD COLUMN anchor_version integer,
        ADD COLUMN anchor_hash text,
        ADD COLUMN suggestion text,
        ADD COLUMN suggestion_applied integer,
        ADD CONSTRAINT replies_anchor_check CHECK (
          (anchor_from IS NULL) = (anchor_to IS NULL)
          AND (anchor_from IS NULL) = (anchor_version IS NULL)
          AND (anchor_from IS NULL) = (anchor_hash IS NULL)
          AND (anchor_from IS NULL OR (anchor_from >= 1 AND anchor_from <= anchor_to))
          AND (suggestion IS NULL OR anchor_from IS NOT NULL)
          AND (suggestion_applied IS NULL OR suggestion IS NOT NULL))`);
    await queryRunner.query(`
      ALTER TABLE thread_revisions
        ADD COLUMN suggested_by integer
          CONSTRAINT thread_revisions_suggested_by_fkey REFERENCES users (id) ON DELETE SET NULL,
        ADD COLUMN suggestion_reply_id integer`);
    await queryRunner.query(
      `CREATE INDEX thread_revisions_suggested_by_idx ON thread_revisions (suggested_by)
       WHERE suggested_by IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX thread_revisions_suggested_by_idx');
    await queryRunner.query(
      'ALTER TABLE thread_revisions DROP COLUMN suggested_by, DROP COLUMN suggestion_reply_id',
    );
    await queryRunner.query(`
      ALTER TABLE replies DROP CONSTRAINT replies_anchor_check,
        DROP COLUMN anchor_from, DROP COLUMN anchor_to, DROP COLUMN anchor_version, DROP COLUMN anchor_hash,
        DROP COLUMN suggestion, DROP COLUMN suggestion_applied`);
  }
}
