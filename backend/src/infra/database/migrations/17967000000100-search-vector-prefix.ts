import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What the search vector reads of a paste's content: its first this many characters. */
export const SEARCHED_CONTENT_CHARS = 100_000;

/**
 * A paste's search vector reads the first 100,000 characters of its content, all that a paste could
 * hold before PASTE_MAX_BYTES (issue 15: 1 MiB by default), so search finds what it found before. A
 * vector of a whole MiB of distinct words passes PostgreSQL's limit of 1 MB a tsvector (`string is too
 * long for tsvector`), which failed the paste itself. PostgreSQL 17 and later change a generated
 * column's expression in place (the table is rewritten once; its STORAGE MAIN and index stay).
 */
export class SearchVectorPrefix17967000000100 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE threads ALTER COLUMN search SET EXPRESSION AS (
        setweight(to_tsvector('english', title), 'A') ||
        setweight(to_tsvector('english', left(content, ${SEARCHED_CONTENT_CHARS})), 'B')
      )`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE threads ALTER COLUMN search SET EXPRESSION AS (
        setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', content), 'B')
      )`,
    );
  }
}
