import { existsSync, readdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import {
  API,
  type CurrentUser,
  currentUserSchema,
  FORUM_MESSAGES,
  LIMITS,
  SETTINGS_MESSAGES,
  UPLOAD_URL_TTL_SECONDS,
  uploadUrlSchema,
} from '@termpaste/contracts';
import { UPLOAD_ALREADY_DONE } from '../src/infra/storage/local.storage.js';
import { StoragePort } from '../src/infra/storage/storage.port.js';
import { UNCLAIMED_UPLOAD_GRACE_SECONDS, UploadsSweeper } from '../src/modules/users/uploads-sweep.js';
import { type Browser, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** Real 1×1 images, one of each type an avatar may be. */
const IMAGES = {
  'image/png': Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
  'image/jpeg': Buffer.from(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////' +
      '////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
    'base64',
  ),
  'image/gif': Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
  'image/webp': Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64'),
} as const;
const PNG = IMAGES['image/png'];
const PNG_MAGIC = PNG.subarray(0, 8);

const UNAUTHORIZED = { statusCode: 401, message: 'Unauthorized' };
const BANNED = { statusCode: 403, message: FORUM_MESSAGES.banned };
const NOT_UPLOADED = { statusCode: 400, message: SETTINGS_MESSAGES.avatarNotUploaded };
const INVALID = { statusCode: 403, message: SETTINGS_MESSAGES.uploadInvalid };
const EXPIRED = { statusCode: 403, message: SETTINGS_MESSAGES.uploadExpired };
const TOO_LARGE = { statusCode: 413, message: SETTINGS_MESSAGES.uploadTooLarge };
const NOT_IMAGE = { statusCode: 415, message: SETTINGS_MESSAGES.uploadNotImage };
const FILE_NOT_FOUND = { statusCode: 404, message: 'File not found' };

type Member = Awaited<ReturnType<typeof registered>>;

/** The path and query of an address (uploadURL holds PUBLIC_URL's origin; the test app listens elsewhere). */
function local(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

function keyOf(url: string): string {
  return new URL(url).pathname.slice(`${API.uploads}/`.length);
}

describe('avatar uploads (local storage)', () => {
  let t: TestApp;
  let alice: Member;
  let bob: Member;

  beforeAll(async () => {
    t = await createTestApp();
    await registered(t); // the owner
    alice = await registered(t);
    bob = await registered(t);
  });

  afterAll(async () => {
    await t.close();
  });

  const uploadsDir = () => path.join(t.config.dataDir, 'uploads');
  const fileOf = (key: string) => path.join(uploadsDir(), ...key.split('/'));
  const leftovers = () => {
    const tmp = path.join(uploadsDir(), '.tmp');
    return existsSync(tmp) ? readdirSync(tmp) : [];
  };

  async function presign(browser: Browser): Promise<string> {
    const res = await browser.post(API.objectsUpload).expect(200);
    return uploadUrlSchema.strict().parse(res.body).uploadURL;
  }

  async function upload(browser: Browser, body: Buffer, contentType = 'image/png'): Promise<string> {
    const uploadURL = await presign(browser);
    const res = await browser.put(local(uploadURL)).set('Content-Type', contentType).send(body).expect(200);
    expect(res.text).toBe('');
    return uploadURL;
  }

  async function me(browser: Browser): Promise<CurrentUser> {
    const res = await browser.get(API.currentUser).expect(200);
    return currentUserSchema.strict().parse(res.body);
  }

  async function setAvatar(browser: Browser, avatarURL: string): Promise<CurrentUser> {
    const res = await browser.put(API.userAvatar).send({ avatarURL }).expect(200);
    return currentUserSchema.strict().parse(res.body);
  }

  /**
   * A PUT through a bare HTTP client, for bodies supertest cannot send: a Content-Length the body does not
   * have, or a chunked body streamed until the server answers. Resolves with the answer.
   */
  function rawPut(
    url: string,
    options: { contentLength?: number; stream?: Buffer; first?: Buffer; contentType?: string },
  ): Promise<{ status: number; body: unknown }> {
    return new Promise((resolve, reject) => {
      const target = new URL(local(url), t.url);
      const headers: Record<string, string | number> = {
        'Content-Type': options.contentType ?? 'image/png',
        Origin: t.url,
      };
      if (options.contentLength !== undefined) headers['Content-Length'] = options.contentLength;
      const req = http.request(target, { method: 'PUT', headers });
      let answered = false;
      req.on('response', (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          req.destroy();
          const text = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : text });
        });
      });
      req.on('error', (error) => {
        if (!answered) reject(error);
      });
      if (options.first) req.write(options.first);
      if (options.stream) {
        const chunk = options.stream;
        // Bounded: at most three times the limit, stopping as soon as the server answers.
        let sent = 0;
        const pump = () => {
          while (!answered && sent < 3 * LIMITS.avatarMaxBytes) {
            sent += chunk.length;
            if (!req.write(chunk)) return void req.once('drain', pump);
          }
          if (!answered) req.end();
        };
        pump();
      } else if (options.contentLength === undefined || options.contentLength === options.first?.length) {
        req.end();
      }
    });
  }

  describe('POST /api/objects/upload', () => {
    it('needs a session (401) and an account not banned (403)', async () => {
      await t.browser().post(API.objectsUpload).expect(401, UNAUTHORIZED);
      const carol = await registered(t);
      await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [carol.user.id]);
      await carol.browser.post(API.objectsUpload).expect(403, BANNED);
    });

    it('gives a signed address for a new object of the member, valid for 15 minutes', async () => {
      const before = Math.floor(Date.now() / 1000);
      const first = new URL(await presign(alice.browser));
      const second = new URL(await presign(alice.browser));
      expect(`${first.origin}${first.pathname}`).toMatch(
        new RegExp(`^${t.config.publicUrl}${API.uploads}/avatars/${alice.user.id}/[A-Za-z0-9_-]{22}$`),
      );
      expect(second.pathname).not.toBe(first.pathname);
      const expires = Number(first.searchParams.get('expires'));
      expect(expires).toBeGreaterThanOrEqual(before + UPLOAD_URL_TTL_SECONDS);
      expect(expires).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + UPLOAD_URL_TTL_SECONDS);
      expect(first.searchParams.get('max')).toBe(String(LIMITS.avatarMaxBytes));
      expect(first.searchParams.get('sig')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });
  });

  describe('a full upload', () => {
    it.each(Object.entries(IMAGES))(
      'stores a %s, makes it the avatar, and serves it with its type and safe headers',
      async (type, bytes) => {
        const uploadURL = await upload(alice.browser, bytes, type);
        const key = keyOf(uploadURL);
        const me = await setAvatar(alice.browser, uploadURL);
        expect(me).toMatchObject({
          id: alice.user.id,
          avatarUrl: `${t.config.publicUrl}${API.uploads}/${key}`,
        });
        const current = await alice.browser.get(API.currentUser).expect(200);
        expect(current.body).toEqual(me);

        const res = await t.http.get(local(me.avatarUrl!)).buffer(true).expect(200);
        expect(res.headers['content-type']).toBe(type);
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(res.headers['content-security-policy']).toBe("default-src 'none'");
        expect(res.headers['content-length']).toBe(String(bytes.length));
        expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);

        // Read in a signed-in browser: a publicly cached file never carries the session cookie.
        const own = await alice.browser.get(local(me.avatarUrl!)).expect(200);
        expect(own.headers['set-cookie']).toBeUndefined();
        expect((await alice.browser.get(API.currentUser)).headers['set-cookie']).toBeDefined();

        const head = await t.http.head(local(me.avatarUrl!)).expect(200);
        expect(head.headers['content-type']).toBe(type);
      },
    );

    it('takes the type from the bytes, not from the Content-Type header', async () => {
      const uploadURL = await upload(alice.browser, IMAGES['image/gif'], 'image/png');
      const res = await t.http.get(local(uploadURL).split('?')[0]!).expect(200);
      expect(res.headers['content-type']).toBe('image/gif');
    });

    it('streams past the JSON and form parsers whatever Content-Type the upload claims', async () => {
      for (const contentType of ['application/json', 'application/x-www-form-urlencoded', 'text/plain']) {
        const uploadURL = await presign(alice.browser);
        // A bare client: supertest would turn the bytes into JSON for a JSON type.
        await expect(
          rawPut(uploadURL, { contentType, contentLength: PNG.length, first: PNG }),
        ).resolves.toEqual({ status: 200, body: '' });
        const res = await t.http.get(local(uploadURL).split('?')[0]!).buffer(true).expect(200);
        expect(Buffer.compare(res.body as Buffer, PNG)).toBe(0);
      }
    });

    it('takes a file of exactly the limit', async () => {
      const big = Buffer.alloc(LIMITS.avatarMaxBytes);
      PNG.copy(big);
      const uploadURL = await upload(alice.browser, big);
      await expect(t.app.get(StoragePort).stat(keyOf(uploadURL))).resolves.toMatchObject({
        contentType: 'image/png',
        size: LIMITS.avatarMaxBytes,
      });
    });

    it('takes one upload per address: an object never changes under its key', async () => {
      const uploadURL = await upload(alice.browser, PNG);
      await alice.browser
        .put(local(uploadURL))
        .set('Content-Type', 'image/gif')
        .send(IMAGES['image/gif'])
        .expect(409, { statusCode: 409, message: UPLOAD_ALREADY_DONE });
      const res = await t.http.get(local(uploadURL).split('?')[0]!).expect(200);
      expect(res.headers['content-type']).toBe('image/png');
    });

    it('accepts the object URL as well as the upload address', async () => {
      const uploadURL = await upload(bob.browser, PNG);
      const objectUrl = uploadURL.split('?')[0]!;
      await expect(setAvatar(bob.browser, objectUrl)).resolves.toMatchObject({ avatarUrl: objectUrl });
    });
  });

  describe('refused uploads', () => {
    it('403 Request has expired past the expiry', async () => {
      const { uploadURL, key } = await t.app.get(StoragePort).presignUpload(alice.user.id, -1);
      await t.browser().put(local(uploadURL)).set('Content-Type', 'image/png').send(PNG).expect(403, EXPIRED);
      expect(existsSync(fileOf(key))).toBe(false);
    });

    it('403 Invalid upload address for a tampered, stretched or moved signature', async () => {
      const uploadURL = await presign(alice.browser);
      const url = new URL(uploadURL);
      const sig = url.searchParams.get('sig')!;
      const variant = (change: (target: URL) => void) => {
        const target = new URL(uploadURL);
        change(target);
        return local(target.toString());
      };
      const attempts = [
        variant((u) => u.searchParams.set('sig', `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`)),
        variant((u) => u.searchParams.set('sig', sig.slice(0, -1))),
        variant((u) => u.searchParams.delete('sig')),
        variant((u) => u.searchParams.append('sig', sig)),
        variant((u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600))),
        variant((u) => u.searchParams.set('max', String(LIMITS.avatarMaxBytes * 10))),
        variant((u) => u.searchParams.delete('expires')),
        variant(
          (u) => (u.pathname = u.pathname.replace(`/avatars/${alice.user.id}/`, `/avatars/${bob.user.id}/`)),
        ),
        variant((u) => (u.pathname = `${u.pathname.slice(0, -1)}${u.pathname.endsWith('A') ? 'B' : 'A'}`)),
      ];
      for (const attempt of attempts) {
        await t.browser().put(attempt).set('Content-Type', 'image/png').send(PNG).expect(403, INVALID);
      }
      // The genuine address still works.
      await t.browser().put(local(uploadURL)).set('Content-Type', 'image/png').send(PNG).expect(200);
    });

    it('413 by Content-Length before reading anything', async () => {
      const uploadURL = await presign(alice.browser);
      const res = await rawPut(uploadURL, { contentLength: LIMITS.avatarMaxBytes + 1, first: PNG_MAGIC });
      expect(res).toEqual({ status: 413, body: TOO_LARGE });
      expect(existsSync(fileOf(keyOf(uploadURL)))).toBe(false);
    });

    it('413 while streaming a chunked body that passes the limit, keeping nothing', async () => {
      const uploadURL = await presign(alice.browser);
      const res = await rawPut(uploadURL, { first: PNG_MAGIC, stream: Buffer.alloc(64 * 1024) });
      expect(res).toEqual({ status: 413, body: TOO_LARGE });
      expect(existsSync(fileOf(keyOf(uploadURL)))).toBe(false);
      expect(leftovers()).toEqual([]);
      // The address stays usable for a file that fits.
      await alice.browser.put(local(uploadURL)).set('Content-Type', 'image/png').send(PNG).expect(200);
    });

    it.each([
      ['HTML claiming to be a PNG', Buffer.from('<html><script>alert(1)</script></html>'), 'image/png'],
      ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>'), 'image/svg+xml'],
      ['a PNG signature cut short', PNG_MAGIC.subarray(0, 4), 'image/png'],
      ['an empty body', Buffer.alloc(0), 'image/png'],
      ['a WAVE file (RIFF but not WebP)', Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt '), 'image/webp'],
    ])('415 for %s, keeping nothing', async (_name, body, contentType) => {
      const uploadURL = await presign(alice.browser);
      await alice.browser
        .put(local(uploadURL))
        .set('Content-Type', contentType)
        .send(body)
        .expect(415, NOT_IMAGE);
      expect(existsSync(fileOf(keyOf(uploadURL)))).toBe(false);
      expect(leftovers()).toEqual([]);
      await t.http.get(local(uploadURL).split('?')[0]!).expect(404, FILE_NOT_FOUND);
    });

    it('415 for a large non-image without reading it all', async () => {
      const uploadURL = await presign(alice.browser);
      const res = await rawPut(uploadURL, { stream: Buffer.alloc(64 * 1024, 0x41) });
      expect(res).toEqual({ status: 415, body: NOT_IMAGE });
      expect(leftovers()).toEqual([]);
    });
  });

  describe('PUT /api/user/avatar', () => {
    it('needs a session (401) and an account not banned (403)', async () => {
      await t.browser().put(API.userAvatar).send({ avatarURL: 'x' }).expect(401, UNAUTHORIZED);
      const carol = await registered(t);
      const uploadURL = await upload(carol.browser, PNG);
      await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [carol.user.id]);
      await carol.browser.put(API.userAvatar).send({ avatarURL: uploadURL }).expect(403, BANNED);
    });

    it("refuses someone else's object, by upload address or object URL", async () => {
      const bobsUpload = await upload(bob.browser, PNG);
      const before = (await alice.browser.get(API.currentUser).expect(200)).body as CurrentUser;
      for (const avatarURL of [bobsUpload, bobsUpload.split('?')[0]!]) {
        await alice.browser.put(API.userAvatar).send({ avatarURL }).expect(400, NOT_UPLOADED);
      }
      expect((await alice.browser.get(API.currentUser).expect(200)).body).toEqual(before);
      // Bob's object is untouched.
      await t.http.get(local(bobsUpload).split('?')[0]!).expect(200);
    });

    it.each([
      ['an external image', 'https://images.example.com/cat.png'],
      ['our path on another host', `https://evil.example.com${API.uploads}/avatars/2/abcdefghijklmnopqrstuv`],
      ['a relative path', `${API.uploads}/avatars/2/abcdefghijklmnopqrstuv`],
      ['a javascript: URL', 'javascript:alert(1)'],
      ['not a URL at all', 'cat.png'],
      ['a data: URL', `data:image/png;base64,${PNG.toString('base64')}`],
    ])('refuses %s', async (_name, avatarURL) => {
      await alice.browser.put(API.userAvatar).send({ avatarURL }).expect(400, NOT_UPLOADED);
    });

    it('refuses an address of the member that was never uploaded to, or held no image', async () => {
      const unused = await presign(alice.browser);
      await alice.browser.put(API.userAvatar).send({ avatarURL: unused }).expect(400, NOT_UPLOADED);
      const refused = await presign(alice.browser);
      await alice.browser.put(local(refused)).set('Content-Type', 'image/png').send('nope').expect(415);
      await alice.browser.put(API.userAvatar).send({ avatarURL: refused }).expect(400, NOT_UPLOADED);
    });

    it('400 for a missing or blank avatarURL', async () => {
      for (const body of [{}, { avatarURL: '' }, { avatarURL: '   ' }, { avatarURL: 42 }]) {
        const res = await alice.browser.put(API.userAvatar).send(body).expect(400);
        expect(res.body).toMatchObject({ statusCode: 400, message: expect.stringContaining('avatarURL') });
      }
    });

    it('deletes the previous avatar file when it is replaced', async () => {
      const dave = await registered(t);
      const first = await upload(dave.browser, PNG);
      await setAvatar(dave.browser, first);
      const second = await upload(dave.browser, IMAGES['image/gif'], 'image/gif');
      const me = await setAvatar(dave.browser, second);
      expect(me.avatarUrl).toBe(second.split('?')[0]);

      expect(existsSync(fileOf(keyOf(first)))).toBe(false);
      await t.http.get(local(first).split('?')[0]!).expect(404, FILE_NOT_FOUND);
      await t.http.get(local(second).split('?')[0]!).expect(200);

      // Setting the same avatar again keeps its file.
      await setAvatar(dave.browser, second);
      expect(existsSync(fileOf(keyOf(second)))).toBe(true);
    });

    it('leaves an avatar that is not in our storage alone when replacing it', async () => {
      const erin = await registered(t);
      await t.dataSource.query('UPDATE users SET avatar_url = $2 WHERE id = $1', [
        erin.user.id,
        'https://images.example.com/old.png',
      ]);
      const uploadURL = await upload(erin.browser, PNG);
      await expect(setAvatar(erin.browser, uploadURL)).resolves.toMatchObject({
        avatarUrl: uploadURL.split('?')[0],
      });
    });
  });

  describe('GET /api/uploads/*', () => {
    it.each([
      '/api/uploads/avatars/1/..%2F..%2F..%2F..%2Fetc%2Fpasswd',
      '/api/uploads/..%2F..%2Fsession-secret',
      '/api/uploads/%2e%2e/%2e%2e/session-secret',
      '/api/uploads/avatars/1/abcdefghijklmnopqrstuv/..',
      '/api/uploads/.tmp',
      '/api/uploads/avatars',
      '/api/uploads/avatars/1',
      '/api/uploads/avatars/1/abcdefghijklmnopqrstuv',
      '/api/uploads/avatars/1/abcdefghijklmnopqrstuv.png',
    ])('404 for %s', async (url) => {
      await t.http.get(url).expect(404);
    });

    it('never lets a traversal key in for a PUT either', async () => {
      for (const url of [
        '/api/uploads/..%2F..%2Fsession-secret?expires=9999999999&max=1&sig=x',
        '/api/uploads/avatars/1/..%2F..%2F..%2Fsession-secret',
      ]) {
        await t.browser().put(url).set('Content-Type', 'image/png').send(PNG).expect(403, INVALID);
      }
      expect(existsSync(path.join(t.config.dataDir, 'session-secret'))).toBe(false);
    });
  });

  describe('unclaimed uploads (UploadsSweeper)', () => {
    const sweeper = () => t.app.get(UploadsSweeper);
    const pendingKeys = async (userId: number): Promise<string[]> =>
      (
        (await t.dataSource.query('SELECT key FROM pending_uploads WHERE user_id = $1 ORDER BY key', [
          userId,
        ])) as Array<{ key: string }>
      ).map((row) => row.key);
    /** Makes the uploads of `userId` look handed out `seconds` ago. */
    const age = (userId: number, seconds: number) =>
      t.dataSource.query(
        `UPDATE pending_uploads SET created_at = now() - make_interval(secs => $2) WHERE user_id = $1`,
        [userId, seconds],
      );

    it('notes each address handed out, and forgets it once the upload is the avatar', async () => {
      const carol = await registered(t);
      const claimed = await upload(carol.browser, PNG);
      const unclaimed = await upload(carol.browser, PNG);
      expect(await pendingKeys(carol.user.id)).toEqual([keyOf(claimed), keyOf(unclaimed)].sort());
      await setAvatar(carol.browser, claimed);
      expect(await pendingKeys(carol.user.id)).toEqual([keyOf(unclaimed)]);
    });

    it('deletes the files of uploads never claimed once past the grace period, and only those', async () => {
      const dave = await registered(t);
      const avatar = await upload(dave.browser, PNG);
      await setAvatar(dave.browser, avatar);
      const forgotten = await upload(dave.browser, PNG);
      await presign(dave.browser); // an address never uploaded to
      const recent = await upload(dave.browser, PNG);
      await age(dave.user.id, UNCLAIMED_UPLOAD_GRACE_SECONDS + 60);
      await t.dataSource.query('UPDATE pending_uploads SET created_at = now() WHERE key = $1', [
        keyOf(recent),
      ]);

      expect(await sweeper().sweep()).toBeGreaterThanOrEqual(2);
      expect(existsSync(fileOf(keyOf(forgotten)))).toBe(false);
      await t.http.get(local(forgotten).split('?')[0]!).expect(404, FILE_NOT_FOUND);
      expect(existsSync(fileOf(keyOf(recent)))).toBe(true);
      expect(existsSync(fileOf(keyOf(avatar)))).toBe(true);
      await t.http.get(local(avatar).split('?')[0]!).expect(200);
      expect(await pendingKeys(dave.user.id)).toEqual([keyOf(recent)]);
      // Swept is gone for good: claiming it now is refused.
      await dave.browser.put(API.userAvatar).send({ avatarURL: forgotten }).expect(400, NOT_UPLOADED);
      expect((await me(dave.browser)).avatarUrl).toBe(avatar.split('?')[0]);
    });

    it('sweeps the unclaimed uploads of a deleted member too', async () => {
      const erin = await registered(t);
      const left = await upload(erin.browser, PNG);
      await t.dataSource.query('DELETE FROM users WHERE id = $1', [erin.user.id]);
      await age(erin.user.id, UNCLAIMED_UPLOAD_GRACE_SECONDS + 60);
      await sweeper().sweep();
      expect(existsSync(fileOf(keyOf(left)))).toBe(false);
      expect(await pendingKeys(erin.user.id)).toEqual([]);
    });

    it('an upload is claimed or swept, never both: a claim waits for a sweep holding it', async () => {
      const frank = await registered(t);
      const uploadURL = await upload(frank.browser, PNG);
      await age(frank.user.id, UNCLAIMED_UPLOAD_GRACE_SECONDS + 60);
      // The sweep's lock on the row, held while the claim comes in.
      const runner = t.dataSource.createQueryRunner();
      await runner.connect();
      await runner.startTransaction();
      try {
        await runner.query('SELECT key FROM pending_uploads WHERE key = $1 FOR UPDATE', [keyOf(uploadURL)]);
        const claim = frank.browser
          .put(API.userAvatar)
          .send({ avatarURL: uploadURL })
          .then((res) => res);
        await new Promise((resolve) => setTimeout(resolve, 200));
        await t.app.get(StoragePort).delete(keyOf(uploadURL));
        await runner.query('DELETE FROM pending_uploads WHERE key = $1', [keyOf(uploadURL)]);
        await runner.commitTransaction();
        const res = await claim;
        expect(res.status).toBe(400);
        expect(res.body).toEqual(NOT_UPLOADED);
      } finally {
        if (runner.isTransactionActive) await runner.rollbackTransaction();
        await runner.release();
      }
      expect((await me(frank.browser)).avatarUrl).toBeNull();
    });
  });

  it('never answered with a 500', () => {
    expect(t.logs.entries.filter((entry) => entry.level === 'error')).toEqual([]);
  });
});

