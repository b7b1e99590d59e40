import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Search's candidates (GET /api/search): every paste newest first, pinned ones included (threads_recent_idx
 * leaves them out). A common word's newest matches are found by walking this index and stopping at the
 * cap (SEARCH_CANDIDATES_MAX), instead of reading every match the GIN index returns; a rare word still
 * uses the GIN index.
 */
export class SearchCandidates1796030000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX threads_created_idx ON threads (created_at DESC, id DESC)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX threads_created_idx');
  }
}
