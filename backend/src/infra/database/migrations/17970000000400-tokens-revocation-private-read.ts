import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Personal access tokens that outlive nothing they should not, and scopes as narrow as their names.
 *
 * - `personal_access_tokens.revoked_at` and `revoked_reason`: revoking (by the member, a password reset
 *   or change, a ban) marks the row instead of deleting it, so the member's list shows it for 30 days
 *   (then the tokens sweep deletes it). Both set, or neither.
 * - the `private:read` scope joins `pastes:write` and `read`; tokens made before keep their scopes, and
 *   `read` now covers public reads and the member's own pastes only.
 * - `user_identities.linked_unverified`: the identity was linked while the member's e-mail address was
 *   unverified (so perhaps by someone who registered another person's address): a password reset or
 *   change unlinks it. Existing links made before the address was verified, or while it still is not,
 *   count as such.
 */
export class TokensRevocationPrivateRead17970000000400 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE personal_access_tokens
        ADD COLUMN revoked_at timestamptz,
        ADD COLUMN revoked_reason text,
        ADD CONSTRAINT personal_access_tokens_revoked_check CHECK (
          (revoked_at IS NULL) = (revoked_reason IS NULL)
          AND revoked_reason IN ('password reset', 'password change', 'by you', 'ban')
        ),
        DROP CONSTRAINT personal_access_tokens_scopes_check,
        ADD CONSTRAINT personal_access_tokens_scopes_check
          CHECK (cardinality(scopes) > 0 AND scopes <@ ARRAY['pastes:write', 'read', 'private:read']::text[])`);
    await queryRunner.query(
      `CREATE INDEX personal_access_tokens_revoked_at_idx ON personal_access_tokens (revoked_at)
       WHERE revoked_at IS NOT NULL`,
    );
    await queryRunner.query(
      'ALTER TABLE user_identities ADD COLUMN linked_unverified boolean NOT NULL DEFAULT false',
    );
    await queryRunner.query(`
      UPDATE user_identities i SET linked_unverified = true
      FROM users u
      WHERE u.id = i.user_id AND (u.email_verified_at IS NULL OR i.created_at < u.email_verified_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE user_identities DROP COLUMN linked_unverified');
    // Revoked rows go: without the columns they would work again.
    await queryRunner.query('DELETE FROM personal_access_tokens WHERE revoked_at IS NOT NULL');
    // A token that may only read private data is gone; the others lose that scope.
    await queryRunner.query(
      `DELETE FROM personal_access_tokens WHERE scopes <@ ARRAY['private:read']::text[]`,
    );
    await queryRunner.query(
      `UPDATE personal_access_tokens SET scopes = array_remove(scopes, 'private:read')`,
    );
    await queryRunner.query(`
      ALTER TABLE personal_access_tokens
        DROP CONSTRAINT personal_access_tokens_revoked_check,
        DROP COLUMN revoked_at,
        DROP COLUMN revoked_reason,
        DROP CONSTRAINT personal_access_tokens_scopes_check,
        ADD CONSTRAINT personal_access_tokens_scopes_check
          CHECK (cardinality(scopes) > 0 AND scopes <@ ARRAY['pastes:write', 'read']::text[])`);
  }
}
