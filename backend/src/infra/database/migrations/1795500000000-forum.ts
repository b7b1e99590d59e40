import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pastes, replies and votes, and the one-row paste counter. Counters are columns kept on write; `search`
 * is a generated full-text vector (title above content) with a GIN index.
 */
export class Forum1795500000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE threads (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        title text NOT NULL,
        content text NOT NULL,
        author_id integer REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        view_count integer NOT NULL DEFAULT 0,
        vote_score integer NOT NULL DEFAULT 0,
        reply_count integer NOT NULL DEFAULT 0,
        is_pinned boolean NOT NULL DEFAULT false,
        is_locked boolean NOT NULL DEFAULT false,
        is_featured boolean NOT NULL DEFAULT false,
        last_reply_at timestamptz,
        last_reply_author_id integer REFERENCES users (id) ON DELETE SET NULL,
        search tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', content), 'B')
        ) STORED
      )`);
    await queryRunner.query('CREATE INDEX threads_search_idx ON threads USING GIN (search)');
    await queryRunner.query(
      'CREATE INDEX threads_recent_idx ON threads (created_at DESC, id DESC) WHERE NOT is_pinned',
    );
    await queryRunner.query('CREATE INDEX threads_pinned_idx ON threads (created_at DESC) WHERE is_pinned');
    await queryRunner.query(
      'CREATE INDEX threads_featured_idx ON threads (created_at DESC) WHERE is_featured',
    );
    await queryRunner.query('CREATE INDEX threads_author_idx ON threads (author_id, created_at DESC)');

    await queryRunner.query(`
      CREATE TABLE replies (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        thread_id integer NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        parent_id integer REFERENCES replies (id) ON DELETE CASCADE,
        author_id integer REFERENCES users (id) ON DELETE SET NULL,
        content text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        vote_score integer NOT NULL DEFAULT 0
      )`);
    await queryRunner.query('CREATE INDEX replies_thread_idx ON replies (thread_id, created_at, id)');
    await queryRunner.query('CREATE INDEX replies_parent_idx ON replies (parent_id)');
    await queryRunner.query('CREATE INDEX replies_author_idx ON replies (author_id)');

    await queryRunner.query(`
      CREATE TABLE votes (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        thread_id integer REFERENCES threads (id) ON DELETE CASCADE,
        reply_id integer REFERENCES replies (id) ON DELETE CASCADE,
        value smallint NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT votes_value_check CHECK (value IN (1, -1)),
        CONSTRAINT votes_one_target CHECK (num_nonnulls(thread_id, reply_id) = 1)
      )`);
    await queryRunner.query(
      'CREATE UNIQUE INDEX votes_user_thread_key ON votes (user_id, thread_id) WHERE thread_id IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX votes_user_reply_key ON votes (user_id, reply_id) WHERE reply_id IS NOT NULL',
    );
    await queryRunner.query('CREATE INDEX votes_thread_idx ON votes (thread_id)');
    await queryRunner.query('CREATE INDEX votes_reply_idx ON votes (reply_id)');

    // One row: how many pastes exist, kept on write so a page need not count them.
    await queryRunner.query(`
      CREATE TABLE forum_stats (
        id boolean PRIMARY KEY DEFAULT true CHECK (id),
        thread_count integer NOT NULL DEFAULT 0
      )`);
    await queryRunner.query('INSERT INTO forum_stats (id, thread_count) SELECT true, count(*) FROM threads');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE forum_stats');
    await queryRunner.query('DROP TABLE votes');
    await queryRunner.query('DROP TABLE replies');
    await queryRunner.query('DROP TABLE threads');
  }
}
