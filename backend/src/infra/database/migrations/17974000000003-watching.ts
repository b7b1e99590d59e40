import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Watching and saving: the pastes a member watches (or explicitly stopped watching: that row keeps an
 * implicit watch from coming back), the members they follow, the tags they watch, their bookmarks of
 * pastes and replies, and whether they watch what they post and reply to.
 */
export class Watching17974000000003 implements MigrationInterface {
  name = 'Watching17974000000003';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE paste_watches (
        user_id integer NOT NULL
          CONSTRAINT paste_watches_user_id_fkey REFERENCES users (id) ON DELETE CASCADE,
        thread_id integer NOT NULL
          CONSTRAINT paste_watches_thread_id_fkey REFERENCES threads (id) ON DELETE CASCADE,
        watching boolean NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT paste_watches_pkey PRIMARY KEY (user_id, thread_id)
      )`);
    await queryRunner.query(
      'CREATE INDEX paste_watches_thread_idx ON paste_watches (thread_id) WHERE watching',
    );
    await queryRunner.query(
      'CREATE INDEX paste_watches_user_idx ON paste_watches (user_id, created_at DESC) WHERE watching',
    );
    await queryRunner.query(`
      CREATE TABLE member_follows (
        user_id integer NOT NULL
          CONSTRAINT member_follows_user_id_fkey REFERENCES users (id) ON DELETE CASCADE,
        member_id integer NOT NULL
          CONSTRAINT member_follows_member_id_fkey REFERENCES users (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT member_follows_pkey PRIMARY KEY (user_id, member_id),
        CONSTRAINT member_follows_self_check CHECK (user_id <> member_id)
      )`);
    await queryRunner.query('CREATE INDEX member_follows_member_idx ON member_follows (member_id)');
    await queryRunner.query(`
      CREATE TABLE tag_watches (
        user_id integer NOT NULL
          CONSTRAINT tag_watches_user_id_fkey REFERENCES users (id) ON DELETE CASCADE,
        tag_id integer NOT NULL CONSTRAINT tag_watches_tag_id_fkey REFERENCES tags (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT tag_watches_pkey PRIMARY KEY (user_id, tag_id)
      )`);
    await queryRunner.query('CREATE INDEX tag_watches_tag_idx ON tag_watches (tag_id)');
    await queryRunner.query(`
      CREATE TABLE bookmarks (
        id integer GENERATED ALWAYS AS IDENTITY CONSTRAINT bookmarks_pkey PRIMARY KEY,
        user_id integer NOT NULL CONSTRAINT bookmarks_user_id_fkey REFERENCES users (id) ON DELETE CASCADE,
        thread_id integer CONSTRAINT bookmarks_thread_id_fkey REFERENCES threads (id) ON DELETE CASCADE,
        reply_id integer CONSTRAINT bookmarks_reply_id_fkey REFERENCES replies (id) ON DELETE CASCADE,
        note text CONSTRAINT bookmarks_note_check CHECK (char_length(note) <= 200),
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT bookmarks_target_check CHECK ((thread_id IS NULL) <> (reply_id IS NULL))
      )`);
    await queryRunner.query('CREATE UNIQUE INDEX bookmarks_thread_key ON bookmarks (user_id, thread_id)');
    await queryRunner.query('CREATE UNIQUE INDEX bookmarks_reply_key ON bookmarks (user_id, reply_id)');
    await queryRunner.query(
      'CREATE INDEX bookmarks_user_idx ON bookmarks (user_id, created_at DESC, id DESC)',
    );
    // The replies' own cascade: a bookmark of a reply goes with it.
    await queryRunner.query('CREATE INDEX bookmarks_reply_idx ON bookmarks (reply_id)');
    await queryRunner.query('CREATE INDEX bookmarks_thread_idx ON bookmarks (thread_id)');
    await queryRunner.query(`
      CREATE TABLE watch_settings (
        user_id integer NOT NULL
          CONSTRAINT watch_settings_user_id_fkey REFERENCES users (id) ON DELETE CASCADE
          CONSTRAINT watch_settings_pkey PRIMARY KEY,
        auto_watch boolean NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE watch_settings');
    await queryRunner.query('DROP TABLE bookmarks');
    await queryRunner.query('DROP TABLE tag_watches');
    await queryRunner.query('DROP TABLE member_follows');
    await queryRunner.query('DROP TABLE paste_watches');
  }
}
