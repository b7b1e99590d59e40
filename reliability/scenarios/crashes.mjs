// Crashes under load. `kill -9` of the API, then started again as `npm start` would be: no acknowledged
// write lost, no job lost or run twice. `kill -9` of the embedded PostgreSQL's postmaster: the app brings
// its database back within seconds, answers 503 (with Retry-After) meanwhile and never 500, and loses no
// acknowledged write.
import { setTimeout as sleep } from 'node:timers/promises';
import { freshApp, log, members, serverErrorProblems, startLoad, verify, within } from './common.mjs';

const MEMBERS = 40;
const BEFORE_MS = 5_000;
const AFTER_MS = 5_000;

export async function crashApi() {
  const { app, cleanup } = await freshApp('crash-api');
  let failed = true;
  try {
    const list = await members(app, MEMBERS);
    const run = startLoad(list, { seed: 11 });
    await sleep(BEFORE_MS);
    const before = run.ledger.writes;
    await app.kill9();
    log(`API killed (SIGKILL) after ${before} acknowledged writes; starting it again on the same folder`);
    const killedAt = Date.now();
    await app.start();
    const backInMs = Date.now() - killedAt;
    log(`API back up in ${(backInMs / 1000).toFixed(1)} s`);
    await sleep(AFTER_MS);
    const ledger = await run.stop();
    log(`${ledger.requests} requests: ${ledger.statusLine()}`);
    const sql = app.sql();
    try {
      const checked = await verify(sql, ledger);
      const problems = [...serverErrorProblems(ledger), ...checked.problems];
      failed = problems.length > 0;
      return {
        summary: `kill -9 of the API under load (${MEMBERS} members), back in ${(backInMs / 1000).toFixed(1)} s; 5xx ${ledger.serverErrors.length}; ${checked.facts}`,
        problems,
      };
    } finally {
      await sql.end();
    }
  } finally {
    await cleanup(failed);
  }
}

export async function crashDatabase() {
  const { app, cleanup } = await freshApp('crash-db');
  let failed = true;
  try {
    const list = await members(app, MEMBERS);
    const run = startLoad(list, { seed: 13 });
    await sleep(BEFORE_MS);
    const pid = app.postmasterPid();
    process.kill(pid, 'SIGKILL');
    log(`embedded PostgreSQL's postmaster (pid ${pid}) killed (SIGKILL) under load`);
    const healthyInMs = await within(60_000, async () => {
      // Readiness: liveness (/api/health) stays 200 through a database outage.
      const res = await fetch(`${app.url}/api/ready`, { signal: AbortSignal.timeout(2_000) });
      return res.status === 200;
    });
    log(
      healthyInMs === undefined
        ? 'health did not come back within 60 s'
        : `healthy again in ${(healthyInMs / 1000).toFixed(1)} s`,
    );
    await sleep(AFTER_MS);
    const ledger = await run.stop();
    log(`${ledger.requests} requests: ${ledger.statusLine()}`);
    const problems = [];
    if (healthyInMs === undefined) problems.push('the app did not bring its database back within 60 s');
    if (!app.proc.running) problems.push(`the app exited: ${app.log(15)}`);
    problems.push(...serverErrorProblems(ledger, (line) => line.includes('→ 503')));
    const not503 = ledger.serverErrors.filter((line) => !line.includes('→ 503')).length;
    if (ledger.withoutRetryAfter > 0)
      problems.push(`${ledger.withoutRetryAfter} answers of 503 without Retry-After`);
    let facts = 'not checked';
    if (healthyInMs !== undefined && app.proc.running) {
      const sql = app.sql();
      try {
        const checked = await verify(sql, ledger);
        problems.push(...checked.problems);
        facts = checked.facts;
      } finally {
        await sql.end();
      }
    }
    failed = problems.length > 0;
    const answered503 = ledger.statuses.get(503) ?? 0;
    return {
      summary: `kill -9 of the embedded PostgreSQL under load (${MEMBERS} members), healthy again in ${healthyInMs === undefined ? 'never' : `${(healthyInMs / 1000).toFixed(1)} s`}; 503 ${answered503}, other 5xx ${not503}; ${facts}`,
      problems,
    };
  } finally {
    await cleanup(failed);
  }
}
