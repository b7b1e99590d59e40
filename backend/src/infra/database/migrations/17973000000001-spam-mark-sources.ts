import type { MigrationInterface, QueryRunner } from 'typeorm';
import { allowedValues, setAllowedValues } from './audit-constraints.js';

/**
 * Staff see and forget spam marks: each mark keeps the username of the deleted spammer it came from
 * (`spammer`, null for the marks made before), and forgetting one is audited as `spam_mark.forget` on a
 * `spam_mark` target.
 */
export class SpamMarkSources17973000000001 implements MigrationInterface {
  name = 'SpamMarkSources17973000000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE spam_marks ADD COLUMN spammer text');
    await queryRunner.query('CREATE INDEX spam_marks_created_idx ON spam_marks (created_at DESC, id DESC)');
    const actions = await allowedValues(queryRunner, 'audit_log_action_check');
    await setAllowedValues(queryRunner, 'audit_log', 'action', 'audit_log_action_check', [
      ...actions.filter((action) => action !== 'spam_mark.forget'),
      'spam_mark.forget',
    ]);
    const targets = await allowedValues(queryRunner, 'audit_log_target_type_check');
    await setAllowedValues(queryRunner, 'audit_log', 'target_type', 'audit_log_target_type_check', [
      ...targets.filter((target) => target !== 'spam_mark'),
      'spam_mark',
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      "DELETE FROM audit_log WHERE action = 'spam_mark.forget' OR target_type = 'spam_mark'",
    );
    const targets = await allowedValues(queryRunner, 'audit_log_target_type_check');
    await setAllowedValues(
      queryRunner,
      'audit_log',
      'target_type',
      'audit_log_target_type_check',
      targets.filter((target) => target !== 'spam_mark'),
    );
    const actions = await allowedValues(queryRunner, 'audit_log_action_check');
    await setAllowedValues(
      queryRunner,
      'audit_log',
      'action',
      'audit_log_action_check',
      actions.filter((action) => action !== 'spam_mark.forget'),
    );
    await queryRunner.query('DROP INDEX spam_marks_created_idx');
    await queryRunner.query('ALTER TABLE spam_marks DROP COLUMN spammer');
  }
}
