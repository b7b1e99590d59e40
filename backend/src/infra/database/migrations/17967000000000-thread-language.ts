import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A paste's language (issue 15): the canonical highlight.js name of what the content is written in
 * (`python`, `bash`), given with `POST /api/pastes?lang=` or guessed from an uploaded file's extension;
 * NULL, as every paste before this, means Markdown, the default rendering. Adding a nullable column
 * without a default rewrites nothing.
 */
export class ThreadLanguage17967000000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE threads ADD COLUMN language text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE threads DROP COLUMN language');
  }
}
