import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { LIMITS, UPLOAD_URL_TTL_SECONDS } from '@termpaste/contracts';
import { AVATAR_CACHE_CONTROL } from './object-keys.js';
import { bucketBaseUrl, S3Storage, type S3StorageConfig, STORAGE_UNAVAILABLE } from './s3.storage.js';

/*
 * No S3 server is reachable from the tests (no network): these cover what works offline — presigning
 * (the SDK signs locally), the key and URL rules, and stat's checks against a scripted client.
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
const PNG_HEAD = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);

describe('S3Storage', () => {
  describe('presignUpload (offline, by the SDK presigner)', () => {
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
    ])('%s: a PUT to a new key of the member, expiring as asked', async (_name, config, base) => {
      expect(bucketBaseUrl(config)).toBe(base);
      const storage = new S3Storage(config);
      const { uploadURL, key } = await storage.presignUpload(7, UPLOAD_URL_TTL_SECONDS);
      expect(key).toMatch(/^avatars\/7\/[A-Za-z0-9_-]{22}$/);
      const url = new URL(uploadURL);
      expect(`${url.origin}${url.pathname}`).toBe(`${base}${key}`);
      expect(url.searchParams.get('X-Amz-Expires')).toBe(String(UPLOAD_URL_TTL_SECONDS));
      expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
      expect(url.searchParams.get('X-Amz-Credential')).toMatch(
        new RegExp(`^${AWS.accessKeyId}/\\d{8}/${config.region}/s3/aws4_request$`),
      );
      expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
      // No checksum of an empty body baked in (the browser's real file would fail it).
      expect([...url.searchParams.keys()].filter((name) => /checksum/i.test(name))).toEqual([]);

      // The member who got it owns it, by its upload address or its object URL; nobody else does.
      expect(storage.ownedKey(7, uploadURL)).toBe(key);
      expect(storage.ownedKey(7, storage.publicUrl(key))).toBe(key);
      expect(storage.ownedKey(8, uploadURL)).toBeNull();
      expect(storage.keyOfPublicUrl(storage.publicUrl(key))).toBe(key);
    });

    it('gives every upload its own key', async () => {
      const storage = new S3Storage(AWS);
      const keys = await Promise.all([1, 2, 3].map(() => storage.presignUpload(7, 60)));
      expect(new Set(keys.map((upload) => upload.key)).size).toBe(3);
    });
  });

  describe('URLs', () => {
    const storage = new S3Storage({ ...AWS, publicUrl: 'https://cdn.example.com/a' });
    const key = 'avatars/7/abcdefghijklmnopqrstuv';

    it('serves objects from S3_PUBLIC_URL when set, and knows its URLs and the bucket address', () => {
      expect(storage.publicUrl(key)).toBe(`https://cdn.example.com/a/${key}`);
      expect(storage.keyOfPublicUrl(`https://cdn.example.com/a/${key}`)).toBe(key);
      expect(storage.ownedKey(7, `https://termpaste-avatars.s3.eu-central-1.amazonaws.com/${key}`)).toBe(key);
    });

    it.each([
      `https://cdn.example.com/${key}`,
      `https://cdn.example.com/a/${key}/`,
      `https://cdn.example.com/a/avatars/7/../8/abcdefghijklmnopqrstuv`,
      `https://cdn.example.com/a/avatars/07/abcdefghijklmnopqrstuv`,
      `https://cdn.example.com/a/avatars/7/short`,
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

  describe('stat: the checks made when an object is claimed', () => {
    type Command = { constructor: { name: string }; input: Record<string, unknown> };

    /** An S3 client that answers from a script and records what it was asked. */
    function scripted(
      head: { size: number; type?: string; cacheControl?: string } | 'missing',
      bytes = PNG_HEAD,
    ) {
      const sent: Command[] = [];
      const client = {
        send: async (command: Command) => {
          sent.push(command);
          if (command instanceof HeadObjectCommand) {
            if (head === 'missing') {
              throw new S3ServiceException({
                name: 'NotFound',
                $fault: 'client',
                $metadata: { httpStatusCode: 404 },
              });
            }
            return { ContentLength: head.size, ContentType: head.type, CacheControl: head.cacheControl };
          }
          if (command instanceof GetObjectCommand) {
            return { Body: { transformToByteArray: async () => bytes } };
          }
          return {};
        },
      };
      return { storage: new S3Storage(AWS, client as unknown as S3Client), sent };
    }

    const key = 'avatars/7/abcdefghijklmnopqrstuv';
    const names = (sent: Command[]) => sent.map((command) => command.constructor.name);

    it('is null for an object that is not there', async () => {
      const { storage, sent } = scripted('missing');
      await expect(storage.stat(key)).resolves.toBeNull();
      expect(names(sent)).toEqual(['HeadObjectCommand']);
    });

    it('deletes an object over the size limit without reading it', async () => {
      const { storage, sent } = scripted({ size: LIMITS.avatarMaxBytes + 1, type: 'image/png' });
      await expect(storage.stat(key)).resolves.toBeNull();
      expect(names(sent)).toEqual(['HeadObjectCommand', 'DeleteObjectCommand']);
    });

    it('reads the first bytes only, and deletes an object that is no image whatever its type says', async () => {
      const { storage, sent } = scripted(
        { size: 100, type: 'image/png' },
        new TextEncoder().encode('<html><script>'),
      );
      await expect(storage.stat(key)).resolves.toBeNull();
      expect(names(sent)).toEqual(['HeadObjectCommand', 'GetObjectCommand', 'DeleteObjectCommand']);
      expect(sent[1]!.input).toMatchObject({ Bucket: AWS.bucket, Key: key, Range: 'bytes=0-11' });
      expect(sent[2]).toBeInstanceOf(DeleteObjectCommand);
    });

    it('stores an image with the type its bytes tell and long cache headers', async () => {
      const { storage, sent } = scripted({ size: 100, type: 'image/jpeg' });
      await expect(storage.stat(key)).resolves.toEqual({ key, contentType: 'image/png', size: 100 });
      expect(sent[2]).toBeInstanceOf(CopyObjectCommand);
      expect(sent[2]!.input).toMatchObject({
        Key: key,
        CopySource: `${AWS.bucket}/${key}`,
        MetadataDirective: 'REPLACE',
        ContentType: 'image/png',
        CacheControl: AVATAR_CACHE_CONTROL,
      });
    });

    it('leaves an object already stored right as it is', async () => {
      const { storage, sent } = scripted({
        size: 100,
        type: 'image/png',
        cacheControl: AVATAR_CACHE_CONTROL,
      });
      await expect(storage.stat(key)).resolves.toEqual({ key, contentType: 'image/png', size: 100 });
      expect(names(sent)).toEqual(['HeadObjectCommand', 'GetObjectCommand']);
    });

    it('503 when the bucket cannot be asked', async () => {
      const client = {
        send: async () => {
          throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
        },
      };
      const storage = new S3Storage(AWS, client as unknown as S3Client);
      await expect(storage.stat(key)).rejects.toMatchObject({
        status: 503,
        message: STORAGE_UNAVAILABLE,
      });
    });

    it('never asks the bucket about a key of the wrong shape', async () => {
      const { storage, sent } = scripted({ size: 100 });
      await expect(storage.stat('avatars/7/../../etc/passwd')).resolves.toBeNull();
      await storage.delete('../secret');
      expect(sent).toEqual([]);
    });
  });
});
