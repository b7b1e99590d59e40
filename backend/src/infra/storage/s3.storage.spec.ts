import { S3Client } from '@aws-sdk/client-s3';
import { LIMITS, UPLOAD_URL_TTL_SECONDS } from '@termpaste/contracts';
import { type FakeS3, startFakeS3 } from '../../../test/support/fake-s3.js';
import { AVATAR_CACHE_CONTROL, PENDING_CONTENT_TYPE } from './object-keys.js';
import { bucketBaseUrl, S3Storage, type S3StorageConfig, STORAGE_UNAVAILABLE } from './s3.storage.js';
import type { PresignedUpload } from './storage.port.js';

type StorageTicket = PresignedUpload['ticket'];

/*
 * Presigning works offline (the SDK signs locally). Uploads and claims run against the fake S3 server of
 * test/support/fake-s3.ts on 127.0.0.1, which checks signatures and enforces POST policies as S3 does.
 */

const AWS: S3StorageConfig = {
  mode: 's3',
  bucket: 'termpaste-avatars',
  region: 'eu-central-1',
  endpoint: undefined,
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  publicUrl: undefined,
  forcePathStyle: false,
};
const MINIO: S3StorageConfig = { ...AWS, endpoint: 'http://127.0.0.1:9000', forcePathStyle: true };
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const HTML = Buffer.from('<html><script>alert(document.domain)</script></html>');

interface Policy {
  expiration: string;
  conditions: unknown[];
}

const policyOf = (ticket: StorageTicket): Policy =>
  JSON.parse(Buffer.from(ticket.fields.Policy!, 'base64').toString('utf8')) as Policy;

/**
 * POSTs a file with a ticket's form as a browser does (the fields, then the file), fields changed or
 * added by `change` (undefined: left out). Resolves with S3's answer.
 */
async function post(
  ticket: StorageTicket,
  file: Buffer,
  change: Record<string, string | undefined> = {},
): Promise<{ status: number; text: string }> {
  const form = new FormData();
  const fields: Record<string, string | undefined> = { ...ticket.fields, ...change };
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value);
  // A copy in a plain ArrayBuffer: the DOM's Blob type (highlight.js's typings bring in the DOM lib)
  // takes no Buffer over a possibly shared one.
  form.append('file', new Blob([new Uint8Array(file)], { type: 'image/png' }), 'avatar.png');
  const res = await fetch(ticket.uploadURL, { method: ticket.method, body: form });
  return { status: res.status, text: await res.text() };
}

const s3Error = (code: string, message?: string) =>
  expect.stringMatching(new RegExp(`<Code>${code}</Code>${message ? `.*${message}` : ''}`));

