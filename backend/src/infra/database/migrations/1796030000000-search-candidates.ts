import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Search's candidates: every paste newest first, pinned included. A common word's newest matches are
 * found by walking this index to the cap (SEARCH_CANDIDATES_MAX) instead of reading every GIN match.
 */
export class SearchCandidates1796030000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX threads_created_idx ON threads (created_at DESC, id DESC)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX threads_created_idx');
  }
}
