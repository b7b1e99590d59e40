import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The users directory: keyset-paged on (reputation, id), and "name contains" served by a trigram index
 * on the lower-cased username (pg_trgm).
 */
export class UsersDirectory1795600000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX users_reputation_idx ON users (reputation DESC, id DESC)');
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await queryRunner.query(
      'CREATE INDEX users_username_trgm_idx ON users USING GIN (lower(username::text) gin_trgm_ops)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX users_username_trgm_idx');
    await queryRunner.query('DROP EXTENSION IF EXISTS pg_trgm');
    await queryRunner.query('DROP INDEX users_reputation_idx');
  }
}
