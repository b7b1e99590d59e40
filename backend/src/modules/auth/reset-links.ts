import { LIMITS, PAGES } from '@termpaste/contracts';
import type { EntityManager } from 'typeorm';
import type { Row } from '../../infra/database/columns.js';
import type { PasswordResetToken } from './entities/password-reset-token.entity.js';
import { newToken, tokenHash } from './link-mails.js';

/** A password reset link handed out directly (the command line), and until when it works. */
export interface ResetLink {
  url: string;
  expiresAt: Date;
}

/**
 * A new reset link for member `userId`, in the caller's transaction: the same single-use token the
 * mailed link carries (only its hash stored, LIMITS.resetLinkExpiryMs to use it), voiding the member's
 * older links as a new mailed one does. What `POST /api/reset-password` takes with a new password.
 */
export async function createResetLink(
  manager: EntityManager,
  publicUrl: string,
  userId: number,
): Promise<ResetLink> {
  const token = newToken();
  await manager.query('DELETE FROM password_reset_tokens WHERE user_id = $1 OR expires_at < now()', [userId]);
  const [row]: Array<Row<PasswordResetToken, 'expiresAt'>> = await manager.query(
    `INSERT INTO password_reset_tokens (user_id, token_hash, expires_at)
     VALUES ($1, $2, now() + $3 * interval '1 millisecond') RETURNING expires_at AS "expiresAt"`,
    [userId, tokenHash(token), LIMITS.resetLinkExpiryMs],
  );
  return { url: `${publicUrl}${PAGES.resetPassword}?token=${token}`, expiresAt: row!.expiresAt };
}
