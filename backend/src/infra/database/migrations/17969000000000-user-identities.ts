import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Members' accounts at sign-in providers; a provider-made account may lack a password (docs/schema.md). */
export class UserIdentities17969000000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE users ALTER COLUMN password_hash DROP NOT NULL');
    await queryRunner.query('ALTER TABLE users ADD COLUMN username_chosen boolean NOT NULL DEFAULT true');
    await queryRunner.query(`
      CREATE TABLE user_identities (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        provider text NOT NULL,
        subject text NOT NULL,
        email citext,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        CONSTRAINT user_identities_provider_subject_key UNIQUE (provider, subject),
        CONSTRAINT user_identities_user_id_provider_key UNIQUE (user_id, provider)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE user_identities');
    await queryRunner.query('ALTER TABLE users DROP COLUMN username_chosen');
    // An empty hash matches no password (verifyPassword): the accounts stay, without a way to sign in.
    await queryRunner.query("UPDATE users SET password_hash = '' WHERE password_hash IS NULL");
    await queryRunner.query('ALTER TABLE users ALTER COLUMN password_hash SET NOT NULL');
  }
}
