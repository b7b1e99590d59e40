// Seeds a migrated Termpaste database by SQL (generate_series, never through the API): N pastes of
// 0.5–5 KB (topics, a long tail of words, code), 5 × N replies with a long tail (a few pastes with 200+,
// and HOT_REPLIES exactly on one), N/20 members (at least 1,000), votes on pastes and replies, 200 pinned
// and 300 featured pastes, and every counter as the app keeps it on write. Indexes are dropped while the
// rows go in and rebuilt after (much faster than maintaining them row by row), then VACUUM ANALYZE.
import {
  GENERAL_TAGS,
  paragraphs,
  PARAGRAPHS_PER_TOPIC,
  RARE_EVERY,
  RARE_OFFSET,
  RARE_TAG,
  RARE_TAG_EVERY,
  RARE_WORD,
  replyLines,
  snippets,
  TOPIC_LANGUAGES,
  TOPIC_TAGS,
  titles,
} from './corpus.mjs';

/** The paste whose detail the benchmark reads: it has exactly this many replies, some nested. */
export const HOT_REPLIES = 200;
export const PINNED = 200;
export const FEATURED = 300;

export function seedShape(pastes) {
  return {
    pastes,
    members: Math.max(1000, Math.round(pastes / 20)),
    replies: pastes * 5,
    threadVotes: pastes,
    replyVotes: pastes,
    hotThread: Math.floor(pastes / 2) + 3,
  };
}

const SPAN_SECONDS = 2 * 365 * 24 * 3600;

/** A number in [0, 1) from an integer expression (Knuth's multiplicative hash): stable across runs. */
const unit = (expr, salt = 0) =>
  `(((((${expr})::bigint + ${salt}) * 2654435761) % 4294967296) / 4294967296.0)`;

/**
 * Seeds `pool`'s database (migrated, empty). `log` gets a line per step. `passwordHash`: the hash every
 * seeded member gets (nobody signs in as them; the benchmark registers its own members).
 */
