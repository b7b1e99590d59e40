import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from '../../../backend/src/infra/free-port.js';
import { BIN, onTerminal, tempDir, termpaste } from './support.js';

const execFileAsync = promisify(execFile);

const version = (
  JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

describe('termpaste, whatever the server', () => {
  let config: string;
  beforeAll(async () => {
    config = await tempDir('termpaste-cli-xdg-');
  });
  afterAll(() => rm(config, { recursive: true, force: true }));

  it('has --help for every command and --version', async () => {
    for (const args of [
      ['--help'],
      ['login', '--help'],
      ['get', '--help'],
      ['list', '--help'],
      ['edit', '--help'],
      ['fork', '--help'],
      ['delete', '--help'],
      ['help', 'get'],
    ]) {
      const run = await termpaste(args);
      expect({ args, code: run.code }).toEqual({ args, code: 0 });
      expect(run.stdout.toString()).toMatch(/^Usage: termpaste/);
    }
    expect((await termpaste(['--help'])).stdout.toString()).toContain('TERMPASTE_TOKEN');
    const run = await termpaste(['--version']);
    expect([run.code, run.stdout.toString()]).toEqual([0, `${version}\n`]);
  });

  it('ends quietly, exit 0, when the reader closes the pipe first (termpaste --help | true)', async () => {
    // `true` reads nothing and exits at once: the help's write meets a closed pipe (EPIPE).
    const { stderr } = await execFileAsync('bash', ['-c', `set -o pipefail; node '${BIN}' --help | true`], {
      env: { ...process.env, XDG_CONFIG_HOME: config },
    });
    expect(stderr).toBe('');
  });

  it('exits 2 on wrong usage, saying what is wrong, and sends nothing', async () => {
    const dir = await tempDir('termpaste-cli-files-');
    try {
      await mkdir(path.join(dir, 'folder'));
      await writeFile(path.join(dir, 'ok.txt'), 'ok');
      await writeFile(path.join(dir, 'a.bin'), Buffer.from([0x7f, 0x45, 0xff, 0xfe]));
      // A server that would answer is named: the usage errors must come before any request.
      const env = { XDG_CONFIG_HOME: config, TERMPASTE_URL: 'http://127.0.0.1:9', TERMPASTE_TOKEN: 'tp_x' };
      const cases: Array<[string[], RegExp]> = [
        [['--bogus'], /^termpaste: unknown option '--bogus'\n/],
        [['get'], /^termpaste: missing required argument 'id-or-url'\n/],
        [['get', 'not-a-paste'], /^termpaste: not a paste id or paste URL: not-a-paste\n$/],
        [['list', 'extra'], /^termpaste: too many arguments for 'list'/],
        [['login', '--url', 'example.org'], /^termpaste: not an http\(s\) URL: example.org\n$/],
        [['--title'], /^termpaste: option '-t, --title <title>' argument missing\n/],
        [[path.join(dir, 'ok.txt'), path.join(dir, 'nope.txt')], /^termpaste: no such file: .*nope\.txt\n$/],
        [[path.join(dir, 'folder')], /^termpaste: not a file: .*folder\n$/],
        [['-', '-'], /^termpaste: - \(standard input\) can be pasted only once\n$/],
        [
          ['--unlisted', '--private'],
          /^termpaste: --unlisted and --private cannot be used together: a paste is public, unlisted or private\n$/,
        ],
        [['--expire', '2h'], /^termpaste: unknown expiry: 2h \(use 10m, 1h, 1d, 1w, 1mo or never\)\n$/],
        [['--expire'], /^termpaste: option '--expire <when>' argument missing\n/],
        [['--public'], /^termpaste: unknown option '--public'\n/],
        [['delete'], /^termpaste: missing required argument 'id-or-url'\n/],
        [['delete', '12', '13'], /^termpaste: too many arguments for 'delete'/],
        [['delete', 'x/y'], /^termpaste: not a paste id or paste URL: x\/y\n$/],
        [['delete', '12', '--burn'], /^termpaste: unknown option '--burn'\n/],
        [
          ['edit', '12', '--public', '--unlisted'],
          /^termpaste: --public and --unlisted cannot be used together/,
        ],
        [['edit', '12', '--expire', 'later'], /^termpaste: unknown expiry: later \(use 10m/],
        [
          ['edit', '12'],
          /^termpaste: nothing to change: give the new content \(a FILE, or a pipe\), --title, --lang, --public, --unlisted, --private or --expire\n$/,
        ],
        [['edit', '12', path.join(dir, 'nope.txt')], /^termpaste: no such file: .*nope\.txt\n$/],
        [['edit', '12', '--burn'], /^termpaste: unknown option '--burn'\n/],
        [
          ['edit', 'https://elsewhere.test/thread/12', '--title', 'x'],
          /^termpaste: https:\/\/elsewhere.test is not the forum you are logged in to \(http:\/\/127.0.0.1:9\): log in there first, or set TERMPASTE_URL\n$/,
        ],
        [['fork', '12', '--private', '--unlisted'], /^termpaste: --unlisted and --private cannot be used/],
        [['fork', '12', '--expire', '1y'], /^termpaste: unknown expiry: 1y/],
        [['fork', 'nope'], /^termpaste: not a paste id or paste URL: nope\n$/],
        [['fork', '12', path.join(dir, 'folder')], /^termpaste: not a file: .*folder\n$/],
        // Its content goes as JSON, which carries text only.
        [['edit', '12', path.join(dir, 'a.bin')], /^termpaste: .*a\.bin is not UTF-8 text\n$/],
        [['fork', '12', path.join(dir, 'a.bin')], /^termpaste: .*a\.bin is not UTF-8 text\n$/],
      ];
      for (const [args, stderr] of cases) {
        const run = await termpaste(args, { env });
        expect({ args, code: run.code, stderr: run.stderr, stdout: run.stdout.toString() }).toEqual({
          args,
          code: 2,
          stderr: expect.stringMatching(stderr),
          stdout: '',
        });
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('with --json, a usage error is {"error"} on standard error, exit 2 still', async () => {
    const env = { XDG_CONFIG_HOME: config, TERMPASTE_URL: 'http://127.0.0.1:9', TERMPASTE_TOKEN: 'tp_x' };
    const cases: Array<[string[], string]> = [
      [['--json', '--bogus'], "unknown option '--bogus'"],
      [['--json', '--expire', '2h'], 'unknown expiry: 2h (use 10m, 1h, 1d, 1w, 1mo or never)'],
      [['delete', '--json'], "missing required argument 'id-or-url'"],
      [
        ['edit', '12', '--json', '--public', '--private'],
        '--public and --private cannot be used together: a paste is public, unlisted or private',
      ],
      [['--json', 'get', 'nope'], 'not a paste id or paste URL: nope'],
    ];
    for (const [args, error] of cases) {
      const run = await termpaste(args, { env });
      expect({ args, code: run.code, stderr: run.stderr, stdout: run.stdout.toString() }).toEqual({
        args,
        code: 2,
        stderr: `${JSON.stringify({ error })}\n`,
        stdout: '',
      });
    }
    const notLoggedIn = await termpaste(['list', '--json'], { env: { XDG_CONFIG_HOME: config } });
    expect([notLoggedIn.code, JSON.parse(notLoggedIn.stderr)]).toEqual([
      2,
      { error: 'not logged in: run `termpaste login --url URL`, or set TERMPASTE_TOKEN and TERMPASTE_URL' },
    ]);
  });

  it('exits 2 when not logged in (no token, or no URL for an id)', async () => {
    const env = { XDG_CONFIG_HOME: config };
    const paste = await termpaste([], { env, input: 'text' });
    expect([paste.code, paste.stderr]).toEqual([
      2,
      'termpaste: not logged in: run `termpaste login --url URL`, or set TERMPASTE_TOKEN and TERMPASTE_URL\n',
    ]);
    expect((await termpaste(['list'], { env })).code).toBe(2);
    const get = await termpaste(['get', '12'], { env });
    expect([get.code, get.stderr]).toEqual([
      2,
      'termpaste: no forum URL: run `termpaste login --url URL`, or set TERMPASTE_URL\n',
    ]);
  });

  it('exits 1 with one clear line when the server cannot be reached', async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const env = { XDG_CONFIG_HOME: config, TERMPASTE_TOKEN: `tp_${'a'.repeat(40)}` };
    for (const args of [
      ['list'],
      ['get', `${down}/thread/1`],
      ['login', '--url', down],
      ['-'],
      ['delete', '1'],
      ['edit', '1', '--title', 'x'],
      ['fork', '1'],
    ]) {
      const run = await termpaste(args, { env: { ...env, TERMPASTE_URL: down }, input: 'text' });
      expect({ args, code: run.code, stderr: run.stderr }).toEqual({
        args,
        code: 1,
        stderr: `termpaste: cannot reach ${down} (connection refused): check the URL and your network\n`,
      });
    }
    const json = await termpaste(['delete', '1', '--json'], { env: { ...env, TERMPASTE_URL: down } });
    expect([json.code, JSON.parse(json.stderr)]).toEqual([
      1,
      { error: `cannot reach ${down} (connection refused): check the URL and your network` },
    ]);
    // A name no resolver knows (.invalid is reserved for that).
    const dns = await termpaste(['list'], { env: { ...env, TERMPASTE_URL: 'http://termpaste.invalid' } });
    expect([dns.code, dns.stderr]).toEqual([
      1,
      'termpaste: cannot reach http://termpaste.invalid (host not found): check the URL and your network\n',
    ]);
    // login saved nothing.
    await expect(stat(path.join(config, 'termpaste', 'config.json'))).rejects.toThrow(/ENOENT/);
  });

  it('on a terminal, with no file: exit 2, nothing to paste (it does not wait for typing)', async () => {
    const run = await onTerminal([], {
      env: { XDG_CONFIG_HOME: config, TERMPASTE_URL: 'http://127.0.0.1:1', TERMPASTE_TOKEN: 'tp_x' },
    });
    expect([run.code, run.output]).toEqual([
      2,
      'termpaste: nothing to paste: name a file, or pipe text in (`make 2>&1 | termpaste`)\r\n',
    ]);
  });

  it('login on a terminal asks for the token without echoing it', async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const token = `tp_${'s'.repeat(40)}`;
    const run = await onTerminal(['login', '--url', down], {
      env: { XDG_CONFIG_HOME: config },
      prompt: 'Access token (input hidden): ',
      answer: token,
    });
    expect(run.code).toBe(1);
    expect(run.output).toBe(
      `Access token (input hidden): \r\ntermpaste: cannot reach ${down} (connection refused): check the URL and your network\r\n`,
    );
    expect(run.output).not.toContain(token);
  });

  it('is built JS with a shebang, executable; the bin npm links runs it', async () => {
    expect((await readFile(BIN, 'utf8')).startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect((await stat(BIN)).mode & 0o111).toBe(0o111);
    const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
      bin: { termpaste: string };
    };
    const bin = fileURLToPath(new URL(`../${pkg.bin.termpaste}`, import.meta.url));
    expect((await readFile(bin, 'utf8')).startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect((await stat(bin)).mode & 0o111).toBe(0o111);
    const run = await execFileAsync(bin, ['--version'], { env: { PATH: process.env.PATH ?? '' } });
    expect(run.stdout).toBe(`${version}\n`);
  });

  it('the bin says how to build when dist/ is missing (a checkout before its build)', async () => {
    const dir = await tempDir('termpaste-cli-unbuilt-');
    try {
      await mkdir(path.join(dir, 'bin'));
      await copyFile(
        fileURLToPath(new URL('../bin/termpaste.js', import.meta.url)),
        path.join(dir, 'bin', 'termpaste.js'),
      );
      await writeFile(path.join(dir, 'package.json'), '{"type":"module"}');
      const failed = (await execFileAsync(process.execPath, [path.join(dir, 'bin', 'termpaste.js')]).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => error,
      )) as { code: number; stderr: string };
      expect([failed.code, failed.stderr]).toEqual([
        1,
        'termpaste: not built yet: run `npm run build` in the Termpaste checkout first\n',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
