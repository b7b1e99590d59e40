import type { MigrationInterface, QueryRunner } from 'typeorm';
import { allowedValues, setAllowedValues } from './audit-constraints.js';

// Literal, not AUDIT_ACTIONS: a migration is history, and must not change when the contracts do.
const CLI_ACTIONS = ['user.create', 'user.reset_link'];

/**
 * The command line's own changes are audited: an account it created (`user.create`) and a password reset
 * link it printed (`user.reset_link`).
 */
export class CliAuditActions17973000000006 implements MigrationInterface {
  name = 'CliAuditActions17973000000006';

  async up(queryRunner: QueryRunner): Promise<void> {
    const actions = await allowedValues(queryRunner, 'audit_log_action_check');
    await setAllowedValues(queryRunner, 'audit_log', 'action', 'audit_log_action_check', [
      ...actions.filter((action) => !CLI_ACTIONS.includes(action)),
      ...CLI_ACTIONS,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DELETE FROM audit_log WHERE action = ANY($1)', [CLI_ACTIONS]);
    const actions = await allowedValues(queryRunner, 'audit_log_action_check');
    await setAllowedValues(
      queryRunner,
      'audit_log',
      'action',
      'audit_log_action_check',
      actions.filter((action) => !CLI_ACTIONS.includes(action)),
    );
  }
}
