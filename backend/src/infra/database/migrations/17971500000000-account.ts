import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Data exports and provider-only members' account deletion links (docs/schema.md). */
export class Account17971500000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE account_exports (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        status text NOT NULL DEFAULT 'queued'
          CONSTRAINT account_exports_status_check CHECK (status IN ('queued', 'running', 'ready', 'failed', 'expired')),
        requested_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        expires_at timestamptz,
        storage_key text,
        size bigint
      )`);
    await queryRunner.query(
      'CREATE INDEX account_exports_user_idx ON account_exports (user_id, requested_at DESC, id DESC)',
    );
    await queryRunner.query(
      "CREATE INDEX account_exports_expiry_idx ON account_exports (expires_at) WHERE status = 'ready'",
    );
    await queryRunner.query(`
      CREATE TABLE account_deletion_links (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        token_hash text UNIQUE,
        keep_content boolean NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      'CREATE INDEX account_deletion_links_user_idx ON account_deletion_links (user_id)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE account_deletion_links');
    await queryRunner.query('DROP TABLE account_exports');
  }
}