describe('upload address rate limit (per member)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'on', RATE_LIMIT_UPLOADS_PER_HOUR: '2' } });
  });

  afterAll(async () => {
    await t.close();
  });

  it('allows RATE_LIMIT_UPLOADS_PER_HOUR addresses an hour, then 429 Too many uploads with Retry-After', async () => {
    const gina = await registered(t);
    const hank = await registered(t);
    await gina.browser.post(API.objectsUpload).expect(200);
    await gina.browser.post(API.objectsUpload).expect(200);
    const res = await gina.browser.post(API.objectsUpload).expect(429);
    const seconds = Number(res.headers['retry-after']);
    expect(seconds).toBeGreaterThan(60);
    expect(seconds).toBeLessThanOrEqual(3600);
    expect(res.body).toEqual({ statusCode: 429, message: SETTINGS_MESSAGES.uploadTooMany(seconds) });
    // Nothing handed out for the refused one; another member is not held back; a visitor is not counted.
    const [{ count }]: Array<{ count: number }> = await t.dataSource.query(
      'SELECT count(*)::int AS count FROM pending_uploads WHERE user_id = $1',
      [gina.user.id],
    );
    expect(count).toBe(2);
    await hank.browser.post(API.objectsUpload).expect(200);
    await t.browser().post(API.objectsUpload).expect(401);
  });
});

