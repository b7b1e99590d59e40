import { mkdir, writeFile } from 'node:fs/promises';
import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { API, REMOTES_MANIFEST_PATH, remotesManifestSchema } from '@termpaste/contracts';
import { SHELL_NOT_BUILT_MESSAGE } from '../src/http/frontends.js';
import { EDGE_CACHE_CONTROL } from '../src/http/edge-cache.js';
import { createFrontendsFixture, type FrontendsFixture } from './support/frontends-fixture.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const SHELL_INDEX = '<!doctype html><title>Termpaste</title><div id="root"></div>';
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** An app page without what the server adds for a visitor (first-paint.spec.ts tests it). */
/** The page as built: without a visitor's painted 404 page, its data and its loader (first-paint.spec.ts). */
const unpainted = (html: string) =>
  html
    .replace(/<div id="tp-paint">.*?<\/div><\/main><\/div>/s, '')
    .replace(/<script type="application\/json" id="tp-data">[^<]*<\/script>/, '')
    .replace(
      /<script defer src="\/paint-boot\.js" data-entry="([^"]+)"><\/script>/,
      '<script defer src="$1"></script>',
    );

describe('serving the built frontends', () => {
  let fixture: FrontendsFixture;
  let t: TestApp;

  beforeAll(async () => {
    fixture = await createFrontendsFixture({
      'shell/dist/index.html': SHELL_INDEX,
      'shell/dist/static/js/main.0a1b2c3d.js': 'console.log("shell")',
      'shell/dist/favicon.svg': '<svg/>',
      'forum/dist/remoteEntry.js': 'var forum = 1;',
      'forum/dist/mf-manifest.json': '{"name":"forum"}',
      'forum/dist/static/js/123.abcd1234.js': 'var chunk = 1;',
      'forum/dist/index.html': '<!doctype html><title>forum standalone</title>',
    });
    t = await createTestApp({ env: { FRONTENDS_DIR: fixture.dir } });
  });

  afterAll(async () => {
    await t?.close();
    await fixture?.remove();
  });

  it('serves the shell at /', async () => {
    const res = await t.http
      .get('/')
      .expect(200)
      .expect('Content-Type', /text\/html/);
    // A visitor's landing page painted in it (first-paint.spec.ts).
    expect(res.text).toMatch(/^<!doctype html><title>Termpaste<\/title>.*<div id="root"><\/div>$/s);
    expect(res.headers['cache-control']).toBe(EDGE_CACHE_CONTROL);
  });

  it.each(['/thread/5', '/settings/password', '/search?q=a.b'])(
    'answers the deep link %s with the shell',
    async (link) => {
      const res = await t.http
        .get(link)
        .expect(200)
        .expect('Content-Type', /text\/html/);
      expect(unpainted(res.text)).toBe(SHELL_INDEX);
      expect(res.headers['cache-control']).toBe(EDGE_CACHE_CONTROL);
    },
  );

  it('answers HEAD like GET, without a body', async () => {
    const res = await t.http
      .head('/thread/5')
      .expect(200)
      .expect('Content-Type', /text\/html/);
    expect(res.text).toBeUndefined();
  });

  it('never answers /api or /ws paths with the shell', async () => {
    const api = await t.http.get('/api/nope').expect(404);
    expect(api.body).toEqual({ statusCode: 404, message: 'Cannot GET /api/nope' });
    await t.http.get('/api').expect(404).expect('Content-Type', /json/);
    await t.http.get('/ws/chat').expect(404).expect('Content-Type', /json/);
    await t.http.get(API.health).expect(200, { status: 'ok', db: 'up' });
  });

  it('serves shell assets, fingerprinted ones as immutable', async () => {
    const res = await t.http
      .get('/static/js/main.0a1b2c3d.js')
      .expect(200)
      .expect('Content-Type', /javascript/);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    const icon = await t.http.get('/favicon.svg').expect(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('answers a missing asset with a 404, not the shell', async () => {
    await t.http.get('/static/js/gone.12345678.js').expect(404).expect('Content-Type', /json/);
  });

  it('serves a remote at /remotes/<name>/ with no-cache on its entry and manifest', async () => {
    const entry = await t.http
      .get('/remotes/forum/remoteEntry.js')
      .expect(200)
      .expect('Content-Type', /javascript/);
    expect(entry.text).toBe('var forum = 1;');
    expect(entry.headers['cache-control']).toBe('no-cache');
    const manifest = await t.http.get('/remotes/forum/mf-manifest.json').expect(200);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    const chunk = await t.http.get('/remotes/forum/static/js/123.abcd1234.js').expect(200);
    expect(chunk.headers['cache-control']).toBe(IMMUTABLE);
  });

  it.each([
    '/remotes/forum/missing.js',
    '/remotes/forum/thread/5',
    '/remotes/forum/',
    '/remotes/admin/remoteEntry.js',
    '/remotes/blog/remoteEntry.js',
  ])('answers %s with a real 404', async (url) => {
    const res = await t.http.get(url).expect(404);
    expect(res.body).toEqual({ statusCode: 404, message: `Cannot GET ${url}` });
  });

  it('does not let a path escape the build folder', async () => {
    const res = await t.http.get('/remotes/forum/..%2f..%2fshell/dist/index.html');
    expect([403, 404]).toContain(res.status);
    expect(res.text).not.toContain('<title>Termpaste');
  });

  it('serves remotes.json pointing at each remote, uncached', async () => {
    const res = await t.http.get(REMOTES_MANIFEST_PATH).expect(200).expect('Content-Type', /json/);
    expect(remotesManifestSchema.parse(res.body)).toEqual({
      forum: '/remotes/forum/remoteEntry.js',
      messaging: '/remotes/messaging/remoteEntry.js',
      settings: '/remotes/settings/remoteEntry.js',
      admin: '/remotes/admin/remoteEntry.js',
    });
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('sets X-Content-Type-Options: nosniff on everything', async () => {
    for (const url of [
      '/',
      '/thread/5',
      '/remotes/forum/remoteEntry.js',
      '/remotes/forum/missing.js',
      REMOTES_MANIFEST_PATH,
      API.health,
      '/api/nope',
    ]) {
      const res = await t.http.get(url);
      expect([url, res.headers['x-content-type-options']]).toEqual([url, 'nosniff']);
    }
  });

  it('does not answer non-GET requests with the shell', async () => {
    await t.http.post('/thread/5').send({}).expect(404).expect('Content-Type', /json/);
  });
});

/** A GET as a browser sends it, answered as sent: no client-side decompression, unlike supertest's. */
function rawGet(
  url: string,
  acceptEncoding?: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers = acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding };
    httpGet(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    }).on('error', reject);
  });
}

function decoded(res: { headers: IncomingHttpHeaders; body: Buffer }): string {
  const coding = res.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(res.body).toString();
  if (coding === 'gzip') return gunzipSync(res.body).toString();
  return res.body.toString();
}

describe('serving the built frontends compressed', () => {
  const SHELL_CHUNK = 'console.log("home");'.repeat(50);
  const REMOTE_ENTRY = 'var forum = "entry";'.repeat(50);
  const PLAIN_CHUNK = 'var plain = 1;';
  let fixture: FrontendsFixture;
  let t: TestApp;

  beforeAll(async () => {
    const files = {
      'shell/dist/index.html': SHELL_INDEX,
      'shell/dist/static/js/home.0a1b2c3d.js': SHELL_CHUNK,
      'shell/dist/static/js/plain.0a1b2c3e.js': PLAIN_CHUNK,
      'shell/dist/static/css/home.0a1b2c3f.css': 'body{color:green}'.repeat(20),
      'forum/dist/remoteEntry.js': REMOTE_ENTRY,
    };
    fixture = await createFrontendsFixture(files);
    // As the builds leave them: a .br and a .gz beside each text file (here not beside plain.*.js), and
    // a stray copy whose file is gone.
    const compressed = { ...files, 'forum/dist/static/js/gone.12345678.js': 'var gone = 1;' };
    for (const [name, content] of Object.entries(compressed)) {
      if (name.includes('plain.')) continue;
      await mkdir(path.dirname(path.join(fixture.dir, name)), { recursive: true });
      await writeFile(path.join(fixture.dir, `${name}.br`), brotliCompressSync(content));
      await writeFile(path.join(fixture.dir, `${name}.gz`), gzipSync(content));
    }
    t = await createTestApp({ env: { FRONTENDS_DIR: fixture.dir } });
  });

  afterAll(async () => {
    await t?.close();
    await fixture?.remove();
  });

  it.each([
    ['br, gzip, deflate', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate, br;q=0.5', 'gzip'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
  ])('sends a script to a browser accepting %s as %s', async (accept, coding) => {
    const res = await rawGet(`${t.url}/static/js/home.0a1b2c3d.js`, accept);
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(coding);
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(res.headers['vary']).toMatch(/Accept-Encoding/);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(SHELL_CHUNK.length);
    expect(decoded(res)).toBe(SHELL_CHUNK);
  });

  it.each([undefined, 'identity', 'deflate', 'br;q=0, gzip;q=0'])(
    'sends the file itself when the browser accepts neither (Accept-Encoding: %s)',
    async (accept) => {
      const res = await rawGet(`${t.url}/static/js/home.0a1b2c3d.js`, accept);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['vary']).toMatch(/Accept-Encoding/);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe(IMMUTABLE);
      expect(res.body.toString()).toBe(SHELL_CHUNK);
    },
  );

  it('sends a file that has no compressed copy as it is', async () => {
    const res = await rawGet(`${t.url}/static/js/plain.0a1b2c3e.js`, 'br, gzip');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe(PLAIN_CHUNK);
  });

  it('sends styles compressed, as text/css', async () => {
    const res = await rawGet(`${t.url}/static/css/home.0a1b2c3f.css`, 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toMatch(/^text\/css/);
  });

  it("sends a remote's entry compressed, still revalidated each time", async () => {
    const res = await rawGet(`${t.url}/remotes/forum/remoteEntry.js`, 'br');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(decoded(res)).toBe(REMOTE_ENTRY);
  });

  it('answers a missing asset with a 404 even beside a stray compressed copy', async () => {
    const res = await rawGet(`${t.url}/remotes/forum/static/js/gone.12345678.js`, 'br, gzip');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body.toString())).toEqual({
      statusCode: 404,
      message: 'Cannot GET /remotes/forum/static/js/gone.12345678.js',
    });
  });

  it.each(['/', '/thread/5'])(
    'sends the shell page at %s compressed, revalidated by browsers',
    async (url) => {
      const res = await rawGet(`${t.url}${url}`, 'gzip, deflate, br');
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['vary']).toMatch(/Accept-Encoding/);
      expect(res.headers['cache-control']).toBe(EDGE_CACHE_CONTROL);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const plain = await rawGet(`${t.url}${url}`);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(decoded(res)).toBe(plain.body.toString());
      // At / a visitor's landing page is painted in it (first-paint.spec.ts).
      if (url !== '/') expect(unpainted(plain.body.toString())).toBe(SHELL_INDEX);
    },
  );

  it('answers HEAD with the headers of the compressed page, and no body', async () => {
    const res = await t.http.head('/thread/5').set('Accept-Encoding', 'br').expect(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['vary']).toMatch(/Accept-Encoding/);
  });

  it.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
    [undefined, undefined],
  ])('sends remotes.json to a browser accepting %s as %s', async (accept, coding) => {
    const res = await rawGet(`${t.url}${REMOTES_MANIFEST_PATH}`, accept);
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(coding);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['vary']).toMatch(/Accept-Encoding/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(remotesManifestSchema.parse(JSON.parse(decoded(res)))).toMatchObject({
      forum: '/remotes/forum/remoteEntry.js',
    });
  });

  it('compresses no API answer', async () => {
    const res = await rawGet(`${t.url}${API.health}`, 'br, gzip');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});

describe('remotes.json with REMOTE_URLS', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: { REMOTE_URLS: '{"admin":"https://admin.example.com/remoteEntry.js"}' },
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('replaces the overridden entries only', async () => {
    const res = await t.http.get(REMOTES_MANIFEST_PATH).expect(200);
    expect(res.body).toEqual({
      forum: '/remotes/forum/remoteEntry.js',
      messaging: '/remotes/messaging/remoteEntry.js',
      settings: '/remotes/settings/remoteEntry.js',
      admin: 'https://admin.example.com/remoteEntry.js',
    });
  });

  it('answers app pages with a 503 that says to build when the shell is not built', async () => {
    for (const url of ['/', '/thread/5']) {
      const res = await t.http
        .get(url)
        .expect(503)
        .expect('Content-Type', /text\/plain/);
      expect(res.text).toBe(SHELL_NOT_BUILT_MESSAGE);
      expect(res.text).toContain('npm run build');
    }
  });
});
