import { Client } from 'pg';
import { DataSource, type EntityMetadata } from 'typeorm';
import { ENTITIES } from '../src/entities.js';
import { dataSourceOptions } from '../src/infra/database/data-source.options.js';
import { TABLE_OWNERS, TYPEORM_TABLES } from '../src/infra/database/table-owners.js';
import { createTestDatabase, type TestDatabase } from './support/postgres.js';

/**
 * The entities are the one description of the tables: on a migrated database, TypeORM's schema diff
 * (what `synchronize` would run) is empty. TypeORM compares check constraints and partial indexes by
 * name only, and reads a generated column's expression from its own `typeorm_metadata` table, so
 * `schemaDiff` also compares those expressions itself, as PostgreSQL prints them (`expressionDiff`).
 */
async function schemaDiff(url: string): Promise<string[]> {
  const client = new Client(url);
  await client.connect();
  const dataSource = new DataSource(dataSourceOptions(url, { entities: ENTITIES, poolSize: 2 }));
  try {
    await dataSource.initialize();
    const differences: string[] = [];
    for (const entity of dataSource.entityMetadatas) {
      differences.push(...(await expressionDiff(client, entity)));
    }
    const queries = await dataSource.driver.createSchemaBuilder().log();
    return [...queries.upQueries.map((query) => query.query), ...differences];
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await client.end();
  }
}

/**
 * Where an entity's generated columns, checks and indexes differ from its migrated table's: PostgreSQL
 * parses the entity's on a scratch copy of the table (its columns only) and prints both alike. A piece
 * missing from the table is TypeORM's diff to report. Records each generated column's expression in
 * `typeorm_metadata` (which TypeORM made when it ran the migrations) for TypeORM's diff to read: the
 * entity's own text where the two agree, the migrated one where they do not.
 */
async function expressionDiff(client: Client, entity: EntityMetadata): Promise<string[]> {
  const table = entity.tableName;
  const differences: string[] = [];
  const recorded: Array<{ column: string; value: string }> = [];
  await client.query('BEGIN');
  try {
    await client.query(`CREATE TEMP TABLE probe (LIKE ${table}) ON COMMIT DROP`);
    for (const column of entity.columns.filter((each) => each.asExpression)) {
      const migrated = await printedDefault(client, table, column.databaseName);
      await client.query(
        `ALTER TABLE probe ADD COLUMN probe_column ${column.type as string} ` +
          `GENERATED ALWAYS AS (${column.asExpression}) STORED`,
      );
      const declared = await printedDefault(client, 'probe', 'probe_column');
      await client.query('ALTER TABLE probe DROP COLUMN probe_column');
      if (migrated !== declared) {
        differences.push(
          `${table}.${column.databaseName}: generated as ${migrated}, the entity says ${declared}`,
        );
      }
      recorded.push({
        column: column.databaseName,
        value: migrated === declared ? column.asExpression! : `${migrated}`,
      });
    }
    for (const check of entity.checks) {
      const migrated = await constraintDef(client, check.name, table);
      await client.query(
        `ALTER TABLE probe ADD CONSTRAINT probe_check CHECK (${check.expression}) NOT VALID`,
      );
      const declared = (await constraintDef(client, 'probe_check', 'probe'))?.replace(/ NOT VALID$/, '');
      await client.query('ALTER TABLE probe DROP CONSTRAINT probe_check');
      if (migrated !== undefined && migrated !== declared) {
        differences.push(`${table} check ${check.name}: ${migrated}, the entity says ${declared}`);
      }
    }
    for (const index of entity.indices.filter((each) => each.synchronize)) {
      const migrated = await indexShape(client, index.name, table);
      await client.query(
        `CREATE ${index.isUnique ? 'UNIQUE ' : ''}INDEX probe_index ON probe USING ${index.type ?? 'btree'} ` +
          `(${index.columns.map((column) => column.databaseName).join(', ')})` +
          (index.where ? ` WHERE ${index.where}` : ''),
      );
      const declared = await indexShape(client, 'probe_index', 'probe');
      await client.query('DROP INDEX probe_index');
      if (migrated !== undefined && migrated !== declared) {
        differences.push(`${table} index ${index.name}: on ${migrated}, the entity says ${declared}`);
      }
    }
  } finally {
    await client.query('ROLLBACK');
  }
  for (const { column, value } of recorded) {
    await client.query(
      `INSERT INTO typeorm_metadata (type, database, schema, "table", name, value)
       VALUES ('GENERATED_COLUMN', current_database(), current_schema(), $1, $2, $3)`,
      [table, column, value],
    );
  }
  return differences;
}