describe('avatar uploads with S3_BUCKET (no S3 server here: what works without one)', () => {
  let t: TestApp;
  let alice: Member;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        S3_BUCKET: 'termpaste-avatars',
        // Nothing listens there: every call to the bucket is refused at once.
        S3_ENDPOINT: 'http://127.0.0.1:9',
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
        S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      },
    });
    await registered(t);
    alice = await registered(t);
  });

  afterAll(async () => {
    await t.close();
  });

  it('presigns a PUT straight to the bucket, and the backend takes no uploads itself', async () => {
    const res = await alice.browser.post(API.objectsUpload).expect(200);
    const { uploadURL } = uploadUrlSchema.strict().parse(res.body);
    const url = new URL(uploadURL);
    expect(`${url.origin}${url.pathname}`).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:9/termpaste-avatars/avatars/${alice.user.id}/[A-Za-z0-9_-]{22}$`),
    );
    expect(url.searchParams.get('X-Amz-Expires')).toBe(String(UPLOAD_URL_TTL_SECONDS));
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);

    const key = url.pathname.slice('/termpaste-avatars/'.length);
    await t.browser().put(`${API.uploads}/${key}`).set('Content-Type', 'image/png').send(PNG).expect(404);
    await t.http.get(`${API.uploads}/${key}`).expect(404);
  });

  it('refuses URLs that are not our objects without asking the bucket', async () => {
    for (const avatarURL of [
      'https://images.example.com/cat.png',
      `http://127.0.0.1:9/termpaste-avatars/avatars/${alice.user.id + 1}/abcdefghijklmnopqrstuv`,
      `http://127.0.0.1:9/other-bucket/avatars/${alice.user.id}/abcdefghijklmnopqrstuv`,
    ]) {
      await alice.browser.put(API.userAvatar).send({ avatarURL }).expect(400, NOT_UPLOADED);
    }
  });

  it('503 (not 500) for an object of ours while the bucket cannot be reached', async () => {
    const { uploadURL } = (await alice.browser.post(API.objectsUpload).expect(200)).body as {
      uploadURL: string;
    };
    await alice.browser
      .put(API.userAvatar)
      .send({ avatarURL: uploadURL })
      .expect(503, { statusCode: 503, message: 'Avatar storage is unavailable; try again later' });
    expect(t.logs.text()).not.toContain('Internal error');
  });
});
