import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Usernames and e-mail addresses compare case-insensitively: they will be `citext` columns. */
export class EnableCitext1795323328934 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS citext');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP EXTENSION IF EXISTS citext');
  }
}
