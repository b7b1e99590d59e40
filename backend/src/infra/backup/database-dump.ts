import type { ClientBase } from 'pg';

/**
 * What the backup reads from pg_catalog: the tables of the current schema (every table the migrations
 * made, the migrations table too), their stored columns, the foreign keys between them and the sequences.
 */
export interface TableInfo {
  name: string;
  /** Stored columns in their order: generated columns are left out (PostgreSQL computes them again). */
  columns: string[];
}

export interface ForeignKey {
  name: string;
  table: string;
  references: string;
  /** `pg_get_constraintdef`, to add it again. */
  definition: string;
}

export interface SequenceState {
  name: string;
  lastValue: string;
  isCalled: boolean;
}

/** The same text either way whatever the server's or the session's settings (and across versions). */
export async function setDumpSettings(client: ClientBase): Promise<void> {
  await client.query(
    "SET LOCAL TimeZone = 'UTC'; SET LOCAL DateStyle = 'ISO, YMD'; SET LOCAL IntervalStyle = 'postgres'; " +
      "SET LOCAL extra_float_digits = 3; SET LOCAL bytea_output = 'hex'; SET LOCAL client_encoding = 'UTF8'",
  );
}

export async function listTables(client: ClientBase): Promise<TableInfo[]> {
  const { rows } = await client.query<{ name: string; columns: string[] }>(
    `SELECT c.relname AS name,
            array_agg(a.attname::text ORDER BY a.attnum) AS columns
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      GROUP BY c.relname
      ORDER BY c.relname`,
  );
  return rows;
}

export async function listForeignKeys(client: ClientBase): Promise<ForeignKey[]> {
  const { rows } = await client.query<ForeignKey>(
    `SELECT con.conname AS name, src.relname AS table, dst.relname AS references,
            pg_get_constraintdef(con.oid) AS definition
       FROM pg_constraint con
       JOIN pg_class src ON src.oid = con.conrelid
       JOIN pg_class dst ON dst.oid = con.confrelid
       JOIN pg_namespace n ON n.oid = src.relnamespace
      WHERE con.contype = 'f' AND n.nspname = current_schema()
      ORDER BY src.relname, con.conname`,
  );
  return rows;
}

export async function listSequences(client: ClientBase): Promise<SequenceState[]> {
  const { rows: names } = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'S' ORDER BY c.relname`,
  );
  const states: SequenceState[] = [];
  for (const { name } of names) {
    const { rows } = await client.query<{ last_value: string; is_called: boolean }>(
      `SELECT last_value::text AS last_value, is_called FROM ${client.escapeIdentifier(name)}`,
    );
    states.push({ name, lastValue: rows[0]!.last_value, isCalled: rows[0]!.is_called });
  }
  return states;
}

/** Tables with triggers of their own (not the ones behind foreign keys), which a load would fire. */
export async function tablesWithUserTriggers(client: ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT DISTINCT c.relname AS name
       FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE NOT t.tgisinternal AND n.nspname = current_schema()
      ORDER BY 1`,
  );
  return rows.map((row) => row.name);
}

/**
 * The tables in an order where each comes after the tables it references (a reference to itself is fine
 * within one COPY). Where references go round in a cycle, the foreign keys that close it are returned in
 * `deferred`: the restore drops them for the load and adds them again (which checks every row).
 */
export function loadOrder(
  tables: readonly string[],
  keys: readonly ForeignKey[],
): { order: string[]; deferred: ForeignKey[] } {
  const remaining = new Set(tables);
  const edges = keys.filter((key) => key.table !== key.references && remaining.has(key.references));
  const deferred: ForeignKey[] = [];
  const order: string[] = [];
  while (remaining.size > 0) {
    const ready = [...remaining].filter(
      (table) =>
        !edges.some((key) => key.table === table && remaining.has(key.references) && !deferred.includes(key)),
    );
    if (ready.length > 0) {
      for (const table of ready.sort()) {
        order.push(table);
        remaining.delete(table);
      }
      continue;
    }
    // A cycle: load the first table of it before the tables it references, checking those keys later.
    const first = [...remaining].sort()[0]!;
    deferred.push(...edges.filter((key) => key.table === first && remaining.has(key.references)));
    order.push(first);
    remaining.delete(first);
  }
  return { order, deferred };
}
