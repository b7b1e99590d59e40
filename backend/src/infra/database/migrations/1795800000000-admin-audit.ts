import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The staff action log, and the admin users table's e-mail search index (docs/schema.md). */
export class AdminAudit1795800000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    // The actions as of this migration (contracts' AUDIT_ACTIONS); a new one comes with its own migration.
    await queryRunner.query(`
      CREATE TABLE audit_log (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        actor_id integer REFERENCES users (id) ON DELETE SET NULL,
        actor_name text NOT NULL,
        action text NOT NULL,
        target_type text NOT NULL,
        target_id integer NOT NULL,
        target_label text NOT NULL,
        before jsonb,
        after jsonb,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT audit_log_action_check CHECK (action IN (
          'thread.pin', 'thread.unpin', 'thread.lock', 'thread.unlock', 'thread.feature', 'thread.unfeature',
          'thread.delete', 'reply.delete', 'user.ban', 'user.unban', 'user.rename', 'user.avatar_delete',
          'user.delete', 'user.grades', 'user.admin_grant', 'user.admin_revoke')),
        CONSTRAINT audit_log_target_type_check CHECK (target_type IN ('thread', 'reply', 'user'))
      )`);
    await queryRunner.query('CREATE INDEX audit_log_recent_idx ON audit_log (created_at DESC, id DESC)');
    await queryRunner.query(
      'CREATE INDEX audit_log_action_idx ON audit_log (action, created_at DESC, id DESC)',
    );
    await queryRunner.query('CREATE INDEX audit_log_actor_idx ON audit_log (actor_id)');

    await queryRunner.query('CREATE INDEX users_recent_idx ON users (created_at DESC, id DESC)');
    await queryRunner.query(
      'CREATE INDEX users_email_trgm_idx ON users USING GIN (lower(email::text) gin_trgm_ops)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX users_email_trgm_idx');
    await queryRunner.query('DROP INDEX users_recent_idx');
    await queryRunner.query('DROP TABLE audit_log');
  }
}
