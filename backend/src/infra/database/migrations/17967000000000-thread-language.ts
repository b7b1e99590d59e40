import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A paste's language: highlight.js's canonical name (`python`), given or guessed from a file's
 * extension; NULL means Markdown. A nullable column without a default rewrites nothing.
 */
export class ThreadLanguage17967000000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE threads ADD COLUMN language text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE threads DROP COLUMN language');
  }
}
