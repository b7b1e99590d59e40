import { Client } from 'pg';
import { Moderation17972000000000 } from '../src/infra/database/migrations/17972000000000-moderation.js';
import { MIGRATIONS } from '../src/infra/database/migrations/index.js';
import { createTestDatabase, type TestDatabase } from './support/postgres.js';

/**
 * The moderation migration on a database that holds rows: rolled back, the old schema reads as it did
 * (a hidden paste is listed again, the moderation notifications and audit rows go with their types),
 * and applied again, a hidden paste leaves the lists.
 */
describe('the moderation migration', () => {
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

  /** A QueryRunner enough for the migration: its `query`, on the test's client. */
  const runner = () =>
    ({
      query: async (sql: string, params?: unknown[]) => (await client.query(sql, params)).rows,
    }) as never;

  it('rolls back and applies again, keeping what each schema can say', async () => {
    const {
      rows: [user],
    } = await client.query<{ id: number }>(
      "INSERT INTO users (username, email) VALUES ('mig', 'mig@example.com') RETURNING id",
    );
    const {
      rows: [paste],
    } = await client.query<{ id: number; listed: boolean }>(
      `INSERT INTO threads (title, content, author_id, hidden_at) VALUES ('t', 'c', $1, now())
       RETURNING id, listed`,
      [user!.id],
    );
    expect(paste!.listed).toBe(false);
    await client.query(
      `INSERT INTO notifications (user_id, type, content, source) VALUES ($1, 'moderation', 'x', 'm:1')`,
      [user!.id],
    );

    // Rolled back as TypeORM would: the later migrations first, newest first (their triggers read `listed`).
    const later = MIGRATIONS.slice(MIGRATIONS.indexOf(Moderation17972000000000) + 1);
    for (const Later of [...later].reverse()) await new Later().down(runner());

    const indexes = async () =>
      (
        await client.query<{ indexdef: string }>(
          "SELECT indexdef FROM pg_indexes WHERE tablename = 'threads' ORDER BY indexname",
        )
      ).rows.map((row) => row.indexdef);
    const before = await indexes();
    // The lists' partial indexes are built on `listed`: they survive its new expression.
    expect(before.filter((def) => / WHERE \(?listed\b/.test(def))).toHaveLength(4);

    const migration = new Moderation17972000000000();
    await migration.down(runner());
    expect(await indexes()).toEqual(before);
    const listed = await client.query<{ listed: boolean }>('SELECT listed FROM threads WHERE id = $1', [
      paste!.id,
    ]);
    expect(listed.rows).toEqual([{ listed: true }]);
    expect((await client.query("SELECT 1 FROM notifications WHERE type = 'moderation'")).rowCount).toBe(0);
    await expect(
      client.query(
        `INSERT INTO notifications (user_id, type, content, source) VALUES ($1, 'moderation', 'x', 'm:2')`,
        [user!.id],
      ),
    ).rejects.toThrow(/notifications_type_check/);

    await migration.up(runner());
    expect(await indexes()).toEqual(before);
    await client.query('UPDATE threads SET hidden_at = now() WHERE id = $1', [paste!.id]);
    const again = await client.query<{ listed: boolean }>('SELECT listed FROM threads WHERE id = $1', [
      paste!.id,
    ]);
    expect(again.rows).toEqual([{ listed: false }]);
    await client.query(
      `INSERT INTO notifications (user_id, type, content, source) VALUES ($1, 'moderation', 'x', 'm:3')`,
      [user!.id],
    );
    for (const Later of later) await new Later().up(runner());
  });
});
