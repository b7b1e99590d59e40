import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What the search vector reads of a paste's content: its first this many characters. */
export const SEARCHED_CONTENT_CHARS = 100_000;

/** The search vector's expression: the title, and the content's first `contentChars` characters (or all). */
const vector = (contentChars: number | null) =>
  `setweight(to_tsvector('english', title), 'A') || ` +
  `setweight(to_tsvector('english', ${contentChars === null ? 'content' : `left(content, ${contentChars})`}), 'B')`;

/**
 * PostgreSQL 17 and later change a generated column's expression in place (the table is rewritten once;
 * its STORAGE MAIN and index stay). Before 17 (an external DATABASE_URL may be 15 or 16) the column is
 * dropped and added again with the new expression, then given back its storage and GIN index: the same
 * result, in the migration's transaction.
 */
async function setVector(queryRunner: QueryRunner, contentChars: number | null): Promise<void> {
  const [{ version }] = (await queryRunner.query(
    `SELECT current_setting('server_version_num')::int AS version`,
  )) as Array<{ version: number }>;
  if (version >= 170000) {
    await queryRunner.query(
      `ALTER TABLE threads ALTER COLUMN search SET EXPRESSION AS (${vector(contentChars)})`,
    );
    return;
  }
  await queryRunner.query('ALTER TABLE threads DROP COLUMN search');
  await queryRunner.query(
    `ALTER TABLE threads ADD COLUMN search tsvector GENERATED ALWAYS AS (${vector(contentChars)}) STORED`,
  );
  await queryRunner.query('ALTER TABLE threads ALTER COLUMN search SET STORAGE MAIN');
  await queryRunner.query('CREATE INDEX threads_search_idx ON threads USING GIN (search)');
}

/**
 * A paste's search vector reads the first 100,000 characters of its content, all that a paste could
 * hold before PASTE_MAX_BYTES (issue 15: 1 MiB by default), so search finds what it found before. A
 * vector of a whole MiB of distinct words passes PostgreSQL's limit of 1 MB a tsvector (`string is too
 * long for tsvector`), which failed the paste itself.
 */
export class SearchVectorPrefix17967000000100 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await setVector(queryRunner, SEARCHED_CONTENT_CHARS);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await setVector(queryRunner, null);
  }
}
