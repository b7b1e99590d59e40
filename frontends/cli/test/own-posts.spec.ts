import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { API, type PasteDetail } from '@termpaste/contracts';
import { type Browser, registered } from '../../../backend/test/support/accounts.js';
import { createTestApp, type TestApp } from '../../../backend/test/support/test-app.js';
import { makeToken, tempDir, termpaste } from './support.js';

/*
 * termpaste delete, fork, and edit of a paste's visibility and expiry, against the server's routes for
 * them (DELETE /api/threads/{id}, POST /api/threads/{id}/fork, PATCH with visibility and expiresIn).
 */

const KEY = /^[A-Za-z0-9_-]{22}$/;

describe('termpaste on what a member posted: delete, fork, edit its life', () => {
  let t: TestApp;
  let browser: Browser;
  /** The author's environment: TERMPASTE_URL and a token with pastes:write and read. */
  let env: Record<string, string>;
  /** Another member's. */
  let other: Record<string, string>;
  let files: string;

  beforeAll(async () => {
    t = await createTestApp();
    const author = await registered(t);
    browser = author.browser;
    env = { TERMPASTE_URL: t.url, TERMPASTE_TOKEN: (await makeToken(browser)).token };
    const member = await registered(t);
    other = { TERMPASTE_URL: t.url, TERMPASTE_TOKEN: (await makeToken(member.browser)).token };
    files = await tempDir('termpaste-cli-own-');
  });
  afterAll(async () => {
    await t?.close();
    await rm(files, { recursive: true, force: true });
  });

  /** A new paste of the author's (extra: termpaste's options): its ref. */
  async function made(content: string, ...extra: string[]): Promise<number | string> {
    const run = await termpaste(['--json', ...extra], { env, input: content });
    expect([run.code, run.stderr]).toEqual([0, '']);
    return (JSON.parse(run.stdout.toString()) as { id: number | string }).id;
  }

  /** The paste as its author reads it, or the status when that is not 200. */
  async function asAuthor(ref: number | string): Promise<PasteDetail | number> {
    const res = await browser.get(API.thread(ref));
    return res.status === 200 ? (res.body as PasteDetail) : res.status;
  }

  describe('delete', () => {
    it('deletes the author\'s paste: "Deleted URL", exit 0; it reads 404 after', async () => {
      const id = await made('to be deleted');
      const run = await termpaste(['delete', String(id)], { env });
      expect([run.code, run.stderr, run.stdout.toString()]).toEqual([
        0,
        '',
        `Deleted ${t.url}/thread/${id}\n`,
      ]);
      expect((await t.http.get(API.thread(id))).status).toBe(404);
      expect(await asAuthor(id)).toBe(404);
      const again = await termpaste(['delete', String(id)], { env });
      expect([again.code, again.stderr]).toEqual([
        1,
        'termpaste: the server answered 404: Thread not found\n',
      ]);
    });

    it('--json: {"deleted": ID}, a number or a key as the API writes it; by URL too', async () => {
      const id = await made('json delete');
      const run = await termpaste(['delete', String(id), '--json'], { env });
      expect([run.code, run.stderr, JSON.parse(run.stdout.toString())]).toEqual([0, '', { deleted: id }]);
      const key = await made('unlisted delete', '--unlisted');
      expect(key).toMatch(KEY);
      const byUrl = await termpaste(['--json', 'delete', `${t.url}/thread/${key}`], { env });
      expect([byUrl.code, JSON.parse(byUrl.stdout.toString())]).toEqual([0, { deleted: key }]);
      expect(await asAuthor(key)).toBe(404);
    });

    it("another member's paste: 403, nothing deleted; --json gives the status", async () => {
      const id = await made('not theirs');
      const run = await termpaste(['delete', String(id)], { env: other });
      expect([run.code, run.stdout.toString(), run.stderr]).toEqual([
        1,
        '',
        'termpaste: the server answered 403: You can only delete your own pastes\n',
      ]);
      const json = await termpaste(['delete', String(id), '--json'], { env: other });
      expect([json.code, JSON.parse(json.stderr)]).toEqual([
        1,
        { error: 'the server answered 403: You can only delete your own pastes', status: 403 },
      ]);
      expect(await asAuthor(id)).toMatchObject({ content: 'not theirs' });
    });

    it("another member's private paste: 404, as a missing one", async () => {
      const key = await made('hidden', '--private');
      const run = await termpaste(['delete', String(key)], { env: other });
      expect([run.code, run.stderr]).toEqual([1, 'termpaste: the server answered 404: Thread not found\n']);
      expect(await asAuthor(key)).toMatchObject({ content: 'hidden' });
    });

    it('needs pastes:write', async () => {
      const id = await made('read only token');
      const run = await termpaste(['delete', String(id)], {
        env: { TERMPASTE_URL: t.url, TERMPASTE_TOKEN: (await makeToken(browser, ['read'])).token },
      });
      expect([run.code, run.stderr]).toEqual([
        1,
        'termpaste: This access token lacks the pastes:write scope: make a token with the scope this needs in Settings → ACCESS TOKENS\n',
      ]);
    });
  });

  describe('fork', () => {
    it("makes the member's own copy: the new URL printed; it says where it came from", async () => {
      const original = await made('the original\n', '--title', 'upstream');
      const run = await termpaste(['fork', String(original)], { env: other });
      expect([run.code, run.stderr]).toEqual([0, '']);
      const url = run.stdout.toString();
      expect(url).toMatch(new RegExp(`^${t.url}/thread/[^/]+\n$`));
      const ref = url.slice(`${t.url}/thread/`.length, -1);
      const fork = (await t.http.get(API.thread(ref))).body as PasteDetail;
      expect([fork.title, fork.content, fork.forkedFrom?.id]).toEqual([
        'upstream',
        'the original\n',
        original,
      ]);
      expect(((await t.http.get(API.thread(original))).body as PasteDetail).forkCount).toBe(1);
    });

    it('FILE (or a pipe) is its content; --title, --private, --expire, --burn; --json: {"id"}', async () => {
      const original = await made('base');
      const file = path.join(files, 'patched.txt');
      await writeFile(file, 'patched');
      const run = await termpaste(
        ['fork', String(original), file, '--title', 'mine', '--private', '--expire', '1d', '--json'],
        { env },
      );
      expect([run.code, run.stderr]).toEqual([0, '']);
      const { id } = JSON.parse(run.stdout.toString()) as { id: string };
      expect(id).toMatch(KEY);
      expect(await asAuthor(id)).toMatchObject({
        title: 'mine',
        content: 'patched',
        visibility: 'private',
        expiresAt: expect.any(String),
      });
      expect((await t.http.get(API.thread(id))).status).toBe(404);

      const piped = await termpaste(['fork', String(original), '--burn', '--json'], {
        env,
        input: 'from a pipe',
      });
      const burning = JSON.parse(piped.stdout.toString()) as { id: string };
      expect(await asAuthor(burning.id)).toMatchObject({ content: 'from a pipe', burnAfterReading: true });
    });

    it('a paste the member may not read: 404; a missing one: 404', async () => {
      const key = await made('private original', '--private');
      for (const ref of [String(key), '999999']) {
        const run = await termpaste(['fork', ref], { env: other });
        expect([ref, run.code, run.stderr]).toEqual([
          ref,
          1,
          'termpaste: the server answered 404: Thread not found\n',
        ]);
      }
    });
  });

  describe('edit: visibility and expiry', () => {
    it('--private: the paste gets a key, the new URL printed; the number names it no more', async () => {
      const id = await made('going private');
      const run = await termpaste(['edit', String(id), '--private'], { env });
      expect([run.code, run.stderr]).toEqual([0, '']);
      const ref = run.stdout.toString().slice(`${t.url}/thread/`.length, -1);
      expect(ref).toMatch(KEY);
      expect(await asAuthor(ref)).toMatchObject({ visibility: 'private', content: 'going private' });
      expect((await t.http.get(API.thread(ref))).status).toBe(404);
      expect((await t.http.get(API.thread(id))).status).toBe(404);

      // Edited again by its key, back to public.
      const json = await termpaste(['edit', ref, '--public', '--json'], { env });
      expect([json.code, json.stderr]).toEqual([0, '']);
      expect(JSON.parse(json.stdout.toString())).toMatchObject({ id, visibility: 'public' });
    });

    it('--unlisted and --expire: as the API answers them', async () => {
      const id = await made('unlisted for an hour');
      const run = await termpaste(['edit', String(id), '--unlisted', '--expire', '1h', '--json'], { env });
      expect([run.code, run.stderr]).toEqual([0, '']);
      const edited = JSON.parse(run.stdout.toString()) as {
        id: string;
        visibility: string;
        expiresAt: string;
      };
      expect(edited).toMatchObject({ id: expect.stringMatching(KEY), visibility: 'unlisted' });
      const left = Date.parse(edited.expiresAt) - Date.now();
      expect(left).toBeGreaterThan(3_500_000);
      expect(left).toBeLessThanOrEqual(3_600_000);
      const never = await termpaste(['edit', edited.id, '--expire', 'never', '--json'], { env });
      expect(JSON.parse(never.stdout.toString())).toMatchObject({ expiresAt: null });
    });
  });
});
