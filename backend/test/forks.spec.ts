import {
  API,
  type CreatedAccessToken,
  POST_MESSAGES,
  LIMITS,
  type ForksPage,
  forksPageSchema,
  PASTE_MESSAGES,
  type PasteRef,
  type PasteDetail,
  pasteDetailSchema,
  TOKEN_MESSAGES,
} from '@termpaste/contracts';
import supertest from 'supertest';
import { type Browser, registered } from './support/accounts.js';
import { AWS_ACCESS_KEY_ID } from './support/secret-samples.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';
import { PageCache } from '../src/http/page-cache.js';

const NOT_FOUND = { statusCode: 404, message: POST_MESSAGES.pasteNotFound };
const GONE = { id: null, title: null };

interface Member {
  browser: Browser;
  user: { id: number; username: string };
}

/** Forks: `POST /api/threads/{id}/fork`, a fork's `forkedFrom`, an original's `forkCount` and forks list. */
describe('forking a paste', () => {
  let t: TestApp;
  let alice: Member;
  let bob: Member;
  const visitor = () => supertest(t.url);

  beforeAll(async () => {
    t = await createTestApp();
    alice = await registered(t);
    bob = await registered(t);
  });

  afterAll(async () => {
    await t?.close();
  });

  async function paste(member: Member, body: Record<string, unknown> = {}): Promise<PasteRef> {
    const res = await member.browser
      .post(API.threads)
      .send({ title: 'The original', content: 'echo original\n', ...body })
      .expect(201);
    return (res.body as { id: PasteRef }).id;
  }

  const fork = (member: Member, id: PasteRef, body?: Record<string, unknown>) => {
    const req = member.browser.post(API.threadFork(id));
    return body === undefined ? req : req.send(body);
  };

  async function forked(member: Member, id: PasteRef, body?: Record<string, unknown>): Promise<PasteRef> {
    return ((await fork(member, id, body).expect(201)).body as { id: PasteRef }).id;
  }

  async function detail(id: PasteRef, member?: Member): Promise<PasteDetail> {
    const res = await (member ? member.browser : visitor()).get(API.thread(id)).expect(200);
    return pasteDetailSchema.parse(res.body);
  }

  async function forks(id: PasteRef, member?: Member): Promise<ForksPage> {
    const res = await (member ? member.browser : visitor()).get(API.threadForks(id)).expect(200);
    return forksPageSchema.parse(res.body);
  }

  const row = async (id: PasteRef) => {
    const [found]: Array<{
      id: number;
      title: string;
      content: string;
      language: string | null;
      visibility: string;
      expires_at: Date | null;
      burn_after_reading: boolean;
      forked_from_id: number | null;
      is_fork: boolean;
      author_id: number;
    }> = await t.dataSource.query(
      `SELECT id, title, content, language, visibility, expires_at, burn_after_reading, forked_from_id, is_fork,
         author_id
       FROM threads WHERE ${typeof id === 'number' ? 'id' : 'key'} = $1`,
      [id],
    );
    return found!;
  };

  it("copies a public paste's title, content and language by default: a public paste, forked from it", async () => {
    const original = await paste(alice, { language: 'bash' });
    // Read (and cached) before the fork: the fork drops the original's page.
    expect((await detail(original)).forkCount).toBe(0);
    // No body at all is the defaults.
    const id = await forked(bob, original);
    expect(typeof id).toBe('number');
    const copy = await row(id);
    expect(copy).toMatchObject({
      title: 'The original',
      content: 'echo original\n',
      language: 'bash',
      visibility: 'public',
      expires_at: null,
      burn_after_reading: false,
      forked_from_id: original,
      is_fork: true,
      author_id: bob.user.id,
    });
    const shown = await detail(id);
    expect(shown.forkedFrom).toEqual({ id: original, title: 'The original' });
    expect(shown.author?.id).toBe(bob.user.id);
    expect(await forked(bob, original, {})).toEqual(expect.any(Number));
    const orig = await detail(original);
    expect(orig.forkCount).toBe(2);
    expect(orig.forkedFrom).toBeNull();
    // A paste that is no fork: null, and no forks.
    const plain = await paste(alice);
    expect((await detail(plain)).forkedFrom).toBeNull();
    expect(await forks(plain)).toEqual({ forks: [], nextCursor: null });
  });

  it('takes every field of a new paste as an override', async () => {
    const original = await paste(alice, { language: 'bash' });
    const id = await forked(bob, original, {
      title: '  My fork ',
      content: 'print(1)\n',
      language: 'py',
      visibility: 'unlisted',
      expiresIn: '1d',
      burnAfterReading: false,
    });
    expect(typeof id).toBe('string');
    const copy = await row(id);
    expect(copy).toMatchObject({
      title: 'My fork',
      content: 'print(1)\n',
      language: 'python',
      visibility: 'unlisted',
      forked_from_id: original,
      is_fork: true,
    });
    expect(copy.expires_at!.getTime() - Date.now()).toBeGreaterThan(86_000_000);
    expect((await detail(id)).forkedFrom).toEqual({ id: original, title: 'The original' });
    // Content given without a language keeps the original's; null is Markdown.
    const sameLanguage = await forked(bob, original, { content: 'ls -la\n' });
    expect((await row(sameLanguage)).language).toBe('bash');
    const markdown = await forked(bob, original, { language: null });
    expect((await row(markdown)).language).toBeNull();
    // A private fork and a burning one are the forker's too.
    const secret = await forked(bob, original, { visibility: 'private' });
    expect((await detail(secret, bob)).forkedFrom).toEqual({ id: original, title: 'The original' });
    await visitor().get(API.thread(secret)).expect(404, NOT_FOUND);
    const burning = await forked(bob, original, { burnAfterReading: true });
    expect(await row(burning)).toMatchObject({ burn_after_reading: true, is_fork: true });
    // The original counts and lists its public forks only.
    expect((await detail(original)).forkCount).toBe(2);
    expect((await forks(original)).forks.map((card) => card.id)).toEqual([markdown, sameLanguage]);
  });

  it('forks an unlisted paste by its key (not its number); the fork names it to its author only', async () => {
    const key = await paste(alice, { visibility: 'unlisted', title: 'Unlisted original' });
    const { id: number } = await row(key);
    await fork(bob, number).expect(404, NOT_FOUND);
    const id = await forked(bob, key);
    // Others reading the public fork must not learn the unlisted original's link.
    expect((await detail(id)).forkedFrom).toEqual(GONE);
    expect((await detail(id, bob)).forkedFrom).toEqual(GONE);
    expect((await detail(id, alice)).forkedFrom).toEqual({ id: key, title: 'Unlisted original' });
    // The page everyone shares was not changed by the author's read.
    expect((await detail(id)).forkedFrom).toEqual(GONE);
    // The unlisted original counts and lists its public fork.
    expect((await detail(key)).forkCount).toBe(1);
    expect((await forks(key)).forks.map((card) => card.id)).toEqual([id]);
    await visitor().get(API.threadForks(number)).expect(404, NOT_FOUND);
  });

  it('forks a private paste for its author only: 404 to others, exactly as none', async () => {
    const key = await paste(alice, { visibility: 'private', title: 'Private original' });
    await fork(bob, key).expect(404, NOT_FOUND);
    await fork(bob, key, { content: 'my own text' }).expect(404, NOT_FOUND);
    const id = await forked(alice, key);
    expect((await row(id)).visibility).toBe('public');
    expect((await detail(id)).forkedFrom).toEqual(GONE);
    expect((await detail(id, bob)).forkedFrom).toEqual(GONE);
    expect((await detail(id, alice)).forkedFrom).toEqual({ id: key, title: 'Private original' });
    await bob.browser.get(API.threadForks(key)).expect(404, NOT_FOUND);
    expect((await forks(key, alice)).forks.map((card) => card.id)).toEqual([id]);
  });

  it('forks a paste that burns after reading for its author only: its content was never shown', async () => {
    const key = await paste(alice, { burnAfterReading: true, content: 'read me once' });
    await fork(bob, key).expect(404, NOT_FOUND);
    // Bob's fork attempt burnt nothing.
    expect((await row(key)).content).toBe('read me once');
    const id = await forked(alice, key, { burnAfterReading: false });
    expect((await row(id)).content).toBe('read me once');
  });

  it('a fork of a deleted original says so: forked from a deleted paste', async () => {
    const original = await paste(alice, { title: 'Soon gone' });
    const id = await forked(bob, original);
    const kept = await forked(bob, original, { visibility: 'unlisted' });
    expect((await detail(id)).forkedFrom).toEqual({ id: original, title: 'Soon gone' });
    await t.dataSource.query('UPDATE threads SET deleted_at = now() WHERE id = $1', [original]);
    await t.pagesChanged();
    expect((await detail(id)).forkedFrom).toEqual(GONE);
    expect((await detail(id, alice)).forkedFrom).toEqual(GONE);
    expect((await detail(kept)).forkedFrom).toEqual(GONE);
    await fork(bob, original).expect(404, NOT_FOUND);
    await visitor().get(API.threadForks(original)).expect(404, NOT_FOUND);
    // Removed for good: the fork still was one.
    await t.dataSource.query('DELETE FROM threads WHERE id = $1', [original]);
    await t.pagesChanged();
    expect(await row(id)).toMatchObject({ forked_from_id: null, is_fork: true });
    expect((await detail(id)).forkedFrom).toEqual(GONE);
    // An expired original is gone too.
    const expiring = await paste(alice, { title: 'Expiring' });
    const child = await forked(bob, expiring);
    await t.dataSource.query(`UPDATE threads SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      expiring,
    ]);
    await t.pagesChanged();
    expect((await detail(child)).forkedFrom).toEqual(GONE);
  });

  it('counts and lists only public, alive forks, newest first', async () => {
    const original = await paste(alice, { title: 'Popular' });
    const ids: number[] = [];
    for (const title of ['first', 'second', 'third', 'fourth']) {
      ids.push((await forked(bob, original, { title })) as number);
    }
    await forked(bob, original, { visibility: 'unlisted' });
    await forked(bob, original, { visibility: 'private' });
    expect((await detail(original)).forkCount).toBe(4);
    const listed = await forks(original);
    expect(listed.forks.map((card) => card.id)).toEqual([...ids].reverse());
    expect(listed.forks[0]).toMatchObject({ title: 'fourth', visibility: 'public' });
    expect(listed.forks[0]!.author?.username).toBe(bob.user.username);
    expect(listed.nextCursor).toBeNull();
    // Deleted, expired, made unlisted: each leaves the count and the list, with no write to the original.
    await t.dataSource.query('UPDATE threads SET deleted_at = now() WHERE id = $1', [ids[0]]);
    await t.dataSource.query(`UPDATE threads SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      ids[1],
    ]);
    await t.dataSource.query(
      `UPDATE threads SET visibility = 'unlisted', key = 'AAAAAAAAAAAAAAAAAAAAAA' WHERE id = $1`,
      [ids[2]],
    );
    await t.pagesChanged();
    expect((await detail(original)).forkCount).toBe(1);
    expect((await forks(original)).forks.map((card) => card.id)).toEqual([ids[3]]);
  });

  it("a paste's cached page follows its forks' and its original's changes as soon as they are announced", async () => {
    const pages = t.app.get(PageCache);
    const original = (await paste(alice, { title: 'Cached original' })) as number;
    const hidden = (await forked(bob, original)) as number;
    const kept = await forked(bob, original);
    expect((await detail(original)).forkCount).toBe(2);
    expect((await detail(kept)).forkedFrom).toEqual({ id: original, title: 'Cached original' });
    // Changed behind the app's back: the cached pages do not know yet.
    await t.dataSource.query(
      `UPDATE threads SET visibility = 'unlisted', key = 'BBBBBBBBBBBBBBBBBBBBBB' WHERE id = $1`,
      [hidden],
    );
    await t.dataSource.query(`UPDATE threads SET title = 'Renamed original' WHERE id = $1`, [original]);
    expect((await detail(original)).forkCount).toBe(2);
    expect((await detail(kept)).forkedFrom).toEqual({ id: original, title: 'Cached original' });
    // A fork's change, as its writer announces it, drops its original's page (the count).
    await pages.changed({ threads: [hidden] });
    expect((await detail(original)).forkCount).toBe(1);
    // The original's change drops its forks' pages (the title they show).
    await pages.changed({ threads: [original] });
    expect((await detail(kept)).forkedFrom).toEqual({ id: original, title: 'Renamed original' });
  });

  it('pages the forks by a cursor; a made-up cursor is a 400', async () => {
    const original = await paste(alice);
    const first = await forked(bob, original);
    await visitor()
      .get(API.threadForks(original))
      .query({ cursor: 'nonsense' })
      .expect(400, { statusCode: 400, message: 'Invalid cursor' });
    expect((await forks(original)).forks.map((card) => card.id)).toEqual([first]);
  });

  it('forks a fork: each names its own original', async () => {
    const original = await paste(alice, { title: 'Root' });
    const child = await forked(bob, original, { title: 'Child' });
    const grandchild = await forked(alice, child);
    expect((await detail(grandchild)).forkedFrom).toEqual({ id: child, title: 'Child' });
    expect((await row(grandchild)).title).toBe('Child');
    expect((await detail(original)).forkCount).toBe(1);
    expect((await detail(child)).forkCount).toBe(1);
  });

  it("a fork's copied @mentions notify nobody anew; the mentions it writes do", async () => {
    const ofSource = async (source: string): Promise<number> => {
      const [{ n }]: Array<{ n: number }> = await t.dataSource.query(
        'SELECT count(*)::int AS n FROM notifications WHERE source = $1',
        [source],
      );
      return n;
    };
    const original = await paste(alice, { content: `hello @${bob.user.username}` });
    await waitFor('the original mention', async () => (await ofSource(`thread:${original}`)) === 1);
    const copied = await forked(alice, original);
    const written = await forked(alice, original, { content: `again @${bob.user.username}` });
    // Jobs run in the order they were written: once the second fork's is done, the first's would be.
    await waitFor('the written mention', async () => (await ofSource(`thread:${written}`)) === 1);
    expect(await ofSource(`thread:${copied}`)).toBe(0);
  });

  it('answers 404 for what names no paste, and 401 to a visitor', async () => {
    const original = await paste(alice);
    for (const id of ['abc', '0', '99999999', 'AAAAAAAAAAAAAAAAAAAAAB']) {
      await fork(bob, id).expect(404, NOT_FOUND);
      await visitor().get(API.threadForks(id)).expect(404, NOT_FOUND);
    }
    await visitor().post(API.threadFork(original)).set('Origin', t.origin).expect(401);
  });

  it.each([
    [{ title: '   ' }, `title: ${POST_MESSAGES.titleRequired}`],
    [{ title: 'x'.repeat(LIMITS.titleMax + 1) }, `title: ${POST_MESSAGES.titleTooLong}`],
    [{ content: ' \n ' }, `content: ${POST_MESSAGES.contentRequired}`],
    [{ visibility: 'secret' }, 'visibility: Visibility must be one of public, unlisted, private'],
    [{ expiresIn: '2h' }, 'expiresIn: expiresIn must be one of 10m, 1h, 1d, 1w, 1mo, never'],
    [{ burnAfterReading: 'yes' }, 'burnAfterReading: burnAfterReading must be true or false'],
    [{ language: 'klingon' }, PASTE_MESSAGES.unknownLanguage('klingon')],
  ])('refuses %j: 400 %s, and forks nothing', async (body, message) => {
    const original = await paste(alice);
    await fork(bob, original, body).expect(400, { statusCode: 400, message });
    expect((await forks(original)).forks).toEqual([]);
    const [{ n }]: Array<{ n: number }> = await t.dataSource.query(
      'SELECT count(*)::int AS n FROM threads WHERE forked_from_id = $1',
      [original],
    );
    expect(n).toBe(0);
  });

  it('checks the content for secrets, given or copied: 422 unless allowSecrets', async () => {
    const leaky = `export AWS_ACCESS_KEY_ID=${AWS_ACCESS_KEY_ID}\n`;
    const clean = await paste(alice);
    const refused = await fork(bob, clean, { content: leaky }).expect(422);
    expect(refused.text).not.toContain(AWS_ACCESS_KEY_ID);
    await fork(bob, clean, { content: leaky, allowSecrets: true }).expect(201);
    const original = await alice.browser
      .post(API.threads)
      .send({ title: 'Leaky', content: leaky, allowSecrets: true })
      .expect(201);
    const id = (original.body as { id: number }).id;
    await fork(bob, id).expect(422);
    await fork(bob, id).query({ allowSecrets: 'true' }).expect(201);
  });

  it('takes a personal access token with pastes:write, and no other', async () => {
    const original = await paste(alice);
    const token = async (scopes: string[]) =>
      (
        (await bob.browser.post(API.userTokens).send({ name: 'cli', scopes }).expect(201))
          .body as CreatedAccessToken
      ).token;
    const read = await token(['read']);
    await supertest(t.url)
      .post(API.threadFork(original))
      .set('Authorization', `Bearer ${read}`)
      .expect(403, { statusCode: 403, message: TOKEN_MESSAGES.missingScope('pastes:write') });
    const write = await token(['pastes:write']);
    const res = await supertest(t.url)
      .post(API.threadFork(original))
      .set('Authorization', `Bearer ${write}`)
      .send({ title: 'From the terminal' })
      .expect(201);
    const copy = await row((res.body as { id: PasteRef }).id);
    expect(copy).toMatchObject({
      title: 'From the terminal',
      author_id: bob.user.id,
      forked_from_id: original,
    });
  });
});

