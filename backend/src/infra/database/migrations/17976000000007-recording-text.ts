import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A terminal recording's searchable text: the output of its asciicast events with escape sequences
 * removed, so search finds what was printed and not the JSON around it. Never fails (a line that is not
 * JSON is skipped): it runs on every write of a paste whose language says asciicast.
 */
const RECORDING_TEXT_FUNCTION = `CREATE FUNCTION asciicast_text(content text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN (
    SELECT regexp_replace(coalesce(string_agg(
      CASE WHEN jsonb_typeof(e) = 'array' THEN CASE WHEN e ->> 1 = 'o' THEN e ->> 2 END END, '' ORDER BY n), ''),
      '\\x1b\\[[0-?]*[ -/]*[@-~]|\\x1b\\][^\\x07\\x1b]*(\\x07|\\x1b\\\\)|\\x1b[@-Z\\\\-_]', '', 'g')
    FROM (SELECT n, CASE WHEN n > 1 AND pg_catalog.pg_input_is_valid(line, 'jsonb') THEN line::jsonb END AS e
          FROM regexp_split_to_table(content, E'\\n') WITH ORDINALITY AS l(line, n)) AS events
  )`;

/** The text a paste's search vectors read: a recording's output, any other paste's content. */
export const SEARCHED_TEXT = "CASE WHEN language = 'asciicast' THEN asciicast_text(content) ELSE content END";

export const SEARCH_EXPRESSION =
  "setweight(to_tsvector('english', title), 'A') || " +
  `setweight(to_tsvector('english', left(${SEARCHED_TEXT}, 100000)), 'B')`;

export const RECORDING_CODE_WORDS_EXPRESSION = `to_tsvector('simple', regexp_replace(left(title || ' ' || ${SEARCHED_TEXT}, 100000), '[^[:alnum:]]+', ' ', 'g'))`;

/**
 * Search reads a recording's printed text. One table rewrite (both vectors in one statement); no paste
 * was a recording before, so the vectors of every other paste come out as they were.
 */
export class RecordingText17976000000007 implements MigrationInterface {
  name = 'RecordingText17976000000007';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(RECORDING_TEXT_FUNCTION);
    await queryRunner.query(
      `ALTER TABLE threads ALTER COLUMN search SET EXPRESSION AS (${SEARCH_EXPRESSION}),
         ALTER COLUMN code_words SET EXPRESSION AS (${RECORDING_CODE_WORDS_EXPRESSION})`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE threads ALTER COLUMN search SET EXPRESSION AS (setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', left(content, 100000)), 'B')),
         ALTER COLUMN code_words SET EXPRESSION AS (to_tsvector('simple', regexp_replace(left(title || ' ' || content, 100000), '[^[:alnum:]]+', ' ', 'g')))`,
    );
    await queryRunner.query('DROP FUNCTION asciicast_text(text)');
  }
}
