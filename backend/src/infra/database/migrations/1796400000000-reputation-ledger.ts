import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The reputation ledger and its daily caps; existing reputation becomes one opening row (docs/schema.md). */
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
