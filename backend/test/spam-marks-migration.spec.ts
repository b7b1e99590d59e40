import { Client } from 'pg';
import { SpamMarkSources17973000000001 } from '../src/infra/database/migrations/17973000000001-spam-mark-sources.js';
import { createTestDatabase, type TestDatabase } from './support/postgres.js';

/** The spam marks' sources migration: rolled back, the old schema as it was; applied again, as now. */
describe('the spam mark sources migration', () => {
  let database: TestDatabase;
  let client: Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    client = new Client(database.url);
    await client.connect();
  });

  afterAll(async () => {
    await client.end();
    await database.drop();
  });

  const runner = () =>
    ({
      query: async (sql: string, params?: unknown[]) => (await client.query(sql, params)).rows,
    }) as never;

  const forget = () =>
    client.query(
      `INSERT INTO audit_log (actor_name, action, target_type, target_id, target_label)
       VALUES ('root', 'spam_mark.forget', 'spam_mark', 1, 'domain x.example')`,
    );

  it('rolls back and applies again', async () => {
    await client.query("INSERT INTO spam_marks (kind, value, spammer) VALUES ('domain', 'x.example', 'bot')");
    await forget();
    const migration = new SpamMarkSources17973000000001();

    await migration.down(runner());
    const columns = async () =>
      (
        await client.query<{ column_name: string }>(
          "SELECT column_name FROM information_schema.columns WHERE table_name = 'spam_marks' ORDER BY 1",
        )
      ).rows.map((row) => row.column_name);
    expect(await columns()).toEqual(['created_at', 'id', 'kind', 'value']);
    const { rows } = await client.query("SELECT 1 FROM audit_log WHERE action = 'spam_mark.forget'");
    expect(rows).toEqual([]);
    await expect(forget()).rejects.toThrow(/audit_log_action_check/);
    // The other moderation actions stay allowed.
    await client.query(
      `INSERT INTO audit_log (actor_name, action, target_type, target_id, target_label)
       VALUES ('root', 'user.spammer_delete', 'user', 1, 'bot')`,
    );

    await migration.up(runner());
    expect(await columns()).toEqual(['created_at', 'id', 'kind', 'spammer', 'value']);
    await forget();
  });
});
