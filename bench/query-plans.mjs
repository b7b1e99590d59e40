// Query plans of the forum's list queries on a seeded database (20,000 pastes, 2,000 members), taken
// from the real ForumService's SQL and parameters. Fails when home or the members directory stops
// being an index scan under a Limit (a Sort or a Seq Scan there means a query that grows with the data).
//   node bench/query-plans.mjs            (builds nothing; reads the backend's TypeScript directly)
import { register } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const backend = join(dirname(fileURLToPath(import.meta.url)), '..', 'backend');
register(pathToFileURL(join(backend, 'test/support/ts-loader.mjs')));
const load = (path) => import(pathToFileURL(join(backend, path)).href);
const { makeTempDir, startThrowawayPostgres } = await load('test/support/throwaway-postgres.ts');
const { dataSourceOptions } = await load('src/infra/database/data-source.options.ts');
const { ForumService } = await load('src/modules/threads/forum.service.ts');
const { DataSource } = await import('typeorm');

const THREADS = Number(process.env.BENCH_THREADS ?? 20_000);
const USERS = Number(process.env.BENCH_USERS ?? 2_000);
const failures = [];

const server = await startThrowawayPostgres(join(await makeTempDir('termpaste-plans-'), 'pg'));
try {
  await server.createDatabaseIfMissing('plans');
  const ds = new DataSource(dataSourceOptions(server.url('plans')));
  await ds.initialize();
  await ds.query(
    `INSERT INTO users (username, email, password_hash, reputation, thread_count, created_at)
     SELECT 'm' || substr(md5(n::text), 1, 11), 'member_' || n || '@example.com', 'x', (n * 7919) % 5000, 10,
       now() - n * interval '1 hour'
     FROM generate_series(1, $1::int) n`,
    [USERS],
  );
  await ds.query(
    `INSERT INTO threads (title, content, author_id, created_at, is_pinned)
     SELECT 'Paste number ' || n, 'content of paste ' || n || ' ' || md5(n::text), 1 + (n * 31) % $2::int,
       now() - n * interval '7 minutes', n % 4000 = 0
     FROM generate_series(1, $1::int) n`,
    [THREADS, USERS],
  );
  await ds.query('UPDATE forum_stats SET thread_count = (SELECT count(*) FROM threads)');
  await ds.query('VACUUM ANALYZE users');
  await ds.query('VACUUM ANALYZE threads');

  const real = new ForumService(ds);
  /** Runs `call` on a service whose matching query prints its plan, and checks the plan. */
  const explain = async (name, match, call, mustUse) => {
    const service = new ForumService({
      query: async (sql, params) => {
        if (!match(sql)) return ds.query(sql, params);
        const rows = await ds.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
        const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
        console.log(`=== ${name}\n${plan}\n`);
        const top = plan.split('\n').slice(0, 8).join('\n');
        if (!plan.includes(`Index Scan using ${mustUse}`) || /Sort|Seq Scan on (threads|users)/.test(top)) {
          failures.push(`${name}: expected an index scan on ${mustUse} under the Limit`);
        }
        return [];
      },
    });
    await call(service).catch(() => undefined); // the stand-in rows are not real results
  };

  const isHome = (sql) => sql.includes('NOT t.is_pinned');
  const isDirectory = (sql) => sql.includes('FROM users u');
  const first = await real.recent();
  await explain('home, first page', isHome, (s) => s.recent(), 'threads_recent_idx');
  let cursor = first.nextCursor;
  for (let i = 0; i < 100 && cursor; i++) cursor = (await real.recent(cursor)).nextCursor;
  await explain('home, page 102', isHome, (s) => s.recent(cursor), 'threads_recent_idx');
  const members = await real.directory('');
  await explain('members, first page', isDirectory, (s) => s.directory(''), 'users_reputation_idx');
  await explain(
    'members, next page',
    isDirectory,
    (s) => s.directory('', members.nextCursor),
    'users_reputation_idx',
  );
  await ds.destroy();
} finally {
  await server.stop();
}

if (failures.length) {
  console.error(failures.join('\n'));
  process.exit(1);
}
console.log(
  `query plans: home and the members directory are index scans (${THREADS} pastes, ${USERS} members)`,
);
