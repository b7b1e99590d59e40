import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Personal access tokens: only a SHA-256 of each is kept (unique: the one lookup a request makes);
 * `expires_at` null for never. Revoking, or deleting the member, deletes the row.
 */
export class PersonalAccessTokens17966000000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE personal_access_tokens (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name text NOT NULL,
        token_hash text NOT NULL,
        scopes text[] NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        expires_at timestamptz,
        CONSTRAINT personal_access_tokens_token_hash_key UNIQUE (token_hash),
        CONSTRAINT personal_access_tokens_scopes_check
          CHECK (cardinality(scopes) > 0 AND scopes <@ ARRAY['pastes:write', 'read']::text[])
      )`);
    await queryRunner.query(
      'CREATE INDEX personal_access_tokens_user_id_idx ON personal_access_tokens (user_id, created_at DESC)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE personal_access_tokens');
  }
}
