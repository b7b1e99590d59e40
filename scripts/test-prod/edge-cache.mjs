// The web nginx's page cache (deploy/nginx/web.conf.template): a visitor's repeated read is answered from
// it; a member's read never is, nor stored; an answer that sets a cookie is never stored; a new paste
// reaches a visitor's home within the bound the backend's Cache-Control sets.
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startWebNginx } from '../../harness/nginx-cache.mjs';
import { root } from '../../harness/paths.mjs';
import { assert, waitFor } from '../../harness/wait.mjs';
import { requestFrom } from './user.mjs';

/** A visitor's browser: no cookie, its own address. */
const VISITOR = '127.0.0.2';

const cacheStatus = (res) => res.headers.get('x-cache-status');
const parsed = (res) => JSON.parse(res.text);

/** Two reads through a fresh nginx of an upstream answering shared-cacheable pages, one with a cookie. */
async function setCookieNeverStored({ tools, tmp, logDir }, cacheControl) {
  const reached = new Map();
  const upstream = createServer((req, res) => {
    reached.set(req.url, (reached.get(req.url) ?? 0) + 1);
    res.setHeader('Cache-Control', cacheControl);
    res.setHeader('Content-Type', 'application/json');
    if (req.url === '/api/sets-cookie') res.setHeader('Set-Cookie', 'termpaste.sid=s%3Aany; Path=/');
    res.end('{}');
  });
  await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const nginx = await startWebNginx({
    nginxBin: tools.nginx,
    upstream: `127.0.0.1:${upstream.address().port}`,
    dir: join(tmp, 'nginx-set-cookie'),
    logDir,
  });
  try {
    const statuses = {};
    for (const path of ['/api/sets-cookie', '/api/plain']) {
      statuses[path] = [];
      for (let i = 0; i < 2; i++) statuses[path].push(cacheStatus(await fetch(`${nginx.url}${path}`)));
    }
    assert(
      reached.get('/api/sets-cookie') === 2 && statuses['/api/sets-cookie'][1] === 'MISS',
      `an answer with Set-Cookie was stored: ${JSON.stringify(statuses)}`,
    );
    assert(
      reached.get('/api/plain') === 1 && statuses['/api/plain'][1] === 'HIT',
      `the same answer without a cookie was not stored: ${JSON.stringify(statuses)}`,
    );
  } finally {
    await nginx.stop();
    upstream.close();
  }
}

export const edgeCache = {
  name: "through nginx's page cache: a visitor's read is a HIT, never a member's answer; no Set-Cookie stored; a new paste on a visitor's home within the bound",
  async run(env, context) {
    const { EDGE_FRESH_SECONDS, EDGE_STALE_SECONDS } = await import(
      pathToFileURL(join(root, 'backend/dist/http/edge-cache.js')).href
    );
    const visitor = (path, headers = {}) =>
      requestFrom(VISITOR, `${env.publicUrl}${path}`, {
        headers: { 'Accept-Encoding': 'identity', ...headers },
      });
    const [dave, bob, carol] = [env.mentioned[1], env.bob, env.mentioned[0]];

    // A new paste: on a visitor's home once the page they were handed is EDGE_FRESH_SECONDS old. Watched
    // while the other checks run (they read other pages).
    await visitor('/api/threads/recent');
    const posted = Date.now();
    const fresh = await dave.expect(201, 'POST', '/api/threads', {
      title: 'Edge cache: a new paste',
      content: 'shows on a visitor home within the bound',
    });
    let servedOld = 0;
    const shown = waitFor(
      "the new paste on a visitor's home",
      async () => {
        const res = await visitor('/api/threads/recent');
        if (parsed(res).threads.some((card) => card.id === fresh.json.id)) return Date.now() - posted;
        servedOld++;
        return false;
      },
      (EDGE_FRESH_SECONDS + EDGE_STALE_SECONDS + 2) * 1000,
      200,
    );
    // Failing later, when awaited: not an unhandled rejection meanwhile.
    shown.catch(() => undefined);

    // A paste bob voted on: his answer shows his vote, and must reach no one else.
    const paste = await dave.expect(201, 'POST', '/api/threads', {
      title: 'Edge cache: whose page is it',
      content: 'a paste for the cache checks',
    });
    const detail = `/api/threads/${paste.json.id}`;
    const vote = await bob.request('POST', '/api/votes', { threadId: paste.json.id, value: 1 });
    assert(vote.status < 300, `bob's vote answered ${vote.status}: ${vote.text.slice(0, 200)}`);
    await visitor(detail);
    const cached = await visitor(detail);
    assert(cacheStatus(cached) === 'HIT', `a visitor's repeated read was ${cacheStatus(cached)}, not HIT`);
    assert(
      /^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/.test(
        cached.headers.get('cache-control'),
      ),
      `a visitor's paste came with Cache-Control ${cached.headers.get('cache-control')}`,
    );
    for (const [who, myVote] of [
      [bob, 1],
      [carol, null],
      [bob, 1],
    ]) {
      const res = await who.request('GET', detail);
      assert(
        cacheStatus(res) === 'BYPASS' && res.headers.get('cache-control') === 'private, no-cache',
        `${who.username}'s read: ${cacheStatus(res)}, Cache-Control ${res.headers.get('cache-control')}`,
      );
      assert(
        (res.json.myVote ?? null) === myVote,
        `${who.username} got myVote ${res.json.myVote}, not ${myVote}: another's page`,
      );
    }
    const after = await visitor(detail);
    assert(
      cacheStatus(after) === 'HIT' && (parsed(after).myVote ?? null) === null,
      `a visitor got ${cacheStatus(after)} with myVote ${parsed(after).myVote} after the members read`,
    );
    const token = await visitor(detail, { Authorization: 'Bearer tp_not_a_real_token' });
    assert(cacheStatus(token) === 'BYPASS', `a request with a token was ${cacheStatus(token)}`);

    // The app page comes from the api, painted: a visitor's 404 page shared, a member's paste theirs alone.
    const page = `/thread/${paste.json.id}`;
    await visitor(page);
    const painted = await visitor(page);
    assert(
      cacheStatus(painted) === 'HIT' &&
        painted.text.includes('id="tp-paint"') &&
        painted.text.includes('404'),
      `a visitor's app page: ${cacheStatus(painted)}, painted ${painted.text.includes('id="tp-paint"')}`,
    );
    for (const who of [bob, carol]) {
      const res = await who.request('GET', page);
      assert(
        cacheStatus(res) === 'BYPASS' &&
          res.headers.get('cache-control') === 'private, no-cache' &&
          res.text.includes('<h1 class="forum-thread__title">Edge cache: whose page is it</h1>'),
        `${who.username}'s app page: ${cacheStatus(res)}, ${res.headers.get('cache-control')}, not painted with the paste`,
      );
    }

    await setCookieNeverStored(context, after.headers.get('cache-control'));

    const shownAfterMs = await shown;
    assert(servedOld > 0, "the visitor's home was never answered from the cache after the write");
    assert(
      shownAfterMs <= (EDGE_FRESH_SECONDS + 1.5) * 1000,
      `the new paste showed after ${shownAfterMs} ms, past ${EDGE_FRESH_SECONDS} s`,
    );
    return `HIT for visitors, BYPASS for members and tokens; Set-Cookie never stored; new paste on home after ${(shownAfterMs / 1000).toFixed(1)} s (bound ${EDGE_FRESH_SECONDS} s)`;
  },
};
