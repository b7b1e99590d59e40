import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** Set by the global setup: the test cluster's `postgres` database, for creating and dropping databases. */
export const TEST_PG_URL_VARIABLE = 'TERMPASTE_TEST_PG_URL';

/** Migrated once per run; every test database is a copy of it. */
export const TEMPLATE_DATABASE = 'termpaste_template';

export function adminUrl(): string {
  const url = process.env[TEST_PG_URL_VARIABLE];
  if (!url)
    throw new Error(
      `${TEST_PG_URL_VARIABLE} is not set: run the tests through jest (its global setup starts PostgreSQL)`,
    );
  return url;
}

export function databaseUrl(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdminClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client(adminUrl());
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  name: string;
  url: string;
  /** Drops it, disconnecting whoever is still connected. */
  drop(): Promise<void>;
}

/** A fresh, migrated database of its own for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  await withAdminClient((client) =>
    client.query(
      `CREATE DATABASE ${client.escapeIdentifier(name)} TEMPLATE ${client.escapeIdentifier(TEMPLATE_DATABASE)}`,
    ),
  );
  return {
    name,
    url: databaseUrl(name),
    drop: () =>
      withAdminClient(async (client) => {
        await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
      }),
  };
}
