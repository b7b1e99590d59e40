import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Revoked tokens stay listed 30 days; the `private:read` scope; identities linked unverified
 * (docs/schema.md).
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
