import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import busboy from 'busboy';

/*
 * An S3-compatible server for the tests, in process on 127.0.0.1 (no network or Docker here, and no npm
 * emulator checks POST policies): one in-memory bucket, answering what Termpaste uses as S3 does,
 * SigV4 and POST policies included. What it checks: docs/testing.md.
 */

export interface FakeS3Options {
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export interface FakeS3Object {
  body: Buffer;
  contentType: string;
  cacheControl?: string;
  etag: string;
  lastModified: Date;
}

export interface FakeS3 {
  /** `http://127.0.0.1:<port>`: S3_ENDPOINT. */
  endpoint: string;
  objects: Map<string, FakeS3Object>;
  /** Every request answered: method, path, status. */
  requests: Array<{ method: string; path: string; status: number }>;
  /** Called with each request's method and key before it is handled (a test's way to race it). */
  beforeRequest: ((method: string, key: string) => void) | undefined;
  close(): Promise<void>;
}

class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const accessDenied = (message = 'Access Denied') => new S3Error(403, 'AccessDenied', message);
const policyFailed = (message: string) => accessDenied(`Invalid according to Policy: ${message}`);

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

function signingKey(secret: string, date: string, region: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), 's3'), 'aws4_request');
}

function sameHex(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** RFC 3986 encoding, as Signature V4 wants it. */
function uriEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function escapeXml(value: string): string {
  const entities: Record<string, string> = {
    '<': '&lt;',
    '>': '&gt;',
    '&': '&amp;',
    '"': '&quot;',
    "'": '&apos;',
  };
  return value.replace(/[<>&"']/g, (c) => entities[c]!);
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startFakeS3(options: FakeS3Options): Promise<FakeS3> {
  const objects = new Map<string, FakeS3Object>();
  const requests: FakeS3['requests'] = [];

  function store(key: string, body: Buffer, contentType: string, cacheControl?: string): FakeS3Object {
    const object = {
      body,
      contentType,
      ...(cacheControl ? { cacheControl } : {}),
      etag: `"${createHash('md5').update(body).digest('hex')}"`,
      lastModified: new Date(Math.floor(Date.now() / 1000) * 1000),
    };
    objects.set(key, object);
    return object;
  }

  /** Checks a header-signed request (AWS4-HMAC-SHA256); false when it carries no signature at all. */
  function authenticated(req: http.IncomingMessage, url: URL): boolean {
    const authorization = req.headers.authorization;
    if (authorization === undefined) {
      if (url.searchParams.has('X-Amz-Signature'))
        throw accessDenied('Query signatures are not supported here');
      return false;
    }
    const match =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
        authorization,
      );
    if (!match)
      throw new S3Error(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed');
    const [, accessKey, date, region, signedHeaders, signature] = match as unknown as string[];
    if (accessKey !== options.accessKeyId) {
      throw new S3Error(
        403,
        'InvalidAccessKeyId',
        'The AWS Access Key Id you provided does not exist in our records.',
      );
    }
    if (region !== options.region) {
      throw new S3Error(400, 'AuthorizationHeaderMalformed', `the region '${region}' is wrong`);
    }
    const amzDate = String(req.headers['x-amz-date'] ?? '');
    if (!amzDate.startsWith(date!)) throw accessDenied('X-Amz-Date does not match the credential date');
    const names = signedHeaders!.split(';');
    if (!names.includes('host')) throw accessDenied('The host header must be signed');
    const query = [...url.searchParams.entries()]
      .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
      .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
      .map(([name, value]) => `${name}=${value}`)
      .join('&');
    const headers = names
      .map(
        (name) =>
          `${name}:${String(req.headers[name] ?? '')
            .trim()
            .replace(/\s+/g, ' ')}\n`,
      )
      .join('');
    const payloadHash = String(req.headers['x-amz-content-sha256'] ?? 'UNSIGNED-PAYLOAD');
    const canonical = [req.method, url.pathname, query, headers, signedHeaders, payloadHash].join('\n');
    const scope = `${date}/${region}/s3/aws4_request`;
    const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonical)].join('\n');
    const expected = hmac(signingKey(options.secretAccessKey, date!, region!), toSign).toString('hex');
    if (!sameHex(expected, signature!)) {
      throw new S3Error(
        403,
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided.',
      );
    }
    return true;
  }

  function objectHeaders(res: http.ServerResponse, object: FakeS3Object): void {
    res.setHeader('Content-Type', object.contentType);
    if (object.cacheControl) res.setHeader('Cache-Control', object.cacheControl);
    res.setHeader('ETag', object.etag);
    res.setHeader('Last-Modified', object.lastModified.toUTCString());
    res.setHeader('Accept-Ranges', 'bytes');
  }

  function getObject(req: http.IncomingMessage, res: http.ServerResponse, key: string): void {
    const object = objects.get(key);
    if (!object) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.');
    const ifMatch = req.headers['if-match'];
    if (ifMatch !== undefined && ifMatch !== object.etag) {
      throw new S3Error(
        412,
        'PreconditionFailed',
        'At least one of the pre-conditions you specified did not hold',
      );
    }
    objectHeaders(res, object);
    let body = object.body;
    const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ''));
    if (range && req.method === 'GET') {
      const start = Number(range[1]);
      const end = Math.min(range[2] ? Number(range[2]) : object.body.length - 1, object.body.length - 1);
      body = object.body.subarray(start, end + 1);
      res.statusCode = 206;
      res.setHeader('Content-Range', `bytes ${start}-${end}/${object.body.length}`);
    }
    res.setHeader('Content-Length', String(req.method === 'HEAD' ? object.body.length : body.length));
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  /** ListObjectsV2, one page of everything under `prefix` (the backups' pruning lists them). */
  function listObjects(res: http.ServerResponse, prefix: string): void {
    const keys = [...objects.keys()].filter((key) => key.startsWith(prefix)).sort();
    const contents = keys
      .map((key) => {
        const object = objects.get(key)!;
        return (
          `<Contents><Key>${escapeXml(key)}</Key><LastModified>${object.lastModified.toISOString()}</LastModified>` +
          `<ETag>${escapeXml(object.etag)}</ETag><Size>${object.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`
        );
      })
      .join('');
    res.setHeader('Content-Type', 'application/xml');
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">` +
        `<Name>${escapeXml(options.bucket)}</Name><Prefix>${escapeXml(prefix)}</Prefix><KeyCount>${keys.length}</KeyCount>` +
        `<MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>${contents}</ListBucketResult>`,
    );
  }

  async function putObject(req: http.IncomingMessage, res: http.ServerResponse, key: string): Promise<void> {
    const source = req.headers['x-amz-copy-source'];
    if (typeof source !== 'string') {
      const body = await readBody(req);
      // A conditional write (If-None-Match: *), checked once the body is in, as S3 does.
      if (req.headers['if-none-match'] === '*' && objects.has(key)) {
        throw new S3Error(
          412,
          'PreconditionFailed',
          'At least one of the pre-conditions you specified did not hold',
        );
      }
      const object = store(key, body, String(req.headers['content-type'] ?? 'binary/octet-stream'));
      res.setHeader('ETag', object.etag);
      res.end();
      return;
    }
    const [sourceBucket, ...rest] = decodeURIComponent(source).replace(/^\//, '').split('/');
    const from = sourceBucket === options.bucket ? objects.get(rest.join('/')) : undefined;
    if (!from) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.');
    const ifMatch = req.headers['x-amz-copy-source-if-match'];
    if (ifMatch !== undefined && ifMatch !== from.etag) {
      throw new S3Error(
        412,
        'PreconditionFailed',
        'At least one of the pre-conditions you specified did not hold',
      );
    }
    await readBody(req);
    const replace = String(req.headers['x-amz-metadata-directive'] ?? 'COPY').toUpperCase() === 'REPLACE';
    const copy = replace
      ? store(
          key,
          from.body,
          String(req.headers['content-type'] ?? 'binary/octet-stream'),
          req.headers['cache-control'],
        )
      : store(key, from.body, from.contentType, from.cacheControl);
    res.setHeader('Content-Type', 'application/xml');
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?><CopyObjectResult><LastModified>${copy.lastModified.toISOString()}</LastModified><ETag>${escapeXml(copy.etag)}</ETag></CopyObjectResult>`,
    );
  }

  /** A browser POST upload: the form's fields, its policy and signature, then the file. */
  async function postObject(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const fields = new Map<string, string>();
    let file: Buffer | undefined;
    await new Promise<void>((resolve, reject) => {
      let parser: busboy.Busboy;
      try {
        parser = busboy({ headers: req.headers });
      } catch {
        reject(
          new S3Error(
            412,
            'PreconditionFailed',
            'Bucket POST must be of the enclosure-type multipart/form-data',
          ),
        );
        return;
      }
      parser.on('field', (name, value) => {
        if (file === undefined && !fields.has(name.toLowerCase())) fields.set(name.toLowerCase(), value);
      });
      parser.on('file', (name, stream) => {
        if (file !== undefined || name.toLowerCase() !== 'file') return void stream.resume();
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => (file = Buffer.concat(chunks)));
      });
      parser.on('close', resolve);
      parser.on('error', () =>
        reject(
          new S3Error(
            400,
            'MalformedPOSTRequest',
            'The body of your POST request is not well-formed multipart/form-data.',
          ),
        ),
      );
      req.pipe(parser);
    });

    const encodedPolicy = fields.get('policy');
    if (encodedPolicy === undefined) throw accessDenied();
    if (fields.get('x-amz-algorithm') !== 'AWS4-HMAC-SHA256') {
      throw new S3Error(400, 'InvalidArgument', 'Only AWS4-HMAC-SHA256 is supported here');
    }
    const credential = /^([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request$/.exec(
      fields.get('x-amz-credential') ?? '',
    );
    if (!credential || credential[1] !== options.accessKeyId) {
      throw new S3Error(
        403,
        'InvalidAccessKeyId',
        'The AWS Access Key Id you provided does not exist in our records.',
      );
    }
    const expected = hmac(
      signingKey(options.secretAccessKey, credential[2]!, credential[3]!),
      encodedPolicy,
    ).toString('hex');
    if (!sameHex(expected, fields.get('x-amz-signature') ?? '')) {
      throw new S3Error(
        403,
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided.',
      );
    }
    let policy: { expiration?: unknown; conditions?: unknown };
    try {
      policy = JSON.parse(Buffer.from(encodedPolicy, 'base64').toString('utf8')) as typeof policy;
    } catch {
      throw new S3Error(400, 'InvalidPolicyDocument', 'Invalid Policy: Invalid JSON.');
    }
    if (typeof policy.expiration !== 'string' || !Array.isArray(policy.conditions)) {
      throw new S3Error(
        400,
        'InvalidPolicyDocument',
        'Invalid Policy: expiration and conditions are required.',
      );
    }
    if (Date.parse(policy.expiration) < Date.now()) throw policyFailed('Policy expired.');
    if (file === undefined) {
      throw new S3Error(400, 'InvalidArgument', 'POST requires exactly one file upload per request.');
    }
    if (!fields.get('key')) {
      throw new S3Error(400, 'InvalidArgument', "Bucket POST must contain a field named 'key'.");
    }

    const value = (name: string) =>
      name === 'bucket' ? (fields.get('bucket') ?? options.bucket) : fields.get(name);
    const covered = new Set<string>();
    for (const condition of policy.conditions as unknown[]) {
      const text = JSON.stringify(condition);
      if (Array.isArray(condition) && condition[0] === 'content-length-range') {
        const [, min, max] = condition as [string, number, number];
        if (file.length > max) {
          throw new S3Error(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size');
        }
        if (file.length < min) {
          throw new S3Error(
            400,
            'EntityTooSmall',
            'Your proposed upload is smaller than the minimum allowed size',
          );
        }
        continue;
      }
      let name: string;
      let test: (actual: string | undefined) => boolean;
      if (Array.isArray(condition) && (condition[0] === 'eq' || condition[0] === 'starts-with')) {
        const [operator, field, expected] = condition as [string, string, string];
        name = field.replace(/^\$/, '').toLowerCase();
        test =
          operator === 'eq'
            ? (actual) => actual === expected
            : (actual) => actual !== undefined && actual.startsWith(expected);
      } else if (condition && typeof condition === 'object' && Object.keys(condition).length === 1) {
        const [[field, expected]] = Object.entries(condition as Record<string, string>);
        name = field!.toLowerCase();
        test = (actual) => actual === expected;
      } else {
        throw new S3Error(400, 'InvalidPolicyDocument', `Invalid Policy: Invalid Condition: ${text}`);
      }
      covered.add(name);
      if (!test(value(name))) throw policyFailed(`Policy Condition failed: ${text}`);
    }
    const exempt = new Set(['policy', 'x-amz-signature', 'file']);
    const extra = [...fields.keys()].filter(
      (name) => !exempt.has(name) && !name.startsWith('x-ignore-') && !covered.has(name),
    );
    if (extra.length > 0) throw policyFailed(`Extra input fields: ${extra.join(', ')}`);

    const key = fields.get('key')!;
    const object = store(key, file, fields.get('content-type') ?? 'binary/octet-stream');
    res.statusCode = 204;
    res.setHeader('ETag', object.etag);
    res.setHeader('Location', `${endpoint}/${options.bucket}/${key}`);
    res.end();
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://s3.invalid');
    const [, bucket, ...keyParts] = url.pathname.split('/');
    if (bucket !== options.bucket)
      throw new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist');
    const key = keyParts.map(decodeURIComponent).join('/');
    fake.beforeRequest?.(req.method ?? '', key);
    if (req.method === 'POST' && key === '') return postObject(req, res);
    const signed = authenticated(req, url);
    if (key === '' && req.method === 'GET' && url.searchParams.get('list-type') === '2') {
      if (!signed) throw accessDenied();
      return listObjects(res, url.searchParams.get('prefix') ?? '');
    }
    if (key === '') throw new S3Error(405, 'MethodNotAllowed', 'Not supported here');
    switch (req.method) {
      case 'GET':
      case 'HEAD':
        return getObject(req, res, key);
      case 'PUT':
        if (!signed) throw accessDenied();
        return putObject(req, res, key);
      case 'DELETE':
        if (!signed) throw accessDenied();
        objects.delete(key);
        res.statusCode = 204;
        res.end();
        return;
      default:
        throw new S3Error(
          405,
          'MethodNotAllowed',
          'The specified method is not allowed against this resource.',
        );
    }
  }

  const server = http.createServer((req, res) => {
    res.on('finish', () =>
      requests.push({ method: req.method ?? '', path: req.url ?? '', status: res.statusCode }),
    );
    handle(req, res).catch((error: unknown) => {
      const s3 =
        error instanceof S3Error
          ? error
          : new S3Error(500, 'InternalError', error instanceof Error ? error.message : String(error));
      // What the client still sends is read and dropped, so it gets to read the answer.
      req.resume();
      res.statusCode = s3.status;
      if (req.method === 'HEAD') return void res.end();
      res.setHeader('Content-Type', 'application/xml');
      res.end(
        `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${s3.code}</Code><Message>${escapeXml(s3.message)}</Message></Error>`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fake: FakeS3 = {
    endpoint,
    objects,
    requests,
    beforeRequest: undefined,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
  return fake;
}
