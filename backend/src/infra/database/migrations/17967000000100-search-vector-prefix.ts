import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What the search vector reads of a paste's content: its first this many characters. */
export const SEARCHED_CONTENT_CHARS = 100_000;

/** The search vector's expression: the title, and the content's first `contentChars` characters (or all). */
const vector = (contentChars: number | null) =>
  `setweight(to_tsvector('english', title), 'A') || ` +
  `setweight(to_tsvector('english', ${contentChars === null ? 'content' : `left(content, ${contentChars})`}), 'B')`;

/**
 * PostgreSQL 17+ changes a generated column's expression in place. Before 17 (an external DATABASE_URL)
 * the column is dropped and added again, then given back its storage and GIN index, in this transaction.
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
 * The search vector reads the first 100,000 characters of a paste, all a paste could hold before
 * PASTE_MAX_BYTES: a MiB of distinct words passes PostgreSQL's 1 MB tsvector limit and failed the paste.
 */
export class SearchVectorPrefix17967000000100 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await setVector(queryRunner, SEARCHED_CONTENT_CHARS);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await setVector(queryRunner, null);
  }
}
