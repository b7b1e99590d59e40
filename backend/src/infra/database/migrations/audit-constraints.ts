import type { QueryRunner } from 'typeorm';

/** The values a CHECK (column IN (...)) constraint allows now, read from the constraint itself. */
export async function allowedValues(queryRunner: QueryRunner, constraint: string): Promise<string[]> {
  const [row]: Array<{ def: string }> = await queryRunner.query(
    'SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = $1',
    [constraint],
  );
  return [...(row?.def ?? '').matchAll(/'([^']+)'/g)].map((match) => match[1]!);
}

/** Replaces the CHECK (column IN (...)) constraint `constraint` of `table` by one allowing `values`. */
export async function setAllowedValues(
  queryRunner: QueryRunner,
  table: string,
  column: string,
  constraint: string,
  values: readonly string[],
): Promise<void> {
  await queryRunner.query(`ALTER TABLE ${table} DROP CONSTRAINT ${constraint}`);
  await queryRunner.query(
    `ALTER TABLE ${table} ADD CONSTRAINT ${constraint} CHECK (${column} IN (${values
      .map((value) => `'${value}'`)
      .join(', ')}))`,
  );
}
