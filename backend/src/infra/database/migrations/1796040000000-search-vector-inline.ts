import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A paste's search vector stays in its row (STORAGE MAIN) instead of going out to the TOAST table: a
 * vector is 0.5–5 KB and its compression rarely takes, so most of them went out, and search reads one
 * for every row it walks, matches or ranks (two to four more page reads each). Now the content leaves the
 * row first; a vector goes out only if the row still does not fit in a page. Reading 1,000 candidates
 * costs a third of what it did (bench/README.md). Rows written before this keep their vectors out until
 * rewritten (`VACUUM FULL threads`).
 */
export class SearchVectorInline1796040000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE threads ALTER COLUMN search SET STORAGE MAIN');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE threads ALTER COLUMN search SET STORAGE EXTENDED');
  }
}
