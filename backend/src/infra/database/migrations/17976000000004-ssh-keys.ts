import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Members' SSH public keys (each once per member, by fingerprint) and pastes' SSH signatures: the
 * armoured text as sent, and the fingerprint of the key that made it (checked when the paste was made).
 */
export class SshKeys17976000000004 implements MigrationInterface {
  name = 'SshKeys17976000000004';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE ssh_keys (
        id integer GENERATED ALWAYS AS IDENTITY CONSTRAINT ssh_keys_pkey PRIMARY KEY,
        user_id integer NOT NULL CONSTRAINT ssh_keys_user_id_fkey REFERENCES users (id) ON DELETE CASCADE,
        title text NOT NULL,
        key_type text NOT NULL,
        public_key text NOT NULL,
        fingerprint text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      'CREATE UNIQUE INDEX ssh_keys_user_fingerprint_key ON ssh_keys (user_id, fingerprint)',
    );
    await queryRunner.query(`
      CREATE TABLE paste_signatures (
        thread_id integer CONSTRAINT paste_signatures_pkey PRIMARY KEY
          CONSTRAINT paste_signatures_thread_id_fkey REFERENCES threads (id) ON DELETE CASCADE,
        signature text NOT NULL,
        fingerprint text NOT NULL,
        key_type text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE paste_signatures');
    await queryRunner.query('DROP TABLE ssh_keys');
  }
}
