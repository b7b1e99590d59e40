// Production mode (REDIS_URL: BullMQ, a worker process, the Redis events adapter; PostgreSQL and Redis from
// Debian's packages; a real SMTP listener): Redis restarted under load. Writes go on being acknowledged
// and kept, and the notification jobs resume: every one due arrives once.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { registerUsers } from '../../harness/user.mjs';
import { startPostgres } from '../../harness/postgres.mjs';
import { prodTools } from '../../harness/prod-tools.mjs';
import { startRedis } from '../../harness/redis.mjs';
import { startSmtp } from '../../harness/smtp.mjs';
import { App, removeDir, scratchDir } from '../lib/app.mjs';
import { log, serverErrorProblems, startLoad, verify, within } from './common.mjs';

const MEMBERS = 30;
const DOWN_MS = 3_000;
/** Writes acknowledged before Redis goes, and again after it is back, before the load stops. */
const WRITES_EACH_SIDE = 300;

export async function redisRestart() {
  const tools = prodTools();
  if (tools.missing.length > 0) {
    return { summary: 'not run', problems: [`production mode needs ${tools.missing.join('; ')}`] };
  }
  const scratch = scratchDir('redis-restart');
  const logDir = join(scratch, 'logs');
  mkdirSync(logDir);
  const started = [];
  const services = [];
  let smtp;
  let failed = true;
  try {
    const [postgres, redis, mail] = await Promise.all([
      startPostgres(tools, scratch, logDir),
      startRedis(tools, scratch, logDir),
      startSmtp(),
    ]);
    smtp = mail;
    services.push(postgres.proc, redis.proc);
    const env = {
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      SMTP_URL: mail.url,
      JOB_LOCK_SECONDS: '5',
    };
    const worker = new App({
      name: 'worker',
      dataDir: join(scratch, 'worker'),
      env,
      entry: 'main.worker.js',
    });
    const api = new App({ name: 'api', dataDir: join(scratch, 'api'), env: { ...env, PROCESS_JOBS: 'off' } });
    for (const app of [worker, api]) {
      started.push(app);
      await app.start();
    }
    log(`production mode up: PostgreSQL, Redis, SMTP, a worker and an API at ${api.url}`);
    const list = await registerUsers(api.url, () => smtp.received.map((m) => m.raw), MEMBERS);
    const run = startLoad(list, { seed: 17 });
    const sql = api.sql();
    try {
      const notified = async () =>
        (await sql.query('SELECT count(*)::int AS n FROM notifications')).rows[0].n;
      // Until the load's writes are acknowledged and their notification jobs run (at most the 6 s it was
      // given before), rather than a fixed time.
      await within(6_000, async () => run.ledger.writes >= WRITES_EACH_SIDE && (await notified()) > 0);
      await redis.proc.stop('SIGTERM', 10_000);
      log(
        `Redis stopped (SIGTERM: it writes its append-only file) after ${run.ledger.writes} acknowledged writes`,
      );
      await sleep(DOWN_MS);
      services.push((await startRedis(tools, scratch, logDir, { port: redis.port })).proc);
      log(`Redis started again on port ${redis.port} after ${DOWN_MS / 1000} s down`);
      const back = { writes: run.ledger.writes, notified: await notified() };
      // Until writes are acknowledged again and new notification jobs have run through the restarted Redis
      // (at most the 10 s it was given before).
      const tookMs = await within(
        10_000,
        async () => run.ledger.writes >= back.writes + WRITES_EACH_SIDE && (await notified()) > back.notified,
      );
      const again = tookMs === undefined ? 'not within 10 s' : `after ${(tookMs / 1000).toFixed(1)} s`;
      log(`writes acknowledged and notification jobs run again ${again}`);
      const ledger = await run.stop();
      log(`${ledger.requests} requests: ${ledger.statusLine()}`);
      const checked = await verify(sql, ledger);
      const problems = [
        ...serverErrorProblems(ledger, (line) => line.includes('→ 503')),
        ...checked.problems,
      ];
      if (ledger.withoutRetryAfter > 0)
        problems.push(`${ledger.withoutRetryAfter} answers of 503 without Retry-After`);
      for (const app of started) if (!app.proc.running) problems.push(`${app.name} exited: ${app.log(15)}`);
      failed = problems.length > 0;
      return {
        summary: `Redis down ${DOWN_MS / 1000} s under load (${MEMBERS} members, worker + API): 503 ${ledger.statuses.get(503) ?? 0}, other 5xx ${ledger.serverErrors.filter((l) => !l.includes('→ 503')).length}; ${checked.facts}`,
        problems,
      };
    } finally {
      await sql.end();
    }
  } finally {
    for (const app of started.reverse()) await app.stop().catch(() => undefined);
    await smtp?.close();
    for (const proc of services.reverse()) await proc.stop('SIGINT', 10_000).catch(() => undefined);
    if (!failed && process.env.RELIABILITY_KEEP !== '1') removeDir(scratch);
    else log(`kept ${scratch}`);
  }
}