async function one(client: Client, sql: string, parameters: unknown[] = []): Promise<string | undefined> {
  const { rows } = await client.query<{ def: string }>(sql, parameters);
  return rows[0]?.def;
}

function constraintDef(client: Client, name: string, table: string): Promise<string | undefined> {
  return one(
    client,
    'SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = $1 AND conrelid = $2::regclass',
    [name, table],
  );
}

/** A column's default or generation expression as PostgreSQL prints it. */
function printedDefault(client: Client, table: string, column: string): Promise<string | undefined> {
  return one(
    client,
    `SELECT pg_get_expr(d.adbin, d.adrelid) AS def FROM pg_attrdef d
     JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
     WHERE d.adrelid = $1::regclass AND a.attname = $2`,
    [table, column],
  );
}

/** An index's method, keys in order and predicate (its direction aside, which entities cannot state). */
function indexShape(client: Client, index: string, table: string): Promise<string | undefined> {
  return one(
    client,
    `SELECT am.amname || ' (' || (SELECT string_agg(a.attname, ', ' ORDER BY k.n)
                                   FROM unnest(x.indkey) WITH ORDINALITY k(attnum, n)
                                   JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum) || ')'
            || CASE WHEN x.indisunique THEN ' unique' ELSE '' END
            || coalesce(' WHERE ' || pg_get_expr(x.indpred, x.indrelid), '') AS def
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_am am ON am.oid = i.relam
     WHERE i.relname = $1 AND x.indrelid = $2::regclass`,
    [index, table],
  );
}

describe('the entities and the migrations', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database?.drop();
  });

  it("describe every table but TypeORM's own, once", async () => {
    const dataSource = new DataSource(dataSourceOptions(database.url, { entities: ENTITIES }));
    await dataSource.initialize();
    try {
      const tables = dataSource.entityMetadatas.map((entity) => entity.tableName).sort();
      expect(tables).toEqual(
        Object.keys(TABLE_OWNERS)
          .filter((table) => !(TYPEORM_TABLES as string[]).includes(table))
          .sort(),
      );
    } finally {
      await dataSource.destroy();
    }
  });

  it('agree: TypeORM would change nothing on a migrated database', async () => {
    const differences = await schemaDiff(database.url);
    if (differences.length > 0) {
      throw new Error(`The entities and the migrations differ:\n${differences.join('\n')}`);
    }
  });

  it('differ when a column, a default, a foreign key, an index, a check or a generated column does', async () => {
    const scratch = await createTestDatabase();
    try {
      const client = new Client(scratch.url);
      await client.connect();
      try {
        await client.query('ALTER TABLE chat_messages ALTER COLUMN content TYPE varchar(500)');
        await client.query('ALTER TABLE sessions ALTER COLUMN expires_at DROP NOT NULL');
        await client.query("ALTER TABLE threads ALTER COLUMN visibility SET DEFAULT 'private'");
        await client.query(
          `ALTER TABLE replies DROP CONSTRAINT replies_author_id_fkey, ADD CONSTRAINT replies_author_id_fkey
             FOREIGN KEY (author_id) REFERENCES users (id) ON DELETE CASCADE`,
        );
        await client.query('DROP INDEX votes_reply_idx');
        await client.query(
          `ALTER TABLE threads DROP CONSTRAINT threads_key_shape_check,
             ADD CONSTRAINT threads_key_shape_check CHECK (key ~ '^[A-Za-z0-9_-]{21}$')`,
        );
        await client.query('DROP INDEX threads_expires_idx');
        await client.query('CREATE INDEX threads_expires_idx ON threads (expires_at)');
        await client.query(
          `ALTER TABLE threads ALTER COLUMN search SET EXPRESSION AS (to_tsvector('english', title))`,
        );
      } finally {
        await client.end();
      }
      const differences = (await schemaDiff(scratch.url)).join('\n');
      expect(differences).toMatch(/"chat_messages".*"content"/);
      expect(differences).toMatch(/"sessions".*"expires_at"/);
      expect(differences).toMatch(/"threads".*"visibility".*DEFAULT 'public'/);
      expect(differences).toMatch(/ADD CONSTRAINT "replies_author_id_fkey".*ON DELETE SET NULL/);
      expect(differences).toMatch(/CREATE INDEX "votes_reply_idx"/);
      expect(differences).toMatch(
        /threads check threads_key_shape_check: .*\{21\}.*the entity says .*\{22\}/,
      );
      expect(differences).toMatch(
        /threads index threads_expires_idx: on btree \(expires_at\), the entity says .*WHERE/,
      );
      expect(differences).toMatch(/threads\.search: generated as .*the entity says .*left/);
    } finally {
      await scratch.drop();
    }
  });
});