export async function seed(pool, pastes, { log, passwordHash }) {
  const s = seedShape(pastes);
  const started = Date.now();
  const step = async (name, work) => {
    const t = Date.now();
    await work();
    log(`  ${name}: ${((Date.now() - t) / 1000).toFixed(1)} s`);
  };
  const q = (sql, params) => pool.query(sql, params);
  const both = (sql, lo, hi) => {
    // Two halves at once: this machine's two cores.
    const mid = Math.floor((lo + hi) / 2);
    return Promise.all([q(sql, [lo, mid]), q(sql, [mid + 1, hi])]);
  };

  await step('corpus', async () => {
    await q(`CREATE UNLOGGED TABLE bench_paragraphs (topic int, n int, body text, PRIMARY KEY (topic, n));
      CREATE UNLOGGED TABLE bench_titles (topic int, n int, title text, PRIMARY KEY (topic, n));
      CREATE UNLOGGED TABLE bench_snippets (n int PRIMARY KEY, body text);
      CREATE UNLOGGED TABLE bench_reply_lines (n int PRIMARY KEY, body text)`);
    const p = paragraphs();
    await q('INSERT INTO bench_paragraphs SELECT * FROM unnest($1::int[], $2::int[], $3::text[])', [
      p.map((r) => r.topic),
      p.map((r) => r.n),
      p.map((r) => r.body),
    ]);
    const t = titles();
    await q('INSERT INTO bench_titles SELECT * FROM unnest($1::int[], $2::int[], $3::text[])', [
      t.map((r) => r.topic),
      t.map((r) => r.n),
      t.map((r) => r.title),
    ]);
    const code = snippets();
    await q(
      'INSERT INTO bench_snippets SELECT n - 1, body FROM unnest($1::text[]) WITH ORDINALITY AS x(body, n)',
      [code],
    );
    await q('INSERT INTO tags (name) SELECT unnest($1::text[])', [
      [...TOPIC_TAGS, ...GENERAL_TAGS, RARE_TAG],
    ]);
    const lines = replyLines();
    await q(
      'INSERT INTO bench_reply_lines SELECT n - 1, body FROM unnest($1::text[]) WITH ORDINALITY AS x(body, n)',
      [lines],
    );
  });

  // Indexes (not primary keys) go while the rows go in, and come back after.
  const { rows: indexes } = await q(
    `SELECT i.indexname, i.indexdef FROM pg_indexes i
     WHERE i.schemaname = 'public' AND i.tablename IN ('threads', 'replies', 'votes')
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
  );
  await q(indexes.map((i) => `DROP INDEX ${i.indexname}`).join(';'));

  const createdAt = (n) =>
    `now() - ((${s.pastes} - ${n}) * ${SPAN_SECONDS / s.pastes} + 3600) * interval '1 second'`;

  await step(`${s.members.toLocaleString('en')} members`, () =>
    q(
      `INSERT INTO users (id, username, email, password_hash, bio, reputation, created_at, is_admin, is_owner,
         owned_premium_ranks, active_premium_rank)
       OVERRIDING SYSTEM VALUE
       SELECT n, 'member_' || n, 'member_' || n || '@example.com', $2,
         CASE WHEN n % 5 = 0 THEN 'I paste **kernel** logs and *docker* files. Member #' || n END, 0,
         now() - interval '3 years' + n * interval '10 minutes', n = 1, n = 1,
         CASE WHEN n % 100 = 7 THEN ARRAY['Elite Hacker'] ELSE '{}' END,
         CASE WHEN n % 100 = 7 THEN 'Elite Hacker' END
       FROM generate_series(1, $1::int) n`,
      [s.members, passwordHash],
    ),
  );

  // Replies are planned first (no text yet), so each paste goes in once with its counters.
  const popular = `floor(${s.pastes} * power(${unit('r', 11)}, 1.6))::bigint`;
  await step(`plan ${s.replies.toLocaleString('en')} replies`, async () => {
    await q(`CREATE UNLOGGED TABLE bench_reply_plan (id int PRIMARY KEY, thread_id int, parent_id int,
      author_id int, created_at timestamptz)`);
    // The hot paste: exactly HOT_REPLIES, two in three answering the reply before.
    await q(
      `INSERT INTO bench_reply_plan SELECT r, $1, CASE WHEN r > 1 AND r % 3 <> 1 THEN r - 1 END,
         1 + floor($2 * ${unit('r', 3)})::int, ${createdAt('$1')} + r * interval '1 minute'
       FROM generate_series(1, $3::int) r`,
      [s.hotThread, s.members, HOT_REPLIES],
    );
    const others = `INSERT INTO bench_reply_plan
      SELECT r, t, NULL, 1 + floor(${s.members} * power(${unit('r', 5)}, 2))::int,
        ${createdAt('t')} + (${unit('r', 9)} * ((${s.pastes} - t) * ${SPAN_SECONDS / s.pastes} + 3000)) * interval '1 second'
      FROM (SELECT r, CASE WHEN x = ${s.hotThread} THEN x + 1 ELSE x END AS t
            FROM (SELECT r, 1 + (${popular} * 7919) % ${s.pastes} AS x FROM generate_series($1::int, $2::int) r) a) b`;
    await both(others, HOT_REPLIES + 1, s.replies);
    await q(`CREATE UNLOGGED TABLE bench_thread_plan AS
      SELECT DISTINCT ON (thread_id) thread_id, count(*) OVER (PARTITION BY thread_id)::int AS replies,
        created_at AS last_at, author_id AS last_author
      FROM bench_reply_plan ORDER BY thread_id, created_at DESC, id DESC`);
    await q('ALTER TABLE bench_thread_plan ADD PRIMARY KEY (thread_id)');
    // Votes: distinct (member, target) pairs, four in five up.
    const pairs = (targets, count) => `SELECT 1 + g % ${s.members} AS user_id,
        1 + ((g / ${s.members})::bigint * 104729 + (g % ${s.members}) * 31) % ${targets} AS target,
        CASE WHEN g % 5 = 0 THEN -1 ELSE 1 END AS value
      FROM generate_series(0, ${count - 1}) g`;
    await q(`CREATE UNLOGGED TABLE bench_thread_votes AS ${pairs(s.pastes, s.threadVotes)}`);
    await q(`CREATE UNLOGGED TABLE bench_reply_votes AS ${pairs(s.replies, s.replyVotes)}`);
    await q(`CREATE UNLOGGED TABLE bench_thread_scores AS SELECT target, sum(value)::int AS score
      FROM bench_thread_votes GROUP BY target; ALTER TABLE bench_thread_scores ADD PRIMARY KEY (target);
      CREATE UNLOGGED TABLE bench_reply_scores AS SELECT target, sum(value)::int AS score
      FROM bench_reply_votes GROUP BY target; ALTER TABLE bench_reply_scores ADD PRIMARY KEY (target)`);
  });

  const textArray = (names) =>
    `ARRAY[${names.map((name) => (name === null ? 'NULL' : `'${name}'`)).join(', ')}]::text[]`;
  const languages = textArray(TOPIC_LANGUAGES);
  const topicTags = textArray(TOPIC_TAGS);
  const generalTags = textArray(GENERAL_TAGS);
  const pinEvery = Math.floor(s.pastes / PINNED);
  const featureEvery = Math.floor(s.pastes / FEATURED);
  await step(`${s.pastes.toLocaleString('en')} pastes`, () =>
    both(
      `INSERT INTO threads (id, title, content, author_id, created_at, view_count, vote_score, reply_count,
         is_pinned, is_locked, is_featured, last_reply_at, last_reply_author_id, language, tags)
       OVERRIDING SYSTEM VALUE
       SELECT g.i, tt.title,
         (SELECT string_agg(p.body, E'\\n\\n' ORDER BY j) FROM generate_series(1, 2 + (g.i * 7) % 8) j
            JOIN bench_paragraphs p ON p.topic = g.i % 8 AND p.n = (g.i * 31 + j * 7919) % ${PARAGRAPHS_PER_TOPIC})
           || CASE WHEN g.i % 3 = 0 THEN E'\\n\\n' || (SELECT body FROM bench_snippets WHERE bench_snippets.n = g.i % 64) ELSE '' END
           || CASE WHEN g.i % ${RARE_EVERY} = ${RARE_OFFSET} THEN ' ${RARE_WORD}' ELSE '' END,
         1 + floor(${s.members} * power(${unit('g.i', 1)}, 2))::int,
         ${createdAt('g.i')},
         floor(2000 * power(${unit('g.i', 2)}, 4))::int + coalesce(tp.replies, 0),
         coalesce(sc.score, 0), coalesce(tp.replies, 0),
         g.i % ${pinEvery} = 1, g.i % 997 = 5, g.i % ${featureEvery} = 2,
         tp.last_at, tp.last_author,
         CASE WHEN g.i % 3 = 0 THEN 'typescript' ELSE (${languages})[g.i % 8 + 1] END,
         array_remove(ARRAY[
           CASE WHEN (g.i / 8) % 2 = 0 THEN (${topicTags})[g.i % 8 + 1] END,
           CASE WHEN g.i % 3 <> 0 THEN (${generalTags})[1 + floor(${GENERAL_TAGS.length} * power(${unit('g.i', 21)}, 3))::int] END,
           CASE WHEN g.i % ${RARE_TAG_EVERY} = 11 THEN '${RARE_TAG}' END], NULL)
       FROM generate_series($1::int, $2::int) AS g(i)
       JOIN bench_titles tt ON tt.topic = g.i % 8 AND tt.n = (g.i * 13) % 200
       LEFT JOIN bench_thread_plan tp ON tp.thread_id = g.i
       LEFT JOIN bench_thread_scores sc ON sc.target = g.i`,
      1,
      s.pastes,
    ),
  );

  await step(`${s.replies.toLocaleString('en')} replies`, () =>
    both(
      `INSERT INTO replies (id, thread_id, parent_id, author_id, content, created_at, vote_score)
       OVERRIDING SYSTEM VALUE
       SELECT r.id, r.thread_id, r.parent_id, r.author_id, l.body, r.created_at, coalesce(sc.score, 0)
       FROM bench_reply_plan r JOIN bench_reply_lines l ON l.n = (r.id * 7) % 2000
       LEFT JOIN bench_reply_scores sc ON sc.target = r.id
       WHERE r.id BETWEEN $1 AND $2`,
      1,
      s.replies,
    ),
  );

  // Tags as the tags' writes keep them: paste_tags beside threads.tags, and each tag's listed pastes.
  await step('tags', async () => {
    await q(`INSERT INTO paste_tags (thread_id, tag_id, created_at)
      SELECT t.id, g.id, t.created_at FROM threads t CROSS JOIN LATERAL unnest(t.tags) AS n(name)
      JOIN tags g ON g.name = n.name`);
    await q(`UPDATE tags g SET paste_count = c.n FROM (
        SELECT pt.tag_id, count(*)::int AS n FROM paste_tags pt JOIN threads t ON t.id = pt.thread_id
        WHERE t.listed GROUP BY pt.tag_id) c
      WHERE g.id = c.tag_id`);
  });

  await step(`${(s.threadVotes + s.replyVotes).toLocaleString('en')} votes`, async () => {
    await q(
      `INSERT INTO votes (user_id, thread_id, value) SELECT user_id, target, value FROM bench_thread_votes`,
    );
    await q(
      `INSERT INTO votes (user_id, reply_id, value) SELECT user_id, target, value FROM bench_reply_votes`,
    );
  });

  await step('counters', async () => {
    await q(`UPDATE users u SET thread_count = c.threads, reply_count = c.replies,
        reputation = 5 * c.threads + 2 * c.replies
      FROM (SELECT id, coalesce(t.n, 0) AS threads, coalesce(r.n, 0) AS replies FROM users
            LEFT JOIN (SELECT author_id, count(*)::int n FROM threads GROUP BY author_id) t ON t.author_id = users.id
            LEFT JOIN (SELECT author_id, count(*)::int n FROM bench_reply_plan GROUP BY author_id) r ON r.author_id = users.id) c
      WHERE u.id = c.id`);
    // Reputation is the sum of each member's ledger: one opening row, as the ledger's migration writes.
    await q(`INSERT INTO reputation_ledger (user_id, points, reason)
      SELECT id, reputation, 'opening' FROM users WHERE reputation <> 0`);
    // One row or several slots: the whole count in one of them.
    await q('UPDATE forum_stats SET thread_count = 0');
    await q(`UPDATE forum_stats SET thread_count = (SELECT count(*) FROM threads)
      WHERE ctid = (SELECT ctid FROM forum_stats LIMIT 1)`);
    for (const table of ['users', 'threads', 'replies', 'votes']) {
      await q(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`);
    }
    await q(`DROP TABLE bench_paragraphs, bench_titles, bench_snippets, bench_reply_lines, bench_reply_plan,
      bench_thread_plan, bench_thread_votes, bench_reply_votes, bench_thread_scores, bench_reply_scores`);
  });

  await step(`${indexes.length} indexes`, async () => {
    // Two at a time (two cores); the GIN search index is the long one.
    const queue = [...indexes];
    await Promise.all(
      [0, 1].map(async () => {
        for (let index = queue.shift(); index; index = queue.shift()) await q(index.indexdef);
      }),
    );
  });
  await step('vacuum analyze', () => q('VACUUM (ANALYZE)'));
  log(`  seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return s;
}
