import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { API, PASTE_MAX_BYTES_DEFAULT, type PasteDetail } from '@termpaste/contracts';
import { freePort } from '../../../backend/src/infra/free-port.js';
import { type Browser, registered } from '../../../backend/test/support/accounts.js';
import { createTestApp, type TestApp } from '../../../backend/test/support/test-app.js';
import { makeToken, onTerminal, tempDir, termpaste } from './support.js';

/** A paste's unguessable key: the URL of an unlisted, private or burning paste ends with it. */
const KEY = /^[A-Za-z0-9_-]{22}$/;

/** The one paste URL in the CLI's output: its ref (a number, or a key). */
function pasteRef(stdout: Buffer, base: string): string {
  const text = stdout.toString('utf8');
  expect(text.startsWith(`${base}/thread/`) && text.endsWith('\n')).toBe(true);
  return text.slice(`${base}/thread/`.length, -1);
}

/** The paste's URLs in the CLI's output, one a line: their ids. */
function pasteIds(stdout: Buffer, base: string): number[] {
  const lines = stdout.toString('utf8').split('\n');
  expect(lines.pop()).toBe('');
  return lines.map((line) => {
    expect(line.startsWith(`${base}/thread/`)).toBe(true);
    return Number(/\/thread\/(\d+)$/.exec(line)![1]);
  });
}

