import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Escape sequences (CSI, OSC, two-character) a recording's output loses before it is searched. */
const ESCAPES = `'\\x1b\\[[0-?]*[ -/]*[@-~]|\\x1b\\][^\\x07\\x1b]*(\\x07|\\x1b\\\\)|\\x1b[@-Z\\\\-_]'`;

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
      ${ESCAPES}, '', 'g')
    FROM (SELECT n, CASE WHEN n > 1 AND pg_catalog.pg_input_is_valid(line, 'jsonb') THEN line::jsonb END AS e
          FROM regexp_split_to_table(content, E'\\n') WITH ORDINALITY AS l(line, n)) AS events
  )`;

/**
 * The same before PostgreSQL 16 (an external DATABASE_URL), which has no pg_input_is_valid: a line that
 * is not JSON is caught instead. Appending to a PL/pgSQL array is amortised O(1), so long recordings stay linear.
 */
const RECORDING_TEXT_FUNCTION_BEFORE_16 = `CREATE FUNCTION asciicast_text(content text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
  DECLARE
    line text;
    e jsonb;
    n int := 0;
    printed text[] := '{}';
  BEGIN
    FOR line IN SELECT regexp_split_to_table(content, E'\\n') LOOP
      n := n + 1;
      CONTINUE WHEN n = 1;
      BEGIN
        e := line::jsonb;
      EXCEPTION WHEN others THEN
        CONTINUE;
      END;
      IF jsonb_typeof(e) = 'array' AND e ->> 1 = 'o' AND e ->> 2 IS NOT NULL THEN
        printed := printed || (e ->> 2);
      END IF;
    END LOOP;
    RETURN regexp_replace(array_to_string(printed, ''), ${ESCAPES}, '', 'g');
  END
  $fn$`;

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
    const version = await serverVersion(queryRunner);
    await queryRunner.query(version >= 160000 ? RECORDING_TEXT_FUNCTION : RECORDING_TEXT_FUNCTION_BEFORE_16);
    await setVectors(queryRunner, version, SEARCH_EXPRESSION, RECORDING_CODE_WORDS_EXPRESSION);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await setVectors(
      queryRunner,
      await serverVersion(queryRunner),
      "setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', left(content, 100000)), 'B')",
      "to_tsvector('simple', regexp_replace(left(title || ' ' || content, 100000), '[^[:alnum:]]+', ' ', 'g'))",
    );
    await queryRunner.query('DROP FUNCTION asciicast_text(text)');
  }
}

async function serverVersion(queryRunner: QueryRunner): Promise<number> {
  const [{ version }] = (await queryRunner.query(
    `SELECT current_setting('server_version_num')::int AS version`,
  )) as Array<{ version: number }>;
  return version;
}

/**
 * PostgreSQL 17+ changes a generated column's expression in place; before 17 both vectors are dropped and
 * added again, then given back their storage and GIN indexes, in this transaction.
 */
async function setVectors(queryRunner: QueryRunner, version: number, search: string, codeWords: string) {
  if (version >= 170000) {
    await queryRunner.query(
      `ALTER TABLE threads ALTER COLUMN search SET EXPRESSION AS (${search}),
         ALTER COLUMN code_words SET EXPRESSION AS (${codeWords})`,
    );
    return;
  }
  await queryRunner.query('ALTER TABLE threads DROP COLUMN search, DROP COLUMN code_words');
  await queryRunner.query(
    `ALTER TABLE threads ADD COLUMN search tsvector GENERATED ALWAYS AS (${search}) STORED,
       ADD COLUMN code_words tsvector GENERATED ALWAYS AS (${codeWords}) STORED,
       ALTER COLUMN search SET STORAGE MAIN, ALTER COLUMN code_words SET STORAGE MAIN`,
  );
  await queryRunner.query('CREATE INDEX threads_search_idx ON threads USING GIN (search)');
  await queryRunner.query('CREATE INDEX threads_code_words_idx ON threads USING GIN (code_words)');
}
