import type { MigrationInterface, QueryRunner } from 'typeorm';

const OWN_POSTS_ACTIONS = ['thread.restore', 'reply.restore', 'thread.private_read'];

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

/**
 * Members own what they post: visibility, keys, expiry, burn after reading, the trash, forks
 * (docs/schema.md).
 */
export class OwnPosts17971000000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE threads
        ADD COLUMN visibility text NOT NULL DEFAULT 'public'
          CONSTRAINT threads_visibility_check CHECK (visibility IN ('public', 'unlisted', 'private')),
        ADD COLUMN key text,
        ADD COLUMN expires_at timestamptz,
        ADD COLUMN burn_after_reading boolean NOT NULL DEFAULT false,
        ADD COLUMN deleted_at timestamptz,
        ADD COLUMN deleted_by integer REFERENCES users (id) ON DELETE SET NULL,
        ADD COLUMN forked_from_id integer REFERENCES threads (id) ON DELETE SET NULL,
        ADD COLUMN is_fork boolean NOT NULL DEFAULT false,
        ADD COLUMN fork_count integer NOT NULL DEFAULT 0,
        ADD COLUMN listed boolean GENERATED ALWAYS AS (
          visibility = 'public' AND NOT burn_after_reading AND deleted_at IS NULL
        ) STORED,
        ADD CONSTRAINT threads_key_check
          CHECK ((visibility = 'public' AND NOT burn_after_reading) OR key IS NOT NULL),
        ADD CONSTRAINT threads_key_shape_check CHECK (key ~ '^[A-Za-z0-9_-]{22}$')`);
    await queryRunner.query('CREATE UNIQUE INDEX threads_key_key ON threads (key) WHERE key IS NOT NULL');
    await queryRunner.query(
      'CREATE INDEX threads_expires_idx ON threads (expires_at) WHERE expires_at IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE INDEX threads_deleted_idx ON threads (deleted_at DESC, id DESC) WHERE deleted_at IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE INDEX threads_forked_from_idx ON threads (forked_from_id, created_at DESC) WHERE forked_from_id IS NOT NULL',
    );
    // The lists' indexes hold listed pastes only.
    await queryRunner.query('DROP INDEX threads_recent_idx');
    await queryRunner.query(
      'CREATE INDEX threads_recent_idx ON threads (created_at DESC, id DESC) WHERE listed AND NOT is_pinned',
    );
    await queryRunner.query('DROP INDEX threads_pinned_idx');
    await queryRunner.query(
      'CREATE INDEX threads_pinned_idx ON threads (created_at DESC) WHERE listed AND is_pinned',
    );
    await queryRunner.query('DROP INDEX threads_featured_idx');
    await queryRunner.query(
      'CREATE INDEX threads_featured_idx ON threads (created_at DESC) WHERE listed AND is_featured',
    );
    await queryRunner.query('DROP INDEX threads_created_idx');
    await queryRunner.query(
      'CREATE INDEX threads_created_idx ON threads (created_at DESC, id DESC) WHERE listed',
    );

    await queryRunner.query(`
      ALTER TABLE replies
        ADD COLUMN deleted_at timestamptz,
        ADD COLUMN deleted_by integer REFERENCES users (id) ON DELETE SET NULL`);
    await queryRunner.query(
      'CREATE INDEX replies_deleted_idx ON replies (deleted_at DESC, id DESC) WHERE deleted_at IS NOT NULL',
    );

    const actions = await auditActions(queryRunner);
    await setAuditActions(queryRunner, [
      ...actions.filter((action) => !OWN_POSTS_ACTIONS.includes(action)),
      ...OWN_POSTS_ACTIONS,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DELETE FROM audit_log WHERE action IN (${OWN_POSTS_ACTIONS.map((a) => `'${a}'`).join(', ')})`,
    );
    const actions = await auditActions(queryRunner);
    await setAuditActions(
      queryRunner,
      actions.filter((action) => !OWN_POSTS_ACTIONS.includes(action)),
    );
    // Nothing the old schema cannot show survives: hidden, trashed and expired pastes go.
    await queryRunner.query('DELETE FROM replies WHERE deleted_at IS NOT NULL');
    await queryRunner.query('ALTER TABLE replies DROP COLUMN deleted_by, DROP COLUMN deleted_at');
    await queryRunner.query('DELETE FROM threads WHERE NOT listed OR expires_at IS NOT NULL');
    await queryRunner.query('DROP INDEX threads_created_idx');
    await queryRunner.query('DROP INDEX threads_featured_idx');
    await queryRunner.query('DROP INDEX threads_pinned_idx');
    await queryRunner.query('DROP INDEX threads_recent_idx');
    await queryRunner.query(`
      ALTER TABLE threads
        DROP COLUMN listed,
        DROP COLUMN fork_count,
        DROP COLUMN is_fork,
        DROP COLUMN forked_from_id,
        DROP COLUMN deleted_by,
        DROP COLUMN deleted_at,
        DROP COLUMN burn_after_reading,
        DROP COLUMN expires_at,
        DROP COLUMN key,
        DROP COLUMN visibility`);
    await queryRunner.query('CREATE INDEX threads_created_idx ON threads (created_at DESC, id DESC)');
    await queryRunner.query(
      'CREATE INDEX threads_recent_idx ON threads (created_at DESC, id DESC) WHERE NOT is_pinned',
    );
    await queryRunner.query('CREATE INDEX threads_pinned_idx ON threads (created_at DESC) WHERE is_pinned');
    await queryRunner.query(
      'CREATE INDEX threads_featured_idx ON threads (created_at DESC) WHERE is_featured',
    );
  }
}
