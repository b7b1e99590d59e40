import type { MigrationInterface, QueryRunner } from 'typeorm';
import { allowedValues, setAllowedValues } from './audit-constraints.js';

const MODERATION_ACTIONS = [
  'review.agree',
  'review.disagree',
  'review.ignore',
  'review.approve',
  'review.reject',
  'user.silence',
  'user.unsilence',
  'user.spammer_delete',
];
/**
 * Makes `threads.listed` the generated column of `expression`, with the indexes built on it as they
 * were. (PostgreSQL 17's ALTER COLUMN … SET EXPRESSION would do it in place; we support older servers.)
 */
async function setListed(queryRunner: QueryRunner, expression: string): Promise<void> {
  const indexes: Array<{ indexdef: string }> = await queryRunner.query(
    `SELECT indexdef FROM pg_indexes
     WHERE schemaname = current_schema() AND tablename = 'threads' AND indexdef ~ '\\mlisted\\M'`,
  );
  await queryRunner.query('ALTER TABLE threads DROP COLUMN listed');
  await queryRunner.query(
    `ALTER TABLE threads ADD COLUMN listed boolean GENERATED ALWAYS AS (${expression}) STORED`,
  );
  for (const { indexdef } of indexes) await queryRunner.query(indexdef);
}

const TARGETS = "'paste', 'reply', 'chat', 'message', 'member'";

