import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { link, mkdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import {
  API,
  type CurrentUser,
  currentUserSchema,
  POST_MESSAGES,
  LIMITS,
  SETTINGS_MESSAGES,
  UPLOAD_URL_TTL_SECONDS,
  type UploadTicket,
  uploadTicketSchema,
} from '@termpaste/contracts';
import supertest from 'supertest';
import { CROSS_SITE_REFUSED } from '../src/common/origins.js';
import { UPLOAD_FORM_OVERHEAD_BYTES } from '../src/modules/uploads/local-uploads.controller.js';
import { UPLOAD_ALREADY_DONE } from '../src/infra/storage/local.storage.js';
import { AVATAR_CACHE_CONTROL, PENDING_CONTENT_TYPE } from '../src/infra/storage/object-keys.js';
import { QueuePort } from '../src/infra/queue/queue.port.js';
import { type PresignedUpload, StoragePort } from '../src/infra/storage/storage.port.js';
import { UNCLAIMED_UPLOAD_GRACE_SECONDS, UploadsSweeper } from '../src/modules/uploads/uploads-sweep.js';
import { UploadsService } from '../src/modules/uploads/uploads.service.js';
import {
  UPLOADS_JOBS,
  UPLOADS_QUEUE,
  UPLOADS_SWEEP_INTERVAL_MS,
  UPLOADS_SWEEP_SCHEDULE,
} from '../src/modules/uploads/uploads.queue.js';
import { type Browser, registered } from './support/accounts.js';
import { type FakeS3, startFakeS3 } from './support/fake-s3.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

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
const GIF = IMAGES['image/gif'];
const PNG_MAGIC = PNG.subarray(0, 8);
const HTML = Buffer.from('<html><script>alert(document.domain)</script></html>');

const UNAUTHORIZED = { statusCode: 401, message: 'Unauthorized' };
const BANNED = { statusCode: 403, message: POST_MESSAGES.banned };
const NOT_UPLOADED = { statusCode: 400, message: SETTINGS_MESSAGES.avatarNotUploaded };
const INVALID = { statusCode: 403, message: SETTINGS_MESSAGES.uploadInvalid };
const EXPIRED = { statusCode: 403, message: SETTINGS_MESSAGES.uploadExpired };
const TOO_LARGE = { statusCode: 413, message: SETTINGS_MESSAGES.uploadTooLarge };
const NOT_IMAGE = { statusCode: 415, message: SETTINGS_MESSAGES.uploadNotImage };
const NOT_FORM = { statusCode: 400, message: SETTINGS_MESSAGES.uploadNotForm };
const ALREADY = { statusCode: 409, message: UPLOAD_ALREADY_DONE };
const FILE_NOT_FOUND = { statusCode: 404, message: 'File not found' };
const REFUSED = { statusCode: 403, message: CROSS_SITE_REFUSED };

type Member = Awaited<ReturnType<typeof registered>>;

/** The path of an address (they hold PUBLIC_URL's origin; the test app listens elsewhere). */
function local(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** The object key of an object URL of the local storage. */
function keyOf(url: string): string {
  return new URL(url).pathname.slice(`${API.uploads}/`.length);
}

/** A form field, or a file part (with a file name and a type). */
type Part = [name: string, value: string] | [name: string, value: Buffer, filename: string, type: string];

/** A multipart/form-data body, built by hand so that a test can send any form at all. */
function multipart(parts: Part[]): { body: Buffer; type: string; boundary: string } {
  const boundary = `----termpaste${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value, filename, type] of parts) {
    const file = filename === undefined ? '' : `; filename="${filename}"\r\nContent-Type: ${type}`;
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file}\r\n\r\n`),
    );
    chunks.push(Buffer.isBuffer(value) ? value : Buffer.from(value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}`, boundary };
}

interface FormOptions {
  /** Fields changed or added (undefined: left out). */
  change?: Record<string, string | undefined>;
  /** The file part's own Content-Type (what a browser takes from the file name). */
  fileType?: string;
  /** Parts after the file. */
  after?: Part[];
}

/** The form of a ticket the storage made itself (StoragePort.presignUpload), as the API hands it out. */
function formTicket(ticket: PresignedUpload['ticket']): Pick<UploadTicket, 'form'> {
  return { form: { url: ticket.uploadURL, method: ticket.method, fields: ticket.fields } };
}

/** A ticket's form as a browser sends it: the fields, then the file. */
function formOf(ticket: Pick<UploadTicket, 'form'>, file: Buffer, options: FormOptions = {}) {
  const fields = { ...ticket.form.fields, ...options.change };
  const parts: Part[] = Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => [name, value]);
  parts.push(['file', file, 'avatar.png', options.fileType ?? 'image/png'], ...(options.after ?? []));
  return multipart(parts);
}

/** The `--boundary` lines of a form up to the file's bytes, and its closing, for streamed files. */
function formAround(ticket: Pick<UploadTicket, 'form'>): { head: Buffer; tail: Buffer; type: string } {
  const marker = Buffer.from('\0FILE\0');
  const { body, type } = formOf(ticket, marker);
  const at = body.indexOf(marker);
  return { head: body.subarray(0, at), tail: body.subarray(at + marker.length), type };
}

/**
 * A PUT as a client written to the spec sends it (no cookie, no Origin), through a bare HTTP client so
 * that a test can declare a Content-Length the body does not have (`first` sent, then the answer
 * awaited) or none at all (chunked). Resolves with the answer.
 */
function rawPut(
  base: string,
  target: string,
  options: { body?: Buffer; contentType?: string; contentLength?: number | null; first?: Buffer },
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {};
    if (options.contentType !== undefined) headers['Content-Type'] = options.contentType;
    const length = options.contentLength === undefined ? options.body?.length : options.contentLength;
    if (length !== null && length !== undefined) headers['Content-Length'] = length;
    const req = http.request(new URL(target, base), { method: 'PUT', headers });
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
    else if (length === null) {
      // Written before the end: sent chunked, with no Content-Length.
      req.write(options.body ?? Buffer.alloc(0));
      req.end();
    } else req.end(options.body);
  });
}

/** The path and query of a presigned PUT address (it holds PUBLIC_URL's origin). */
function putTarget(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** Starts a PUT of `first`, declaring 1000 bytes more, and goes away; resolves once the connection is cut. */
function abandonedPut(base: string, target: string, first: Buffer): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(new URL(target, base), {
      method: 'PUT',
      headers: { 'Content-Type': 'image/png', 'Content-Length': first.length + 1000 },
    });
    req.on('error', () => undefined);
    req.on('close', () => resolve());
    req.write(first, () => setTimeout(() => req.destroy(), 200));
  });
}

/** Whether the pending upload `key` has its PUT address taken (put_at set). */
async function putTaken(t: TestApp, key: string): Promise<boolean> {
  const rows = (await t.dataSource.query('SELECT put_at FROM pending_uploads WHERE key = $1', [
    key,
  ])) as Array<{
    put_at: Date | null;
  }>;
  return rows[0]!.put_at !== null;
}

const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>');
const LENGTH_REQUIRED = { statusCode: 411, message: SETTINGS_MESSAGES.uploadLengthRequired };

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

  async function ticketFor(browser: Browser): Promise<UploadTicket> {
    const res = await browser.post(API.objectsUpload).expect(200);
    return uploadTicketSchema.strict().parse(res.body);
  }

  /** POSTs a ticket's form, with no Origin (a signed upload needs none), as supertest sends it. */
  function send(ticket: Pick<UploadTicket, 'form'>, file: Buffer, options: FormOptions = {}) {
    const { body, type } = formOf(ticket, file, options);
    return supertest(t.url).post(local(ticket.form.url)).set('Content-Type', type).send(body);
  }

  async function upload(browser: Browser, file: Buffer, fileType = 'image/png'): Promise<UploadTicket> {
    const ticket = await ticketFor(browser);
    const res = await send(ticket, file, { fileType }).expect(204);
    expect(res.text).toBe('');
    return ticket;
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
   * A POST through a bare HTTP client, for bodies supertest cannot send: a Content-Length the body does
   * not have, or a chunked body streamed until the server answers. Resolves with the answer.
   */
  function rawPost(
    target: string,
    options: {
      contentType: string;
      contentLength?: number;
      first?: Buffer;
      stream?: Buffer;
      headers?: Record<string, string>;
    },
  ): Promise<{ status: number; body: unknown }> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = {
        'Content-Type': options.contentType,
        ...options.headers,
      };
      if (options.contentLength !== undefined) headers['Content-Length'] = options.contentLength;
      const req = http.request(new URL(target, t.url), { method: 'POST', headers });
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

    it('gives a form signed for a new pending object of the member, its size and type, valid 15 minutes', async () => {
      const before = Math.floor(Date.now() / 1000);
      const first = await ticketFor(alice.browser);
      const second = await ticketFor(alice.browser);
      expect(first.form.url).toBe(`${t.config.publicUrl}${API.uploads}`);
      expect(first.form.method).toBe('POST');
      const { key, expires, max, signature } = first.form.fields;
      expect(Object.keys(first.form.fields).sort()).toEqual([
        'Content-Type',
        'expires',
        'key',
        'max',
        'signature',
      ]);
      expect(key).toMatch(new RegExp(`^pending/${alice.user.id}/[A-Za-z0-9_-]{22}$`));
      expect(first.objectURL).toBe(`${t.config.publicUrl}${API.uploads}/${key}`);
      expect(second.form.fields.key).not.toBe(key);
      expect(first.form.fields['Content-Type']).toBe(PENDING_CONTENT_TYPE);
      expect(Number(expires)).toBeGreaterThanOrEqual(before + UPLOAD_URL_TTL_SECONDS);
      expect(Number(expires)).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + UPLOAD_URL_TTL_SECONDS);
      expect(max).toBe(String(LIMITS.avatarMaxBytes));
      expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });
  });

  describe('a full upload', () => {
    it.each(Object.entries(IMAGES))(
      'stores a %s, copies it to an avatar key of its own, and serves that with its type and safe headers',
      async (type, bytes) => {
        const ticket = await upload(alice.browser, bytes, type);
        const pendingKey = ticket.form.fields.key!;
        expect(existsSync(fileOf(pendingKey))).toBe(true);
        const me = await setAvatar(alice.browser, ticket.objectURL);
        expect(me).toMatchObject({ id: alice.user.id });
        expect(me.avatarUrl).toMatch(
          new RegExp(`^${t.config.publicUrl}${API.uploads}/avatars/${alice.user.id}/[A-Za-z0-9_-]{22}$`),
        );
        const current = await alice.browser.get(API.currentUser).expect(200);
        expect(current.body).toEqual(me);
        // The upload itself is gone: only the copy is there.
        expect(existsSync(fileOf(pendingKey))).toBe(false);

        const res = await t.http.get(local(me.avatarUrl!)).buffer(true).expect(200);
        expect(res.headers['content-type']).toBe(type);
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['cache-control']).toBe(AVATAR_CACHE_CONTROL);
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

    it("takes the type from the bytes, not from the file part's Content-Type", async () => {
      const ticket = await upload(alice.browser, GIF, 'image/png');
      const me = await setAvatar(alice.browser, ticket.objectURL);
      const res = await t.http.get(local(me.avatarUrl!)).expect(200);
      expect(res.headers['content-type']).toBe('image/gif');
    });

    it('serves no upload before it is claimed', async () => {
      const ticket = await upload(alice.browser, PNG);
      await t.http.get(local(ticket.objectURL)).expect(404, FILE_NOT_FOUND);
      expect(existsSync(fileOf(ticket.form.fields.key!))).toBe(true);
    });

    it('takes a file of exactly the limit', async () => {
      const big = Buffer.alloc(LIMITS.avatarMaxBytes);
      PNG.copy(big);
      const ticket = await upload(alice.browser, big);
      const me = await setAvatar(alice.browser, ticket.objectURL);
      const res = await t.http.head(local(me.avatarUrl!)).expect(200);
      expect(res.headers['content-length']).toBe(String(LIMITS.avatarMaxBytes));
    });

    it('takes one upload at a time per form: 409 while the first is there unclaimed', async () => {
      const ticket = await upload(alice.browser, PNG);
      await send(ticket, GIF, { fileType: 'image/gif' }).expect(409, ALREADY);
      const me = await setAvatar(alice.browser, ticket.objectURL);
      const res = await t.http.get(local(me.avatarUrl!)).expect(200);
      expect(res.headers['content-type']).toBe('image/png');
    });

    it("never changes the avatar through the claimed upload's form, valid as it still is", async () => {
      const ticket = await upload(bob.browser, PNG);
      const { avatarUrl } = await setAvatar(bob.browser, ticket.objectURL);
      // The form works until it expires: a second file lands on the pending key again, never on the avatar.
      await send(ticket, GIF, { fileType: 'image/gif' }).expect(204);
      const res = await t.http.get(local(avatarUrl!)).buffer(true).expect(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(Buffer.compare(res.body as Buffer, PNG)).toBe(0);
      expect((await me(bob.browser)).avatarUrl).toBe(avatarUrl);
      await t.http.get(local(ticket.objectURL)).expect(404, FILE_NOT_FOUND);
      // Only a new claim makes it the avatar, at yet another key of its own.
      const again = await setAvatar(bob.browser, ticket.objectURL);
      expect(again.avatarUrl).not.toBe(avatarUrl);
      expect((await t.http.get(local(again.avatarUrl!)).expect(200)).headers['content-type']).toBe(
        'image/gif',
      );
    });
  });

  describe('the signature is the authorization (no Origin needed)', () => {
    it('takes a form without Origin or Referer, as curl sends it, or from any other site', async () => {
      const ticket = await ticketFor(alice.browser);
      const { body, type } = formOf(ticket, PNG);
      await expect(
        rawPost(local(ticket.form.url), { contentType: type, contentLength: body.length, first: body }),
      ).resolves.toEqual({ status: 204, body: '' });
      const other = await ticketFor(alice.browser);
      await send(other, PNG).set('Origin', 'https://evil.example').expect(204);
    });

    it('still refuses a bad or expired signature without Origin, with its own answer', async () => {
      const ticket = await ticketFor(alice.browser);
      const forged = `${ticket.form.fields.signature!.startsWith('A') ? 'B' : 'A'}${ticket.form.fields.signature!.slice(1)}`;
      await send(ticket, PNG, { change: { signature: forged } }).expect(403, INVALID);
      const { ticket: expired } = await t.app.get(StoragePort).presignUpload(alice.user.id, -1);
      await send(formTicket(expired), PNG).expect(403, EXPIRED);
    });

    it('keeps the CSRF check everywhere else: a signed-in request without Origin is refused', async () => {
      const cookie = (await alice.browser.get(API.currentUser).expect(200)).request.cookies;
      const bare = () => supertest(t.url);
      await bare().post(API.objectsUpload).set('Cookie', cookie).expect(403, REFUSED);
      await bare().put(API.userAvatar).set('Cookie', cookie).send({ avatarURL: 'x' }).expect(403, REFUSED);
      await bare().put(API.userProfile).set('Cookie', cookie).send({ bio: 'csrf' }).expect(403, REFUSED);
    });
  });

  describe('the upload flow: the image PUT to uploadURL', () => {
    const put = (url: string, options: Parameters<typeof rawPut>[2]) =>
      rawPut(t.url, putTarget(url), options);

    it('hands out a presigned PUT address of ours for the pending key, besides the form', async () => {
      const before = Math.floor(Date.now() / 1000);
      const ticket = await ticketFor(alice.browser);
      expect(ticket.method).toBe('PUT');
      const address = new URL(ticket.uploadURL);
      expect(`${address.origin}${address.pathname}`).toBe(ticket.objectURL);
      expect(keyOf(ticket.objectURL)).toBe(ticket.form.fields.key);
      expect([...address.searchParams.keys()]).toEqual(['expires', 'signature']);
      expect(Number(address.searchParams.get('expires'))).toBeGreaterThanOrEqual(
        before + UPLOAD_URL_TTL_SECONDS,
      );
      expect(address.searchParams.get('signature')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(address.searchParams.get('signature')).not.toBe(ticket.form.fields.signature);
    });

    it.each(Object.entries(IMAGES))(
      'takes a %s as a plain PUT (no session, no Origin); claimed, it is served with the type its bytes tell',
      async (type, bytes) => {
        const ticket = await ticketFor(alice.browser);
        expect(await put(ticket.uploadURL, { body: bytes, contentType: type })).toEqual({
          status: 200,
          body: '',
        });
        expect(existsSync(fileOf(keyOf(ticket.objectURL)))).toBe(true);
        await t.http.get(local(ticket.objectURL)).expect(404, FILE_NOT_FOUND);
        const me = await setAvatar(alice.browser, ticket.objectURL);
        expect(me.avatarUrl).toMatch(
          new RegExp(`^${t.config.publicUrl}${API.uploads}/avatars/${alice.user.id}/[A-Za-z0-9_-]{22}$`),
        );
        const res = await t.http.get(local(me.avatarUrl!)).buffer(true).expect(200);
        expect(res.headers['content-type']).toBe(type);
        expect(res.headers['content-security-policy']).toBe("default-src 'none'");
        expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
        expect(existsSync(fileOf(keyOf(ticket.objectURL)))).toBe(false);
      },
    );

    it('takes no Content-Type, application/octet-stream or any image type, whatever the bytes are', async () => {
      for (const contentType of [undefined, 'application/octet-stream', 'image/jpeg', 'IMAGE/PNG; x=1']) {
        const ticket = await ticketFor(alice.browser);
        expect((await put(ticket.uploadURL, { body: GIF, contentType })).status).toBe(200);
        const me = await setAvatar(alice.browser, ticket.objectURL);
        expect((await t.http.get(local(me.avatarUrl!)).expect(200)).headers['content-type']).toBe(
          'image/gif',
        );
      }
    });

    it('415 before reading for a declared HTML, SVG or form; the address then still takes the image', async () => {
      const ticket = await ticketFor(alice.browser);
      for (const contentType of [
        'text/html',
        'image/svg+xml',
        'multipart/form-data; boundary=x',
        'text/plain',
      ]) {
        expect(await put(ticket.uploadURL, { body: PNG, contentType })).toEqual({
          status: 415,
          body: NOT_IMAGE,
        });
      }
      expect(existsSync(fileOf(keyOf(ticket.objectURL)))).toBe(false);
      expect((await put(ticket.uploadURL, { body: PNG, contentType: 'image/png' })).status).toBe(200);
    });

    it('415 for bytes that are no PNG, JPEG, GIF or WebP (HTML, SVG, empty), whatever the type said; nothing kept', async () => {
      const ticket = await ticketFor(alice.browser);
      for (const body of [HTML, SVG, Buffer.alloc(0), PNG_MAGIC.subarray(0, 4)]) {
        expect(await put(ticket.uploadURL, { body, contentType: 'image/png' })).toEqual({
          status: 415,
          body: NOT_IMAGE,
        });
      }
      expect(existsSync(fileOf(keyOf(ticket.objectURL)))).toBe(false);
      expect(leftovers()).toEqual([]);
      await alice.browser.put(API.userAvatar).send({ avatarURL: ticket.objectURL }).expect(400, NOT_UPLOADED);
    });

    it('413 as soon as the Content-Length passes 10 MB, without reading the body; nothing kept', async () => {
      const ticket = await ticketFor(alice.browser);
      const res = await put(ticket.uploadURL, {
        contentType: 'image/png',
        contentLength: LIMITS.avatarMaxBytes + 1,
        first: PNG,
      });
      expect(res).toEqual({ status: 413, body: TOO_LARGE });
      expect(existsSync(fileOf(keyOf(ticket.objectURL)))).toBe(false);
      expect(leftovers()).toEqual([]);
    });

    it('takes a file of exactly 10 MB', async () => {
      const big = Buffer.alloc(LIMITS.avatarMaxBytes);
      PNG.copy(big);
      const ticket = await ticketFor(alice.browser);
      expect((await put(ticket.uploadURL, { body: big, contentType: 'image/png' })).status).toBe(200);
      const me = await setAvatar(alice.browser, ticket.objectURL);
      const res = await t.http.head(local(me.avatarUrl!)).expect(200);
      expect(res.headers['content-length']).toBe(String(LIMITS.avatarMaxBytes));
    });

    it('411 without a Content-Length (a chunked body)', async () => {
      const ticket = await ticketFor(alice.browser);
      expect(
        await put(ticket.uploadURL, { body: PNG, contentType: 'image/png', contentLength: null }),
      ).toEqual({
        status: 411,
        body: LENGTH_REQUIRED,
      });
      expect(existsSync(fileOf(keyOf(ticket.objectURL)))).toBe(false);
    });

    it('gives the address back when the client goes away halfway: nothing kept, and it may be sent again', async () => {
      const ticket = await ticketFor(alice.browser);
      const key = keyOf(ticket.objectURL);
      await abandonedPut(t.url, putTarget(ticket.uploadURL), PNG);
      await waitFor('the address to be given back', async () => !(await putTaken(t, key)));
      expect(existsSync(fileOf(key))).toBe(false);
      expect(leftovers()).toEqual([]);
      expect((await put(ticket.uploadURL, { body: PNG, contentType: 'image/png' })).status).toBe(200);
      expect(await putTaken(t, key)).toBe(true);
    });

    it('is single use: a second PUT is refused (409), before and after the claim, and changes nothing', async () => {
      const ticket = await ticketFor(alice.browser);
      expect((await put(ticket.uploadURL, { body: PNG, contentType: 'image/png' })).status).toBe(200);
      expect(await put(ticket.uploadURL, { body: GIF, contentType: 'image/gif' })).toEqual({
        status: 409,
        body: ALREADY,
      });
      const me = await setAvatar(alice.browser, ticket.objectURL);
      expect(await put(ticket.uploadURL, { body: GIF, contentType: 'image/gif' })).toEqual({
        status: 409,
        body: ALREADY,
      });
      expect(existsSync(fileOf(keyOf(ticket.objectURL)))).toBe(false);
      expect((await t.http.get(local(me.avatarUrl!)).expect(200)).headers['content-type']).toBe('image/png');
    });

    it("403 'Request has expired' past its expiry; nothing kept", async () => {
      const ticket = await ticketFor(alice.browser);
      const expired = t.app.get(UploadsService).addresses.address(keyOf(ticket.objectURL), -1);
      expect(await put(expired, { body: PNG, contentType: 'image/png' })).toEqual({
        status: 403,
        body: EXPIRED,
      });
      expect(existsSync(fileOf(keyOf(ticket.objectURL)))).toBe(false);
    });

    it('403 for a tampered address: signature, expiry, key, an extra or missing parameter, the form signature', async () => {
      const ticket = await ticketFor(alice.browser);
      const other = await ticketFor(bob.browser);
      const address = new URL(ticket.uploadURL);
      const signature = address.searchParams.get('signature')!;
      const expires = address.searchParams.get('expires')!;
      const path = address.pathname;
      const forged = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
      for (const target of [
        `${path}?expires=${expires}&signature=${forged}`,
        `${path}?expires=${Number(expires) + 3600}&signature=${signature}`,
        `${new URL(other.objectURL).pathname}?expires=${expires}&signature=${signature}`,
        `${path}?expires=${expires}&signature=${signature}&max=99999999`,
        `${path}?expires=${expires}&signature=${signature}&signature=${signature}`,
        `${path}?expires=${expires}`,
        path,
        `${path}?expires=${ticket.form.fields.expires}&signature=${ticket.form.fields.signature}`,
        `${path.replace('/pending/', '/avatars/')}?expires=${expires}&signature=${signature}`,
      ]) {
        expect([target, await rawPut(t.url, target, { body: PNG, contentType: 'image/png' })]).toEqual([
          target,
          { status: 403, body: INVALID },
        ]);
      }
      expect(existsSync(fileOf(keyOf(ticket.objectURL)))).toBe(false);
      expect(existsSync(fileOf(keyOf(other.objectURL)))).toBe(false);
    });

    it('is the upload flow of either kind: a form upload there first makes the PUT a 409', async () => {
      const ticket = await upload(alice.browser, PNG);
      expect(await put(ticket.uploadURL, { body: GIF, contentType: 'image/gif' })).toEqual({
        status: 409,
        body: ALREADY,
      });
      const me = await setAvatar(alice.browser, ticket.objectURL);
      expect((await t.http.get(local(me.avatarUrl!)).expect(200)).headers['content-type']).toBe('image/png');
    });
  });

  describe('refused uploads', () => {
    it('403 Request has expired past the expiry', async () => {
      const { ticket, key } = await t.app.get(StoragePort).presignUpload(alice.user.id, -1);
      await send(formTicket(ticket), PNG).expect(403, EXPIRED);
      expect(existsSync(fileOf(key))).toBe(false);
    });

    it('403 Invalid upload address for fields not exactly as signed', async () => {
      const ticket = await ticketFor(alice.browser);
      const { signature, expires, key } = ticket.form.fields as Record<string, string>;
      const attempts: FormOptions[] = [
        { change: { signature: `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}` } },
        { change: { signature: signature.slice(0, -1) } },
        { change: { signature: undefined } },
        { change: { signature: undefined }, after: [['signature', signature]] },
        { change: { expires: String(Number(expires) + 3600) } },
        { change: { max: String(LIMITS.avatarMaxBytes * 10) } },
        { change: { expires: undefined } },
        { change: { 'Content-Type': 'text/html' } },
        { change: { 'Content-Type': 'image/svg+xml' } },
        { change: { 'Content-Type': 'image/png' } },
        { change: { 'Content-Type': undefined } },
        { change: { 'Cache-Control': 'no-store' } },
        { change: { key: key.replace(`/${alice.user.id}/`, `/${bob.user.id}/`) } },
        { change: { key: key.replace('pending/', 'avatars/') } },
        { change: { key: `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}` } },
        { change: { key: `pending/${alice.user.id}/../../session-secret` } },
      ];
      for (const attempt of attempts) {
        const res = await send(ticket, PNG, attempt);
        expect({ attempt, status: res.status, body: res.body as unknown }).toEqual({
          attempt,
          status: 403,
          body: INVALID,
        });
      }
      // A field twice.
      const { body, type } = multipart([
        ...Object.entries(ticket.form.fields),
        ['key', key],
        ['file', PNG, 'a.png', 'image/png'],
      ]);
      await supertest(t.url)
        .post(local(ticket.form.url))
        .set('Content-Type', type)
        .send(body)
        .expect(403, INVALID);
      expect(existsSync(fileOf(key))).toBe(false);
      expect(existsSync(fileOf(key.replace('pending/', 'avatars/')))).toBe(false);
      expect(existsSync(path.join(t.config.dataDir, 'session-secret'))).toBe(false);
      // The genuine form still works, in any letter case, and ignores what follows the file.
      const lower = Object.fromEntries(
        Object.entries(ticket.form.fields).map(([n, v]) => [n.toLowerCase(), v]),
      );
      const res = await send({ form: { ...ticket.form, fields: lower } }, PNG, {
        after: [['x-anything', 'ignored']],
      });
      expect([res.status, res.body]).toEqual([204, {}]);
    });

    it('413 by Content-Length before reading anything', async () => {
      const ticket = await ticketFor(alice.browser);
      const { head, type } = formAround(ticket);
      const res = await rawPost(local(ticket.form.url), {
        contentType: type,
        contentLength: LIMITS.avatarMaxBytes + UPLOAD_FORM_OVERHEAD_BYTES + 1,
        first: Buffer.concat([head, PNG_MAGIC]),
      });
      expect(res).toEqual({ status: 413, body: TOO_LARGE });
      expect(existsSync(fileOf(ticket.form.fields.key!))).toBe(false);
    });

    it('413 while streaming a file that passes the limit, keeping nothing', async () => {
      const ticket = await ticketFor(alice.browser);
      const { head, type } = formAround(ticket);
      const res = await rawPost(local(ticket.form.url), {
        contentType: type,
        first: Buffer.concat([head, PNG_MAGIC]),
        stream: Buffer.alloc(64 * 1024),
      });
      expect(res).toEqual({ status: 413, body: TOO_LARGE });
      expect(existsSync(fileOf(ticket.form.fields.key!))).toBe(false);
      expect(leftovers()).toEqual([]);
      // The form stays usable for a file that fits.
      await send(ticket, PNG).expect(204);
    });

    it.each([
      ['HTML claiming to be a PNG', HTML, 'image/png'],
      ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>'), 'image/svg+xml'],
      ['a PNG signature cut short', PNG_MAGIC.subarray(0, 4), 'image/png'],
      ['an empty file', Buffer.alloc(0), 'image/png'],
      ['a WAVE file (RIFF but not WebP)', Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt '), 'image/webp'],
    ])('415 for %s, keeping nothing', async (_name, file, fileType) => {
      const ticket = await ticketFor(alice.browser);
      await send(ticket, file, { fileType }).expect(415, NOT_IMAGE);
      expect(existsSync(fileOf(ticket.form.fields.key!))).toBe(false);
      expect(leftovers()).toEqual([]);
      await alice.browser.put(API.userAvatar).send({ avatarURL: ticket.objectURL }).expect(400, NOT_UPLOADED);
    });

    it('415 for a large non-image without reading it all', async () => {
      const ticket = await ticketFor(alice.browser);
      const { head, type } = formAround(ticket);
      const res = await rawPost(local(ticket.form.url), {
        contentType: type,
        first: head,
        stream: Buffer.alloc(64 * 1024, 0x41),
      });
      expect(res).toEqual({ status: 415, body: NOT_IMAGE });
      expect(leftovers()).toEqual([]);
    });

    it('400 for a body that is no form, or a form without the file, whatever parser its type suggests', async () => {
      const ticket = await ticketFor(alice.browser);
      for (const contentType of [
        'application/json',
        'application/x-www-form-urlencoded',
        'text/plain',
        'image/png',
      ]) {
        // A bare client: supertest would turn the bytes into JSON for a JSON type.
        await expect(
          rawPost(local(ticket.form.url), { contentType, contentLength: PNG.length, first: PNG }),
        ).resolves.toEqual({ status: 400, body: NOT_FORM });
      }
      const post = (form: { body: Buffer; type: string }) =>
        supertest(t.url).post(local(ticket.form.url)).set('Content-Type', form.type).send(form.body);
      await post(multipart(Object.entries(ticket.form.fields))).expect(400, NOT_FORM);
      // The file under another name is no file of the form.
      await post(
        multipart([...Object.entries(ticket.form.fields), ['avatar', PNG, 'a.png', 'image/png']]),
      ).expect(400, NOT_FORM);
      const whole = formOf(ticket, PNG);
      await post({ ...whole, body: whole.body.subarray(0, whole.body.length - 20) }).expect(400, NOT_FORM);
      expect(existsSync(fileOf(ticket.form.fields.key!))).toBe(false);
      expect(t.logs.entries.filter((entry) => entry.level === 'error')).toEqual([]);
    });
  });

  describe('PUT /api/user/avatar', () => {
    it('needs a session (401) and an account not banned (403)', async () => {
      await t.browser().put(API.userAvatar).send({ avatarURL: 'x' }).expect(401, UNAUTHORIZED);
      const carol = await registered(t);
      const ticket = await upload(carol.browser, PNG);
      await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [carol.user.id]);
      await carol.browser.put(API.userAvatar).send({ avatarURL: ticket.objectURL }).expect(403, BANNED);
    });

    it("refuses someone else's upload or avatar", async () => {
      const bobsUpload = await upload(bob.browser, PNG);
      const bobsAvatar = (await setAvatar(bob.browser, (await upload(bob.browser, PNG)).objectURL))
        .avatarUrl!;
      const before = await me(alice.browser);
      for (const avatarURL of [bobsUpload.objectURL, bobsAvatar]) {
        await alice.browser.put(API.userAvatar).send({ avatarURL }).expect(400, NOT_UPLOADED);
      }
      expect(await me(alice.browser)).toEqual(before);
      // Bob's objects are untouched.
      expect(existsSync(fileOf(bobsUpload.form.fields.key!))).toBe(true);
      await t.http.get(local(bobsAvatar)).expect(200);
    });

    it.each([
      ['an external image', 'https://images.example.com/cat.png'],
      ['our path on another host', `https://evil.example.com${API.uploads}/pending/2/abcdefghijklmnopqrstuv`],
      ['a relative path', `${API.uploads}/pending/2/abcdefghijklmnopqrstuv`],
      ['a javascript: URL', 'javascript:alert(1)'],
      ['not a URL at all', 'cat.png'],
      ['a data: URL', `data:image/png;base64,${PNG.toString('base64')}`],
    ])('refuses %s', async (_name, avatarURL) => {
      await alice.browser.put(API.userAvatar).send({ avatarURL }).expect(400, NOT_UPLOADED);
    });

    it('refuses an upload never made, a key never handed out, and an old avatar of the member', async () => {
      const unused = await ticketFor(alice.browser);
      await alice.browser.put(API.userAvatar).send({ avatarURL: unused.objectURL }).expect(400, NOT_UPLOADED);
      // A file at a pending key of the member that no form was handed out for.
      const forged = `pending/${alice.user.id}/${randomBytes(16).toString('base64url')}`;
      const stray = await upload(alice.browser, PNG);
      await mkdir(path.dirname(fileOf(forged)), { recursive: true });
      await link(fileOf(stray.form.fields.key!), fileOf(forged));
      const avatarURL = `${t.config.publicUrl}${API.uploads}/${forged}`;
      await alice.browser.put(API.userAvatar).send({ avatarURL }).expect(400, NOT_UPLOADED);
      // An avatar the member had before: it is no upload to claim.
      const first = await setAvatar(alice.browser, (await upload(alice.browser, PNG)).objectURL);
      await setAvatar(alice.browser, stray.objectURL);
      await alice.browser.put(API.userAvatar).send({ avatarURL: first.avatarUrl }).expect(400, NOT_UPLOADED);
    });

    it('400 for a missing or blank avatarURL', async () => {
      for (const body of [{}, { avatarURL: '' }, { avatarURL: '   ' }, { avatarURL: 42 }]) {
        const res = await alice.browser.put(API.userAvatar).send(body).expect(400);
        expect(res.body).toMatchObject({ statusCode: 400, message: expect.stringContaining('avatarURL') });
      }
    });

    it('deletes the previous avatar file when it is replaced, and keeps the current one when set again', async () => {
      const dave = await registered(t);
      const first = await setAvatar(dave.browser, (await upload(dave.browser, PNG)).objectURL);
      const second = await setAvatar(dave.browser, (await upload(dave.browser, GIF, 'image/gif')).objectURL);
      expect(second.avatarUrl).not.toBe(first.avatarUrl);

      expect(existsSync(fileOf(keyOf(first.avatarUrl!)))).toBe(false);
      await t.http.get(local(first.avatarUrl!)).expect(404, FILE_NOT_FOUND);
      await t.http.get(local(second.avatarUrl!)).expect(200);

      // Setting the same avatar again changes nothing and keeps its file.
      await expect(setAvatar(dave.browser, second.avatarUrl!)).resolves.toEqual(second);
      expect(existsSync(fileOf(keyOf(second.avatarUrl!)))).toBe(true);
    });

    it('leaves an avatar that is not in our storage alone when replacing it', async () => {
      const erin = await registered(t);
      await t.dataSource.query('UPDATE users SET avatar_url = $2 WHERE id = $1', [
        erin.user.id,
        'https://images.example.com/old.png',
      ]);
      const ticket = await upload(erin.browser, PNG);
      const after = await setAvatar(erin.browser, ticket.objectURL);
      expect(after.avatarUrl).toMatch(
        new RegExp(`^${t.config.publicUrl}${API.uploads}/avatars/${erin.user.id}/`),
      );
    });
  });

  describe('the uploads paths', () => {
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
      '/api/uploads/pending/1/abcdefghijklmnopqrstuv',
    ])('GET 404 for %s', async (url) => {
      await t.http.get(url).expect(404);
    });

    it('takes no PUT without its presigned address (403)', async () => {
      const ticket = await ticketFor(alice.browser);
      await alice.browser
        .put(local(ticket.objectURL))
        .set('Content-Type', 'image/png')
        .send(PNG)
        .expect(403, INVALID);
      expect(existsSync(fileOf(ticket.form.fields.key!))).toBe(false);
    });
  });

  describe('uploads sweep (UploadsSweeper)', () => {
    const sweeper = () => t.app.get(UploadsSweeper);
    const pendingKeys = async (userId: number): Promise<string[]> =>
      (
        (await t.dataSource.query('SELECT key FROM pending_uploads WHERE user_id = $1 ORDER BY key', [
          userId,
        ])) as Array<{ key: string }>
      ).map((row) => row.key);
    /** Makes the forms of `userId` look handed out `seconds` ago. */
    const age = (userId: number, seconds: number) =>
      t.dataSource.query(
        `UPDATE pending_uploads SET created_at = now() - make_interval(secs => $2) WHERE user_id = $1`,
        [userId, seconds],
      );

    it('notes each form handed out, and keeps the note after a claim: the form works until it expires', async () => {
      const carol = await registered(t);
      const claimed = await upload(carol.browser, PNG);
      const unclaimed = await upload(carol.browser, PNG);
      const keys = [claimed.form.fields.key!, unclaimed.form.fields.key!].sort();
      expect(await pendingKeys(carol.user.id)).toEqual(keys);
      await setAvatar(carol.browser, claimed.objectURL);
      expect(await pendingKeys(carol.user.id)).toEqual(keys);
    });

    it('deletes what forms uploaded once past the grace period, claimed or not, and never an avatar', async () => {
      const dave = await registered(t);
      const claimed = await upload(dave.browser, PNG);
      const { avatarUrl } = await setAvatar(dave.browser, claimed.objectURL);
      await send(claimed, GIF).expect(204); // after the claim, with the same form
      const forgotten = await upload(dave.browser, PNG);
      await ticketFor(dave.browser); // a form never used
      const recent = await upload(dave.browser, PNG);
      await age(dave.user.id, UNCLAIMED_UPLOAD_GRACE_SECONDS + 60);
      await t.dataSource.query('UPDATE pending_uploads SET created_at = now() WHERE key = $1', [
        recent.form.fields.key,
      ]);

      expect(await sweeper().sweep()).toBeGreaterThanOrEqual(3);
      expect(existsSync(fileOf(claimed.form.fields.key!))).toBe(false);
      expect(existsSync(fileOf(forgotten.form.fields.key!))).toBe(false);
      expect(existsSync(fileOf(recent.form.fields.key!))).toBe(true);
      expect(existsSync(fileOf(keyOf(avatarUrl!)))).toBe(true);
      await t.http.get(local(avatarUrl!)).expect(200);
      expect(await pendingKeys(dave.user.id)).toEqual([recent.form.fields.key]);
      // Swept is gone for good: claiming it now is refused.
      await dave.browser
        .put(API.userAvatar)
        .send({ avatarURL: forgotten.objectURL })
        .expect(400, NOT_UPLOADED);
      expect((await me(dave.browser)).avatarUrl).toBe(avatarUrl);
    });

    it('is the job of the uploads queue, repeated every 10 minutes by the queue of the process that runs jobs', async () => {
      expect(UPLOADS_SWEEP_INTERVAL_MS).toBe(10 * 60 * 1000);
      // The in-process queue (REDIS_URL unset): `npm start` runs the jobs, and the sweep, itself.
      expect(t.app.get(QueuePort).repeatableJobs.filter((job) => job.queue === UPLOADS_QUEUE)).toEqual([
        {
          queue: UPLOADS_QUEUE,
          id: UPLOADS_SWEEP_SCHEDULE,
          name: UPLOADS_JOBS.sweep,
          data: {},
          everyMs: UPLOADS_SWEEP_INTERVAL_MS,
          attempts: 1,
        },
      ]);
      expect(t.logs.text()).toContain('Job uploads/sweep (uploads-sweep) repeats every 600000 ms');

      const grace = await registered(t);
      const left = await upload(grace.browser, PNG);
      await age(grace.user.id, UNCLAIMED_UPLOAD_GRACE_SECONDS + 60);
      const queue = t.app.get(QueuePort);
      await queue.add(UPLOADS_QUEUE, UPLOADS_JOBS.sweep, {}, { jobId: 'sweep-now' });
      expect(await queue.settled(UPLOADS_QUEUE, 'sweep-now')).toBe(true);
      expect(existsSync(fileOf(left.form.fields.key!))).toBe(false);
      expect(await pendingKeys(grace.user.id)).toEqual([]);
    });

    it('sweeps the uploads of a deleted member too', async () => {
      const erin = await registered(t);
      const left = await upload(erin.browser, PNG);
      await t.dataSource.query('DELETE FROM users WHERE id = $1', [erin.user.id]);
      await age(erin.user.id, UNCLAIMED_UPLOAD_GRACE_SECONDS + 60);
      await sweeper().sweep();
      expect(existsSync(fileOf(left.form.fields.key!))).toBe(false);
      expect(await pendingKeys(erin.user.id)).toEqual([]);
    });

    it('an upload is claimed or swept, never both: a claim waits for a sweep holding it', async () => {
      const frank = await registered(t);
      const ticket = await upload(frank.browser, PNG);
      const key = ticket.form.fields.key!;
      await age(frank.user.id, UNCLAIMED_UPLOAD_GRACE_SECONDS + 60);
      // The sweep's lock on the row, held while the claim comes in.
      const runner = t.dataSource.createQueryRunner();
      await runner.connect();
      await runner.startTransaction();
      try {
        await runner.query('SELECT key FROM pending_uploads WHERE key = $1 FOR UPDATE', [key]);
        const claim = frank.browser
          .put(API.userAvatar)
          .send({ avatarURL: ticket.objectURL })
          .then((res) => res);
        await new Promise((resolve) => setTimeout(resolve, 200));
        await t.app.get(StoragePort).delete(key);
        await runner.query('DELETE FROM pending_uploads WHERE key = $1', [key]);
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

const S3_ENV = {
  S3_BUCKET: 'termpaste-avatars',
  S3_REGION: 'eu-central-1',
  S3_FORCE_PATH_STYLE: 'true',
  S3_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
  S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};

/** POSTs a ticket's form straight to the bucket, as the browser does (fields, then the file). */
async function postToBucket(
  ticket: UploadTicket,
  file: Buffer,
  change: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...ticket.form.fields, ...change })) form.append(name, value);
  // A copy in a plain ArrayBuffer: the DOM's Blob type (highlight.js's typings bring in the DOM lib)
  // takes no Buffer over a possibly shared one.
  form.append('file', new Blob([new Uint8Array(file)], { type: 'image/png' }), 'avatar.png');
  const res = await fetch(ticket.form.url, { method: ticket.form.method, body: form });
  return { status: res.status, text: await res.text() };
}

describe('avatar uploads with S3_BUCKET (against fake-s3 on 127.0.0.1, which enforces POST policies)', () => {
  let s3: FakeS3;
  let t: TestApp;
  let alice: Member;
  let bucket: string;

  beforeAll(async () => {
    s3 = await startFakeS3({
      bucket: S3_ENV.S3_BUCKET,
      region: S3_ENV.S3_REGION,
      accessKeyId: S3_ENV.S3_ACCESS_KEY_ID,
      secretAccessKey: S3_ENV.S3_SECRET_ACCESS_KEY,
    });
    bucket = `${s3.endpoint}/${S3_ENV.S3_BUCKET}`;
    t = await createTestApp({ env: { ...S3_ENV, S3_ENDPOINT: s3.endpoint } });
    await registered(t);
    alice = await registered(t);
  });

  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  const ticketFor = async (browser: Browser) =>
    uploadTicketSchema.strict().parse((await browser.post(API.objectsUpload).expect(200)).body);

  it('hands out a POST form for the bucket and a PUT address of ours; the backend takes no form, serves no file', async () => {
    const ticket = await ticketFor(alice.browser);
    expect(ticket.form.url).toBe(bucket);
    expect(ticket.form.method).toBe('POST');
    expect(ticket.form.fields.key).toMatch(new RegExp(`^pending/${alice.user.id}/[A-Za-z0-9_-]{22}$`));
    expect(ticket.objectURL).toBe(`${bucket}/${ticket.form.fields.key}`);
    expect(ticket.form.fields['Content-Type']).toBe(PENDING_CONTENT_TYPE);
    expect(ticket.uploadURL).toMatch(
      new RegExp(`^${t.config.publicUrl}${API.uploads}/${ticket.form.fields.key}\\?expires=\\d+&signature=`),
    );

    const { body, type } = formOf(ticket, PNG);
    await supertest(t.url).post(API.uploads).set('Content-Type', type).send(body).expect(404);
    await t.http.get(`${API.uploads}/${ticket.form.fields.key}`).expect(404);
  });

  it('makes an upload the avatar at a key of its own: a second upload with the form changes nothing served', async () => {
    const ticket = await ticketFor(alice.browser);
    expect(await postToBucket(ticket, PNG)).toEqual({ status: 204, text: '' });
    const { avatarUrl } = (
      await alice.browser.put(API.userAvatar).send({ avatarURL: ticket.objectURL }).expect(200)
    ).body as CurrentUser;
    expect(avatarUrl).toMatch(new RegExp(`^${bucket}/avatars/${alice.user.id}/[A-Za-z0-9_-]{22}$`));
    expect(s3.objects.has(ticket.form.fields.key!)).toBe(false);

    const served = async () => {
      const res = await fetch(avatarUrl!);
      return {
        status: res.status,
        type: res.headers.get('content-type'),
        cache: res.headers.get('cache-control'),
        bytes: Buffer.from(await res.arrayBuffer()),
      };
    };
    const before = await served();
    expect(before).toEqual({ status: 200, type: 'image/png', cache: AVATAR_CACHE_CONTROL, bytes: PNG });

    // The policy is valid until it expires and S3 cannot revoke it: it still takes a file, on its key.
    expect((await postToBucket(ticket, HTML)).status).toBe(204);
    expect(await served()).toEqual(before);
    expect(((await alice.browser.get(API.currentUser).expect(200)).body as CurrentUser).avatarUrl).toBe(
      avatarUrl,
    );
    // Claimed again, it is checked like any upload: no image, so refused and deleted.
    await alice.browser.put(API.userAvatar).send({ avatarURL: ticket.objectURL }).expect(400, NOT_UPLOADED);
    expect(s3.objects.has(ticket.form.fields.key!)).toBe(false);
    expect(await served()).toEqual(before);
  });

  it('the bucket refuses, by the signed policy, a file over 10 MB and any other Content-Type', async () => {
    const ticket = await ticketFor(alice.browser);
    const big = Buffer.alloc(LIMITS.avatarMaxBytes + 1);
    PNG.copy(big);
    const tooBig = await postToBucket(ticket, big);
    expect(tooBig.status).toBe(400);
    expect(tooBig.text).toContain('<Code>EntityTooLarge</Code>');
    for (const type of ['text/html', 'image/svg+xml']) {
      const res = await postToBucket(ticket, HTML, { 'Content-Type': type });
      expect(res.status).toBe(403);
      expect(res.text).toContain('Policy Condition failed');
    }
    expect(s3.objects.has(ticket.form.fields.key!)).toBe(false);
  });

  describe('the upload flow: the image PUT to uploadURL, streamed into the bucket by the backend', () => {
    const put = (url: string, options: Parameters<typeof rawPut>[2]) =>
      rawPut(t.url, putTarget(url), options);
    const bucketWrites = () => s3.requests.filter((r) => r.method === 'PUT' || r.method === 'POST').length;

    it('stores the PNG under its pending key as application/octet-stream; claimed, the bucket serves it as a PNG', async () => {
      const ticket = await ticketFor(alice.browser);
      const key = ticket.form.fields.key!;
      expect(await put(ticket.uploadURL, { body: PNG, contentType: 'image/png' })).toEqual({
        status: 200,
        body: '',
      });
      expect(s3.objects.get(key)?.contentType).toBe(PENDING_CONTENT_TYPE);
      expect(Buffer.compare(s3.objects.get(key)!.body, PNG)).toBe(0);
      const { avatarUrl } = (
        await alice.browser.put(API.userAvatar).send({ avatarURL: ticket.objectURL }).expect(200)
      ).body as CurrentUser;
      expect(avatarUrl).toMatch(new RegExp(`^${bucket}/avatars/${alice.user.id}/[A-Za-z0-9_-]{22}$`));
      const res = await fetch(avatarUrl!);
      expect([res.status, res.headers.get('content-type')]).toEqual([200, 'image/png']);
      expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), PNG)).toBe(0);
      expect(s3.objects.has(key)).toBe(false);
      // Single use: not again, before or after the claim.
      expect(await put(ticket.uploadURL, { body: GIF, contentType: 'image/gif' })).toEqual({
        status: 409,
        body: ALREADY,
      });
      expect(s3.objects.has(key)).toBe(false);
    });

    it('refuses over 10 MB (413), no image (415), a declared SVG (415) without writing to the bucket', async () => {
      const ticket = await ticketFor(alice.browser);
      const writes = bucketWrites();
      expect(
        await put(ticket.uploadURL, {
          contentType: 'image/png',
          contentLength: LIMITS.avatarMaxBytes + 1,
          first: PNG,
        }),
      ).toEqual({ status: 413, body: TOO_LARGE });
      for (const body of [HTML, SVG]) {
        expect(await put(ticket.uploadURL, { body, contentType: 'image/png' })).toEqual({
          status: 415,
          body: NOT_IMAGE,
        });
      }
      expect(await put(ticket.uploadURL, { body: PNG, contentType: 'image/svg+xml' })).toEqual({
        status: 415,
        body: NOT_IMAGE,
      });
      expect(bucketWrites()).toBe(writes);
      expect(s3.objects.has(ticket.form.fields.key!)).toBe(false);
      // Refusals give the address back: the image still goes.
      expect((await put(ticket.uploadURL, { body: PNG })).status).toBe(200);
    });

    it("403 for an expired ('Request has expired') or tampered address, without asking the bucket", async () => {
      const ticket = await ticketFor(alice.browser);
      const asked = s3.requests.length;
      const expired = t.app.get(UploadsService).addresses.address(ticket.form.fields.key!, -1);
      expect(await put(expired, { body: PNG, contentType: 'image/png' })).toEqual({
        status: 403,
        body: EXPIRED,
      });
      const tampered = ticket.uploadURL.replace(
        /signature=(.)/,
        (_, c: string) => `signature=${c === 'A' ? 'B' : 'A'}`,
      );
      expect(await put(tampered, { body: PNG, contentType: 'image/png' })).toEqual({
        status: 403,
        body: INVALID,
      });
      expect(s3.requests.length).toBe(asked);
    });

    it('gives the address back when the client goes away halfway: nothing stored, and it may be sent again', async () => {
      const ticket = await ticketFor(alice.browser);
      const key = ticket.form.fields.key!;
      await abandonedPut(t.url, putTarget(ticket.uploadURL), PNG);
      await waitFor('the address to be given back', async () => !(await putTaken(t, key)));
      expect(s3.objects.has(key)).toBe(false);
      expect((await put(ticket.uploadURL, { body: PNG, contentType: 'image/png' })).status).toBe(200);
      expect(s3.objects.has(key)).toBe(true);
    });

    it('409 when the form put a file there first (the bucket refuses to replace it)', async () => {
      const ticket = await ticketFor(alice.browser);
      expect((await postToBucket(ticket, PNG)).status).toBe(204);
      expect(await put(ticket.uploadURL, { body: GIF, contentType: 'image/gif' })).toEqual({
        status: 409,
        body: ALREADY,
      });
      expect(Buffer.compare(s3.objects.get(ticket.form.fields.key!)!.body, PNG)).toBe(0);
    });
  });

  it('refuses URLs that are not our objects, or not handed out, without asking the bucket', async () => {
    const asked = s3.requests.length;
    for (const avatarURL of [
      'https://images.example.com/cat.png',
      `${bucket}/pending/${alice.user.id + 1}/abcdefghijklmnopqrstuv`,
      `${s3.endpoint}/other-bucket/pending/${alice.user.id}/abcdefghijklmnopqrstuv`,
      `${bucket}/pending/${alice.user.id}/abcdefghijklmnopqrstuv`,
      `${bucket}/avatars/${alice.user.id}/abcdefghijklmnopqrstuv`,
    ]) {
      await alice.browser.put(API.userAvatar).send({ avatarURL }).expect(400, NOT_UPLOADED);
    }
    expect(s3.requests.length).toBe(asked);
  });

  it('never answered with a 500', () => {
    expect(t.logs.entries.filter((entry) => entry.level === 'error')).toEqual([]);
  });
});

describe('avatar uploads with S3_BUCKET, the bucket unreachable', () => {
  let t: TestApp;
  let alice: Member;

  beforeAll(async () => {
    // Nothing listens there: every call to the bucket is refused at once.
    t = await createTestApp({ env: { ...S3_ENV, S3_ENDPOINT: 'http://127.0.0.1:9' } });
    await registered(t);
    alice = await registered(t);
  });

  afterAll(async () => {
    await t.close();
  });

  it('still hands out forms (signed here), and 503 (not 500) for a claim', async () => {
    const ticket = uploadTicketSchema.parse((await alice.browser.post(API.objectsUpload).expect(200)).body);
    expect(ticket.form.url).toBe('http://127.0.0.1:9/termpaste-avatars');
    await alice.browser
      .put(API.userAvatar)
      .send({ avatarURL: ticket.objectURL })
      .expect(503, { statusCode: 503, message: 'Avatar storage is unavailable; try again later' });
    expect(t.logs.text()).not.toContain('Internal error');
  });
});
