import { QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';
import { type PreparedStatement, prepare, queryPrepared } from '../src/infra/database/prepared.js';
import { User } from '../src/modules/users/entities/user.entity.js';
import { UsersService } from '../src/modules/users/users.service.js';
import { registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const COUNT_PASTES = prepare<{ n: number }, [authorId: number]>(
  'test-count-pastes',
  'SELECT count(*)::int AS n FROM threads WHERE author_id = $1',
);
const NOT_A_TABLE = prepare<unknown, [id: number]>(
  'test-not-a-table',
  'SELECT 1 FROM no_such_table WHERE id = $1',
);

/** Never called: typechecking it shows a statement's row and parameters are checked where it runs. */
async function mistyped(): Promise<void> {
  // @ts-expect-error: the statement answers `{ n: number }`, not this row.
  const rows: Array<{ n: string }> = await queryPrepared(t.dataSource, COUNT_PASTES, [1]);
  // @ts-expect-error: its parameter is a number.
  await queryPrepared(t.dataSource, COUNT_PASTES, ['1']);
  // @ts-expect-error: a statement of one row type is not one of another.
  const other: PreparedStatement<{ m: number }, [authorId: number]> = COUNT_PASTES;
  void rows;
  void other;
}
void mistyped;

let t: TestApp;

describe('prepared statements (infra/database/prepared)', () => {
  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t?.close();
  });

  it('loads a member exactly as the repository does, every column (UsersService.findById)', async () => {
    const { user: member } = await registered(t, {
      username: 'prepared_member',
      email: 'prepared_member@example.com',
    });
    await t.dataSource.query(
      `UPDATE users SET first_name = 'Ada', bio = 'hi', owned_premium_ranks = '{VIP,Legend}',
         active_premium_rank = 'VIP', reputation = 42, email_verified_at = now() WHERE id = $1`,
      [member.id],
    );
    const users = t.app.get(UsersService);
    // Twice: the second runs the statement the connection already prepared.
    for (let i = 0; i < 2; i++) {
      const prepared = await users.findById(member.id);
      const repository = await t.dataSource.getRepository(User).findOneBy({ id: member.id });
      expect(prepared).toBeInstanceOf(User);
      expect(prepared).toEqual(repository);
      expect(prepared?.ownedPremiumRanks).toEqual(['VIP', 'Legend']);
      expect(prepared?.emailVerifiedAt).toBeInstanceOf(Date);
    }
    expect(await users.findById(2_000_000_000)).toBeNull();
  });

  it("runs inside the caller's transaction: sees its writes, and is rolled back with it", async () => {
    const { user: member } = await registered(t, {
      username: 'prepared_writer',
      email: 'prepared_writer@example.com',
    });
    const before = await queryPrepared(t.dataSource, COUNT_PASTES, [member.id]);
    await expect(
      t.dataSource.transaction(async (manager) => {
        await manager.query(`INSERT INTO threads (title, content, author_id) VALUES ('t', 'c', $1)`, [
          member.id,
        ]);
        const [inside] = await queryPrepared(manager, COUNT_PASTES, [member.id]);
        expect(inside!.n).toBe(before[0]!.n + 1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const [after] = await queryPrepared(t.dataSource, COUNT_PASTES, [member.id]);
    expect(after!.n).toBe(before[0]!.n);
  });

  it("fails as TypeORM's QueryFailedError, PostgreSQL's code kept", async () => {
    const failure = await queryPrepared(t.dataSource, NOT_A_TABLE, [1]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(QueryFailedError);
    expect((failure as QueryFailedError).driverError).toMatchObject({ code: '42P01' });
  });

  it("refuses to run on a transaction's connection once it was released (never on another one instead)", async () => {
    const runner = t.dataSource.createQueryRunner();
    await runner.connect();
    await runner.release();
    await expect(queryPrepared(runner.manager, COUNT_PASTES, [1])).rejects.toBeInstanceOf(
      QueryRunnerAlreadyReleasedError,
    );
  });

  it('refuses one name for two texts (pg keeps one text per name and connection)', () => {
    expect(() => prepare('test-count-pastes', 'SELECT 2')).toThrow(
      'prepared statement "test-count-pastes" declared twice with different texts',
    );
    expect(prepare('test-count-pastes', COUNT_PASTES.text)).toEqual(COUNT_PASTES);
  });
});