describe('forking within the write limits of a new paste', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        RATE_LIMITS: 'on',
        RATE_LIMIT_REGISTER_PER_HOUR: '100',
        RATE_LIMIT_PASTES_PER_MINUTE: '5',
        RATE_LIMIT_PASTES_PER_HOUR: '2',
        PASTE_MAX_BYTES: '64',
      },
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('a fork counts as a paste: 429 `You are posting too fast…` past the limit, nothing saved', async () => {
    const alice = await registered(t);
    const bob = await registered(t);
    const original = (
      await alice.browser.post(API.threads).send({ title: 'original', content: 'x' }).expect(201)
    ).body as { id: number };
    await bob.browser.post(API.threads).send({ title: 'own', content: 'y' }).expect(201);
    await bob.browser.post(API.threadFork(original.id)).expect(201);
    const refused = await bob.browser.post(API.threadFork(original.id)).expect(429);
    expect((refused.body as { message: string }).message).toMatch(/^You are posting too fast\. Try again in/);
    expect(refused.headers['retry-after']).toBeDefined();
    const [{ n }]: Array<{ n: number }> = await t.dataSource.query(
      'SELECT count(*)::int AS n FROM threads WHERE author_id = $1',
      [bob.user.id],
    );
    expect(n).toBe(2);
  });

  it('content past PASTE_MAX_BYTES is a 413, as for a new paste', async () => {
    const alice = await registered(t);
    const bob = await registered(t);
    const original = (
      await alice.browser.post(API.threads).send({ title: 'original', content: 'x' }).expect(201)
    ).body as { id: number };
    await bob.browser
      .post(API.threadFork(original.id))
      .send({ content: 'z'.repeat(65) })
      .expect(413, { statusCode: 413, message: PASTE_MESSAGES.tooLarge(64) });
  });
});
