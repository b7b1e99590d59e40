import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The reputation ledger (issue 13): one row per point earned or lost, with its reason, so a member's
 * `users.reputation` (kept, read by every page that shows an author) is always the sum of their rows.
 *
 * - `reputation_ledger`: `reason` is one of REPUTATION_REASONS (contracts); `source_id` the paste, reply,
 *   chat message or vote that earned it, `thread_id` / `reply_id` the paste and reply to link to. No
 *   foreign keys on those: a row outlives what earned it (reputation earned is kept when a paste, reply
 *   or vote goes). `capped`: the day's cap held back some or all of the points.
 * - `reputation_daily`: per member and capped reason, the points earned on `day` (UTC), so a write can
 *   take what is left of the cap in one locked upsert without summing the ledger; `last_award` is what the
 *   last upsert granted (returned to the writer).
 *
 * Existing reputation becomes one `opening` row per member (none for 0): the ledger starts balanced.
 */
export class ReputationLedger1796400000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE reputation_ledger (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        points integer NOT NULL,
        reason text NOT NULL,
        capped boolean NOT NULL DEFAULT false,
        source_id integer,
        thread_id integer,
        reply_id integer,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT reputation_ledger_reason_check
          CHECK (reason IN ('opening', 'paste', 'reply', 'chat', 'vote', 'vote_undone'))
      )`);
    // The member's ledger, newest first (keyset-paged on created_at, id).
    await queryRunner.query(
      'CREATE INDEX reputation_ledger_user_idx ON reputation_ledger (user_id, created_at DESC, id DESC)',
    );
    // What one vote gave so far, to give it back when the vote is taken back or switched.
    await queryRunner.query(
      `CREATE INDEX reputation_ledger_vote_idx ON reputation_ledger (source_id)
       WHERE reason IN ('vote', 'vote_undone')`,
    );
    await queryRunner.query(`
      CREATE TABLE reputation_daily (
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        reason text NOT NULL,
        day date NOT NULL,
        earned integer NOT NULL,
        last_award integer NOT NULL,
        PRIMARY KEY (user_id, reason)
      )`);
    await queryRunner.query(
      `INSERT INTO reputation_ledger (user_id, points, reason)
       SELECT id, reputation, 'opening' FROM users WHERE reputation <> 0 ORDER BY id`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE reputation_daily');
    await queryRunner.query('DROP TABLE reputation_ledger');
  }
}
