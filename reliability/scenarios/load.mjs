// Load: many members posting, replying, voting, chatting and messaging at once for a while. No 5xx, every
// acknowledged write in the database, every counter equal to its recount, every notification there once.
import { setTimeout as sleep } from 'node:timers/promises';
import { freshApp, log, members, serverErrorProblems, startLoad, verify } from './common.mjs';

export async function load({ members: count = 200, seconds = 20 } = {}) {
  const { app, cleanup } = await freshApp('load');
  let failed = true;
  try {
    const list = await members(app, count);
    const run = startLoad(list, { seed: 7 });
    await sleep(seconds * 1000);
    const ledger = await run.stop();
    log(
      `${ledger.requests} requests in ${seconds} s (${Math.round(ledger.requests / seconds)}/s): ${ledger.statusLine()}`,
    );
    const sql = app.sql();
    try {
      const checked = await verify(sql, ledger);
      const problems = [...serverErrorProblems(ledger), ...checked.problems];
      if (ledger.serverErrors.length > 10)
        problems.push(`${ledger.serverErrors.length} answers were 5xx in all`);
      failed = problems.length > 0;
      return {
        summary: `${count} members for ${seconds} s: ${ledger.requests} requests, 5xx ${ledger.serverErrors.length}; ${checked.facts}`,
        problems,
      };
    } finally {
      await sql.end();
    }
  } finally {
    await cleanup(failed);
  }
}
