import { get as httpGet, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { type RemotesManifest, TEXTS } from '@termpaste/contracts';
import {
  escapeHtml,
  landingPageHtml,
  notFoundPageHtml,
  PAINT_DATA_ID,
  PAINT_ID,
  PAINT_QUERIES_ID,
  REMOTES_DATA_ID,
  scriptJson,
} from '@termpaste/contracts/first-paint';
import { renderAppPage } from '../src/http/first-paint.js';
import { SESSION_COOKIE } from '../src/modules/auth/session.middleware.js';
import { createFrontendsFixture, type FrontendsFixture } from './support/frontends-fixture.js';
import express from 'express';
import request from 'supertest';
import { frontendsRouter } from '../src/http/frontends.js';
import { EDGE_CACHE_CONTROL, PERSONAL_CACHE_CONTROL } from '../src/http/edge-cache.js';

/** As the shell's build leaves it: the entry script and the styles in the head, an empty root. */
const SHELL_INDEX =
  '<!doctype html><html lang="en"><head><title>Termpaste</title>' +
  '<script defer src="/static/js/index.0a1b2c3d.js"></script></head>' +
  '<body><noscript>Termpaste needs JavaScript to run.</noscript><div id="root"></div></body></html>';

const MEMBER_COOKIE = `${SESSION_COOKIE}=s%3Aanything.signature`;

/** The text of the `<script type="application/json" id=…>` of a page, parsed; undefined if absent. */
function scriptData(html: string, id: string): unknown {
  const match = new RegExp(`<script type="application/json" id="${id}">([^<]*)</script>`).exec(html);
  return match ? JSON.parse(match[1]!) : undefined;
}

/** A GET with nothing decoded: the bytes as sent. */
function rawGet(
  url: string,
  acceptEncoding: string,
): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: { 'Accept-Encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

describe('the first paint: app pages as the server sends them', () => {
  let fixture: FrontendsFixture;
  // The frontends' router alone (no database, no Nest: quick); frontends.spec.ts serves them through
  // the whole app, 404s and security headers included.
  let server: Server;
  let t: { http: ReturnType<typeof request>; url: string };

  beforeAll(async () => {
    fixture = await createFrontendsFixture({
      'shell/dist/index.html': SHELL_INDEX,
      'forum/dist/remoteEntry.js': 'var forum = 1;',
      // As the Module Federation builds write them (the parts read).
      'shell/dist/mf-manifest.json': JSON.stringify({
        shared: [
          { name: 'react', assets: { js: { sync: ['static/js/async/react.0a1b2c3d.js'], async: [] } } },
          { name: 'unused', assets: { js: { sync: [], async: ['static/js/async/no.0a1b2c3d.js'] } } },
        ],
      }),
      'forum/dist/mf-manifest.json': JSON.stringify({
        exposes: [
          {
            path: './screens',
            assets: {
              js: { sync: ['static/js/async/screens.0a1b2c3d.js'], async: ['static/js/async/later.js'] },
              css: { sync: ['static/css/async/screens.0a1b2c3d.css'], async: [] },
            },
          },
        ],
      }),
    });
    const app = express();
    app.use(frontendsRouter({ frontendsDir: fixture.dir, remoteUrls: {} }));
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = { http: request(url), url };
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await fixture?.remove();
  });

  it("paints a visitor's landing page in the HTML, and tells the app it is a visitor's", async () => {
    const res = await t.http
      .get('/')
      .expect(200)
      .expect('Content-Type', /text\/html/);
    expect(res.text).toContain(`<div id="${PAINT_ID}">${landingPageHtml('content')}</div>`);
    expect(res.text).toContain(escapeHtml(TEXTS.landingTagline));
    expect(res.text).toContain('[ ACCESS TERMINAL ]');
    expect(scriptData(res.text, PAINT_DATA_ID)).toEqual({ currentUser: null });
    // The app's entry is started once the page has shown (by the shell's paint-boot.js), and nothing is
    // preloaded: on a slow line it would take bandwidth from the styles the painted page waits for.
    expect(res.text).toContain(
      '<script defer src="/paint-boot.js" data-entry="/static/js/index.0a1b2c3d.js"></script>',
    );
    expect(res.text).not.toContain('<script defer src="/static/js/index');
    expect(res.text).not.toContain('rel="preload"');
  });

  it('puts remotes.json in every app page: no round trip for it before the first remote', async () => {
    for (const [path, cookie] of [
      ['/', undefined],
      ['/login', undefined],
      ['/thread/5', MEMBER_COOKIE],
    ] as const) {
      const req = t.http.get(path);
      if (cookie) req.set('Cookie', cookie);
      const res = await req.expect(200);
      expect(scriptData(res.text, REMOTES_DATA_ID)).toEqual({
        forum: '/remotes/forum/remoteEntry.js',
        messaging: '/remotes/messaging/remoteEntry.js',
        settings: '/remotes/settings/remoteEntry.js',
        admin: '/remotes/admin/remoteEntry.js',
      });
    }
  });

  it('never paints for a request with a session cookie, nor says who is signed in', async () => {
    const res = await t.http.get('/').set('Cookie', MEMBER_COOKIE).expect(200);
    expect(res.text).not.toContain(PAINT_ID);
    expect(res.text).toContain('<script defer src="/static/js/index.0a1b2c3d.js"></script>');
    expect(res.text).not.toContain(PAINT_DATA_ID);
    // The forum (home, pastes) is what a member opens: its entry and screens are fetched with the page,
    // beside the shared libraries every page boots with; not what the screens load later.
    for (const [as, href] of [
      ['script', '/static/js/async/react.0a1b2c3d.js'],
      ['script', '/remotes/forum/remoteEntry.js'],
      ['script', '/remotes/forum/static/js/async/screens.0a1b2c3d.js'],
      ['style', '/remotes/forum/static/css/async/screens.0a1b2c3d.css'],
    ])
      expect(res.text).toContain(`<link rel="preload" as="${as}" href="${href}" />`);
    expect(res.text).not.toContain('later.js');
    expect(res.text).not.toContain('no.0a1b2c3d.js');
    // A member's page is the same for every member: nothing of theirs is in it.
    const other = await t.http.get('/').set('Cookie', `${SESSION_COOKIE}=s%3Aother.sig`).expect(200);
    expect(other.text).toBe(res.text);
  });

  it.each(['/login', '/register', '/Login/'])(
    "sends a visitor's %s unpainted: the app draws it",
    async (path) => {
      const res = await t.http.get(path).expect(200);
      expect(res.text).not.toContain(`id="${PAINT_ID}"`);
      // Still told it is a visitor's: the app draws at once, without asking who is signed in.
      expect(scriptData(res.text, PAINT_DATA_ID)).toEqual({ currentUser: null });
      // The app draws it: the shared libraries it boots with come with the page; the forum's do not.
      expect(res.text).toContain(
        '<link rel="preload" as="script" href="/static/js/async/react.0a1b2c3d.js" />',
      );
      expect(res.text).not.toContain('href="/remotes/forum/');
      expect(res.headers['cache-control']).toBe(EDGE_CACHE_CONTROL);
    },
  );

  it.each(['/thread/5', '/no/such/page', '/search/'])(
    "paints a visitor's 404 page on %s (a members' path), shared by caches in front",
    async (path) => {
      const res = await t.http.get(path).expect(200);
      expect(res.text).toContain(`<div id="${PAINT_ID}">${notFoundPageHtml('content')}</div>`);
      expect(res.text).toContain('404 Page Not Found');
      expect(scriptData(res.text, PAINT_DATA_ID)).toEqual({ currentUser: null });
      // As the landing page: the app starts once the page has shown, nothing preloaded before.
      expect(res.text).toContain(
        '<script defer src="/paint-boot.js" data-entry="/static/js/index.0a1b2c3d.js">',
      );
      expect(res.text).not.toContain('rel="preload"');
      expect(res.headers['cache-control']).toBe(EDGE_CACHE_CONTROL);
    },
  );

  it("puts a member's painted screen and its data in the page, the data unable to close its script", () => {
    const hostile = '</script><script>alert(1)</script><!--';
    const html = renderAppPage(SHELL_INDEX, 'member', {}, undefined, {
      html: '<p>painted</p>',
      queries: [[['/api/threads', '7'], { title: hostile }]],
    });
    expect(html).toContain(`<div id="${PAINT_ID}"><p>painted</p></div>`);
    expect(html).not.toContain(hostile);
    expect(scriptData(html, PAINT_QUERIES_ID)).toEqual([[['/api/threads', '7'], { title: hostile }]]);
    // Its scripts start once it has shown, all of them fetched beside its entry.
    expect(html).toContain('<script defer src="/paint-boot.js" data-entry="/static/js/index.0a1b2c3d.js"');
    expect(html).not.toContain(PAINT_DATA_ID);
  });

  it('is revalidated by browsers, shared by caches in front for visitors only, varies with the cookie and the coding, and answers 304', async () => {
    const res = await t.http.get('/').expect(200);
    expect(res.headers['cache-control']).toBe(EDGE_CACHE_CONTROL);
    const member = await t.http.get('/').set('Cookie', MEMBER_COOKIE).expect(200);
    expect(member.headers['cache-control']).toBe(PERSONAL_CACHE_CONTROL);
    expect(res.headers['vary']).toMatch(/Accept-Encoding/);
    expect(res.headers['vary']).toMatch(/Cookie/);
    const etag = res.headers['etag'] as string;
    expect(etag).toMatch(/^"/);
    await t.http.get('/').set('If-None-Match', etag).expect(304);
    // A member's page is another page: the visitor's ETag does not match it.
    await t.http.get('/').set('Cookie', MEMBER_COOKIE).set('If-None-Match', etag).expect(200);
  });

  it.each(['br', 'gzip'] as const)('sends the painted page compressed (%s), made once', async (coding) => {
    const plain = await t.http.get('/').set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const res = await rawGet(`${t.url}/`, coding);
    expect(res.headers['content-encoding']).toBe(coding);
    const { body } = res;
    expect(Number(res.headers['content-length'])).toBe(body.length);
    const text = (coding === 'br' ? brotliDecompressSync(body) : gunzipSync(body)).toString();
    expect(text).toBe(plain.text);
    expect(body.length).toBeLessThan(Buffer.byteLength(plain.text));
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await t.http.head('/').expect(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text ?? '').toBe('');
  });
});

describe('what the server embeds is inert', () => {
  const EVIL = '</script><script>alert(1)</script><!--';

  it('escapes text and attribute values as React does', () => {
    expect(escapeHtml(`<b title="x">'&'</b>`)).toBe(
      '&lt;b title=&quot;x&quot;&gt;&#x27;&amp;&#x27;&lt;/b&gt;',
    );
  });

  it('writes JSON that cannot close its script, and reads back the same', () => {
    const json = scriptJson({ title: EVIL, line: 'a\u2028b' });
    expect(json).not.toMatch(/[<>]/);
    expect(JSON.parse(json)).toEqual({ title: EVIL, line: 'a\u2028b' });
  });

  it('keeps a hostile remote address in its JSON and its attribute', () => {
    const manifest = { forum: `/x${EVIL}"onload="alert(1)` } as RemotesManifest;
    const html = renderAppPage(SHELL_INDEX, 'member', manifest);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('"onload="');
    expect(scriptData(html, REMOTES_DATA_ID)).toEqual(manifest);
    // Exactly the build's two scripts plus ours: nothing injected.
    expect(html.match(/<script/g)).toHaveLength(2);
  });
});
