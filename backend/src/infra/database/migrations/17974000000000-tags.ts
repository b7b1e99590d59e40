import type { MigrationInterface, QueryRunner } from 'typeorm';
import { setAllowedValues } from './audit-constraints.js';

/**
 * Tags (with how many listed pastes carry each), paste_tags (with the paste's creation time, so a tag's
 * pastes page newest first from one index), the names again on threads.tags for cards, the language
 * facet's index, and three notification types for watching and following.
 */
export class Tags17974000000000 implements MigrationInterface {
  name = 'Tags17974000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE tags (
        id integer GENERATED ALWAYS AS IDENTITY CONSTRAINT tags_pkey PRIMARY KEY,
        name text NOT NULL CONSTRAINT tags_name_check CHECK (name ~ '^[a-z0-9-]{2,30}$'),
        paste_count integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE UNIQUE INDEX tags_name_key ON tags (name)');
    await queryRunner.query('CREATE INDEX tags_use_idx ON tags (paste_count DESC, name)');
    await queryRunner.query(`
      CREATE TABLE paste_tags (
        thread_id integer NOT NULL
          CONSTRAINT paste_tags_thread_id_fkey REFERENCES threads (id) ON DELETE CASCADE,
        tag_id integer NOT NULL CONSTRAINT paste_tags_tag_id_fkey REFERENCES tags (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        CONSTRAINT paste_tags_pkey PRIMARY KEY (thread_id, tag_id)
      )`);
    await queryRunner.query(
      'CREATE INDEX paste_tags_tag_idx ON paste_tags (tag_id, created_at DESC, thread_id DESC)',
    );
    // A constant default: no table rewrite.
    await queryRunner.query("ALTER TABLE threads ADD COLUMN tags text[] NOT NULL DEFAULT '{}'");
    await queryRunner.query(
      'CREATE INDEX threads_language_idx ON threads (language, created_at DESC, id DESC) WHERE listed',
    );
    await setAllowedValues(queryRunner, 'notifications', 'type', 'notifications_type_check', [
      'reply',
      'message',
      'mention',
      'moderation',
      'watch',
      'follow',
      'tag',
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DELETE FROM notifications WHERE type IN ('watch', 'follow', 'tag')");
    await setAllowedValues(queryRunner, 'notifications', 'type', 'notifications_type_check', [
      'reply',
      'message',
      'mention',
      'moderation',
    ]);
    await queryRunner.query('DROP INDEX threads_language_idx');
    await queryRunner.query('ALTER TABLE threads DROP COLUMN tags');
    await queryRunner.query('DROP TABLE paste_tags');
    await queryRunner.query('DROP TABLE tags');
  }
}
