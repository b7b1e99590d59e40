import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Search vectors stay in their row (STORAGE MAIN), saving search two to four page reads a row
 * (docs/schema.md).
 */
export class SearchVectorInline1796040000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE threads ALTER COLUMN search SET STORAGE MAIN');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE threads ALTER COLUMN search SET STORAGE EXTENDED');
  }
}