describe('S3Storage', () => {
  describe('presignUpload (offline, by the SDK)', () => {
    it.each([
      ['AWS, virtual-hosted', AWS, 'https://termpaste-avatars.s3.eu-central-1.amazonaws.com/'],
      [
        'AWS, path-style',
        { ...AWS, forcePathStyle: true },
        'https://s3.eu-central-1.amazonaws.com/termpaste-avatars/',
      ],
      ['MinIO, path-style', MINIO, 'http://127.0.0.1:9000/termpaste-avatars/'],
      [
        'an endpoint, virtual-hosted',
        { ...AWS, endpoint: 'https://storage.example.com', forcePathStyle: false },
        'https://termpaste-avatars.storage.example.com/',
      ],
    ])(
      '%s: a POST form for a new pending key of the member, its size and type signed',
      async (_name, config, base) => {
        expect(bucketBaseUrl(config)).toBe(base);
        const storage = new S3Storage(config);
        const before = Date.now();
        const { ticket, key } = await storage.presignUpload(7, UPLOAD_URL_TTL_SECONDS);
        expect(key).toMatch(/^pending\/7\/[A-Za-z0-9_-]{22}$/);
        expect(ticket.method).toBe('POST');
        expect(`${ticket.uploadURL.replace(/\/$/, '')}/`).toBe(base);
        expect(ticket.objectURL).toBe(`${base}${key}`);
        expect(ticket.fields).toMatchObject({
          key,
          bucket: config.bucket,
          'Content-Type': PENDING_CONTENT_TYPE,
          'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
        });
        expect(ticket.fields['X-Amz-Credential']).toMatch(
          new RegExp(`^${AWS.accessKeyId}/\\d{8}/${config.region}/s3/aws4_request$`),
        );
        expect(ticket.fields['X-Amz-Signature']).toMatch(/^[0-9a-f]{64}$/);

        const policy = policyOf(ticket);
        const expires = Date.parse(policy.expiration);
        expect(expires).toBeGreaterThanOrEqual(
          Math.floor(before / 1000) * 1000 + UPLOAD_URL_TTL_SECONDS * 1000,
        );
        expect(expires).toBeLessThanOrEqual(Date.now() + UPLOAD_URL_TTL_SECONDS * 1000);
        expect(policy.conditions).toEqual(
          expect.arrayContaining([
            ['content-length-range', 1, LIMITS.avatarMaxBytes],
            ['eq', '$Content-Type', PENDING_CONTENT_TYPE],
            { key },
            { bucket: config.bucket },
          ]),
        );

        // The member who got it owns it, by its object URL; nobody else does.
        expect(storage.ownedKey(7, ticket.objectURL)).toBe(key);
        expect(storage.ownedKey(8, ticket.objectURL)).toBeNull();
        // A pending upload is no avatar: it has no public URL of ours.
        expect(storage.keyOfPublicUrl(storage.publicUrl(key))).toBeNull();
      },
    );

    it('gives every upload its own key', async () => {
      const storage = new S3Storage(AWS);
      const uploads = await Promise.all([1, 2, 3].map(() => storage.presignUpload(7, 60)));
      expect(new Set(uploads.map((upload) => upload.key)).size).toBe(3);
    });
  });

  describe('URLs', () => {
    const storage = new S3Storage({ ...AWS, publicUrl: 'https://cdn.example.com/a' });
    const key = 'avatars/7/abcdefghijklmnopqrstuv';

    it('serves objects from S3_PUBLIC_URL when set, and knows its URLs and the bucket address', () => {
      expect(storage.publicUrl(key)).toBe(`https://cdn.example.com/a/${key}`);
      expect(storage.keyOfPublicUrl(`https://cdn.example.com/a/${key}`)).toBe(key);
      expect(storage.ownedKey(7, `https://termpaste-avatars.s3.eu-central-1.amazonaws.com/${key}`)).toBe(key);
      expect(
        storage.ownedKey(
          7,
          'https://termpaste-avatars.s3.eu-central-1.amazonaws.com/pending/7/abcdefghijklmnopqrstuv',
        ),
      ).toBe('pending/7/abcdefghijklmnopqrstuv');
    });

    it.each([
      `https://cdn.example.com/${key}`,
      `https://cdn.example.com/a/${key}/`,
      `https://cdn.example.com/a/avatars/7/../8/abcdefghijklmnopqrstuv`,
      `https://cdn.example.com/a/avatars/07/abcdefghijklmnopqrstuv`,
      `https://cdn.example.com/a/avatars/7/short`,
      `https://cdn.example.com/a/other/7/abcdefghijklmnopqrstuv`,
      `https://cdn.example.com.evil.test/a/${key}`,
      `https://user@cdn.example.com/a/${key}`,
      `https://evil.test/a/${key}`,
      `https://evil.test/?u=https://cdn.example.com/a/${key}`,
      `/a/${key}`,
      'not a url',
    ])('owns nothing at %s', (url) => {
      expect(storage.ownedKey(7, url)).toBeNull();
      expect(storage.keyOfPublicUrl(url)).toBeNull();
    });
  });

  describe('against an S3-compatible server (fake-s3, enforcing POST policies)', () => {
    let s3: FakeS3;
    let config: S3StorageConfig;
    let storage: S3Storage;

    beforeAll(async () => {
      s3 = await startFakeS3({
        bucket: AWS.bucket,
        region: AWS.region,
        accessKeyId: AWS.accessKeyId!,
        secretAccessKey: AWS.secretAccessKey!,
      });
      config = { ...AWS, endpoint: s3.endpoint, forcePathStyle: true };
      storage = new S3Storage(config);
    });

    afterAll(async () => {
      await s3.close();
    });

    afterEach(() => {
      s3.beforeRequest = undefined;
    });

    const pending = async () => storage.presignUpload(7, UPLOAD_URL_TTL_SECONDS);

    describe('the upload form', () => {
      it('stores the file under its pending key, as an inert application/octet-stream', async () => {
        const { ticket, key } = await pending();
        await expect(post(ticket, PNG)).resolves.toEqual({ status: 204, text: '' });
        expect(s3.objects.get(key)).toMatchObject({ body: PNG, contentType: PENDING_CONTENT_TYPE });
      });

      it('takes a file of exactly 10 MB, refuses one byte more (EntityTooLarge) and an empty one', async () => {
        const exact = Buffer.alloc(LIMITS.avatarMaxBytes);
        PNG.copy(exact);
        const fits = await pending();
        expect((await post(fits.ticket, exact)).status).toBe(204);

        const big = await pending();
        const tooBig = await post(big.ticket, Buffer.concat([exact, Buffer.from([0])]));
        expect(tooBig).toEqual({ status: 400, text: s3Error('EntityTooLarge') });
        expect(s3.objects.has(big.key)).toBe(false);

        const empty = await pending();
        expect(await post(empty.ticket, Buffer.alloc(0))).toEqual({
          status: 400,
          text: s3Error('EntityTooSmall'),
        });
        expect(s3.objects.has(empty.key)).toBe(false);
      });

      it.each(['text/html', 'image/svg+xml', 'image/png'])(
        'refuses the Content-Type %s: only the signed one goes',
        async (type) => {
          const { ticket, key } = await pending();
          const res = await post(ticket, HTML, { 'Content-Type': type });
          expect(res).toEqual({
            status: 403,
            text: s3Error(
              'AccessDenied',
              'Policy Condition failed: \\[&quot;eq&quot;,&quot;\\$Content-Type&quot;',
            ),
          });
          expect(s3.objects.has(key)).toBe(false);
        },
      );

      it('refuses a form without the Content-Type, or with a field it did not sign', async () => {
        const { ticket, key } = await pending();
        expect((await post(ticket, PNG, { 'Content-Type': undefined })).status).toBe(403);
        const extra = await post(ticket, PNG, { 'Cache-Control': 'no-store' });
        expect(extra).toEqual({
          status: 403,
          text: s3Error('AccessDenied', 'Extra input fields: cache-control'),
        });
        expect(s3.objects.has(key)).toBe(false);
      });

      it("refuses another key: an avatar's, another upload's, another member's", async () => {
        const { ticket } = await pending();
        const other = await pending();
        for (const key of [
          'avatars/7/abcdefghijklmnopqrstuv',
          other.key,
          'pending/8/abcdefghijklmnopqrstuv',
        ]) {
          const res = await post(ticket, HTML, { key });
          expect(res).toEqual({ status: 403, text: s3Error('AccessDenied', 'Policy Condition failed') });
          expect(s3.objects.has(key)).toBe(false);
        }
      });

      it('refuses a policy stretched after signing, and an expired one', async () => {
        const { ticket, key } = await pending();
        const policy = policyOf(ticket);
        const stretched = {
          ...policy,
          conditions: policy.conditions.map((condition) =>
            Array.isArray(condition) && condition[0] === 'content-length-range'
              ? ['content-length-range', 1, 5 * 1024 ** 3]
              : condition,
          ),
        };
        const forged = Buffer.from(JSON.stringify(stretched)).toString('base64');
        expect(await post(ticket, PNG, { Policy: forged })).toEqual({
          status: 403,
          text: s3Error('SignatureDoesNotMatch'),
        });
        expect(s3.objects.has(key)).toBe(false);

        const expired = await storage.presignUpload(7, -1);
        expect(await post(expired.ticket, PNG)).toEqual({
          status: 403,
          text: s3Error('AccessDenied', 'Policy expired'),
        });
        expect(s3.objects.has(expired.key)).toBe(false);
      });
    });

    describe('claim', () => {
      it('copies an image to a new avatar key, stored as the type its bytes tell, and removes the upload', async () => {
        const { ticket, key } = await pending();
        await post(ticket, GIF);
        const avatar = await storage.claim(key);
        expect(avatar).toEqual({
          key: expect.stringMatching(/^avatars\/7\/[A-Za-z0-9_-]{22}$/),
          contentType: 'image/gif',
          size: GIF.length,
        });
        expect(s3.objects.get(avatar!.key)).toMatchObject({
          body: GIF,
          contentType: 'image/gif',
          cacheControl: AVATAR_CACHE_CONTROL,
        });
        expect(s3.objects.has(key)).toBe(false);
        expect(storage.keyOfPublicUrl(storage.publicUrl(avatar!.key))).toBe(avatar!.key);
      });

      it('a second upload with the claimed form lands on the pending key, never on the avatar', async () => {
        const { ticket, key } = await pending();
        await post(ticket, PNG);
        const avatar = await storage.claim(key);
        // The policy stays valid until it expires, but it names the pending key only.
        expect((await post(ticket, HTML)).status).toBe(204);
        expect(s3.objects.get(avatar!.key)).toMatchObject({ body: PNG, contentType: 'image/png' });
        expect(s3.objects.get(key)).toMatchObject({ body: HTML, contentType: PENDING_CONTENT_TYPE });
        // Claimed again, that upload is checked like any other: no image, so deleted.
        await expect(storage.claim(key)).resolves.toBeNull();
        expect(s3.objects.has(key)).toBe(false);
      });

      it('is null for an upload that is not there', async () => {
        const { key } = await pending();
        await expect(storage.claim(key)).resolves.toBeNull();
      });

      it('deletes an upload that is no image, whatever it came with, and copies nothing', async () => {
        const { ticket, key } = await pending();
        await post(ticket, HTML);
        const before = s3.objects.size;
        await expect(storage.claim(key)).resolves.toBeNull();
        expect(s3.objects.has(key)).toBe(false);
        expect(s3.objects.size).toBe(before - 1);
        // Read its first bytes only.
        expect(s3.requests.filter((r) => r.method === 'GET').at(-1)).toMatchObject({ status: 206 });
      });

      it('deletes an object over 10 MB without reading it (one put there by other means)', async () => {
        const key = 'pending/7/abcdefghijklmnopqrstuv';
        const big = Buffer.alloc(LIMITS.avatarMaxBytes + 1);
        PNG.copy(big);
        s3.objects.set(key, { body: big, contentType: 'image/png', etag: '"x"', lastModified: new Date() });
        const gets = s3.requests.filter((r) => r.method === 'GET').length;
        await expect(storage.claim(key)).resolves.toBeNull();
        expect(s3.objects.has(key)).toBe(false);
        expect(s3.requests.filter((r) => r.method === 'GET').length).toBe(gets);
      });

      it('copies nothing when the upload is replaced between its check and its copy', async () => {
        const { ticket, key } = await pending();
        await post(ticket, PNG);
        const before = new Set(s3.objects.keys());
        s3.beforeRequest = (method) => {
          if (method !== 'PUT') return;
          s3.beforeRequest = undefined;
          const swapped = s3.objects.get(key)!;
          s3.objects.set(key, { ...swapped, body: HTML, etag: '"swapped"' });
        };
        await expect(storage.claim(key)).resolves.toBeNull();
        expect(new Set(s3.objects.keys())).toEqual(before);
      });

      it('503 when the bucket refuses our credentials', async () => {
        const { ticket, key } = await pending();
        await post(ticket, PNG);
        const wrong = new S3Storage({ ...config, secretAccessKey: 'not-the-secret' });
        await expect(wrong.claim(key)).rejects.toMatchObject({ status: 503, message: STORAGE_UNAVAILABLE });
        expect(s3.requests.at(-1)).toMatchObject({ method: 'HEAD', status: 403 });
        expect(s3.objects.has(key)).toBe(true);
      });

      it('never asks the bucket about a key of the wrong shape', async () => {
        const count = s3.requests.length;
        await expect(storage.claim('avatars/7/../../etc/passwd')).resolves.toBeNull();
        await storage.delete('../secret');
        expect(s3.requests.length).toBe(count);
      });
    });
  });

  it('503 when the bucket cannot be reached', async () => {
    const client = {
      send: async () => {
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
      },
    };
    const storage = new S3Storage(AWS, client as unknown as S3Client);
    await expect(storage.claim('pending/7/abcdefghijklmnopqrstuv')).rejects.toMatchObject({
      status: 503,
      message: STORAGE_UNAVAILABLE,
    });
  });
});
