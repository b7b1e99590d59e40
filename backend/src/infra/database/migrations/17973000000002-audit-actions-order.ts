import type { MigrationInterface, QueryRunner } from 'typeorm';
import { setAllowedValues } from './audit-constraints.js';

/**
 * The audit log's action check lists contracts' AUDIT_ACTIONS in their order, which the entity's check
 * is built from (the values are the same; only their order changes).
 */
export class AuditActionsOrder17973000000002 implements MigrationInterface {
  name = 'AuditActionsOrder17973000000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Literal, not AUDIT_ACTIONS: a migration is history, and must not change when the contracts do.
    await setAllowedValues(queryRunner, 'audit_log', 'action', 'audit_log_action_check', [
      'thread.pin',
      'thread.unpin',
      'thread.lock',
      'thread.unlock',
      'thread.feature',
      'thread.unfeature',
      'thread.delete',
      'reply.delete',
      'thread.edit',
      'reply.edit',
      'thread.revision_purge',
      'reply.revision_purge',
      'thread.restore',
      'reply.restore',
      'thread.private_read',
      'user.ban',
      'user.unban',
      'user.rename',
      'user.avatar_delete',
      'user.delete',
      'user.grades',
      'user.admin_grant',
      'user.admin_revoke',
      'review.agree',
      'review.disagree',
      'review.ignore',
      'review.approve',
      'review.reject',
      'user.silence',
      'user.unsilence',
      'user.spammer_delete',
      'spam_mark.forget',
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await setAllowedValues(queryRunner, 'audit_log', 'action', 'audit_log_action_check', [
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
      'thread.edit',
      'reply.edit',
      'thread.revision_purge',
      'reply.revision_purge',
      'thread.restore',
      'reply.restore',
      'thread.private_read',
      'review.agree',
      'review.disagree',
      'review.ignore',
      'review.approve',
      'review.reject',
      'user.silence',
      'user.unsilence',
      'user.spammer_delete',
      'spam_mark.forget',
    ]);
  }
}
