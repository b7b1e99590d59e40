import {
  API,
  ASCIICAST_MESSAGES,
  PASTE_MESSAGES,
  searchResultsSchema,
  type PasteDetail,
} from '@termpaste/contracts';
import { type Browser, registered } from './support/accounts.js';
import { liveUser, type LiveUser } from './support/live.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** `ls --color` output: SGR colours and bold. */
const LS = '\x1b[0m\x1b[01;34mbin\x1b[0m  \x1b[01;32mrun.sh\x1b[0m  notes.txt\n';

// One app for terminal output and terminal recordings.
let t: TestApp;
let alice: { browser: Browser; cookie: string };

beforeAll(async () => {
  t = await createTestApp();
  await registered(t); // the owner
  alice = await liveUser(t);
});

afterAll(async () => {
  await t.close();
});

describe('terminal output: the language `ansi`', () => {
  async function language(id: number): Promise<string | null> {
    return ((await alice.browser.get(API.thread(id)).expect(200)).body as PasteDetail).language;
  }

  async function post(body: Record<string, unknown>): Promise<number> {
    const res = await alice.browser
      .post(API.threads)
      .send({ title: 'ls', ...body })
      .expect(201);
    return (res.body as { id: number }).id;
  }

  it('is picked on POST /api/threads when the content has SGR and no language was named', async () => {
    expect(await language(await post({ content: LS }))).toBe('ansi');
    expect(await language(await post({ content: LS, language: '  ' }))).toBe('ansi');
  });

  it('is not picked for content without SGR (other escapes only), nor over a language named', async () => {
    expect(await language(await post({ content: 'plain\n' }))).toBeNull();
    expect(await language(await post({ content: 'up\x1b[1A\x1b[2K\x1b]0;title\x07' }))).toBeNull();
    expect(await language(await post({ content: LS, language: 'bash' }))).toBe('bash');
    // null names Markdown: a choice, kept.
    expect(await language(await post({ content: LS, language: null }))).toBeNull();
    expect(await language(await post({ content: LS, language: 'markdown' }))).toBeNull();
  });

  it('can be named (any case), and the content is kept byte for byte', async () => {
    const id = await post({ content: LS, language: 'ANSI' });
    expect(await language(id)).toBe('ansi');
    const raw = await alice.browser.get(API.threadRaw(id)).expect(200);
    expect(raw.text).toBe(LS);
  });

  it('POST /api/pastes: guessed from SGR when neither a language nor a file name says one', async () => {
    const sent = async (query: string, body = LS) => {
      const res = await fetch(`${t.url}${API.pastes}${query}`, {
        method: 'POST',
        headers: { Cookie: alice.cookie, Origin: t.origin, 'Content-Type': 'text/plain' },
        body,
      });
      expect(res.status).toBe(201);
      return Number(/\/thread\/(\d+)\n$/.exec(await res.text())![1]);
    };
    expect(await language(await sent(''))).toBe('ansi');
    expect(await language(await sent('?lang=ansi'))).toBe('ansi');
    expect(await language(await sent('?lang=rust'))).toBe('rust');
    expect(await language(await sent('', 'no colours\n'))).toBeNull();
    const unknown = await fetch(`${t.url}${API.pastes}?lang=ansi2`, {
      method: 'POST',
      headers: { Cookie: alice.cookie, Origin: t.origin, 'Content-Type': 'text/plain' },
      body: LS,
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({
      statusCode: 400,
      message: PASTE_MESSAGES.unknownLanguage('ansi2'),
    });
  });
});

/** A small asciicast v2 recording: colours, a carriage return, a word printed in pieces. */
const CAST =
  [
    JSON.stringify({ version: 2, width: 80, height: 24, timestamp: 1700000000, env: { SHELL: '/bin/bash' } }),
    JSON.stringify([0.1, 'o', '$ ./deploy\r\n']),
    JSON.stringify([0.5, 'i', 'y']),
    JSON.stringify([1.2, 'o', '\x1b[32mzephyrine\x1b[0m ready\r\n']),
    JSON.stringify([2, 'm', 'chapter']),
    JSON.stringify([2.5, 'o', 'quasi\x1b[1mlumen\x1b[0m done\r\n']),
  ].join('\n') + '\n';

const castOf = (...events: unknown[]) =>
  [
    JSON.stringify({ version: 2, width: 80, height: 24 }),
    ...events.map((event) => JSON.stringify(event)),
  ].join('\n');

describe('terminal recordings (asciicast v2)', () => {
  let bob: LiveUser;

  beforeAll(async () => {
    bob = await liveUser(t);
  });

  const language = async (id: number) =>
    ((await alice.browser.get(API.thread(id)).expect(200)).body as PasteDetail).language;

  const post = async (body: Record<string, unknown>, status = 201) =>
    alice.browser
      .post(API.threads)
      .send({ title: 'a recording', ...body })
      .expect(status);

  const sent = (query: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${t.url}${API.pastes}${query}`, {
      method: 'POST',
      headers: { Cookie: alice.cookie, Origin: t.origin, 'Content-Type': 'text/plain', ...headers },
      body,
    });

  const found = async (q: string, who: { browser: Browser } | null = null): Promise<number[]> => {
    await t.pagesChanged();
    const request = (who ? who.browser : t.http).get(API.search).query({ q });
    return searchResultsSchema
      .parse((await request.expect(200)).body)
      .threads.map((card) => card.id as number);
  };

  it('is detected by its shape on POST /api/threads, and by a .cast file name on POST /api/pastes', async () => {
    const id = (await post({ content: CAST })).body.id as number;
    expect(await language(id)).toBe('asciicast');
    expect(await language((await post({ content: CAST, language: 'cast' })).body.id as number)).toBe(
      'asciicast',
    );
    // Named otherwise: kept as named.
    expect(await language((await post({ content: CAST, language: 'json' })).body.id as number)).toBe('json');

    const boundary = 'castboundary';
    const form =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="rec.cast"\r\n\r\n${CAST}\r\n` +
      `--${boundary}--\r\n`;
    const res = await sent('', form, { 'Content-Type': `multipart/form-data; boundary=${boundary}` });
    expect(res.status).toBe(201);
    const formId = Number(/\/thread\/(\d+)\n$/.exec(await res.text())![1]);
    expect(await language(formId)).toBe('asciicast');

    const plain = await sent('', CAST);
    expect(plain.status).toBe(201);
    expect(await language(Number(/\/thread\/(\d+)\n$/.exec(await plain.text())![1]))).toBe('asciicast');
  });

  it('a header-shaped text that is no recording is not taken for one', async () => {
    const broken = castOf([1, 'o', 'a'], [0.5, 'o', 'b']);
    expect(await language((await post({ content: broken })).body.id as number)).toBeNull();
  });

  it('refuses a malformed recording named as one with a clear 400', async () => {
    const refused = async (content: string, message: string) => {
      const res = await post({ content, language: 'asciicast' }, 400);
      expect(res.body).toEqual({ statusCode: 400, message });
    };
    await refused('just text\n', ASCIICAST_MESSAGES.header);
    await refused('{"version": 1, "width": 80, "height": 24}\n', ASCIICAST_MESSAGES.version(1));
    await refused('{"version": 2, "width": 0, "height": 24}\n', ASCIICAST_MESSAGES.size);
    await refused('{"version": 2, "width": 80}\n', ASCIICAST_MESSAGES.size);
    await refused(castOf([0.5, 'o', 'a'], { time: 1 }), ASCIICAST_MESSAGES.event(3));
    await refused(castOf([0.5, 'x', 'a']), ASCIICAST_MESSAGES.event(2));
    await refused(castOf([0.5, 'o', 'a'], [0.2, 'o', 'b']), ASCIICAST_MESSAGES.time(3));
    // The event bound: contracts/src/asciicast.spec.ts (a paste of PASTE_MAX_BYTES holds fewer).

    // The terminal intake: a .cast file that is not one, or `?lang=asciicast`.
    const res = await sent('?lang=asciicast', castOf([2, 'o', 'a'], [1, 'o', 'b']), {
      Accept: 'application/json',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ statusCode: 400, message: ASCIICAST_MESSAGES.time(3) });
  });

  it('an edit keeps a recording well formed: 400 for content that is none, the language changed is fine', async () => {
    const id = (await post({ content: CAST })).body.id as number;
    const res = await alice.browser.patch(API.thread(id)).send({ content: 'not a recording' }).expect(400);
    expect(res.body.message).toBe(ASCIICAST_MESSAGES.header);
    await alice.browser
      .patch(API.thread(id))
      .send({ content: 'now plain', language: 'plaintext' })
      .expect(200);
    const other = (await post({ content: 'plain', language: 'plaintext' })).body.id as number;
    const named = await alice.browser.patch(API.thread(other)).send({ language: 'asciicast' }).expect(400);
    expect(named.body.message).toBe(ASCIICAST_MESSAGES.header);
  });

  it('raw serves the original .cast bytes', async () => {
    const id = (await post({ content: CAST })).body.id as number;
    const raw = await alice.browser.get(API.threadRaw(id)).expect(200);
    expect(raw.text).toBe(CAST);
  });

  it('search finds words printed in a recording (colours cut out), and not its JSON keys', async () => {
    const id = (await post({ title: 'deploy run', content: CAST })).body.id as number;
    expect(await found('zephyrine')).toContain(id);
    expect(await found('quasilumen')).toContain(id);
    expect(await found('"zephyrine ready"')).toContain(id);
    // The header's keys and values, the input and marker events: not printed, not found.
    for (const word of ['SHELL', 'timestamp', 'chapter', 'version'])
      expect(await found(word)).not.toContain(id);
    // The same JSON as a plain JSON paste: its keys are its text.
    const json = (await post({ title: 'json', content: CAST, language: 'json' })).body.id as number;
    expect(await found('timestamp')).toContain(json);
  });

  it('a private recording is a 404 to another member through raw, and not in their search', async () => {
    const id = (await post({ content: CAST.replace('zephyrine', 'nebulith'), visibility: 'private' })).body
      .id as string | number;
    await alice.browser.get(API.threadRaw(id)).expect(200);
    await bob.browser.get(API.threadRaw(id)).expect(404);
    await t.http.get(API.threadRaw(id)).expect(404);
    expect(await found('nebulith', bob)).toEqual([]);
    expect(await found('nebulith')).toEqual([]);
  });
});
