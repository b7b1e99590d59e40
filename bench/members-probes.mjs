// The member ramp's probes: members signed in by SQL, and where a step's time went (CPU of each
// process, the app's metrics, the pool).
import { createHmac, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const SESSION_DAYS = 30;
const TICKS = 100; // clock ticks a second in /proc/<pid>/stat (USER_HZ)
/** express-session's signed cookie for `sid` (cookie-signature: HMAC-SHA256, base64 without padding). */
export function sessionCookie(sid, secret) {
  const signature = createHmac('sha256', secret).update(sid).digest('base64').replace(/=+$/, '');
  return `termpaste.sid=${encodeURIComponent(`s:${sid}.${signature}`)}`;
}

export function sessionSecret(database) {
  if (database.env.SESSION_SECRET) return database.env.SESSION_SECRET;
  if (process.env.SESSION_SECRET) return process.env.SESSION_SECRET;
  return readFileSync(join(database.env.DATA_DIR, 'session-secret'), 'utf8').trim();
}

/**
 * `count` members, each signed in with a session of their own, made by SQL (no password is hashed: a
 * sign-in costs the API an argon2 hash, which is not what this measures): accounts a few days old and
 * verified, and a row in `sessions` as the app's session store writes it.
 */
export async function seedMembers(sql, database, count) {
  const secret = sessionSecret(database);
  const { rows } = await sql.query(
    `INSERT INTO users (username, email, password_hash, created_at, email_verified_at)
     SELECT 'mbr_' || n, 'mbr_' || n || '@members.bench', (SELECT password_hash FROM users ORDER BY id LIMIT 1),
       now() - interval '3 days', now() - interval '3 days'
     FROM generate_series(1, $1::int) n
     RETURNING id`,
    [count],
  );
  const ids = rows.map((r) => r.id).sort((a, b) => a - b);
  const expires = new Date(Date.now() + SESSION_DAYS * 86_400_000);
  const sids = ids.map(() => randomBytes(18).toString('base64url'));
  const data = (id) =>
    JSON.stringify({
      cookie: {
        originalMaxAge: SESSION_DAYS * 86_400_000,
        expires: expires.toISOString(),
        secure: false,
        httpOnly: true,
        path: '/',
        sameSite: 'lax',
      },
      passport: { user: id },
    });
  await sql.query(
    `INSERT INTO sessions (sid, user_id, data, expires_at)
     SELECT sid, user_id, data::jsonb, $4 FROM unnest($1::text[], $2::int[], $3::text[]) AS s(sid, user_id, data)`,
    [sids, ids, ids.map(data), expires],
  );
  return ids.map((id, i) => ({ id, cookie: sessionCookie(sids[i], secret) }));
}

/** utime + stime of a process, in seconds (0 once it is gone). */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}

/** The processes under `pid` (the embedded PostgreSQL and its backends, under the app). */
export function descendants(pid) {
  const parent = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const under = [];
  const walk = (p) => {
    for (const [child, ppid] of parent) {
      if (ppid !== p) continue;
      under.push(child);
      walk(child);
    }
  };
  walk(pid);
  return under;
}

/** CPU seconds of the app, of PostgreSQL (the app's children, embedded), and of the load generator. */
export function cpuNow(appPid, loadPid) {
  const pg = descendants(appPid);
  return {
    at: Date.now(),
    app: cpuSeconds(appPid),
    postgres: pg.reduce((n, pid) => n + cpuSeconds(pid), 0),
    postgresSeen: pg.length,
    load: cpuSeconds(loadPid),
    machine: machineCpu(),
  };
}

/** The machine's busy CPU seconds (all cores, every process: the other tenants too). */
export function machineCpu() {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const idle = ticks[3] + ticks[4];
  return (ticks.reduce((a, b) => a + b, 0) - idle) / TICKS;
}

/** The app's Prometheus figures we read (METRICS_LISTEN): event-loop delay since the last scrape. */
export async function scrape(metricsUrl) {
  if (!metricsUrl) return {};
  try {
    const text = await (await fetch(`${metricsUrl}/metrics`)).text();
    const value = (name) => Number(new RegExp(`^${name} ([\\d.e+-]+)$`, 'm').exec(text)?.[1]);
    // Page cache reads that waited for a load (misses) and those served from memory (hits).
    const cache = (result) =>
      [
        ...text.matchAll(
          new RegExp(`^termpaste_page_cache_requests_total\\{[^}]*result="${result}"[^}]*\\} (\\d+)`, 'gm'),
        ),
      ]
        .map((m) => Number(m[1]))
        .reduce((a, b) => a + b, 0);
    return {
      cacheHits: cache('hit'),
      cacheMisses: cache('miss'),
      loopP99Ms: +(value('nodejs_eventloop_lag_p99_seconds') * 1000).toFixed(1),
      loopMaxMs: +(value('nodejs_eventloop_lag_max_seconds') * 1000).toFixed(1),
      heapMb: +(value('nodejs_heap_size_used_bytes') / 2 ** 20).toFixed(0),
    };
  } catch {
    return {};
  }
}

/**
 * The app's pool as PostgreSQL sees it, sampled: its connections running a statement. A step whose
 * samples often find every one of them busy had requests waiting for a connection.
 */
export function samplePool(sql, poolSize) {
  const samples = [];
  // What the active statements were (their first words) and what they waited on, counted over the samples.
  const statements = new Map();
  const waits = new Map();
  const count = (map, key) => map.set(key, (map.get(key) ?? 0) + 1);
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        const { rows } = await sql.query(
          `SELECT state = 'active' AS active, left(regexp_replace(query, '\\s+', ' ', 'g'), 60) AS statement,
             coalesce(wait_event_type || ':' || wait_event, 'CPU') AS wait
           FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
             AND backend_type = 'client backend'`,
        );
        const active = rows.filter((row) => row.active);
        samples.push({ active: active.length, open: rows.length });
        for (const row of active) {
          count(statements, row.statement);
          count(waits, row.wait);
        }
      } catch {
        // the sampler is best effort
      }
      await sleep(250);
    }
  })();
  const top = (map, n) => {
    const total = [...map.values()].reduce((a, b) => a + b, 0);
    return [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([what, times]) => ({ what, share: +(times / total).toFixed(2) }));
  };
  return async () => {
    stopped = true;
    await loop;
    const active = samples.map((s) => s.active);
    return {
      poolSize,
      samples: samples.length,
      activeMean: active.length ? +(active.reduce((a, b) => a + b, 0) / active.length).toFixed(1) : null,
      activeMax: active.length ? Math.max(...active) : null,
      saturated: active.length
        ? +(active.filter((n) => n >= poolSize).length / active.length).toFixed(2)
        : null,
      statements: top(statements, 5),
      waits: top(waits, 4),
    };
  };
}
