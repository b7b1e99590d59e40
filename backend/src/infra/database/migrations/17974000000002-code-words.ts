import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The code words: title and content cut at every character not a letter or digit, so that
 * `this.getUserById(` holds `getuserbyid` (the english vector keeps it whole, as a host name). 'simple':
 * no stemming, no stop words; positions kept, so `wombling_free` is two words together.
 */
export const CODE_WORDS_EXPRESSION =
  "to_tsvector('simple', regexp_replace(left(title || ' ' || content, 100000), '[^[:alnum:]]+', ' ', 'g'))";

/**
 * Identifier search: a second generated vector of code words with its GIN index (a second full-text
 * vector rather than pg_trgm: its index is a fraction of a trigram index's size and build time at a
 * million pastes, and a word's posting list is exact, with no recheck of the text). One table rewrite.
 */
export class CodeWords17974000000002 implements MigrationInterface {
  name = 'CodeWords17974000000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    // One statement: the rewrite that fills the column happens once, with the storage already MAIN (kept
    // in the row, compressed, as the search vector is: a walk reads it without a TOAST lookup).
    await queryRunner.query(
      `ALTER TABLE threads ADD COLUMN code_words tsvector GENERATED ALWAYS AS (${CODE_WORDS_EXPRESSION}) STORED,
         ALTER COLUMN code_words SET STORAGE MAIN`,
    );
    await queryRunner.query('CREATE INDEX threads_code_words_idx ON threads USING GIN (code_words)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE threads DROP COLUMN code_words');
  }
}
