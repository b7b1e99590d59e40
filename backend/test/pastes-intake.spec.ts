import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {
  API,
  type CreatedAccessToken,
  createdPasteSchema,
  POST_MESSAGES,
  PAGES,
  PASTE_MAX_BYTES_DEFAULT,
  PASTE_MESSAGES,
  type PasteDetail,
  TOKEN_MESSAGES,
  type TokenScope,
} from '@termpaste/contracts';
import { CROSS_SITE_REFUSED } from '../src/common/origins.js';
import { type Browser, registered } from './support/accounts.js';
import { liveUser } from './support/live.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

/** What curl --data-binary sends, and so what a raw paste comes as. */
const CURL_TYPE = 'application/x-www-form-urlencoded';
const MIB = 1_048_576;

/** A multipart/form-data body built by hand, as curl -F sends one. */
function form(parts: Array<{ name: string; value: Buffer | string; filename?: string; type?: string }>): {
  body: Buffer;
  type: string;
} {
  const boundary = '------------------------termpaste0123456789';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const headers = [`Content-Disposition: ${disposition}`];
    if (part.type) headers.push(`Content-Type: ${part.type}`);
    chunks.push(Buffer.from(`--${boundary}\r\n${headers.join('\r\n')}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

interface RawAnswer {
  status: number;
  text: string;
  headers: Headers;
  /** The JSON answer, if it is one. */
  body: { statusCode?: number; message?: string; [key: string]: unknown };
  expect(status: number): RawAnswer;
}

/** A POST of `body` as it is (with fetch: supertest encodes a Buffer as a form), signed in by `cookie`. */
async function sendRaw(
  t: TestApp,
  cookie: string | null,
  path: string,
  body: Buffer | string,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  const res = await fetch(`${t.url}${path}`, {
    method: 'POST',
    // Without a cookie, as curl: no Origin either.
    headers: {
      ...(cookie ? { Cookie: cookie, Origin: t.origin } : {}),
      'Content-Type': CURL_TYPE,
      ...headers,
    },
    body: new Uint8Array(Buffer.isBuffer(body) ? body : Buffer.from(body)),
  });
  const text = await res.text();
  const json = res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : {};
  const answer: RawAnswer = {
    status: res.status,
    text,
    headers: res.headers,
    body: json,
    expect(status) {
      if (res.status !== status)
        throw new Error(`expected ${status}, got ${res.status}: ${text.slice(0, 300)}`);
      return answer;
    },
  };
  return answer;
}

describe('POST /api/pastes', () => {
  let t: TestApp;
  let alice: { browser: Browser; user: { id: number; username: string }; cookie: string };
  let bob: { browser: Browser; user: { id: number; username: string } };

  beforeAll(async () => {
    // Many pastes by one member in one day: the day's reputation cap (50) would stop the +5 each test checks.
    t = await createTestApp({ env: { REPUTATION_DAILY_CAP_PASTES: '1000000' } });
    await registered(t); // the owner
    alice = await liveUser(t);
    bob = await registered(t);
  });

  afterAll(async () => {
    await t.close();
  });

  /** Posts `body` byte for byte as curl --data-binary does (supertest would encode a Buffer as a form). */
  function postRaw(body: Buffer | string, query = '', headers: Record<string, string> = {}) {
    return sendRaw(t, alice.cookie, `${API.pastes}${query}`, body, headers);
  }

  function postForm(parts: Parameters<typeof form>[0], query = '') {
    const { body, type } = form(parts);
    return alice.browser.post(`${API.pastes}${query}`).set('Content-Type', type).send(body);
  }

  /** The id of the paste whose URL an answer gave. */
  function idOf(text: string): number {
    const match = /\/thread\/(\d+)\n$/.exec(text);
    if (!match) throw new Error(`no paste URL in ${JSON.stringify(text)}`);
    return Number(match[1]);
  }

  /** The paste's exact bytes, as curl gets them: no session, no cookie. */
  async function rawBytes(id: number): Promise<Buffer> {
    const res = await fetch(`${t.url}${API.threadRaw(id)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    return Buffer.from(await res.arrayBuffer());
  }

  async function detail(id: number): Promise<PasteDetail> {
    return (await alice.browser.get(API.thread(id)).expect(200)).body as PasteDetail;
  }

  async function counts(): Promise<{ threads: number; reputation: number; threadCount: number }> {
    const [row] = await t.dataSource.query(
      `SELECT (SELECT count(*)::int FROM threads) AS threads, reputation, thread_count
       FROM users WHERE id = $1`,
      [alice.user.id],
    );
    return { threads: row.threads, reputation: row.reputation, threadCount: row.thread_count };
  }

  /** Runs `refused` and checks it stored nothing: no paste, no reputation, no count. */
  async function storesNothing(refused: () => Promise<unknown>): Promise<void> {
    const before = await counts();
    await refused();
    expect(await counts()).toEqual(before);
  }

  describe('who may paste', () => {
    it('is a 401 signed out, and reads nothing into a paste', async () => {
      await storesNothing(() =>
        t.browser().post(API.pastes).set('Content-Type', CURL_TYPE).send(Buffer.from('hello')).expect(401),
      );
    });

    it('takes a session only from our own site (the origin check, as every write)', async () => {
      const res = await t.http
        .post(API.pastes)
        .set('Cookie', alice.cookie)
        .set('Content-Type', CURL_TYPE)
        .send(Buffer.from('cross-site'));
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(CROSS_SITE_REFUSED);
    });
  });

  describe('a raw body (curl --data-binary, a pipe)', () => {
    it("answers 201 with the paste's URL and a newline as text/plain", async () => {
      const res = (await postRaw('hello from the terminal\n')).expect(201);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      const id = idOf(res.text);
      expect(res.text).toBe(`${t.url}${PAGES.thread(id)}\n`);
      expect(res.headers.get('location')).toBe(`${t.url}${PAGES.thread(id)}`);
      expect(res.headers.get('vary')).toMatch(/Accept/);
      expect(await detail(id)).toMatchObject({
        title: 'hello from the terminal',
        content: 'hello from the terminal\n',
        language: null,
        author: expect.objectContaining({ id: alice.user.id }),
      });
    });

    it('answers {id, url, rawUrl} when the client asks for JSON', async () => {
      const res = (await postRaw('as json', '', { Accept: 'application/json' })).expect(201);
      const created = createdPasteSchema.strict().parse(res.body);
      expect(created).toEqual({
        id: created.id,
        url: `${t.url}${PAGES.thread(created.id)}`,
        rawUrl: `${t.url}${API.threadRaw(created.id)}`,
      });
      expect((await rawBytes(created.id as number)).toString()).toBe('as json');
    });

    it('answers text when the client prefers it, or says nothing (curl: */*)', async () => {
      const prefers = await postRaw('prefers text', '', { Accept: 'text/plain, application/json;q=0.5' });
      expect(prefers.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      const any = (await postRaw('any', '', { Accept: '*/*' })).expect(201);
      expect(any.text).toMatch(/\/thread\/\d+\n$/);
    });

    it('takes any content type but a form and JSON as the paste itself', async () => {
      const res = await alice.browser
        .post(API.pastes)
        .set('Content-Type', 'text/x-python')
        .send(Buffer.from('a=1&b=2'))
        .expect(201);
      expect((await rawBytes(idOf(res.text))).toString()).toBe('a=1&b=2');
      const none = await alice.browser.post(API.pastes).send(Buffer.from('title=x&content=y')).expect(201);
      expect((await detail(idOf(none.text))).content).toBe('title=x&content=y');
    });

    it('earns +5 reputation and a paste in the count, as a paste from the browser', async () => {
      const before = await counts();
      (await postRaw('reputation')).expect(201);
      expect(await counts()).toEqual({
        threads: before.threads + 1,
        reputation: before.reputation + 5,
        threadCount: before.threadCount + 1,
      });
    });

    it('notifies a member it @mentions, as a paste from the browser', async () => {
      const res = (await postRaw(`ping @${bob.user.username}, see the log\n`, '?title=Build+log')).expect(
        201,
      );
      const id = idOf(res.text);
      const mention = await waitFor('the mention notification', async () => {
        const page = (await bob.browser.get(API.notifications).expect(200)).body as {
          notifications: Array<{ type: string; threadId: number | null; content: string }>;
        };
        return page.notifications.find((n) => n.type === 'mention' && n.threadId === id);
      });
      expect(mention.content).toBe(`${alice.user.username} mentioned you in "Build log"`);
    });

    it('notifies nobody of an @name in a paste in a language (it shows as code, no mention)', async () => {
      const code = (
        await postRaw(`# ask @${bob.user.username}\nprint(1)\n`, '?title=Code&lang=python')
      ).expect(201);
      const codeId = idOf(code.text);
      // A Markdown paste after it: once its mention is there, the code paste's job would have run too.
      const prose = (await postRaw(`thanks @${bob.user.username}\n`, '?title=Prose')).expect(201);
      const proseId = idOf(prose.text);
      const notifications = await waitFor('the Markdown paste mention', async () => {
        const page = (await bob.browser.get(API.notifications).expect(200)).body as {
          notifications: Array<{ type: string; threadId: number | null }>;
        };
        return page.notifications.some((n) => n.threadId === proseId) ? page.notifications : undefined;
      });
      expect(notifications.filter((n) => n.threadId === codeId)).toEqual([]);
    });

    it('shows the new paste on home with its author at once', async () => {
      const res = (await postRaw('fresh on home')).expect(201);
      const home = await alice.browser.get(API.threadsRecent).expect(200);
      expect(home.body.threads[0]).toMatchObject({ id: idOf(res.text), title: 'fresh on home' });
    });
  });

  describe('with a personal access token (curl, no cookie, no Origin)', () => {
    async function makeToken(scopes: TokenScope[]): Promise<CreatedAccessToken> {
      const res = await alice.browser.post(API.userTokens).send({ name: 'curl', scopes }).expect(201);
      return res.body as CreatedAccessToken;
    }

    const curl = (token: string, body: Buffer | string, query = '', headers: Record<string, string> = {}) =>
      sendRaw(t, null, `${API.pastes}${query}`, body, { Authorization: `Bearer ${token}`, ...headers });

    it('pastes with pastes:write, as the member, and sets no cookie', async () => {
      const { token } = await makeToken(['pastes:write']);
      const before = await counts();
      const res = (await curl(token, 'make: all done\n', '?lang=sh')).expect(201);
      expect(res.headers.get('set-cookie')).toBeNull();
      expect(await detail(idOf(res.text))).toMatchObject({
        title: 'make: all done',
        language: 'bash',
        author: expect.objectContaining({ id: alice.user.id }),
      });
      expect(await counts()).toEqual({
        threads: before.threads + 1,
        reputation: before.reputation + 5,
        threadCount: before.threadCount + 1,
      });
    });

    it('pastes a form file with a token', async () => {
      const { token } = await makeToken(['pastes:write', 'read']);
      const { body, type } = form([{ name: 'file', value: 'fn main() {}\n', filename: 'main.rs' }]);
      const res = (await curl(token, body, '', { 'Content-Type': type, Accept: 'application/json' })).expect(
        201,
      );
      const created = createdPasteSchema.parse(res.body);
      expect(await detail(created.id as number)).toMatchObject({ title: 'main.rs', language: 'rust' });
    });

    it('refuses a token without pastes:write with 403, storing nothing', async () => {
      const { token } = await makeToken(['read']);
      await storesNothing(async () => {
        const res = (await curl(token, 'read only')).expect(403);
        expect(res.body.message).toBe(TOKEN_MESSAGES.missingScope('pastes:write'));
      });
    });

    it('refuses an unknown or revoked token with 401, storing nothing', async () => {
      const { id, token } = await makeToken(['pastes:write']);
      await alice.browser.delete(API.userToken(id)).expect(204);
      await storesNothing(async () => {
        expect((await curl(token, 'revoked')).expect(401).body.message).toBe(TOKEN_MESSAGES.invalid);
        expect((await curl(`tp_${'a'.repeat(40)}`, 'unknown')).expect(401).body.message).toBe(
          TOKEN_MESSAGES.invalid,
        );
      });
    });

    it('applies the same size and encoding rules', async () => {
      const { token } = await makeToken(['pastes:write']);
      await storesNothing(async () => {
        (await curl(token, Buffer.alloc(PASTE_MAX_BYTES_DEFAULT + 1, 'a'))).expect(413);
        (await curl(token, Buffer.from([0xff]))).expect(415);
      });
    });

    it("works with the real curl, as docs/api.md's lines: a file, a pipe, a form file, a form from a pipe", async () => {
      const { token } = await makeToken(['pastes:write']);
      const dir = await mkdtemp(path.join(os.tmpdir(), 'termpaste-curl-'));
      try {
        const log = 'line one\r\n\tline two  \n🚀 no newline at the end';
        await writeFile(path.join(dir, 'build.log'), log);
        await writeFile(path.join(dir, 'crash.py'), 'raise SystemExit(1)\n');
        const run = (args: string[], input?: string): Promise<string> =>
          new Promise((resolve, reject) => {
            const child = execFile(
              'curl',
              [
                '--silent',
                '--show-error',
                '--fail-with-body',
                '-H',
                `Authorization: Bearer ${token}`,
                ...args,
              ],
              { cwd: dir },
              (error, stdout, stderr) =>
                error ? reject(new Error(`${error.message}: ${stdout}${stderr}`)) : resolve(stdout),
            );
            child.stdin?.end(input ?? '');
          });
        const url = `${t.url}${API.pastes}`;

        const file = await run(['--data-binary', '@build.log', `${url}?title=build+log`]);
        expect(file).toMatch(/\/thread\/\d+\n$/);
        expect((await rawBytes(idOf(file))).toString('utf8')).toBe(log);
        expect((await detail(idOf(file))).title).toBe('build log');

        const pipe = await run(['--data-binary', '@-', url], 'make: *** [all] Error 2\n');
        expect(await detail(idOf(pipe))).toMatchObject({
          title: 'make: *** [all] Error 2',
          content: 'make: *** [all] Error 2\n',
        });

        const form = await run(['-F', 'file=@crash.py', url]);
        expect(await detail(idOf(form))).toMatchObject({ title: 'crash.py', language: 'python' });

        const piped = await run(
          ['-F', 'file=@-', '-F', 'title=dmesg', '-F', 'lang=plaintext', url],
          'usb 1-1: new\n',
        );
        expect(await detail(idOf(piped))).toMatchObject({
          title: 'dmesg',
          language: 'plaintext',
          content: 'usb 1-1: new\n',
        });

        const json = JSON.parse(
          await run(['--data-binary', '@crash.py', '-H', 'Accept: application/json', `${url}?lang=py`]),
        );
        expect(createdPasteSchema.parse(json).url).toBe(`${t.url}${PAGES.thread(json.id)}`);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });

  describe('the title', () => {
    it('is ?title= when given, trimmed', async () => {
      const res = (await postRaw('body', `?title=${encodeURIComponent('  build log  ')}`)).expect(201);
      expect((await detail(idOf(res.text))).title).toBe('build log');
    });

    it('is otherwise the first non-blank line, trimmed (a blank ?title= counts as none)', async () => {
      const res = (await postRaw('\r\n   \n\t  make: *** [all] Error 2  \r\nmore\n', '?title=%20')).expect(
        201,
      );
      expect((await detail(idOf(res.text))).title).toBe('make: *** [all] Error 2');
    });

    it('is cut to 200 characters, never in the middle of a character', async () => {
      const line = `${'x'.repeat(199)}🚀 and more`;
      const res = (await postRaw(`${line}\nsecond`)).expect(201);
      expect((await detail(idOf(res.text))).title).toBe('x'.repeat(199));
      const exact = (await postRaw(`${'y'.repeat(198)}🚀z`)).expect(201);
      expect((await detail(idOf(exact.text))).title).toBe(`${'y'.repeat(198)}🚀`);
    });

    it('refuses a given title over 200 characters with 400 (not cut), storing nothing', async () => {
      await storesNothing(async () => {
        const res = (await postRaw('body', `?title=${'t'.repeat(201)}`)).expect(400);
        expect(res.body.message).toBe(`title: ${POST_MESSAGES.titleTooLong}`);
      });
    });
  });

  describe('the content', () => {
    it.each([
      ['an empty body', ''],
      ['only whitespace lines', ' \n\t\r\n   \n'],
    ])('refuses %s with 400 Content is required, storing nothing', async (_what, body) => {
      await storesNothing(async () => {
        const res = (await postRaw(body)).expect(400);
        expect(res.body.message).toBe(`content: ${POST_MESSAGES.contentRequired}`);
      });
    });

    it.each([
      ['a byte that never starts UTF-8', Buffer.from([0x68, 0x69, 0xff, 0x0a])],
      ['a character cut short', Buffer.from([0x61, 0xe2, 0x82])],
      ['an overlong encoding', Buffer.from([0xc0, 0xaf])],
      ['an encoded surrogate', Buffer.from([0xed, 0xa0, 0x80])],
      ['Latin-1 text', Buffer.from('café', 'latin1')],
    ])('refuses %s with 415, storing nothing', async (_what, body) => {
      await storesNothing(async () => {
        const res = (await postRaw(body)).expect(415);
        expect(res.body).toEqual({ statusCode: 415, message: PASTE_MESSAGES.notUtf8 });
      });
    });

    it('refuses NUL bytes with 415, storing nothing', async () => {
      await storesNothing(async () => {
        const res = (await postRaw(Buffer.from('binary\0file'))).expect(415);
        expect(res.body).toEqual({ statusCode: 415, message: PASTE_MESSAGES.nulByte });
      });
    });
  });

  describe('size (PASTE_MAX_BYTES, 1 MiB by default)', () => {
    it('takes a paste of exactly 1 MiB, and gives its bytes back', async () => {
      const line = 'é 0123456789 abcdef\tline of a build log, and an emoji 🚀\r\n';
      const bytes = Buffer.alloc(PASTE_MAX_BYTES_DEFAULT, line);
      // Cut on a character: fill the end with ASCII.
      const tail = bytes.lastIndexOf('\n') + 1;
      bytes.fill('z', tail);
      const res = (await postRaw(bytes)).expect(201);
      expect((await rawBytes(idOf(res.text))).equals(bytes)).toBe(true);
    });

    it('takes 1 MiB of words that are all different (the search vector of a large paste)', async () => {
      const words: string[] = [];
      let size = 0;
      for (let i = 0; size < PASTE_MAX_BYTES_DEFAULT - 16; i++) {
        const word = `w${i.toString(36)}x${(i * 7919).toString(36)} `;
        words.push(word);
        size += word.length;
      }
      const bytes = Buffer.from(words.join(''));
      const res = (await postRaw(bytes)).expect(201);
      expect((await rawBytes(idOf(res.text))).equals(bytes)).toBe(true);
    });

    it("searches a paste's first 100,000 characters, all that a paste held before", async () => {
      const filler = 'lorem ipsum dolor '
        .repeat(100_000 / 18 + 1)
        .slice(0, 100_000 - 'searchableearly '.length);
      const text = `searchableearly ${filler}searchablelate`;
      const id = idOf((await postRaw(text)).expect(201).text);
      const found = async (q: string) =>
        (
          (await alice.browser.get(API.search).query({ q }).expect(200)).body.threads as Array<{ id: number }>
        ).map((thread) => thread.id);
      expect(await found('searchableearly')).toEqual([id]);
      expect(await found('searchablelate')).toEqual([]);
    });

    it('refuses 1 MiB and a byte with 413, storing nothing', async () => {
      await storesNothing(async () => {
        const res = (await postRaw(Buffer.alloc(PASTE_MAX_BYTES_DEFAULT + 1, 'a'))).expect(413);
        expect(res.body).toEqual({
          statusCode: 413,
          message: PASTE_MESSAGES.tooLarge(PASTE_MAX_BYTES_DEFAULT),
        });
      });
    });

    it('refuses a 5 MiB body with 413 by its Content-Length', async () => {
      await storesNothing(async () => {
        const res = (await postRaw(Buffer.alloc(5 * MIB, 'a'))).expect(413);
        expect(res.body.message).toBe(PASTE_MESSAGES.tooLarge(PASTE_MAX_BYTES_DEFAULT));
      });
    });

    it('answers 413 while a body without a length is still coming: it is never read whole', async () => {
      await storesNothing(async () => {
        const url = new URL(API.pastes, t.url);
        const req = http.request(url, {
          method: 'POST',
          headers: { Cookie: alice.cookie, Origin: t.origin, 'Content-Type': CURL_TYPE },
        });
        const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
          req.on('response', (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (body += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          });
          req.on('error', reject);
        });
        // 2 MiB in chunks, then nothing more: the request never ends until the answer has come.
        const chunk = Buffer.alloc(64 * 1024, 'a');
        for (let i = 0; i < 32; i++) req.write(chunk);
        const { status, body } = await answer;
        req.destroy();
        expect(status).toBe(413);
        expect(JSON.parse(body)).toEqual({
          statusCode: 413,
          message: PASTE_MESSAGES.tooLarge(PASTE_MAX_BYTES_DEFAULT),
        });
      });
    });
  });

  describe('byte-exact raw text', () => {
    it.each([
      ['CRLF line endings', 'one\r\ntwo\r\n'],
      ['a lone CR', 'progress 10%\rprogress 100%\n'],
      ['no trailing newline', 'no newline at the end'],
      ['trailing newlines', 'two newlines\n\n'],
      ['tabs and trailing spaces', '\tindented   \n  \t \nx\t'],
      ['emoji and other scripts', '🚀 ünïcödé 日本語 👩‍💻\n'],
      ['a byte order mark', '\ufeffwith a BOM\n'],
      ['leading blank lines', '\n\n  first\n'],
    ])('keeps %s', async (_what, text) => {
      const bytes = Buffer.from(text, 'utf8');
      const res = (await postRaw(bytes)).expect(201);
      const id = idOf(res.text);
      expect((await rawBytes(id)).equals(bytes)).toBe(true);
      expect((await detail(id)).content).toBe(text);
    });

    it('keeps the bytes of a form file and of JSON content too', async () => {
      const text = 'a\r\nb\t \n🚀';
      const file = await postForm([{ name: 'file', value: text, filename: 'x.txt' }]).expect(201);
      expect((await rawBytes(idOf(file.text))).toString('utf8')).toBe(text);
      const json = await alice.browser.post(API.pastes).send({ content: text }).expect(201);
      expect((await rawBytes(idOf(json.text))).toString('utf8')).toBe(text);
    });

    it('serves a HEAD and a GET of the raw text to anyone, and 404 for none', async () => {
      const res = (await postRaw('public\n')).expect(201);
      const id = idOf(res.text);
      await t.http.head(API.threadRaw(id)).expect(200);
      const missing = await fetch(`${t.url}${API.threadRaw(2_000_000)}`);
      expect(missing.status).toBe(404);
      // The error is the API's JSON error, labelled as such (not as the text the route serves).
      expect(missing.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await missing.json()).toEqual({ statusCode: 404, message: POST_MESSAGES.pasteNotFound });
    });
  });

  describe('a form (curl -F)', () => {
    it('takes the file; its name is the title and its extension the language', async () => {
      const res = await postForm([
        { name: 'file', value: 'Traceback\n  boom\n', filename: 'crash.py' },
      ]).expect(201);
      expect(await detail(idOf(res.text))).toMatchObject({
        title: 'crash.py',
        content: 'Traceback\n  boom\n',
        language: 'python',
      });
    });

    it('guesses plaintext for .txt, by the whole name without an extension, and nothing for others', async () => {
      const txt = await postForm([{ name: 'file', value: 'log', filename: 'crash.txt' }]).expect(201);
      expect((await detail(idOf(txt.text))).language).toBe('plaintext');
      const make = await postForm([{ name: 'file', value: 'all:\n\tcc x.c', filename: 'Makefile' }]).expect(
        201,
      );
      expect((await detail(idOf(make.text))).language).toBe('makefile');
      const log = await postForm([{ name: 'file', value: 'x', filename: 'build.log' }]).expect(201);
      expect((await detail(idOf(log.text))).language).toBeNull();
      const md = await postForm([{ name: 'file', value: '# Notes', filename: 'README.md' }]).expect(201);
      expect((await detail(idOf(md.text))).language).toBeNull();
    });

    it('prefers a title and a language given in the form, then in the query, over the guesses', async () => {
      const fields = await postForm([
        { name: 'title', value: 'Crash of 25 November' },
        { name: 'lang', value: 'sh' },
        { name: 'file', value: 'echo hi', filename: 'crash.py' },
      ]).expect(201);
      expect(await detail(idOf(fields.text))).toMatchObject({
        title: 'Crash of 25 November',
        language: 'bash',
      });
      const query = await postForm(
        [{ name: 'file', value: 'x', filename: 'crash.py' }],
        '?title=Q&lang=ruby',
      ).expect(201);
      expect(await detail(idOf(query.text))).toMatchObject({ title: 'Q', language: 'ruby' });
    });

    it('takes the file as a plain field (-F "file=<path"), and standard input (-F file=@-) by its first line', async () => {
      const field = await postForm([{ name: 'file', value: 'field line\r\nnext' }]).expect(201);
      expect(await detail(idOf(field.text))).toMatchObject({
        title: 'field line',
        content: 'field line\r\nnext',
      });
      const stdin = await postForm([
        { name: 'file', value: 'from a pipe\n', filename: '-', type: 'application/octet-stream' },
      ]).expect(201);
      expect(await detail(idOf(stdin.text))).toMatchObject({ title: 'from a pipe', language: null });
    });

    it('takes a UTF-8 file name', async () => {
      const res = await postForm([{ name: 'file', value: 'x', filename: 'résumé 🚀.txt' }]).expect(201);
      expect((await detail(idOf(res.text))).title).toBe('résumé 🚀.txt');
    });

    it('refuses a form without a file with 400, storing nothing', async () => {
      await storesNothing(async () => {
        const res = await postForm([{ name: 'title', value: 'no file' }]).expect(400);
        expect(res.body.message).toBe(PASTE_MESSAGES.fileMissing);
      });
    });

    it('refuses a form it cannot read with 400', async () => {
      await storesNothing(async () => {
        const res = await alice.browser
          .post(API.pastes)
          .set('Content-Type', 'multipart/form-data')
          .send(Buffer.from('no boundary'))
          .expect(400);
        expect(res.body.message).toBe(PASTE_MESSAGES.formUnreadable);
      });
    });

    it('refuses a file that is not UTF-8 text with 415, one over 1 MiB with 413', async () => {
      await storesNothing(async () => {
        const binary = await postForm([
          { name: 'file', value: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1]), filename: 'x.png' },
        ]);
        expect(binary.status).toBe(415);
        expect(binary.body.message).toBe(PASTE_MESSAGES.notUtf8);
        const nul = await postForm([{ name: 'file', value: Buffer.from('a\0b'), filename: 'x.bin' }]);
        expect(nul.status).toBe(415);
        expect(nul.body.message).toBe(PASTE_MESSAGES.nulByte);
        const field = await postForm([{ name: 'file', value: Buffer.from([0x61, 0xff]) }]);
        expect(field.status).toBe(415);
        const big = await postForm([
          { name: 'file', value: Buffer.alloc(PASTE_MAX_BYTES_DEFAULT + 1, 'a'), filename: 'big.txt' },
        ]);
        expect(big.status).toBe(413);
        expect(big.body.message).toBe(PASTE_MESSAGES.tooLarge(PASTE_MAX_BYTES_DEFAULT));
      });
    });
  });

  describe('a JSON body', () => {
    it('takes {title, content, language}', async () => {
      const res = await alice.browser
        .post(API.pastes)
        .send({ title: 'From JSON', content: 'print(1)\n', language: 'py' })
        .expect(201);
      expect(await detail(idOf(res.text))).toMatchObject({
        title: 'From JSON',
        content: 'print(1)\n',
        language: 'python',
      });
    });

    it('defaults the title to the first line', async () => {
      const res = await alice.browser.post(API.pastes).send({ content: '\nfirst\nsecond' }).expect(201);
      expect((await detail(idOf(res.text))).title).toBe('first');
    });

    it.each([
      [{ title: 'no content' }, `content: ${POST_MESSAGES.contentRequired}`],
      [{ content: 42 }, `content: ${POST_MESSAGES.contentRequired}`],
      [{ content: 'x', title: 't'.repeat(201) }, `title: ${POST_MESSAGES.titleTooLong}`],
      [['content'], PASTE_MESSAGES.jsonShape],
      [{ content: 'x', language: 'klingon' }, PASTE_MESSAGES.unknownLanguage('klingon')],
      [{ content: 'x', language: 7 }, PASTE_MESSAGES.unknownLanguage('7')],
    ])('refuses %j with 400, storing nothing', async (body, message) => {
      await storesNothing(async () => {
        const res = await alice.browser.post(API.pastes).send(body).expect(400);
        expect(res.body.message).toBe(message);
      });
    });

    it('refuses malformed JSON with 400', async () => {
      const res = await alice.browser
        .post(API.pastes)
        .set('Content-Type', 'application/json')
        .send('{"content": ')
        .expect(400);
      expect(res.body.message).toMatch(/^Malformed JSON in request body: /);
    });

    it.each([
      ['NUL', '{"content":"a\\u0000b"}', PASTE_MESSAGES.nulByte],
      ['a lone surrogate', '{"content":"a\\ud800b"}', PASTE_MESSAGES.notUtf8],
    ])(
      'refuses content with %s with 415 (it could not be given back as sent)',
      async (_what, body, message) => {
        await storesNothing(async () => {
          const res = await alice.browser
            .post(API.pastes)
            .set('Content-Type', 'application/json')
            .send(body)
            .expect(415);
          expect(res.body.message).toBe(message);
        });
      },
    );

    it('refuses content over 1 MiB with 413, even when JSON escapes make the body twice as long', async () => {
      await storesNothing(async () => {
        const over = await alice.browser
          .post(API.pastes)
          .send({ content: 'a'.repeat(PASTE_MAX_BYTES_DEFAULT + 1) })
          .expect(413);
        expect(over.body.message).toBe(PASTE_MESSAGES.tooLarge(PASTE_MAX_BYTES_DEFAULT));
      });
      // A MiB of newlines is two in JSON: taken.
      const escaped = await alice.browser
        .post(API.pastes)
        .send({ title: 'newlines', content: `x${'\n'.repeat(PASTE_MAX_BYTES_DEFAULT - 1)}` })
        .expect(201);
      expect((await rawBytes(idOf(escaped.text))).length).toBe(PASTE_MAX_BYTES_DEFAULT);
    });
  });

  describe('the language', () => {
    it.each([
      ['py', 'python'],
      ['Python', 'python'],
      ['js', 'javascript'],
      ['sh', 'bash'],
      ['yml', 'yaml'],
      ['text', 'plaintext'],
      ['markdown', null],
      ['md', null],
    ])('?lang=%s is stored as %j', async (lang, stored) => {
      const res = (await postRaw('code', `?lang=${lang}`)).expect(201);
      expect((await detail(idOf(res.text))).language).toBe(stored);
    });

    it('refuses an unknown one with 400, storing nothing', async () => {
      await storesNothing(async () => {
        const res = (await postRaw('code', '?lang=klingon')).expect(400);
        expect(res.body).toEqual({ statusCode: 400, message: PASTE_MESSAGES.unknownLanguage('klingon') });
      });
    });
  });

  describe('the web form (POST /api/threads) under the same size rule', () => {
    it('takes a paste of 1 MiB (more than the 100,000 characters of before) and gives it back', async () => {
      const content = 'ab\r\n'.repeat(PASTE_MAX_BYTES_DEFAULT / 4);
      const res = await alice.browser.post(API.threads).send({ title: 'big', content }).expect(201);
      expect((await rawBytes(res.body.id)).toString('utf8')).toBe(content);
    });

    it('refuses content over 1 MiB with 413 and the paste message, storing nothing', async () => {
      await storesNothing(async () => {
        const res = await alice.browser
          .post(API.threads)
          .send({ title: 'too big', content: 'é'.repeat(PASTE_MAX_BYTES_DEFAULT / 2 + 1) })
          .expect(413);
        expect(res.body).toEqual({
          statusCode: 413,
          message: PASTE_MESSAGES.tooLarge(PASTE_MAX_BYTES_DEFAULT),
        });
      });
    });

    it('refuses a JSON body past what any 1 MiB paste needs with 413 and the paste message, not HTML', async () => {
      await storesNothing(async () => {
        const res = await alice.browser
          .post(API.threads)
          .set('Content-Type', 'application/json')
          .send(Buffer.alloc(3 * MIB, ' '))
          .expect(413);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.body).toEqual({
          statusCode: 413,
          message: PASTE_MESSAGES.tooLarge(PASTE_MAX_BYTES_DEFAULT),
        });
      });
    });

    it('takes a language, stored by its canonical name; refuses an unknown one', async () => {
      const res = await alice.browser
        .post(API.threads)
        .send({ title: 'ts', content: 'let x = 1', language: 'TS' })
        .expect(201);
      expect((await detail(res.body.id)).language).toBe('typescript');
      const none = await alice.browser
        .post(API.threads)
        .send({ title: 'md', content: '# x', language: null })
        .expect(201);
      expect((await detail(none.body.id)).language).toBeNull();
      await storesNothing(async () => {
        const bad = await alice.browser
          .post(API.threads)
          .send({ title: 'x', content: 'x', language: 'klingon' })
          .expect(400);
        expect(bad.body.message).toBe(PASTE_MESSAGES.unknownLanguage('klingon'));
      });
    });

    it('leaves other JSON bodies at their limit (a reply of 100 KB and more is a 413)', async () => {
      const res = await alice.browser
        .post(API.threadReplies(1))
        .set('Content-Type', 'application/json')
        .send(Buffer.alloc(200 * 1024, ' '))
        .expect(413);
      expect(res.body.message).toBe('Request body is too large (limit 102400 bytes)');
    });
  });
});

describe('POST /api/pastes with PASTE_MAX_BYTES and PUBLIC_URL set', () => {
  let t: TestApp;
  let alice: { browser: Browser; cookie: string };

  beforeAll(async () => {
    t = await createTestApp({ env: { PASTE_MAX_BYTES: '16', PUBLIC_URL: 'http://paste.example.test' } });
    alice = await liveUser(t);
  });

  afterAll(async () => {
    await t.close();
  });

  const post = (text: string) => sendRaw(t, alice.cookie, API.pastes, text);

  it('answers with the public URL', async () => {
    const res = (await post('x')).expect(201);
    expect(res.text).toMatch(/^http:\/\/paste\.example\.test\/thread\/\d+\n$/);
    const json = (await sendRaw(t, alice.cookie, API.pastes, 'y', { Accept: 'application/json' })).expect(
      201,
    );
    expect(json.body['rawUrl']).toBe(`http://paste.example.test${API.threadRaw(json.body['id'] as number)}`);
  });

  it('takes 16 bytes and refuses 17, counting bytes, not characters', async () => {
    (await post('0123456789abcdef')).expect(201);
    (await post('🚀🚀🚀🚀')).expect(201);
    const res = (await post('🚀🚀🚀🚀!')).expect(413);
    expect(res.body.message).toBe('Paste is too large: at most 16 bytes');
    const form = await alice.browser
      .post(API.pastes)
      .set('Content-Type', 'multipart/form-data; boundary=b')
      .send(
        Buffer.from(
          `--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\n${'a'.repeat(17)}\r\n--b--\r\n`,
        ),
      )
      .expect(413);
    expect(form.body.message).toBe(PASTE_MESSAGES.tooLarge(16));
    const web = await alice.browser
      .post(API.threads)
      .send({ title: 't', content: 'é'.repeat(9) })
      .expect(413);
    expect(web.body.message).toBe(PASTE_MESSAGES.tooLarge(16));
  });
});
