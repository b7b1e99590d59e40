import type { MigrationInterface, QueryRunner } from 'typeorm';

/** E-mail verification links and the owner's setup codes, only as hashes (docs/schema.md). */
export class EmailVerification1796100000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE users ADD COLUMN email_verified_at timestamptz');
    await queryRunner.query('UPDATE users SET email_verified_at = created_at');

    await queryRunner.query(`
      CREATE TABLE email_verification_tokens (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        email citext NOT NULL,
        token_hash text,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT email_verification_tokens_token_hash_key UNIQUE (token_hash)
      )`);
    await queryRunner.query(
      'CREATE INDEX email_verification_tokens_user_id_idx ON email_verification_tokens (user_id)',
    );

    await queryRunner.query('ALTER TABLE password_reset_tokens ALTER COLUMN token_hash DROP NOT NULL');

    await queryRunner.query(`
      CREATE TABLE owner_setup_codes (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        code_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT owner_setup_codes_code_hash_key UNIQUE (code_hash)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE owner_setup_codes');
    await queryRunner.query('DELETE FROM password_reset_tokens WHERE token_hash IS NULL');
    await queryRunner.query('ALTER TABLE password_reset_tokens ALTER COLUMN token_hash SET NOT NULL');
    await queryRunner.query('DROP TABLE email_verification_tokens');
    await queryRunner.query('ALTER TABLE users DROP COLUMN email_verified_at');
  }
}
