// What must hold after any scenario, read straight from the database: every acknowledged write is there
// as it was sent, every counter equals a recount of the rows, and every notification due from those
// writes exists exactly once.
import { setTimeout as sleep } from 'node:timers/promises';

/** Acknowledged writes missing from the database, or stored differently from what was sent. */
export async function lostWrites(sql, ledger) {
  const problems = [];
  const byId = async (query, ids) =>
    new Map((await sql.query(query, [ids])).rows.map((row) => [row.id, row]));

  const pastes = await byId(
    'SELECT id, title, content, author_id FROM threads WHERE id = ANY($1)',
    ledger.pastes.map((p) => p.id),
  );
  for (const p of ledger.pastes) {
    const row = pastes.get(p.id);
    if (!row) problems.push(`paste ${p.id} acknowledged but missing`);
    else if (row.title !== p.title || row.content !== p.content || row.author_id !== p.authorId)
      problems.push(`paste ${p.id} differs from what was sent`);
  }
  const replies = await byId(
    'SELECT id, thread_id, parent_id, author_id, content FROM replies WHERE id = ANY($1)',
    ledger.replies.map((r) => r.id),
  );
  for (const r of ledger.replies) {
    const row = replies.get(r.id);
    if (!row) problems.push(`reply ${r.id} acknowledged but missing`);
    else if (
      row.thread_id !== r.threadId ||
      row.parent_id !== r.parentId ||
      row.author_id !== r.authorId ||
      row.content !== r.content
    )
      problems.push(`reply ${r.id} differs from what was sent`);
  }
  const chats = await byId(
    'SELECT id, author_id, content FROM chat_messages WHERE id = ANY($1)',
    ledger.chats.map((c) => c.id),
  );
  for (const c of ledger.chats) {
    const row = chats.get(c.id);
    if (!row) problems.push(`chat message ${c.id} acknowledged but missing`);
    else if (row.author_id !== c.authorId || row.content !== c.content)
      problems.push(`chat message ${c.id} differs`);
  }
  const messages = await byId(
    'SELECT id, sender_id, recipient_id, subject, content FROM private_messages WHERE id = ANY($1)',
    ledger.messages.map((m) => m.id),
  );
  for (const m of ledger.messages) {
    const row = messages.get(m.id);
    if (!row) problems.push(`message ${m.id} acknowledged but missing`);
    else if (
      row.sender_id !== m.senderId ||
      row.recipient_id !== m.recipientId ||
      row.subject !== m.subject ||
      row.content !== m.content
    )
      problems.push(`message ${m.id} differs`);
  }

  const votes = (await sql.query('SELECT user_id, thread_id, reply_id, value FROM votes')).rows;
  const inForce = new Map(
    votes.map((v) => [
      `${v.user_id}:${v.thread_id !== null ? 'thread' : 'reply'}:${v.thread_id ?? v.reply_id}`,
      v.value,
    ]),
  );
  for (const [key, value] of ledger.votes) {
    if (value === 'unknown') continue;
    const stored = inForce.get(key) ?? null;
    if (stored !== value) problems.push(`vote ${key}: answered ${value}, stored ${stored}`);
  }
  return problems;
}

/** Counters that differ from a recount of the rows they count. */
export async function counterMismatches(sql) {
  const problems = [];
  const mismatch = async (what, query) => {
    const { rows } = await sql.query(query);
    if (rows.length > 0)
      problems.push(`${what}: ${rows.length} wrong, e.g. ${JSON.stringify(rows.slice(0, 3))}`);
  };
  await mismatch(
    'paste reply counts',
    `SELECT t.id, t.reply_count, count(r.id)::int AS recount FROM threads t LEFT JOIN replies r ON r.thread_id = t.id
     GROUP BY t.id HAVING t.reply_count <> count(r.id)`,
  );
  await mismatch(
    'paste vote scores',
    `SELECT t.id, t.vote_score, coalesce(sum(v.value), 0)::int AS recount FROM threads t LEFT JOIN votes v ON v.thread_id = t.id
     GROUP BY t.id HAVING t.vote_score <> coalesce(sum(v.value), 0)`,
  );
  await mismatch(
    'reply vote scores',
    `SELECT r.id, r.vote_score, coalesce(sum(v.value), 0)::int AS recount FROM replies r LEFT JOIN votes v ON v.reply_id = r.id
     GROUP BY r.id HAVING r.vote_score <> coalesce(sum(v.value), 0)`,
  );
  await mismatch(
    'paste total',
    `SELECT (SELECT sum(thread_count) FROM forum_stats)::int AS counted, (SELECT count(*) FROM threads)::int AS recount
     WHERE (SELECT sum(thread_count) FROM forum_stats) <> (SELECT count(*) FROM threads)`,
  );
  await mismatch(
    'unread notification counts',
    `SELECT u.id, coalesce(c.unread, 0) AS counted, count(n.id)::int AS recount
     FROM users u LEFT JOIN notification_counters c ON c.user_id = u.id
     LEFT JOIN notifications n ON n.user_id = u.id AND NOT n.is_read
     GROUP BY u.id, c.unread HAVING coalesce(c.unread, 0) <> count(n.id)`,
  );
  const ledger = await sql.query(`SELECT to_regclass('reputation_ledger') IS NOT NULL AS present`);
  if (ledger.rows[0].present) {
    await mismatch(
      'reputation (the ledger sum)',
      `SELECT u.id, u.reputation, coalesce(sum(l.points), 0)::int AS recount
       FROM users u LEFT JOIN reputation_ledger l ON l.user_id = u.id
       GROUP BY u.id HAVING u.reputation <> coalesce(sum(l.points), 0)`,
    );
  }
  return problems;
}

