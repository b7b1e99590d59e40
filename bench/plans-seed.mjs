// The database the query plans are taken on: members, pastes with tags, languages, featured ones and an
// identifier, private messages, notifications, chat lines and upload addresses, then analyzed.

/** Seeds `ds` (migrated, empty) with `sizes`' rows of each kind. */
export async function seedPlans(ds, { THREADS, USERS, MESSAGES, CHAT }) {
  await ds.query(
    `INSERT INTO users (username, email, password_hash, reputation, thread_count, created_at)
   SELECT 'm' || substr(md5(n::text), 1, 11), 'member_' || n || '@example.com', 'x', (n * 7919) % 5000, 10,
     now() - n * interval '1 hour'
   FROM generate_series(1, $1::int) n`,
    [USERS],
  );
  // The tag triggers off for the seed (each paste would move one count row: a chain of versions in one
  // transaction), paste_tags and the counts then written in bulk, as the triggers would have.
  await ds.transaction(async (m) => {
    await m.query("SELECT set_config('termpaste.tag_triggers', 'off', true)");
    await m.query(
      `INSERT INTO threads (title, content, author_id, created_at, is_pinned, is_featured, tags, language)
     SELECT 'Paste number ' || n,
       'content of paste ' || n || ' ' || md5(n::text)
         -- Search: a common phrase (in a third of the pastes) and a rare word (in one in 2,000).
         || CASE WHEN n % 3 = 0 THEN ' kernel panic - not syncing' ELSE '' END
         || CASE WHEN n % 2000 = 0 THEN ' heisenbug' ELSE '' END
         -- An identifier only inside a longer token (one in 1,000).
         || CASE WHEN n % 1000 = 7 THEN ' const w = this.getWidgetById(n);' ELSE '' END,
       1 + (n * 31) % $2::int,
       now() - n * interval '7 minutes', n % 4000 = 0, n % 300 = 2,
       -- Tags (common ones on a third and a fifth of the pastes, rare ones on one in 1,000 and in 997)
       -- and languages (Python on a quarter, Rust on one in 1,000).
       CASE WHEN n % 3 = 0 THEN ARRAY['linux'] ELSE '{}' END
         || CASE WHEN n % 1000 = 0 THEN ARRAY['heisenbug'] ELSE '{}' END
         || CASE WHEN n % 5 = 0 THEN ARRAY['common-tag'] ELSE '{}' END
         || CASE WHEN n % 997 = 0 THEN ARRAY['rare-tag'] ELSE '{}' END,
       CASE WHEN n % 4 = 0 THEN 'python' WHEN n % 1000 = 1 THEN 'rust' END
     FROM generate_series(1, $1::int) n`,
      [THREADS, USERS],
    );
    await m.query(
      `INSERT INTO tags (name, paste_count)
     SELECT u.tag, count(*) FILTER (WHERE t.listed) FROM threads t, unnest(t.tags) u(tag) GROUP BY u.tag`,
    );
    await m.query(
      `INSERT INTO paste_tags (thread_id, tag_id, created_at)
     SELECT t.id, g.id, t.created_at FROM threads t, unnest(t.tags) u(tag) JOIN tags g ON g.name = u.tag`,
    );
  });
  // The count in one slot (the others hold 0): the home page reads their sum.
  await ds.query(
    'UPDATE forum_stats SET thread_count = CASE WHEN slot = 0 THEN (SELECT count(*) FROM threads) ELSE 0 END',
  );
  // Member 1 gets a tenth of every private message and notification: a busy inbox.
  await ds.query(
    `INSERT INTO private_messages (sender_id, recipient_id, subject, content, created_at)
   SELECT 2 + n % ($2::int - 1), CASE WHEN n % 10 = 0 THEN 1 ELSE 2 + (n * 13) % ($2::int - 1) END,
     'Subject ' || n, 'content ' || n, now() - n * interval '3 minutes'
   FROM generate_series(1, $1::int) n`,
    [MESSAGES, USERS],
  );
  await ds.query(
    `INSERT INTO notifications (user_id, type, content, actor_id, source, created_at)
   SELECT CASE WHEN n % 10 = 0 THEN 1 ELSE 2 + (n * 17) % ($2::int - 1) END, 'message', 'note ' || n,
     2, 'message:' || n, now() - n * interval '3 minutes'
   FROM generate_series(1, $1::int) n`,
    [MESSAGES, USERS],
  );
  await ds.query(
    `INSERT INTO chat_messages (author_id, content, created_at)
   SELECT 1 + n % $2::int, 'chat line ' || n, now() - n * interval '1 minute'
   FROM generate_series(1, $1::int) n`,
    [CHAT, USERS],
  );
  // Upload addresses handed out: nearly all recent (claimed ones are deleted at once), a few forgotten.
  await ds.query(
    `INSERT INTO pending_uploads (key, user_id, created_at)
   SELECT 'avatars/' || n || '/' || md5(n::text), 1 + n % $2::int,
     CASE WHEN n % 100 = 0 THEN now() - interval '2 days' ELSE now() - n * interval '50 ms' END
   FROM generate_series(1, $1::int) n`,
    [CHAT, USERS],
  );
  for (const table of [
    'users',
    'threads',
    'tags',
    'paste_tags',
    'private_messages',
    'notifications',
    'chat_messages',
    'pending_uploads',
  ]) {
    await ds.query(`VACUUM ANALYZE ${table}`);
  }
}
