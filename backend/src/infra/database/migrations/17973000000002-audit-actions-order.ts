import type { MigrationInterface, QueryRunner } from 'typeorm';
import { setAllowedValues } from './audit-constraints.js';

// Literal, not AUDIT_ACTIONS: a migration is history, and must not change when the contracts do.
const PASTE_ACTIONS = [
  'thread.pin',
  'thread.unpin',
  'thread.lock',
  'thread.unlock',
  'thread.feature',
  'thread.unfeature',
  'thread.delete',
  'reply.delete',
];
const EDIT_ACTIONS = [
  'thread.edit',
  'reply.edit',
  'thread.revision_purge',
  'reply.revision_purge',
  'thread.restore',
  'reply.restore',
  'thread.private_read',
];
const USER_ACTIONS = [
  'user.ban',
  'user.unban',
  'user.rename',
  'user.avatar_delete',
  'user.delete',
  'user.grades',
  'user.admin_grant',
  'user.admin_revoke',
];
const LATER_ACTIONS = [
  'review.agree',
  'review.disagree',
  'review.ignore',
  'review.approve',
  'review.reject',
  'user.silence',
  'user.unsilence',
  'user.spammer_delete',
  'spam_mark.forget',
];

/**
 * The audit log's action check lists the actions in contracts' order (AUDIT_ACTIONS), which the entity's
 * check is built from: the same values, the edit actions now before the member ones.
 */
export class AuditActionsOrder17973000000002 implements MigrationInterface {
  name = 'AuditActionsOrder17973000000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await setAllowedValues(queryRunner, 'audit_log', 'action', 'audit_log_action_check', [
      ...PASTE_ACTIONS,
      ...EDIT_ACTIONS,
      ...USER_ACTIONS,
      ...LATER_ACTIONS,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await setAllowedValues(queryRunner, 'audit_log', 'action', 'audit_log_action_check', [
      ...PASTE_ACTIONS,
      ...USER_ACTIONS,
      ...EDIT_ACTIONS,
      ...LATER_ACTIONS,
    ]);
  }
}
