import { PAGES } from '@termpaste/contracts';
import type { EntityManager } from 'typeorm';
import type { AppConfig } from '../../config/config.js';
import { MAIL_QUEUE, type MailMessage, SEND_MAIL_JOB } from '../../infra/mail/mail.service.js';
import type { OutboxService } from '../../infra/outbox/outbox.service.js';
import { revokeUserTokens } from './tokens/access-tokens.service.js';

/** How the password changed: reset through a mailed link, or changed in settings. */
export type PasswordChangeKind = 'reset' | 'change';

/** What a password reset or change revoked with it. */
export interface PasswordChangeRevoked {
  tokens: number;
  identities: number;
}

/**
 * In the transaction setting a new password: revokes every access token and unlinks identities linked
 * while the e-mail was unverified, so whoever held the account before keeps no way in (checked per
 * request, so every instance at once). The confirmation mail goes to the outbox: call `outbox.committed()`.
 */
export async function revokeWithNewPassword(
  manager: EntityManager,
  outbox: OutboxService,
  config: Pick<AppConfig, 'publicUrl' | 'productName'>,
  user: { id: number; username: string; email: string },
  kind: PasswordChangeKind,
): Promise<PasswordChangeRevoked> {
  const userId = user.id;
  const tokens = await revokeUserTokens(
    manager,
    userId,
    kind === 'reset' ? 'password reset' : 'password change',
  );
  const unlinked: unknown[] = await manager.query(
    `WITH gone AS (DELETE FROM user_identities WHERE user_id = $1 AND linked_unverified RETURNING id)
     SELECT id FROM gone`,
    [userId],
  );
  const revoked = { tokens, identities: unlinked.length };
  await outbox.add(manager, {
    queue: MAIL_QUEUE,
    name: SEND_MAIL_JOB,
    data: passwordChangedMail(config, user, kind, revoked),
  });
  return revoked;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The mail that confirms a password reset or change (no secret in it: it waits in the queue as it is). */
export function passwordChangedMail(
  config: Pick<AppConfig, 'publicUrl' | 'productName'>,
  user: { username: string; email: string },
  kind: PasswordChangeKind,
  revoked: PasswordChangeRevoked,
): MailMessage {
  const product = config.productName;
  const done = kind === 'reset' ? 'reset' : 'changed';
  return {
    to: user.email,
    subject: `Your ${product} password was ${done}`,
    text: [
      `The password of the ${product} account ${user.username} was ${done}.`,
      '',
      kind === 'reset'
        ? 'Every session of the account was signed out.'
        : 'Every other session was signed out.',
      `${plural(revoked.tokens, 'access token was', 'access tokens were')} revoked.`,
      ...(revoked.identities > 0
        ? [
            `${plural(revoked.identities, 'sign-in provider account was', 'sign-in provider accounts were')} ` +
              'unlinked (linked before the e-mail address was verified).',
          ]
        : []),
      '',
      `If this was not you, reset your password now: ${config.publicUrl}${PAGES.forgotPassword}`,
    ].join('\n'),
  };
}