/** Moderation: review items, flags, suspensions, hiding, mutes and blocks, spam marks (docs/schema.md). */
export class Moderation17972000000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE threads ADD COLUMN hidden_at timestamptz');
    // A hidden paste leaves the lists (and their counts) as a private one does.
    await setListed(
      queryRunner,
      "visibility = 'public' AND NOT burn_after_reading AND deleted_at IS NULL AND hidden_at IS NULL",
    );
    await queryRunner.query('ALTER TABLE replies ADD COLUMN hidden_at timestamptz');
    await queryRunner.query('ALTER TABLE chat_messages ADD COLUMN hidden_at timestamptz');
    await queryRunner.query(`
      ALTER TABLE users
        ADD COLUMN banned_until timestamptz,
        ADD COLUMN ban_reason text,
        ADD COLUMN silenced_until timestamptz,
        ADD COLUMN silence_reason text`);
    await queryRunner.query(
      'CREATE INDEX users_banned_until_idx ON users (banned_until) WHERE banned_until IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE INDEX users_silenced_until_idx ON users (silenced_until) WHERE silenced_until IS NOT NULL',
    );

    await queryRunner.query(`
      CREATE TABLE review_items (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        kind text NOT NULL CONSTRAINT review_items_kind_check CHECK (kind IN ('flagged', 'held')),
        target_type text NOT NULL CONSTRAINT review_items_target_type_check CHECK (target_type IN (${TARGETS})),
        target_id integer,
        author_id integer REFERENCES users (id) ON DELETE SET NULL,
        status text NOT NULL DEFAULT 'open' CONSTRAINT review_items_status_check
          CHECK (status IN ('open', 'agreed', 'disagreed', 'ignored', 'approved', 'rejected')),
        score real NOT NULL DEFAULT 0,
        hidden boolean NOT NULL DEFAULT false,
        signals text[] NOT NULL DEFAULT '{}',
        payload jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        decided_at timestamptz,
        decided_by integer REFERENCES users (id) ON DELETE SET NULL,
        CONSTRAINT review_items_target_check CHECK (kind = 'held' OR target_id IS NOT NULL),
        CONSTRAINT review_items_payload_check CHECK (kind = 'flagged' OR payload IS NOT NULL)
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX review_items_open_target_key ON review_items (target_type, target_id)
       WHERE status = 'open' AND target_id IS NOT NULL`,
    );
    await queryRunner.query(
      "CREATE INDEX review_items_open_idx ON review_items (updated_at DESC, id DESC) WHERE status = 'open'",
    );
    await queryRunner.query('CREATE INDEX review_items_author_idx ON review_items (author_id)');

    await queryRunner.query(`
      CREATE TABLE flags (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        item_id integer NOT NULL REFERENCES review_items (id) ON DELETE CASCADE,
        flagger_id integer REFERENCES users (id) ON DELETE SET NULL,
        target_type text NOT NULL CONSTRAINT flags_target_type_check CHECK (target_type IN (${TARGETS})),
        target_id integer NOT NULL,
        reason text NOT NULL CONSTRAINT flags_reason_check
          CHECK (reason IN ('spam', 'abuse', 'secret', 'illegal', 'off-topic', 'other')),
        note text,
        weight real NOT NULL,
        status text NOT NULL DEFAULT 'open' CONSTRAINT flags_status_check
          CHECK (status IN ('open', 'agreed', 'disagreed', 'ignored')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      'CREATE UNIQUE INDEX flags_once_key ON flags (flagger_id, target_type, target_id)',
    );
    await queryRunner.query('CREATE INDEX flags_item_idx ON flags (item_id)');

    await queryRunner.query(`
      CREATE TABLE suspensions (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        kind text NOT NULL CONSTRAINT suspensions_kind_check CHECK (kind IN ('ban', 'silence')),
        starts_at timestamptz NOT NULL DEFAULT now(),
        ends_at timestamptz,
        reason text,
        actor_id integer REFERENCES users (id) ON DELETE SET NULL,
        lifted_at timestamptz
      )`);
    await queryRunner.query('CREATE INDEX suspensions_user_idx ON suspensions (user_id, starts_at DESC)');

    for (const table of ['member_mutes', 'member_blocks']) {
      await queryRunner.query(`
        CREATE TABLE ${table} (
          user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
          member_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
          created_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (user_id, member_id),
          CONSTRAINT ${table}_self_check CHECK (user_id <> member_id)
        )`);
      await queryRunner.query(`CREATE INDEX ${table}_member_idx ON ${table} (member_id)`);
    }

    await queryRunner.query(`
      CREATE TABLE spam_marks (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        kind text NOT NULL CONSTRAINT spam_marks_kind_check CHECK (kind IN ('address', 'domain')),
        value text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT spam_marks_key UNIQUE (kind, value)
      )`);
    await queryRunner.query(`
      CREATE TABLE post_fingerprints (
        hash text NOT NULL,
        author_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        posts integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (hash, author_id)
      )`);
    await queryRunner.query('CREATE INDEX post_fingerprints_created_idx ON post_fingerprints (created_at)');
    await queryRunner.query(
      'CREATE INDEX post_fingerprints_author_idx ON post_fingerprints (author_id, created_at DESC)',
    );

    await setAllowedValues(queryRunner, 'notifications', 'type', 'notifications_type_check', [
      'reply',
      'message',
      'mention',
      'moderation',
    ]);
    await setAllowedValues(queryRunner, 'audit_log', 'target_type', 'audit_log_target_type_check', [
      'thread',
      'reply',
      'user',
      'chat',
      'message',
    ]);
    const actions = await allowedValues(queryRunner, 'audit_log_action_check');
    await setAllowedValues(queryRunner, 'audit_log', 'action', 'audit_log_action_check', [
      ...actions.filter((action) => !MODERATION_ACTIONS.includes(action)),
      ...MODERATION_ACTIONS,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DELETE FROM audit_log WHERE action IN (${MODERATION_ACTIONS.map((a) => `'${a}'`).join(', ')})
         OR target_type IN ('chat', 'message')`,
    );
    const actions = await allowedValues(queryRunner, 'audit_log_action_check');
    await setAllowedValues(
      queryRunner,
      'audit_log',
      'action',
      'audit_log_action_check',
      actions.filter((action) => !MODERATION_ACTIONS.includes(action)),
    );
    await setAllowedValues(queryRunner, 'audit_log', 'target_type', 'audit_log_target_type_check', [
      'thread',
      'reply',
      'user',
    ]);
    await queryRunner.query("DELETE FROM notifications WHERE type = 'moderation'");
    await setAllowedValues(queryRunner, 'notifications', 'type', 'notifications_type_check', [
      'reply',
      'message',
      'mention',
    ]);
    await queryRunner.query('DROP TABLE post_fingerprints');
    await queryRunner.query('DROP TABLE spam_marks');
    await queryRunner.query('DROP TABLE member_blocks');
    await queryRunner.query('DROP TABLE member_mutes');
    await queryRunner.query('DROP TABLE suspensions');
    await queryRunner.query('DROP TABLE flags');
    await queryRunner.query('DROP TABLE review_items');
    await queryRunner.query(`
      ALTER TABLE users
        DROP COLUMN silence_reason,
        DROP COLUMN silenced_until,
        DROP COLUMN ban_reason,
        DROP COLUMN banned_until`);
    await queryRunner.query('ALTER TABLE chat_messages DROP COLUMN hidden_at');
    await queryRunner.query('ALTER TABLE replies DROP COLUMN hidden_at');
    await setListed(queryRunner, "visibility = 'public' AND NOT burn_after_reading AND deleted_at IS NULL");
    await queryRunner.query('ALTER TABLE threads DROP COLUMN hidden_at');
  }
}
