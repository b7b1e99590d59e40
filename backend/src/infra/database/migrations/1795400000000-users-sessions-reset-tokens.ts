import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Accounts, their sessions and password reset tokens; usernames and e-mails are citext, unique whatever the
 * case.
 */
export class UsersSessionsResetTokens1795400000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE users (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        username citext NOT NULL,
        email citext NOT NULL,
        password_hash text NOT NULL,
        first_name text,
        last_name text,
        avatar_url text,
        profile_image_url text,
        bio text,
        reputation integer NOT NULL DEFAULT 0,
        active_premium_rank text,
        owned_premium_ranks text[] NOT NULL DEFAULT '{}',
        thread_count integer NOT NULL DEFAULT 0,
        reply_count integer NOT NULL DEFAULT 0,
        is_admin boolean NOT NULL DEFAULT false,
        is_owner boolean NOT NULL DEFAULT false,
        is_banned boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT users_username_key UNIQUE (username),
        CONSTRAINT users_email_key UNIQUE (email),
        CONSTRAINT users_username_format CHECK (username::text ~ '^[A-Za-z0-9_-]{3,32}$'),
        CONSTRAINT users_owner_is_admin CHECK (NOT is_owner OR is_admin)
      )`);
    // At most one owner, whatever races happen at registration.
    await queryRunner.query('CREATE UNIQUE INDEX users_single_owner ON users ((true)) WHERE is_owner');

    await queryRunner.query(`
      CREATE TABLE sessions (
        sid text PRIMARY KEY,
        user_id integer REFERENCES users (id) ON DELETE CASCADE,
        data jsonb NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await queryRunner.query('CREATE INDEX sessions_user_id_idx ON sessions (user_id)');
    await queryRunner.query('CREATE INDEX sessions_expires_at_idx ON sessions (expires_at)');

    await queryRunner.query(`
      CREATE TABLE password_reset_tokens (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        token_hash text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT password_reset_tokens_token_hash_key UNIQUE (token_hash)
      )`);
    await queryRunner.query(
      'CREATE INDEX password_reset_tokens_user_id_idx ON password_reset_tokens (user_id)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE password_reset_tokens');
    await queryRunner.query('DROP TABLE sessions');
    await queryRunner.query('DROP TABLE users');
  }
}
