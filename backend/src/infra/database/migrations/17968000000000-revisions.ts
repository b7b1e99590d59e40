import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The audit actions before this migration (1795800000000's list). */
const ACTIONS_BEFORE = [
  'thread.pin',
  'thread.unpin',
  'thread.lock',
  'thread.unlock',
  'thread.feature',
  'thread.unfeature',
  'thread.delete',
  'reply.delete',
  'user.ban',
  'user.unban',
  'user.rename',
  'user.avatar_delete',
  'user.delete',
  'user.grades',
  'user.admin_grant',
  'user.admin_revoke',
];

const actionCheck = (actions: string[]) =>
  `ALTER TABLE audit_log ADD CONSTRAINT audit_log_action_check CHECK (action IN (${actions
    .map((action) => `'${action}'`)
    .join(', ')}))`;

/** Edits with history: `edited_at`, and every version of an edited paste or reply (docs/schema.md). */
export class Revisions17968000000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE threads ADD COLUMN edited_at timestamptz');
    await queryRunner.query('ALTER TABLE replies ADD COLUMN edited_at timestamptz');
    await queryRunner.query(`
      CREATE TABLE thread_revisions (
        thread_id integer NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        n integer NOT NULL,
        title text NOT NULL,
        content text NOT NULL,
        language text,
        editor_id integer REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        lines_added integer NOT NULL,
        lines_removed integer NOT NULL,
        PRIMARY KEY (thread_id, n)
      )`);
    await queryRunner.query(`
      CREATE TABLE reply_revisions (
        reply_id integer NOT NULL REFERENCES replies (id) ON DELETE CASCADE,
        n integer NOT NULL,
        content text NOT NULL,
        editor_id integer REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        lines_added integer NOT NULL,
        lines_removed integer NOT NULL,
        PRIMARY KEY (reply_id, n)
      )`);
    // A deleted account's versions keep their text: the editor goes NULL (shown as Anonymous).
    await queryRunner.query('CREATE INDEX thread_revisions_editor_idx ON thread_revisions (editor_id)');
    await queryRunner.query('CREATE INDEX reply_revisions_editor_idx ON reply_revisions (editor_id)');
    await queryRunner.query('ALTER TABLE audit_log DROP CONSTRAINT audit_log_action_check');
    await queryRunner.query(actionCheck([...ACTIONS_BEFORE, 'thread.edit', 'reply.edit']));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DELETE FROM audit_log WHERE action IN ('thread.edit', 'reply.edit')");
    await queryRunner.query('ALTER TABLE audit_log DROP CONSTRAINT audit_log_action_check');
    await queryRunner.query(actionCheck(ACTIONS_BEFORE));
    await queryRunner.query('DROP TABLE reply_revisions');
    await queryRunner.query('DROP TABLE thread_revisions');
    await queryRunner.query('ALTER TABLE replies DROP COLUMN edited_at');
    await queryRunner.query('ALTER TABLE threads DROP COLUMN edited_at');
  }
}
