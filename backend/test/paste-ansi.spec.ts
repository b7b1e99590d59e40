import { API, PASTE_MESSAGES, type PasteDetail } from '@termpaste/contracts';
import { type Browser, registered } from './support/accounts.js';
import { liveUser } from './support/live.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** `ls --color` output: SGR colours and bold. */
const LS = '\x1b[0m\x1b[01;34mbin\x1b[0m  \x1b[01;32mrun.sh\x1b[0m  notes.txt\n';

describe('terminal output: the language `ansi`', () => {
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