/**
 * The notifications the acknowledged replies and messages are due (the rules of
 * notifications.processor.ts: the answered reply's author, then the paste's author, then the member
 * @mentioned; one per member and source; never the actor), as `user:source` keys; and who may be told
 * of a reply as its paste's watcher.
 */
async function dueNotifications(sql, ledger) {
  const due = new Set();
  const { rows } = await sql.query(
    `SELECT r.id, r.author_id, t.author_id AS thread_author_id, p.author_id AS parent_author_id
     FROM replies r JOIN threads t ON t.id = r.thread_id LEFT JOIN replies p ON p.id = r.parent_id
     WHERE r.id = ANY($1)`,
    [ledger.replies.map((r) => r.id)],
  );
  const mentions = new Map(ledger.replies.map((r) => [r.id, r.mentionedId]));
  for (const row of rows) {
    for (const userId of [row.parent_author_id, row.thread_author_id, mentions.get(row.id)]) {
      if (userId != null && userId !== row.author_id) due.add(`${userId}:reply:${row.id}`);
    }
  }
  for (const m of ledger.messages)
    if (m.recipientId !== m.senderId) due.add(`${m.recipientId}:message:${m.id}`);
  // Who may also be told as a watcher: a member who replied on the same paste (replying watches it),
  // as their own reply's job may have run before or after this one.
  const watchers = new Set();
  const { rows: others } = await sql.query(
    `SELECT DISTINCT r.id, o.author_id FROM replies r
     JOIN replies o ON o.thread_id = r.thread_id AND o.author_id <> r.author_id
     WHERE r.id = ANY($1)`,
    [ledger.replies.map((r) => r.id)],
  );
  for (const row of others) watchers.add(`${row.author_id}:reply:${row.id}`);
  return { due, watchers };
}

/**
 * Waits (up to `timeoutMs`) for the jobs to create every notification due, then reports the ones missing
 * (a job lost) and any more than one per member and source (a job run twice would need the unique key
 * gone, so this also counts the rows per key).
 */
export async function notificationProblems(sql, ledger, { timeoutMs = 60_000 } = {}) {
  const { due, watchers } = await dueNotifications(sql, ledger);
  const sources = [
    ...ledger.replies.map((r) => `reply:${r.id}`),
    ...ledger.messages.map((m) => `message:${m.id}`),
  ];
  const deadline = Date.now() + timeoutMs;
  let missing;
  let extra;
  let doubled;
  for (;;) {
    const { rows } = await sql.query(
      `SELECT user_id, source, count(*)::int AS n, bool_and(type = 'watch') AS watch
       FROM notifications WHERE source = ANY($1) GROUP BY user_id, source`,
      [sources],
    );
    const have = new Set(rows.map((row) => `${row.user_id}:${row.source}`));
    missing = [...due].filter((key) => !have.has(key));
    extra = rows
      .filter((row) => !row.watch || !watchers.has(`${row.user_id}:${row.source}`))
      .map((row) => `${row.user_id}:${row.source}`)
      .filter((key) => !due.has(key));
    doubled = rows.filter((row) => row.n > 1).map((row) => `${row.user_id}:${row.source}`);
    if (missing.length === 0 || Date.now() > deadline) break;
    await sleep(500);
  }
  const problems = [];
  if (missing.length)
    problems.push(
      `${missing.length} notifications never came (jobs lost), e.g. ${missing.slice(0, 5).join(', ')}`,
    );
  if (extra.length)
    problems.push(`${extra.length} notifications nobody was due, e.g. ${extra.slice(0, 5).join(', ')}`);
  if (doubled.length)
    problems.push(`${doubled.length} notifications twice, e.g. ${doubled.slice(0, 5).join(', ')}`);
  return { due: due.size, problems };
}
