import { API, type CreatedAccessToken, EMBED_PAGE, FEEDS } from '@termpaste/contracts';
import express from 'express';
import supertest from 'supertest';
import {
  EDGE_CACHE_CONTROL,
  EDGE_FRESH_SECONDS,
  EDGE_STALE_SECONDS,
  noSharedCookies,
  PERSONAL_CACHE_CONTROL,
} from '../src/http/edge-cache.js';
import { type Browser, registered } from './support/accounts.js';
import { createFrontendsFixture, type FrontendsFixture } from './support/frontends-fixture.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** A feed reader may keep a feed a minute; the caches in front, as any page. */
const FEED_CACHE_CONTROL = `public, max-age=60, s-maxage=${EDGE_FRESH_SECONDS}, stale-while-revalidate=${EDGE_STALE_SECONDS}`;

/**
 * The cache rules a CDN or nginx in front reads: every public page a visitor reads is shared for a few
 * seconds (s-maxage, stale-while-revalidate) with an ETag, a browser asks each time; anything a member
 * or a token reads, or that holds one reader's own data, is private; an answer setting a cookie never
 * shared.
 */
describe('edge cache headers', () => {
  let t: TestApp;
  let fixture: FrontendsFixture;
  let alice: { browser: Browser; user: { id: number } };
  let pasteId: number;
  let keyed: string;
  let token: string;
  const visitor = () => supertest(t.url);

  beforeAll(async () => {
    fixture = await createFrontendsFixture({
      'shell/dist/index.html': '<!doctype html><title>shell</title>',
    });
    t = await createTestApp({ env: { FRONTENDS_DIR: fixture.dir } });
    alice = await registered(t);
    const created = await alice.browser
      .post(API.threads)
      .send({ title: 'An edge paste', content: 'print(1)\n', language: 'python', tags: ['edgetag'] })
      .expect(201);
    pasteId = created.body.id as number;
    const unlisted = await alice.browser
      .post(API.threads)
      .send({ title: 'A keyed paste', content: 'secret-ish\n', visibility: 'unlisted' })
      .expect(201);
    keyed = unlisted.body.id as string;
    const res = await alice.browser
      .post(API.userTokens)
      .send({ name: 'edge', scopes: ['read'] })
      .expect(201);
    token = (res.body as CreatedAccessToken).token;
  });

  afterAll(async () => {
    await t?.close();
    await fixture?.remove();
  });

  /** Every public page a visitor reads, and the rule a shared cache gets for it. */
  const publicPages = (): Array<[string, string, string]> => [
    ['home', API.threadsRecent, EDGE_CACHE_CONTROL],
    ['featured', API.threadsFeatured, EDGE_CACHE_CONTROL],
    ['search', `${API.search}?q=edge`, EDGE_CACHE_CONTROL],
    ['the tags', API.tags, EDGE_CACHE_CONTROL],
    ['a tag', API.tag('edgetag'), EDGE_CACHE_CONTROL],
    ['a language', API.language('python'), EDGE_CACHE_CONTROL],
    ['a profile', API.user(alice.user.id), EDGE_CACHE_CONTROL],
    ['a paste', API.thread(pasteId), EDGE_CACHE_CONTROL],
    ['the home feed', FEEDS.recent, FEED_CACHE_CONTROL],
    ['a tag feed', FEEDS.tag('edgetag'), FEED_CACHE_CONTROL],
    [
      'oEmbed',
      `${API.oembed}?url=${encodeURIComponent(`${t.config.publicUrl}/thread/${pasteId}`)}`,
      EDGE_CACHE_CONTROL,
    ],
    ['an embed', EMBED_PAGE(pasteId), EDGE_CACHE_CONTROL],
    ['the app page', `/thread/${pasteId}`, EDGE_CACHE_CONTROL],
  ];

  it('shares each public page a visitor reads for a few seconds, with an ETag; a browser asks each time', async () => {
    expect(EDGE_CACHE_CONTROL).toBe(
      `public, max-age=0, s-maxage=${EDGE_FRESH_SECONDS}, stale-while-revalidate=${EDGE_STALE_SECONDS}`,
    );
    for (const [what, path, cacheControl] of publicPages()) {
      const res = await visitor().get(path);
      expect({ what, status: res.status }).toEqual({ what, status: 200 });
      expect({ what, cacheControl: res.headers['cache-control'] }).toEqual({ what, cacheControl });
      expect({ what, vary: res.headers['vary'] }).toEqual({
        what,
        vary: expect.stringMatching(/Accept-Encoding.*Cookie.*Authorization/),
      });
      expect({ what, setCookie: res.headers['set-cookie'] }).toEqual({ what, setCookie: undefined });
      const etag = res.headers['etag'] as string;
      expect({ what, etag }).toEqual({ what, etag: expect.any(String) });
      // A cache in front revalidates with the ETag: 304, the same rule.
      const again = await visitor().get(path).set('If-None-Match', etag);
      expect({ what, status: again.status }).toEqual({ what, status: 304 });
      expect({ what, cacheControl: again.headers['cache-control'] }).toEqual({ what, cacheControl });
    }
  });

  it("keeps a signed-in member's pages to them (private, no-cache), each of them", async () => {
    for (const [what, path] of publicPages()) {
      const res = await alice.browser.get(path);
      expect({ what, status: res.status }).toEqual({ what, status: 200 });
      expect({ what, cacheControl: res.headers['cache-control'] }).toEqual({
        what,
        cacheControl: PERSONAL_CACHE_CONTROL,
      });
    }
  });

  it("keeps a token's reads private, and any read with a session cookie, even a made-up one", async () => {
    for (const path of [API.threadsRecent, API.thread(pasteId), API.tags, API.user(alice.user.id)]) {
      const byToken = await visitor().get(path).set('Authorization', `Bearer ${token}`).expect(200);
      expect({ path, cacheControl: byToken.headers['cache-control'] }).toEqual({
        path,
        cacheControl: PERSONAL_CACHE_CONTROL,
      });
      const madeUp = await visitor().get(path).set('Cookie', 'termpaste.sid=s%3Anone.x').expect(200);
      expect({ path, cacheControl: madeUp.headers['cache-control'] }).toEqual({
        path,
        cacheControl: PERSONAL_CACHE_CONTROL,
      });
    }
  });

  it("keeps a keyed paste private to its reader, a live refresh, and a member's own votes", async () => {
    const byKey = await visitor().get(API.thread(keyed)).expect(200);
    expect(byKey.headers['cache-control']).toBe(PERSONAL_CACHE_CONTROL);
    // A live refresh must show what its event told of: no shared copy from before it.
    const refresh = await visitor()
      .get(`${API.thread(pasteId)}?refresh=true`)
      .expect(200);
    expect(refresh.headers['cache-control']).toBe(PERSONAL_CACHE_CONTROL);
    const bob = await registered(t);
    await bob.browser.post(API.votes).send({ threadId: pasteId, value: 1 }).expect(200);
    const withVote = await bob.browser.get(API.thread(pasteId)).expect(200);
    expect(withVote.body.myVote).toBe(1);
    expect(withVote.headers['cache-control']).toBe(PERSONAL_CACHE_CONTROL);
  });

  it('gives an error no shared rule (a cache in front keeps none)', async () => {
    for (const path of [
      API.thread(987654),
      `${API.oembed}?url=${encodeURIComponent(`${t.config.publicUrl}/thread/987654`)}`,
      API.tag('no such tag!'),
      EMBED_PAGE(987654),
    ]) {
      const res = await visitor().get(path);
      expect({ path, status: res.status >= 400 }).toEqual({ path, status: true });
      expect({ path, shared: /s-maxage|public/.test(String(res.headers['cache-control'])) }).toEqual({
        path,
        shared: false,
      });
    }
  });

  it('changes a shared page’s ETag when it changes', async () => {
    const before = await visitor().get(API.tags).expect(200);
    await alice.browser
      .post(API.threads)
      .send({ title: 'Another tagged paste', content: 'x\n', tags: ['edgetag', 'newedgetag'] })
      .expect(201);
    const after = await visitor()
      .get(API.tags)
      .set('If-None-Match', before.headers['etag'] as string);
    expect(after.status).toBe(200);
    expect(after.headers['etag']).not.toBe(before.headers['etag']);
  });

  it('never lets a shared cache keep an answer that sets a cookie', async () => {
    const app = express();
    noSharedCookies(app);
    app.get('/cookie', (_req, res) => {
      res.setHeader('Cache-Control', EDGE_CACHE_CONTROL);
      res.cookie('any', '1');
      res.send('x');
    });
    app.get('/plain', (_req, res) => {
      res.setHeader('Cache-Control', EDGE_CACHE_CONTROL);
      res.send('x');
    });
    const withCookie = await supertest(app).get('/cookie').expect(200);
    expect(withCookie.headers['set-cookie']).toBeDefined();
    expect(withCookie.headers['cache-control']).toBe(PERSONAL_CACHE_CONTROL);
    const plain = await supertest(app).get('/plain').expect(200);
    expect(plain.headers['cache-control']).toBe(EDGE_CACHE_CONTROL);
    // In the app: a signed-in member's read sets the session's rolling cookie, never shared.
    const member = await alice.browser.get(API.threadsRecent).expect(200);
    expect(member.headers['cache-control']).toBe(PERSONAL_CACHE_CONTROL);
  });
});
