// The measures of one size: its app opened and read from, each read route, the writes, the chat fan-out,
// the memory and (first size) the browser's share.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { root } from '../harness/paths.mjs';
import { rssMb, settle, signInMembers, startApp } from './app.mjs';
import { SEARCHES, snippets } from './corpus.mjs';
import { prepareDatabase } from './database.mjs';
import { firstVisitJs } from './first-visit.mjs';
import { largePastesInChromium } from './large-paste.mjs';
import { lighthouseRows } from './lighthouse.mjs';
import { fanOut, load, startReference, summarize } from './load.mjs';
import { HOT_REPLIES, seedShape } from './seed.mjs';
import { label, log, MEMBERS, resultsDir, smoke, wanted } from './settings.mjs';

/** A code snippet's method, found only inside `this.…(` (one paste in 192): identifier search. */
const IDENTIFIER = /this\.(\w+)\(/.exec(snippets()[0])[1];
/** The day `days` ago, YYYY-MM-DD (UTC), for after: and before:. */
const daysAgo = (days) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/**
 * One size, ready to measure: its database (a fresh copy of the seeded template), Termpaste started on it,
 * members signed in, and what the routes read (the home payload, a cursor 100 pages deep, the hot paste).
 * Every size is opened before any is measured, so each route is measured at every size in turn, minutes
 * apart at most: the p99 ratio between sizes compares measurements made under the same load on the
 * machine, not ten minutes apart.
 */
export async function openSize(pastes) {
  log(`\n## ${label(pastes)} pastes: starting`);
  const database = await prepareDatabase(pastes);
  const app = await startApp(database, pastes);
  const result = { pastes, shape: seedShape(pastes), routes: {}, ceilings: {} };
  const size = {
    pastes,
    database,
    app,
    result,
    rssMax: 0,
    sql: new pg.Client({ connectionString: database.sqlUrl }),
  };
  size.sampler = setInterval(() => (size.rssMax = Math.max(size.rssMax, rssMb(app.pid))), 200);
  const { sql } = size;
  await sql.connect();
  await settle(sql);
  // Idle: started, nothing asked yet (the sign-ins below hash passwords, which takes memory of its own).
  await sleep(2000);
  result.rssIdleMb = +rssMb(app.pid).toFixed(1);
  const members = await signInMembers(app, database.env.DATA_DIR);
  // Members of a forum this size have been there a while: the spam signals' burst check watches
  // accounts younger than a day (and holds the sixth post in ten minutes), which this is not about.
  await sql.query("UPDATE users SET created_at = created_at - interval '2 days' WHERE id = ANY ($1::int[])", [
    members.ids,
  ]);
  size.rssMax = 0;
  const member = (i) => ({ Cookie: members.cookies[i % MEMBERS] });
  size.members = members;
  size.member = member;
  size.origin = { Origin: app.url, 'Content-Type': 'application/json' };

  // What the routes read: the home payload (for the ceilings), a cursor 100 pages deep, the hot paste.
  const homeBody = await (await fetch(`${app.url}/api/threads/recent`)).text();
  size.payloadFile = join(resultsDir, `home-${label(pastes)}.json`);
  writeFileSync(size.payloadFile, homeBody);
  let cursor = JSON.parse(homeBody).nextCursor;
  for (let i = 0; i < 99 && cursor; i++) {
    cursor = (await (await fetch(`${app.url}/api/threads/recent?cursor=${cursor}`)).json()).nextCursor;
  }
  const { hotThread } = seedShape(pastes);
  const hot = await (await fetch(`${app.url}/api/threads/${hotThread}`)).json();
  if (hot.replies?.length !== HOT_REPLIES)
    throw new Error(`paste ${hotThread} has ${hot.replies?.length} replies`);
  size.homeIds = JSON.parse(homeBody).threads.map((t) => t.id);
  const profileId = hot.author?.id ?? 1;

  const q = (text, page) => `/api/search?q=${encodeURIComponent(text)}${page ? `&page=${page}` : ''}`;
  size.reads = [
    ['home', { path: '/api/threads/recent' }],
    ['homeDeep', { path: `/api/threads/recent?cursor=${cursor}` }],
    ['detailVisitor', { path: `/api/threads/${hotThread}` }],
    ['detailMember', { path: `/api/threads/${hotThread}`, perClient: member }],
    ['searchCommon', { path: q(SEARCHES.common) }],
    ['searchCommon2', { path: q(SEARCHES.common, 2) }],
    ['searchRare', { path: q(SEARCHES.rare) }],
    ['searchRare2', { path: q(SEARCHES.rare, 2) }],
    ['searchPhrase', { path: q(SEARCHES.phrase) }],
    ['searchPhrase2', { path: q(SEARCHES.phrase, 2) }],
    ['searchTag', { path: q(SEARCHES.tag) }],
    ['searchTagRare', { path: q(SEARCHES.tagRare) }],
    ['searchLang', { path: q(SEARCHES.lang) }],
    ['searchUser', { path: q(SEARCHES.user) }],
    ['searchIdent', { path: q(IDENTIFIER) }],
    ['searchNegated', { path: q(SEARCHES.negated) }],
    ['searchInTitle', { path: q(SEARCHES.inTitle) }],
    ['searchDates', { path: q(`kernel after:${daysAgo(400)} before:${daysAgo(300)}`) }],
    ['searchFeatured', { path: q(SEARCHES.featured) }],
    ['searchSortTop', { path: q(SEARCHES.sortTop) }],
    ['searchCombined', { path: q(SEARCHES.combined) }],
    ['featured', { path: '/api/threads/featured' }],
    ['profile', { path: `/api/users/${profileId}` }],
    ['members', { path: '/api/users', perClient: member }],
  ];
  return size;
}

/** A ceiling (`http`, `nest`) serving this size's home payload. */
export async function measureCeiling(size, kind) {
  const server = await startReference(kind, size.payloadFile);
  try {
    const r = await load(server.url, { path: '/api/threads/recent' });
    size.result.ceilings[kind] = summarize(r);
    log(`  ${label(size.pastes)} ceiling ${kind}: ${size.result.ceilings[kind].rps} req/s`);
  } finally {
    server.stop();
  }
}

/** One read route at one size; measured again, the run with the lower p99 stands (both are kept in `runs`). */
export async function measureRead(size, name) {
  const route = size.reads.find(([n]) => n === name)[1];
  const r = summarize(await load(size.app.url, route));
  const before = size.result.routes[name];
  size.result.routes[name] =
    before && before.p99 <= r.p99
      ? { ...before, runs: [...before.runs, r] }
      : { ...r, runs: [...(before?.runs ?? []), r] };
  log(`  ${label(size.pastes)} ${name}: ${r.rps} req/s, p99 ${r.p99} ms`);
}

/** The writes, the chat fan-out, the memory under load and (first size) the first visit's JavaScript. */
export async function measureWrites(size, measureJs) {
  const { pastes, app, sql, result, member, origin, homeIds, members } = size;
  log(`\n## ${label(pastes)} pastes: writes and chat`);
  // Writes: every acknowledged paste must be there afterwards.
  if (wanted('createPaste')) {
    const created = [];
    const r = await load(app.url, {
      path: '/api/threads',
      method: 'POST',
      headers: origin,
      body: JSON.stringify({
        title: 'Bench paste: docker compose logs',
        content: readFileSync(join(root, 'bench/corpus.mjs'), 'utf8').slice(0, 1500),
      }),
      perClient: (i) => ({ ...origin, ...member(i) }),
      onResponse: (status, text) => {
        if (status !== 201) return;
        const id = JSON.parse(text).id;
        if (Number.isInteger(id)) created.push(id);
      },
    });
    const { rows } = await sql.query('SELECT count(*)::int AS n FROM threads WHERE id = ANY($1::int[])', [
      created,
    ]);
    result.routes.createPaste = summarize(r, {
      acknowledged: created.length,
      stored: rows[0].n,
      lost: created.length - rows[0].n,
    });
    log(
      `  createPaste: ${result.routes.createPaste.rps} writes/s, ${created.length} acknowledged, ${rows[0].n} stored`,
    );
  }

  if (wanted('vote')) {
    const v = await load(app.url, {
      path: '/api/votes',
      method: 'POST',
      headers: origin,
      perClient: (i) => ({ ...origin, ...member(i) }),
      // Each connection (its own member) votes on its own paste of the home page, again and again: a
      // vote, then the same vote taken back.
      perClientBody: (i) => JSON.stringify({ threadId: homeIds[i % homeIds.length], value: 1 }),
    });
    result.routes.vote = summarize(v);
    log(`  vote: ${result.routes.vote.rps} votes/s, p99 ${result.routes.vote.p99} ms`);
  }

  // Chat fan-out: a raw `ws` broadcast of the same frames, then Termpaste's.
  if (wanted('chat')) {
    const raw = await startReference('ws');
    try {
      const sample = {
        id: 0,
        content: '',
        createdAt: new Date().toISOString(),
        author: { id: 1, username: 'bench', activePremiumRank: null },
      };
      result.chatRaw = await fanOut({
        wsUrl: raw.url.replace('http', 'ws') + '/ws/chat',
        socketHeaders: () => ({}),
        post: (seq) =>
          fetch(`${raw.url}/send`, {
            method: 'POST',
            body: JSON.stringify([
              { type: 'chat_message', message: { ...sample, content: `bench ${seq}` } },
              { type: 'new_message', message: { ...sample, content: `bench ${seq}` } },
            ]),
          }),
      });
      log(`  chat raw ws: p50 ${result.chatRaw.p50} ms, p99 ${result.chatRaw.p99} ms`);
    } finally {
      raw.stop();
    }
    result.chat = await fanOut({
      wsUrl: app.url.replace('http', 'ws') + '/ws/chat',
      socketHeaders: (i) => ({ Origin: app.url, ...member(i) }),
      post: (seq) =>
        fetch(`${app.url}/api/chat/messages`, {
          method: 'POST',
          headers: { ...origin, ...member(seq) },
          body: JSON.stringify({ content: `bench ${seq}` }),
        }),
    });
    log(
      `  chat termpaste: p50 ${result.chat.p50} ms, p99 ${result.chat.p99} ms, ${result.chat.delivered}/${result.chat.expected}`,
    );
  }

  result.rssLoadMb = +size.rssMax.toFixed(1);
  if (measureJs && wanted('js')) result.js = await firstVisitJs(app, members.cookies[0]);
  if (measureJs && wanted('largePaste')) {
    result.largePaste = await largePastesInChromium(app, members.cookies[0]);
    const lp = result.largePaste;
    if (!lp.skipped)
      for (const kind of ['python', 'ansi'])
        log(
          `  large paste (${kind}): first lines ${lp[kind].firstLinesMs} ms, highlighted ${lp[kind].highlightedMs} ms, longest task after ${lp[kind].longestTaskMs} ms`,
        );
  }
  // Minutes of Chromium: never in the smoke (CI).
  if (measureJs && !smoke && wanted('lighthouse'))
    result.lighthouse = await lighthouseRows(app, {
      cookie: members.cookies[0],
      hotThread: seedShape(size.pastes).hotThread,
    });
  if (app.exited) throw new Error(`Termpaste exited during the benchmark; see ${app.logFile}`);
}

export async function closeSize(size) {
  clearInterval(size.sampler);
  await size.sql.end().catch(() => undefined);
  await size.app.stop();
}
