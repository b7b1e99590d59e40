import type { MigrationInterface, QueryRunner } from 'typeorm';

const BEFORE = ['opening', 'paste', 'reply', 'chat', 'vote', 'vote_undone'];
const AFTER = [...BEFORE, 'post_deleted', 'post_restored'];

const reasonCheck = (reasons: string[]) =>
  `ALTER TABLE reputation_ledger ADD CONSTRAINT reputation_ledger_reason_check
   CHECK (reason IN (${reasons.map((reason) => `'${reason}'`).join(', ')}))`;

/**
 * A deleted paste or reply gives back, on its author's ledger, what it earned (`post_deleted`); restored
 * from the trash, it earns it again (`post_restored`).
 */
export class PostDeletedLedger17971200000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE reputation_ledger DROP CONSTRAINT reputation_ledger_reason_check');
    await queryRunner.query(reasonCheck(AFTER));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The ledger stays each member's sum: the rows go into their opening balance.
    await queryRunner.query(
      `UPDATE reputation_ledger o SET points = o.points + g.points
       FROM (SELECT user_id, sum(points)::int AS points FROM reputation_ledger
             WHERE reason IN ('post_deleted', 'post_restored') GROUP BY user_id) g
       WHERE o.user_id = g.user_id AND o.reason = 'opening'`,
    );
    await queryRunner.query(
      `INSERT INTO reputation_ledger (user_id, points, reason)
       SELECT user_id, sum(points)::int, 'opening' FROM reputation_ledger l
       WHERE reason IN ('post_deleted', 'post_restored')
         AND NOT EXISTS (SELECT 1 FROM reputation_ledger o WHERE o.user_id = l.user_id AND o.reason = 'opening')
       GROUP BY user_id`,
    );
    await queryRunner.query(
      "DELETE FROM reputation_ledger WHERE reason IN ('post_deleted', 'post_restored')",
    );
    await queryRunner.query('ALTER TABLE reputation_ledger DROP CONSTRAINT reputation_ledger_reason_check');
    await queryRunner.query(reasonCheck(BEFORE));
  }
}