describe('termpaste against a Termpaste server', () => {
  let t: TestApp;
  let browser: Browser;
  let username: string;
  let token: string;
  let config: string;
  let files: string;
  /** The saved login's environment: only XDG_CONFIG_HOME. */
  let saved: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    const member = await registered(t);
    browser = member.browser;
    username = member.user.username;
    token = (await makeToken(browser)).token;
    config = await tempDir('termpaste-cli-xdg-');
    files = await tempDir('termpaste-cli-files-');
    saved = { XDG_CONFIG_HOME: config };
    // Logged in as a member does it; the login tests below each use a folder of their own.
    const login = await termpaste(['login', '--url', t.url], { env: { ...saved, TERMPASTE_TOKEN: token } });
    if (login.code !== 0) throw new Error(`login failed: ${login.stderr}`);
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([config, files, ...folders].map((dir) => rm(dir, { recursive: true, force: true })));
  });

  const folders: string[] = [];
  /** An empty XDG_CONFIG_HOME, and where a login there is saved. */
  async function freshConfig(): Promise<{ env: Record<string, string>; file: string }> {
    const dir = await tempDir('termpaste-cli-xdg-');
    folders.push(dir);
    return { env: { XDG_CONFIG_HOME: dir }, file: path.join(dir, 'termpaste', 'config.json') };
  }

  async function detail(id: number | string): Promise<PasteDetail & { language?: string | null }> {
    const res = await t.http.get(API.thread(id));
    expect(res.status).toBe(200);
    return res.body;
  }

  async function raw(id: number | string): Promise<Buffer> {
    const res = await t.http
      .get(API.threadRaw(id))
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    return res.body as Buffer;
  }

  async function file(name: string, content: string | Buffer): Promise<string> {
    const where = path.join(files, name);
    await writeFile(where, content);
    return where;
  }

  describe('login', () => {
    it('refuses a bad token (exit 1, saying how to log in again) and saves nothing', async () => {
      const { env, file } = await freshConfig();
      const run = await termpaste(['login', '--url', t.url], {
        env: { ...env, TERMPASTE_TOKEN: `tp_${'x'.repeat(40)}` },
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^termpaste: the server refused the token \(.+\): log in again with/);
      expect(run.stderr).toContain(`termpaste login --url ${t.url}`);
      await expect(stat(file)).rejects.toThrow(/ENOENT/);
    });

    it('reads the token from a pipe, checks it and saves URL and token, 0600 in a 0700 folder', async () => {
      const { env, file } = await freshConfig();
      const run = await termpaste(['login', '--url', `${t.url}/`], { env, input: `${token}\n` });
      expect([run.code, run.stderr, run.stdout.toString()]).toEqual([
        0,
        '',
        `Logged in to ${t.url} as ${username} (saved in ${file})\n`,
      ]);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ url: t.url, token });
    });

    it('reads TERMPASTE_TOKEN, and TERMPASTE_URL when --url is absent', async () => {
      const { env, file } = await freshConfig();
      const run = await termpaste(['login'], {
        env: { ...env, TERMPASTE_TOKEN: token, TERMPASTE_URL: t.url },
      });
      expect(run.code).toBe(0);
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ url: t.url, token });
    });

    it('on a terminal, asks for the token without echoing it, then saves it', async () => {
      const { env, file } = await freshConfig();
      const run = await onTerminal(['login', '--url', t.url], {
        env,
        prompt: 'Access token (input hidden): ',
        answer: token,
      });
      expect([run.code, run.output]).toEqual([
        0,
        `Access token (input hidden): \r\nLogged in to ${t.url} as ${username} (saved in ${file})\r\n`,
      ]);
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ url: t.url, token });
    });

    it('takes a token that may only paste (the server says who it is for); list then names the scope', async () => {
      const { env, file } = await freshConfig();
      const writeOnly = await makeToken(browser, ['pastes:write']);
      const run = await termpaste(['login', '--url', t.url], {
        env: { ...env, TERMPASTE_TOKEN: writeOnly.token },
      });
      expect(run.code).toBe(0);
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ url: t.url, token: writeOnly.token });
      const pasted = await termpaste([], { env, input: 'write only' });
      expect(pasted.code).toBe(0);
      const list = await termpaste(['list'], { env });
      expect(list.code).toBe(1);
      expect(list.stderr).toMatch(/^termpaste: .*\bread\b.*: make a token with the scope this needs/);
    });
  });

  describe('pasting (logged in)', () => {
    it('pastes a file: its name as the title, its bytes as the content, the URL printed', async () => {
      const content = 'step 1 ok\nstep 2 FAILED: exit 2\n';
      const run = await termpaste([await file('build.log', content)], { env: saved });
      expect([run.code, run.stderr]).toEqual([0, '']);
      const [id] = pasteIds(run.stdout, t.url);
      const paste = await detail(id!);
      expect([paste.title, paste.content, paste.author?.username]).toEqual(['build.log', content, username]);
    });

    it('pastes standard input from a pipe (the title: its first line), and - reads it too', async () => {
      const piped = await termpaste([], { env: saved, input: 'make: *** [all] Error 1\nmore\n' });
      expect([piped.code, piped.stderr]).toEqual([0, '']);
      const [id] = pasteIds(piped.stdout, t.url);
      expect((await detail(id!)).title).toBe('make: *** [all] Error 1');
      expect((await raw(id!)).toString()).toBe('make: *** [all] Error 1\nmore\n');

      const dash = await termpaste(['-', '--title', 'from dash'], { env: saved, input: 'dashed' });
      const [dashId] = pasteIds(dash.stdout, t.url);
      expect([(await detail(dashId!)).title, (await detail(dashId!)).content]).toEqual([
        'from dash',
        'dashed',
      ]);
    });

    it('makes one paste per file, in order, standard input among them', async () => {
      const a = await file('a.txt', 'first');
      const b = await file('b.md', '# second');
      const run = await termpaste([a, '-', b], { env: saved, input: 'from the pipe' });
      expect([run.code, run.stderr]).toEqual([0, '']);
      const ids = pasteIds(run.stdout, t.url);
      expect(ids).toHaveLength(3);
      const pastes = await Promise.all(ids.map(detail));
      expect(pastes.map((p) => [p.title, p.content])).toEqual([
        ['a.txt', 'first'],
        ['from the pipe', 'from the pipe'],
        ['b.md', '# second'],
      ]);
    });

    it('--title, --lang and --tag name the paste, its language and its tags', async () => {
      const run = await termpaste(
        [
          await file('x.py', 'print("hi")\n'),
          ...['--title', 'a greeting', '--lang', 'python', '--tag', 'hello', '--tag', 'Py,cli-test'],
        ],
        {
          env: saved,
        },
      );
      expect([run.code, run.stderr]).toEqual([0, '']);
      const [id] = pasteIds(run.stdout, t.url);
      const paste = await detail(id!);
      expect([paste.title, paste.language, paste.tags]).toEqual([
        'a greeting',
        'python',
        ['hello', 'py', 'cli-test'],
      ]);
    });

    it('a .cast file is sent as a terminal recording; a malformed one is refused with the reason', async () => {
      const cast = '{"version": 2, "width": 80, "height": 24}\n[0.5, "o", "hello\\r\\n"]\n';
      const run = await termpaste([await file('rec.cast', cast)], { env: saved });
      expect([run.code, run.stderr]).toEqual([0, '']);
      const [id] = pasteIds(run.stdout, t.url);
      expect((await detail(id!)).language).toBe('asciicast');
      expect((await raw(id!)).toString()).toBe(cast);
      // Piped, it is recognised by its content.
      const piped = await termpaste([], { env: saved, input: cast });
      expect((await detail(pasteIds(piped.stdout, t.url)[0]!)).language).toBe('asciicast');
      const bad = await termpaste([await file('bad.cast', 'not a recording\n')], { env: saved });
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('Recording is not an asciicast v2');
    });

    it('TERMPASTE_TOKEN and TERMPASTE_URL override the saved login', async () => {
      const other = await tempDir('termpaste-cli-xdg-');
      try {
        const env = { XDG_CONFIG_HOME: other };
        await mkdir(path.join(other, 'termpaste'), { recursive: true });
        await writeFile(
          path.join(other, 'termpaste', 'config.json'),
          JSON.stringify({ url: `http://127.0.0.1:${await freePort()}`, token: `tp_${'z'.repeat(40)}` }),
        );
        expect((await termpaste(['list'], { env })).code).toBe(1);
        const run = await termpaste(['list'], {
          env: { ...env, TERMPASTE_URL: t.url, TERMPASTE_TOKEN: token },
        });
        expect([run.code, run.stderr]).toEqual([0, '']);
      } finally {
        await rm(other, { recursive: true, force: true });
      }
    });
  });

  describe('get', () => {
    it('prints the raw text byte for byte (CRLF and no final newline kept), by id or URL', async () => {
      const content = 'line one\r\nline two\r\n\ttabbed ünïcode ✓\r\nno newline at the end';
      const made = await termpaste([await file('crlf.txt', content)], { env: saved });
      const [id] = pasteIds(made.stdout, t.url);
      for (const ref of [String(id), `${t.url}/thread/${id}`, `${t.url}/api/threads/${id}/raw`]) {
        const run = await termpaste(['get', ref], { env: saved });
        expect([ref, run.code, run.stderr]).toEqual([ref, 0, '']);
        expect(run.stdout.equals(Buffer.from(content, 'utf8'))).toBe(true);
      }
      // Without a login: a public paste's URL is enough.
      const anonymous = await termpaste(['get', `${t.url}/thread/${id}`]);
      expect(anonymous.stdout.equals(Buffer.from(content, 'utf8'))).toBe(true);
    });

    it('--comments prints the text, then each comment: line comments with their lines and suggestions', async () => {
      const made = await termpaste([await file('review.sh', 'one\ntwo\nthree\nfour\nfive\n')], {
        env: saved,
      });
      const [id] = pasteIds(made.stdout, t.url);
      const other = await registered(t);
      const posted = await other.browser
        .post(API.threadReplies(id!))
        .send({
          content: 'Shout it',
          anchor: { fromLine: 3, toLine: 4, version: 1 },
          suggestion: 'THREE\nFOUR',
        })
        .expect(201);
      await browser
        .post(API.threadReplies(id!))
        .send({ content: 'Thanks', parentId: posted.body.id })
        .expect(201);
      const run = await termpaste(['get', String(id), '--comments'], { env: saved });
      expect([run.code, run.stderr]).toEqual([0, '']);
      const out = run.stdout.toString('utf8');
      expect(out.startsWith('one\ntwo\nthree\nfour\nfive\n\n2 comments\n\n')).toBe(true);
      expect(out).toMatch(
        new RegExp(
          `#${posted.body.id} ${other.user.username} on lines 3-4 .+\n  3 \\| three\n  4 \\| four\n  Shout it\n  suggested change:\n  - three\n  - four\n  \\+ THREE\n  \\+ FOUR\n`,
        ),
      );
      expect(out).toMatch(new RegExp(`${username} .+ \\(answering #${posted.body.id}\\)\n  Thanks\n`));
    });

    it("exits 1 with the server's message for a paste that does not exist", async () => {
      const run = await termpaste(['get', '999999'], { env: saved });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^termpaste: the server answered 404: .+\n$/);
    });
  });

  describe('list', () => {
    it("shows the member's recent pastes: number, date, title and URL", async () => {
      const made = await termpaste([await file('listed.txt', 'to be listed')], { env: saved });
      const [id] = pasteIds(made.stdout, t.url);
      const run = await termpaste(['list'], { env: saved });
      expect([run.code, run.stderr]).toEqual([0, '']);
      const lines = run.stdout.toString().split('\n');
      expect(lines[0]).toMatch(
        new RegExp(`^#${id} +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d  listed\\.txt +${t.url}/thread/${id}$`),
      );
      expect(lines.length).toBeGreaterThan(3);
    });

    it('says so when the member has no pastes', async () => {
      const newcomer = await registered(t);
      const run = await termpaste(['list'], {
        env: { TERMPASTE_URL: t.url, TERMPASTE_TOKEN: (await makeToken(newcomer.browser, ['read'])).token },
      });
      expect([run.code, run.stdout.toString()]).toEqual([0, 'No pastes yet.\n']);
    });
  });

  describe('who may read a new paste, and how long it lives', () => {
    it('--unlisted: its URL ends with a key; anyone with it reads it; no list shows it', async () => {
      const run = await termpaste(['--unlisted', '--title', 'by link only'], {
        env: saved,
        input: 'unlisted text',
      });
      expect([run.code, run.stderr]).toEqual([0, '']);
      const ref = pasteRef(run.stdout, t.url);
      expect(ref).toMatch(KEY);
      const paste = await detail(ref);
      expect([paste.visibility, paste.content, paste.burnAfterReading, paste.expiresAt]).toEqual([
        'unlisted',
        'unlisted text',
        false,
        null,
      ]);
      expect((await raw(ref)).toString()).toBe('unlisted text');
      const list = await termpaste(['list', '--json'], { env: saved });
      expect(
        (JSON.parse(list.stdout.toString()) as Array<{ id: unknown }>).map((card) => card.id),
      ).not.toContain(ref);
    });

    it('--private: only its author reads it (404 to anyone else); termpaste get KEY reads it with the token', async () => {
      const privately = await termpaste([await file('mine.txt', 'for my eyes'), '--private'], { env: saved });
      expect([privately.code, privately.stderr]).toEqual([0, '']);
      const ref = pasteRef(privately.stdout, t.url);
      expect(ref).toMatch(KEY);
      expect((await t.http.get(API.thread(ref))).status).toBe(404);
      expect((await t.http.get(API.threadRaw(ref))).status).toBe(404);
      const own = await browser.get(API.thread(ref));
      expect([own.status, own.body.visibility, own.body.content]).toEqual([200, 'private', 'for my eyes']);
      const got = await termpaste(['get', ref], { env: saved });
      expect([got.code, got.stderr, got.stdout.toString()]).toEqual([0, '', 'for my eyes']);
      const byUrl = await termpaste(['get', `${t.url}/thread/${ref}`], { env: saved });
      expect(byUrl.stdout.toString()).toBe('for my eyes');
    });

    it('--expire: the paste carries when it expires; never: it does not', async () => {
      for (const [expire, seconds] of [
        ['10m', 600],
        ['1h', 3_600],
        ['1d', 86_400],
        ['1w', 604_800],
        ['1mo', 2_592_000],
      ] as const) {
        const before = Date.now();
        const run = await termpaste(['--expire', expire], { env: saved, input: `lives ${expire}` });
        expect([expire, run.code, run.stderr]).toEqual([expire, 0, '']);
        const [id] = pasteIds(run.stdout, t.url);
        const expiresAt = Date.parse((await detail(id!)).expiresAt!);
        expect(expiresAt).toBeGreaterThanOrEqual(before + seconds * 1000 - 2_000);
        expect(expiresAt).toBeLessThanOrEqual(Date.now() + seconds * 1000 + 2_000);
      }
      const never = await termpaste(['--expire', 'never'], { env: saved, input: 'for ever' });
      const [id] = pasteIds(never.stdout, t.url);
      expect((await detail(id!)).expiresAt).toBeNull();
    });

    it('--burn: a key; readers other than its author get the paste without its content', async () => {
      const run = await termpaste(['--burn'], { env: saved, input: 'read once' });
      expect([run.code, run.stderr]).toEqual([0, '']);
      const ref = pasteRef(run.stdout, t.url);
      expect(ref).toMatch(KEY);
      const other = await detail(ref);
      expect(other.burnAfterReading).toBe(true);
      expect(other.content).toBeUndefined();
      const own = await browser.get(API.thread(ref));
      expect([own.body.burnAfterReading, own.body.content]).toEqual([true, 'read once']);
      // Its author reads it back without burning it.
      const got = await termpaste(['get', ref], { env: saved });
      expect([got.code, got.stdout.toString()]).toEqual([0, 'read once']);
    });

    it('all of them at once, each file a paste; --json prints each answer on its line', async () => {
      const a = await file('one.txt', 'one');
      const b = await file('two.txt', 'two');
      const run = await termpaste([a, b, '--unlisted', '--expire', '1d', '--burn', '--json'], { env: saved });
      expect([run.code, run.stderr]).toEqual([0, '']);
      const lines = run.stdout.toString().trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      for (const [i, line] of lines.entries()) {
        const created = JSON.parse(line) as { id: string; url: string; rawUrl: string };
        expect(created).toEqual({
          id: expect.stringMatching(KEY),
          url: `${t.url}/thread/${created.id}`,
          rawUrl: `${t.url}/api/threads/${created.id}/raw`,
        });
        const own = (await browser.get(API.thread(created.id))).body as PasteDetail;
        expect([
          own.title,
          own.content,
          own.visibility,
          own.burnAfterReading,
          own.expiresAt !== null,
        ]).toEqual([['one.txt', 'two.txt'][i], ['one', 'two'][i], 'unlisted', true, true]);
      }
    });
    it('a key that starts with - is a key, not an option', async () => {
      const run = await termpaste(['--unlisted'], { env: saved, input: 'dashed key' });
      const ref = pasteRef(run.stdout, t.url);
      const dashed = `-${ref.slice(1)}`;
      await t.dataSource.query('UPDATE threads SET key = $2 WHERE key = $1', [ref, dashed]);
      for (const args of [
        ['get', dashed],
        ['--json', 'get', dashed, '--json'],
      ]) {
        const got = await termpaste(args, { env: saved });
        expect([args, got.code, got.stderr]).toEqual([args, 0, '']);
        expect(got.stdout.toString()).toMatch(/dashed key/);
      }
    });
  });

  describe('edit', () => {
    async function made(content: string): Promise<number> {
      const run = await termpaste([], { env: saved, input: content });
      expect(run.code).toBe(0);
      return pasteIds(run.stdout, t.url)[0]!;
    }

    it('edit ID FILE: the file is the new content, the URL printed; the first version kept', async () => {
      const id = await made('first version\n');
      const run = await termpaste(['edit', String(id), await file('fixed.txt', 'second version\n')], {
        env: saved,
      });
      expect([run.code, run.stderr, run.stdout.toString()]).toEqual([0, '', `${t.url}/thread/${id}\n`]);
      expect((await raw(id)).toString()).toBe('second version\n');
      const revisions = await t.http.get(API.threadRevisions(id));
      expect(revisions.body.revisions).toHaveLength(2);
    });

    it('edit URL from a pipe, with --title and --lang', async () => {
      const id = await made('x = 1');
      const run = await termpaste(
        ['edit', `${t.url}/thread/${id}`, '--title', 'renamed', '--lang', 'python'],
        {
          env: saved,
          input: 'x = 2\n',
        },
      );
      expect([run.code, run.stderr]).toEqual([0, '']);
      const paste = await detail(id);
      expect([paste.title, paste.content, paste.language]).toEqual(['renamed', 'x = 2\n', 'python']);
    });

    it('only --title: the content stays', async () => {
      const id = await made('kept as it is');
      const run = await termpaste(['edit', String(id), '--title', 'only the title'], { env: saved });
      expect(run.code).toBe(0);
      const paste = await detail(id);
      expect([paste.title, paste.content]).toEqual(['only the title', 'kept as it is']);
    });

    it('--json: the paste as PATCH answers it', async () => {
      const id = await made('before');
      const run = await termpaste(['edit', String(id), '-', '--json'], { env: saved, input: 'after' });
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(JSON.parse(run.stdout.toString())).toMatchObject({
        id,
        content: 'after',
        visibility: 'public',
        revisions: 2,
        secretVersions: [],
      });
    });

    it('new content holding a secret: the findings, nothing changed; --allow-secrets publishes it', async () => {
      const id = await made('clean');
      const key = ['AKIA', 'QYLPMN5H', 'HHFPZAM2'].join('');
      const secret = await file('leak.sh', `export AWS_ACCESS_KEY_ID=${key}\n`);
      const run = await termpaste(['edit', String(id), secret], { env: saved });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(new RegExp(`^termpaste: ${secret}: Possible secret found`));
      expect(run.stderr).toContain('run again with --allow-secrets');
      expect(run.stderr).not.toContain(key);
      expect((await raw(id)).toString()).toBe('clean');
      const piped = await termpaste(['edit', String(id)], { env: saved, input: `key=${key}\n` });
      expect(piped.code).toBe(1);
      expect(piped.stderr).toMatch(/^termpaste: standard input: Possible secret found/);
      const allowed = await termpaste(['edit', String(id), secret, '--allow-secrets'], { env: saved });
      expect(allowed.code).toBe(0);
      expect((await raw(id)).toString()).toContain(key);
    });

    it("another member's paste: 403 with the server's text; a missing one: 404; exit 1, nothing changed", async () => {
      const id = await made('not yours');
      const other = await registered(t);
      const env = { TERMPASTE_URL: t.url, TERMPASTE_TOKEN: (await makeToken(other.browser)).token };
      const run = await termpaste(['edit', String(id), '--title', 'taken'], { env });
      expect([run.code, run.stderr]).toEqual([
        1,
        'termpaste: the server answered 403: Only its author or an admin can edit this post\n',
      ]);
      const json = await termpaste(['edit', String(id), '--title', 'taken', '--json'], { env });
      expect([json.code, JSON.parse(json.stderr), json.stdout.toString()]).toEqual([
        1,
        { error: 'the server answered 403: Only its author or an admin can edit this post', status: 403 },
        '',
      ]);
      expect((await detail(id)).title).not.toBe('taken');
      const missing = await termpaste(['edit', '999999', '--title', 'x'], { env: saved });
      expect([missing.code, missing.stderr]).toEqual([
        1,
        'termpaste: the server answered 404: Thread not found\n',
      ]);
    });

    it('needs pastes:write: a read-only token is told so', async () => {
      const id = await made('read only');
      const env = { TERMPASTE_URL: t.url, TERMPASTE_TOKEN: (await makeToken(browser, ['read'])).token };
      const run = await termpaste(['edit', String(id), '--title', 'no'], { env });
      expect([run.code, run.stderr]).toEqual([
        1,
        'termpaste: This access token lacks the pastes:write scope: make a token with the scope this needs in Settings → ACCESS TOKENS\n',
      ]);
    });
  });

  describe('--json', () => {
    it('login: {url, username, file}', async () => {
      const { env, file } = await freshConfig();
      const run = await termpaste(['login', '--url', t.url, '--json'], {
        env: { ...env, TERMPASTE_TOKEN: token },
      });
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(JSON.parse(run.stdout.toString())).toEqual({ url: t.url, username, file });
    });

    it("a paste: the API's {id, url, rawUrl}; before the command name too", async () => {
      for (const args of [['--json'], ['--json', '-']]) {
        const run = await termpaste(args, { env: saved, input: 'as json' });
        expect([run.code, run.stderr]).toEqual([0, '']);
        const created = JSON.parse(run.stdout.toString()) as { id: number };
        expect(created).toEqual({
          id: expect.any(Number),
          url: `${t.url}/thread/${created.id}`,
          rawUrl: `${t.url}/api/threads/${created.id}/raw`,
        });
      }
    });

    it('get: the paste as GET /api/threads/{id} answers it', async () => {
      const made = await termpaste(['--title', 'json get', '--lang', 'sh'], {
        env: saved,
        input: 'echo hi\n',
      });
      const [id] = pasteIds(made.stdout, t.url);
      for (const args of [
        ['get', String(id), '--json'],
        ['--json', 'get', String(id)],
      ]) {
        const run = await termpaste(args, { env: saved });
        expect([run.code, run.stderr]).toEqual([0, '']);
        expect(run.stdout.toString().endsWith('}\n')).toBe(true);
        // As the API answers it (each read counts a view).
        const { viewCount, ...printed } = JSON.parse(run.stdout.toString()) as PasteDetail;
        const { viewCount: _, ...answered } = (await browser.get(API.thread(id!))).body as PasteDetail;
        expect(printed).toEqual(answered);
        expect(viewCount).toEqual(expect.any(Number));
      }
    });

    it('list: the array of cards, [] when none', async () => {
      const run = await termpaste(['list', '--json'], { env: saved });
      expect([run.code, run.stderr]).toEqual([0, '']);
      const cards = JSON.parse(run.stdout.toString()) as Array<{ id: number; title: string }>;
      expect(cards.length).toBeGreaterThan(0);
      expect(cards[0]).toMatchObject({
        id: expect.any(Number),
        title: expect.any(String),
        visibility: 'public',
      });
      const newcomer = await registered(t);
      const none = await termpaste(['list', '--json'], {
        env: { TERMPASTE_URL: t.url, TERMPASTE_TOKEN: (await makeToken(newcomer.browser, ['read'])).token },
      });
      expect([none.code, none.stdout.toString()]).toEqual([0, '[]\n']);
    });

    it('a refusal: {"error", "status"} on standard error, exit 1, nothing on standard output', async () => {
      const run = await termpaste(['get', '999999', '--json'], { env: saved });
      expect([run.code, run.stdout.toString(), JSON.parse(run.stderr)]).toEqual([
        1,
        '',
        { error: 'the server answered 404: Thread not found', status: 404 },
      ]);
      const badToken = await termpaste(['--json'], {
        env: { TERMPASTE_URL: t.url, TERMPASTE_TOKEN: 'tp_nope' },
        input: 'x',
      });
      expect(badToken.code).toBe(1);
      expect(JSON.parse(badToken.stderr)).toEqual({
        error: expect.stringMatching(/^the server refused the token/),
        status: 401,
      });
    });
  });

  describe('refusals (exit 1, one line)', () => {
    it('a bad token: says how to log in again', async () => {
      const run = await termpaste([], {
        env: { TERMPASTE_URL: t.url, TERMPASTE_TOKEN: 'tp_nope' },
        input: 'x',
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        new RegExp(
          `^termpaste: the server refused the token \\(.+\\): log in again with \`termpaste login --url ${t.url}\`\n$`,
        ),
      );
    });

    it("a token without the scope: the server's message names it", async () => {
      const readOnly = await makeToken(browser, ['read']);
      const run = await termpaste([], {
        env: { TERMPASTE_URL: t.url, TERMPASTE_TOKEN: readOnly.token },
        input: 'x',
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^termpaste: .*pastes:write.*: make a token with the scope this needs/);
    });

    it('a revoked token stops working on the next call', async () => {
      const made = await makeToken(browser, ['read']);
      const env = { TERMPASTE_URL: t.url, TERMPASTE_TOKEN: made.token };
      expect((await termpaste(['list'], { env })).code).toBe(0);
      expect((await browser.delete(API.userToken(made.id))).status).toBeLessThan(300);
      const run = await termpaste(['list'], { env });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('log in again');
    });

    it("413: a file over the size limit, with the server's limit, and nothing stored", async () => {
      const big = await file('big.log', Buffer.alloc(PASTE_MAX_BYTES_DEFAULT + 1, 'a'));
      const before = await t.dataSource.query('SELECT count(*)::int AS n FROM threads');
      const run = await termpaste([big], { env: saved });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `termpaste: ${big}: Paste is too large: at most 1 MiB (${PASTE_MAX_BYTES_DEFAULT} bytes)\n`,
      );
      expect(await t.dataSource.query('SELECT count(*)::int AS n FROM threads')).toEqual(before);
    });

    it('422: a file holding a secret, each finding listed, nothing stored; --allow-secrets publishes it', async () => {
      const key = ['AKIA', 'QYLPMN5H', 'HHFPZAM2'].join('');
      const notes = await file('deploy.sh', `#!/bin/sh\n\n  export AWS_ACCESS_KEY_ID=${key}\n`);
      const before = await t.dataSource.query('SELECT count(*)::int AS n FROM threads');
      const run = await termpaste([notes], { env: saved });
      expect(run.code).toBe(1);
      expect(run.stderr.toString()).not.toContain(key);
      expect(run.stderr.toString()).toBe(
        `termpaste: ${notes}: Possible secret found (1): remove it, or send again with allowSecrets=true to publish anyway; nothing was published\n` +
          `  line 3, column 28: aws:AWSAccessKeyID AKIA${'*'.repeat(16)}\n` +
          'check the text, or run again with --allow-secrets to publish it anyway\n',
      );
      expect(await t.dataSource.query('SELECT count(*)::int AS n FROM threads')).toEqual(before);

      const allowed = await termpaste([notes, '--allow-secrets'], { env: saved });
      expect(allowed.code).toBe(0);
      const [id] = pasteIds(allowed.stdout, t.url);
      expect((await raw(id!)).toString('utf8')).toContain(key);
    });

    it('415: a binary file, said to be not UTF-8 text', async () => {
      const binary = await file('a.out', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0xff, 0xfe, 0x00]));
      const run = await termpaste([binary], { env: saved });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(new RegExp(`^termpaste: ${binary}: Paste must be .*text.*\n$`));
    });

    it("400: the server's own message (an unknown --lang, an empty paste)", async () => {
      const lang = await termpaste(['--lang', 'nosuchlanguage'], { env: saved, input: 'x' });
      expect([lang.code, lang.stdout.toString()]).toEqual([1, '']);
      expect(lang.stderr).toMatch(
        /^termpaste: the server answered 400: Unknown language "nosuchlanguage".*\n$/,
      );
      const empty = await termpaste([], { env: saved, input: '' });
      expect(empty.code).toBe(1);
      expect(empty.stderr).toMatch(/^termpaste: the server answered 400: .+\n$/);
    });

    it('stops at the first refused file: the pastes before it are printed, none after', async () => {
      const ok = await file('fine.txt', 'fine');
      const binary = await file('b.bin', Buffer.from([0, 1, 2]));
      const after = await file('after.txt', 'never sent');
      const run = await termpaste([ok, binary, after], { env: saved });
      expect(run.code).toBe(1);
      expect(pasteIds(run.stdout, t.url)).toHaveLength(1);
      expect(run.stderr).toContain(binary);
    });
  });
});

describe('termpaste against a server with a low paste rate limit', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'on', RATE_LIMIT_PASTES_PER_MINUTE: '1' } });
    const member = await registered(t);
    token = (await makeToken(member.browser)).token;
  });
  afterAll(() => t?.close());

  it('429: says when to try again, from Retry-After', async () => {
    const env = { TERMPASTE_URL: t.url, TERMPASTE_TOKEN: token };
    expect((await termpaste([], { env, input: 'first' })).code).toBe(0);
    const run = await termpaste([], { env, input: 'second' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^termpaste: too many requests: try again in \d+ s \(.+\)\n$/);
  });
});
