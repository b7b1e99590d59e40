import { API, uploadTicketSchema } from '@termpaste/contracts';
import { loadConfig } from '../src/config/config.js';
import { contentSecurityPolicyDirectives } from '../src/http/security-headers.js';
import { registered } from './support/accounts.js';
import { createFrontendsFixture, type FrontendsFixture } from './support/frontends-fixture.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const SHELL_INDEX = '<!doctype html><title>Termpaste</title><div id="root"></div>';

/** A Content-Security-Policy header as directive name to its sources. */
function parseCsp(header: string | undefined): Record<string, string[]> {
  expect(header).toBeDefined();
  return Object.fromEntries(
    header!
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );
}

const FIXED = {
  'default-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'style-src-attr': ["'unsafe-inline'"],
};

describe('security headers', () => {
  describe('on one machine (http, no remote origins, avatars on local disk)', () => {
    let fixture: FrontendsFixture;
    let t: TestApp;

    beforeAll(async () => {
      fixture = await createFrontendsFixture({
        'shell/dist/index.html': SHELL_INDEX,
        'forum/dist/remoteEntry.js': 'var forum = 1;',
      });
      t = await createTestApp({
        env: { FRONTENDS_DIR: fixture.dir, PUBLIC_URL: 'http://localhost:3000' },
      });
    });

    afterAll(async () => {
      await t?.close();
      await fixture?.remove();
    });

    it.each([
      ['the API', API.health, 200],
      ["the shell's page", '/', 200],
      ['a deep link', '/thread/7', 200],
      ["a remote's entry", '/remotes/forum/remoteEntry.js', 200],
      ['an API error', '/api/nope', 404],
      ['the API docs', API.docs, 200],
    ])('allow only our own origin on %s', async (_what, path, status) => {
      const res = await t.http.get(path).expect(status);
      expect(parseCsp(res.headers['content-security-policy'])).toEqual({
        ...FIXED,
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'", 'ws://localhost:3000'],
      });
      expect(res.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
      });
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['x-powered-by']).toBeUndefined();
    });

    it('echoes a request id with Nest console logs too', async () => {
      const kept = await t.http.get(API.health).set('X-Request-Id', 'lb-123').expect(200);
      expect(kept.headers['x-request-id']).toBe('lb-123');
      const made = await t.http.get('/').expect(200);
      expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('leaves the stricter policy of stored files in place', async () => {
      const { browser } = await registered(t);
      const presigned = await browser.post(API.objectsUpload).expect(200);
      const ticket = uploadTicketSchema.parse(presigned.body);
      const form = browser.post(new URL(ticket.form.url).pathname);
      for (const [name, value] of Object.entries(ticket.form.fields)) void form.field(name, value);
      await form.attach('file', PNG, 'avatar.png').expect(204);
      const claimed = await browser.put(API.userAvatar).send({ avatarURL: ticket.objectURL }).expect(200);
      const res = await t.http
        .get(new URL((claimed.body as { avatarUrl: string }).avatarUrl).pathname)
        .expect(200);
      expect(res.headers['content-security-policy']).toBe("default-src 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });
  });

  describe('in production (https, remotes on other origins, avatars in S3)', () => {
    let fixture: FrontendsFixture;
    let t: TestApp;

    beforeAll(async () => {
      fixture = await createFrontendsFixture({ 'shell/dist/index.html': SHELL_INDEX });
      t = await createTestApp({
        env: {
          FRONTENDS_DIR: fixture.dir,
          PUBLIC_URL: 'https://forum.example.com',
          REMOTE_URLS: JSON.stringify({
            admin: 'https://admin.example.com/remoteEntry.js',
            forum: 'https://cdn.example.net/forum/mf-manifest.json',
            messaging: 'https://cdn.example.net/messaging/mf-manifest.json',
            settings: '/cdn/settings/remoteEntry.js',
          }),
          S3_BUCKET: 'avatars',
          S3_ENDPOINT: 'https://s3.example.org',
          S3_FORCE_PATH_STYLE: 'true',
          S3_ACCESS_KEY_ID: 'key',
          S3_SECRET_ACCESS_KEY: 'secret',
          S3_PUBLIC_URL: 'https://img.example.net/avatars',
        },
      });
    });

    afterAll(async () => {
      await t?.close();
      await fixture?.remove();
    });

    it.each([
      ['the API', API.health],
      ["the shell's page", '/'],
    ])('allow exactly the remotes, the bucket for images and our socket on %s', async (_what, path) => {
      const res = await t.http.get(path).expect(200);
      const remotes = ['https://admin.example.com', 'https://cdn.example.net'];
      expect(parseCsp(res.headers['content-security-policy'])).toEqual({
        ...FIXED,
        'script-src': ["'self'", ...remotes],
        'style-src': ["'self'", "'unsafe-inline'", ...remotes],
        'img-src': ["'self'", 'data:', 'blob:', 'https://img.example.net'],
        'font-src': ["'self'", 'data:', ...remotes],
        // The browser PUTs avatars to us: it never connects to the bucket.
        'connect-src': ["'self'", 'wss://forum.example.com', ...remotes],
        'upgrade-insecure-requests': [],
      });
    });

    it('sends HSTS for 180 days, subdomains included', async () => {
      for (const path of [API.health, '/', '/api/nope']) {
        const res = await t.http.get(path);
        expect(res.headers['strict-transport-security']).toBe('max-age=15552000; includeSubDomains');
      }
    });
  });

  describe('contentSecurityPolicyDirectives', () => {
    const cwd = '/tmp';
    const base = { DATABASE_URL: 'postgres://u:p@db/termpaste', SESSION_SECRET: 'x'.repeat(32) };

    it('takes images from the bucket itself when S3_PUBLIC_URL is unset', () => {
      const config = loadConfig({ ...base, S3_BUCKET: 'avatars', S3_REGION: 'eu-west-3' }, cwd);
      const directives = contentSecurityPolicyDirectives(config);
      expect(directives['img-src']).toEqual([
        "'self'",
        'data:',
        'blob:',
        'https://avatars.s3.eu-west-3.amazonaws.com',
      ]);
      expect(directives['connect-src']).not.toContain('https://avatars.s3.eu-west-3.amazonaws.com');
    });

    it('names our own socket origin, port included', () => {
      const config = loadConfig({ ...base, PUBLIC_URL: 'http://127.0.0.1:3900/' }, cwd);
      expect(contentSecurityPolicyDirectives(config)['connect-src']).toEqual([
        "'self'",
        'ws://127.0.0.1:3900',
      ]);
    });
  });
});
