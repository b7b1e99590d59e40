import {
  API,
  BOOKMARKS_PAGE_SIZE,
  bookmarksPageSchema,
  pasteWatchStateSchema,
  POST_MESSAGES,
  type PasteRef,
  WATCHING_MESSAGES,
  watchingListSchema,
} from '@termpaste/contracts';
import { NotificationsProcessor } from '../src/modules/notifications/notifications.processor.js';
import { type Browser, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

type Member = Awaited<ReturnType<typeof registered>>;

const PASTE_404 = { statusCode: 404, message: POST_MESSAGES.pasteNotFound };
const REPLY_404 = { statusCode: 404, message: POST_MESSAGES.replyNotFound };
const USER_404 = { statusCode: 404, message: WATCHING_MESSAGES.userNotFound };
const TAG_404 = { statusCode: 404, message: WATCHING_MESSAGES.tagNotFound };
const bad = (message: string) => ({ statusCode: 400, message });

describe('watching, following and bookmarks', () => {
  let t: TestApp;
  let alice: Member;
  let bob: Member;
  let carol: Member;
  let dave: Member;
  let owner: Member;
  let processor: NotificationsProcessor;
  let runs = 0;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await registered(t); // the first account: an admin
    [alice, bob, carol, dave] = [
      await registered(t),
      await registered(t),
      await registered(t),
      await registered(t),
    ];
    processor = t.app.get(NotificationsProcessor);
  });

  afterAll(async () => {
    await t.close();
  });

  afterEach(() => {
    const failures = t.logs.entries.filter((e) => e.level === 'error');
    expect(failures.map((e) => e.message)).toEqual([]);
  });

  /** Runs a fan-out job as a worker would (again after the queue's own run: it creates nothing new). */
  const runJob = (name: 'thread' | 'reply', data: object) =>
    processor.process({ id: `watch-test-${runs++}`, name, data, attemptsMade: 0 });

  async function paste(member: Member, body: Record<string, unknown> = {}): Promise<PasteRef> {
    const res = await member.browser
      .post(API.threads)
      .send({ title: 'Watched paste', content: 'echo hi\n', ...body })
      .expect(201);
    return (res.body as { id: PasteRef }).id;
  }

  /** A paste written directly: no job queued, so the test runs it when it chooses. */
  async function insertPaste(author: Member, title: string): Promise<number> {
    const [row] = await t.dataSource.query(
      'INSERT INTO threads (title, content, author_id) VALUES ($1, $2, $3) RETURNING id',
      [title, 'content', author.user.id],
    );
    return (row as { id: number }).id;
  }

  async function reply(member: Member, ref: PasteRef, content = 'A reply'): Promise<number> {
    const res = await member.browser.post(API.threadReplies(ref)).send({ content }).expect(201);
    return (res.body as { id: number }).id;
  }

  async function insertReply(threadId: number, author: Member, content = 'quiet reply'): Promise<number> {
    const [row] = await t.dataSource.query(
      'INSERT INTO replies (thread_id, author_id, content) VALUES ($1, $2, $3) RETURNING id',
      [threadId, author.user.id, content],
    );
    return (row as { id: number }).id;
  }

  const idOf = async (ref: PasteRef): Promise<number> =>
    typeof ref === 'number'
      ? ref
      : ((await t.dataSource.query('SELECT id FROM threads WHERE key = $1', [ref]))[0] as { id: number }).id;

  async function notices(source: string): Promise<Array<[number, string]>> {
    const rows: Array<{ user_id: number; type: string }> = await t.dataSource.query(
      'SELECT user_id, type FROM notifications WHERE source = $1 ORDER BY user_id',
      [source],
    );
    return rows.map((row) => [row.user_id, row.type]);
  }

  const sorted = (pairs: Array<[number, string]>) => [...pairs].sort((a, b) => a[0] - b[0]);

  async function watching(browser: Browser, ref: PasteRef): Promise<boolean> {
    const res = await browser.get(API.threadWatch(ref)).expect(200);
    return pasteWatchStateSchema.strict().parse(res.body).watching;
  }

  async function tag(name: string): Promise<number> {
    const [row] = await t.dataSource.query(
      'INSERT INTO tags (name) VALUES ($1) ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id',
      [name],
    );
    return (row as { id: number }).id;
  }

  const visitor = () => t.browser();

  it('needs a signed-in member for every call (401)', async () => {
    const calls: Array<[string, string]> = [
      ['GET', API.threadWatch(1)],
      ['PUT', API.threadWatch(1)],
      ['DELETE', API.threadWatch(1)],
      ['GET', API.userFollow(1)],
      ['PUT', API.userFollow(1)],
      ['DELETE', API.userFollow(1)],
      ['PUT', API.tagWatch('rust')],
      ['DELETE', API.tagWatch('rust')],
      ['GET', API.bookmarks],
      ['PUT', API.bookmark('paste', 1)],
      ['DELETE', API.bookmark('reply', 1)],
      ['GET', API.userWatching],
      ['PUT', API.userWatching],
    ];
    for (const [method, path] of calls) {
      const res = await visitor()[method.toLowerCase() as 'get'](path);
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 401 });
    }
  });

  describe('a paste', () => {
    it('is watched and unwatched, idempotently (204)', async () => {
      const ref = await paste(alice);
      expect(await watching(bob.browser, ref)).toBe(false);
      await bob.browser.put(API.threadWatch(ref)).expect(204);
      await bob.browser.put(API.threadWatch(ref)).expect(204);
      expect(await watching(bob.browser, ref)).toBe(true);
      await bob.browser.delete(API.threadWatch(ref)).expect(204);
      await bob.browser.delete(API.threadWatch(ref)).expect(204);
      expect(await watching(bob.browser, ref)).toBe(false);
    });

    it('is a 404 when the member may not read it: private, unlisted by number, none', async () => {
      const secret = await paste(alice, { visibility: 'private' });
      const unlisted = await paste(alice, { visibility: 'unlisted' });
      for (const ref of [secret, await idOf(secret), await idOf(unlisted), 99999999, 'nope']) {
        for (const call of [
          bob.browser.put(API.threadWatch(ref)),
          bob.browser.get(API.threadWatch(ref)),
          bob.browser.put(API.bookmark('paste', ref)).send({}),
        ]) {
          expect((await call).body).toEqual(PASTE_404);
        }
      }
      // An unlisted paste by its key, and one's own private paste, may be watched.
      await bob.browser.put(API.threadWatch(unlisted)).expect(204);
      await alice.browser.put(API.threadWatch(secret)).expect(204);
    });
  });

  describe('a member', () => {
    it('is followed and unfollowed, idempotently', async () => {
      const state = async () => (await bob.browser.get(API.userFollow(alice.user.id)).expect(200)).body;
      expect(await state()).toEqual({ following: false });
      await bob.browser.put(API.userFollow(alice.user.id)).expect(204);
      await bob.browser.put(API.userFollow(alice.user.id)).expect(204);
      expect(await state()).toEqual({ following: true });
      await bob.browser.delete(API.userFollow(alice.user.id)).expect(204);
      await bob.browser.delete(API.userFollow(alice.user.id)).expect(204);
      expect(await state()).toEqual({ following: false });
    });

    it('refuses following oneself (400) and nobody (404)', async () => {
      expect((await bob.browser.put(API.userFollow(bob.user.id))).body).toEqual(
        bad(WATCHING_MESSAGES.followSelf),
      );
      for (const id of [99999999, 'abc', 0]) {
        expect((await bob.browser.put(API.userFollow(id))).body).toEqual(USER_404);
        expect((await bob.browser.delete(API.userFollow(id))).body).toEqual(USER_404);
        expect((await bob.browser.get(API.userFollow(id))).body).toEqual(USER_404);
      }
    });
  });

  describe('a tag', () => {
    it('is watched by its name (any case) and unwatched; an unknown tag is a 404', async () => {
      await tag('watch-me');
      await bob.browser.put(API.tagWatch('Watch-Me')).expect(204);
      await bob.browser.put(API.tagWatch('watch-me')).expect(204);
      expect((await bob.browser.get(API.tagWatch('watch-me')).expect(200)).body).toEqual({ watching: true });
      await bob.browser.delete(API.tagWatch('watch-me')).expect(204);
      expect((await bob.browser.get(API.tagWatch('watch-me')).expect(200)).body).toEqual({ watching: false });
      for (const name of ['no-such-tag', 'x', '%20']) {
        expect((await bob.browser.put(API.tagWatch(name))).body).toEqual(TAG_404);
        expect((await bob.browser.delete(API.tagWatch(name))).body).toEqual(TAG_404);
      }
    });

    it("moves its watchers to the tag it is merged into (once each), through the admins' merge", async () => {
      await tag('merged-away');
      const into = await tag('merged-into');
      await bob.browser.put(API.tagWatch('merged-away')).expect(204);
      await carol.browser.put(API.tagWatch('merged-away')).expect(204);
      await carol.browser.put(API.tagWatch('merged-into')).expect(204);
      await owner.browser.post(API.adminTagMerge('merged-away')).send({ into: 'merged-into' }).expect(200);
      const rows = await t.dataSource.query('SELECT user_id FROM tag_watches WHERE tag_id = $1 ORDER BY 1', [
        into,
      ]);
      expect(rows.map((row: { user_id: number }) => row.user_id)).toEqual([bob.user.id, carol.user.id]);
    });

    it('keeps its watchers through a rename, and loses them when deleted', async () => {
      const id = await tag('old-name');
      await bob.browser.put(API.tagWatch('old-name')).expect(204);
      await t.dataSource.query("UPDATE tags SET name = 'new-name' WHERE id = $1", [id]);
      expect((await bob.browser.get(API.tagWatch('new-name')).expect(200)).body).toEqual({ watching: true });
      expect((await bob.browser.get(API.userWatching).expect(200)).body.tags).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'new-name' })]),
      );
      await t.dataSource.query('DELETE FROM tags WHERE id = $1', [id]);
      expect(await t.dataSource.query('SELECT 1 FROM tag_watches WHERE tag_id = $1', [id])).toEqual([]);
    });
  });

  describe('bookmarks', () => {
    it('saves a paste and a reply with notes, lists them newest first, edits and removes them', async () => {
      const ref = await paste(alice, { title: 'Bookmarked paste' });
      const replyId = await reply(carol, ref, 'A reply worth keeping');
      await dave.browser.put(API.bookmark('paste', ref)).send({ note: '  read later  ' }).expect(204);
      await dave.browser.put(API.bookmark('reply', replyId)).expect(204);
      let page = bookmarksPageSchema.strict().parse((await dave.browser.get(API.bookmarks).expect(200)).body);
      expect(page.nextCursor).toBeNull();
      expect(page.bookmarks.map((b) => [b.kind, b.target, b.note, b.paste.title])).toEqual([
        ['reply', replyId, null, 'Bookmarked paste'],
        ['paste', ref, 'read later', 'Bookmarked paste'],
      ]);
      expect(page.bookmarks[0]!.reply).toEqual(
        expect.objectContaining({ id: replyId, excerpt: 'A reply worth keeping' }),
      );
      expect(page.bookmarks[0]!.reply!.author!.id).toBe(carol.user.id);
      expect(page.bookmarks[1]!.paste.author!.id).toBe(alice.user.id);
      // A new note keeps the bookmark's place; a blank one clears it.
      await dave.browser.put(API.bookmark('paste', ref)).send({ note: 'edited' }).expect(204);
      await dave.browser.put(API.bookmark('reply', replyId)).send({ note: '   ' }).expect(204);
      page = bookmarksPageSchema.parse((await dave.browser.get(API.bookmarks).expect(200)).body);
      expect(page.bookmarks.map((b) => [b.kind, b.note])).toEqual([
        ['reply', null],
        ['paste', 'edited'],
      ]);
      const state = pasteWatchStateSchema.parse(
        (await dave.browser.get(API.threadWatch(ref)).expect(200)).body,
      );
      expect(state).toEqual({
        watching: false,
        pasteBookmark: 'edited',
        replyBookmarks: [{ replyId, note: null }],
      });
      // Another member sees none of them.
      expect((await bob.browser.get(API.bookmarks).expect(200)).body.bookmarks).toEqual([]);
      await dave.browser.delete(API.bookmark('paste', ref)).expect(204);
      await dave.browser.delete(API.bookmark('paste', ref)).expect(204);
      await dave.browser.delete(API.bookmark('reply', replyId)).expect(204);
      expect((await dave.browser.get(API.bookmarks).expect(200)).body.bookmarks).toEqual([]);
    });

    it('checks the note, the kind, the reply and the cursor', async () => {
      const ref = await paste(alice);
      const put = (body: unknown) => dave.browser.put(API.bookmark('paste', ref)).send(body as object);
      expect((await put({ note: 'x'.repeat(201) })).body).toEqual(
        bad(`note: ${WATCHING_MESSAGES.noteTooLong}`),
      );
      expect((await put({ note: 42 })).body).toEqual(bad(`note: ${WATCHING_MESSAGES.noteNotText}`));
      await put({ note: 'x'.repeat(200) }).expect(204);
      for (const kind of ['thread', 'PASTE']) {
        expect((await dave.browser.put(API.bookmark(kind, ref)).send({})).body).toEqual({
          statusCode: 404,
          message: WATCHING_MESSAGES.bookmarkKind,
        });
      }
      for (const id of [99999999, 'abc']) {
        expect((await dave.browser.put(API.bookmark('reply', id)).send({})).body).toEqual(REPLY_404);
      }
      expect((await dave.browser.get(API.bookmarks).query({ cursor: 'made-up' })).body).toEqual(
        bad('Invalid cursor'),
      );
    });

    it('refuses a reply the member may not read: hidden (404 reply), on a private paste (404 paste)', async () => {
      const ref = await paste(alice);
      const threadId = await idOf(ref);
      const hidden = await insertReply(threadId, carol);
      await t.dataSource.query('UPDATE replies SET hidden_at = now() WHERE id = $1', [hidden]);
      expect((await dave.browser.put(API.bookmark('reply', hidden)).send({})).body).toEqual(REPLY_404);
      await carol.browser.put(API.bookmark('reply', hidden)).send({}).expect(204);
      const secret = await paste(alice, { visibility: 'private' });
      const onSecret = await insertReply(await idOf(secret), alice);
      expect((await dave.browser.put(API.bookmark('reply', onSecret)).send({})).body).toEqual(PASTE_404);
    });

    it('pages newest first', async () => {
      const threadId = await insertPaste(alice, 'Many replies');
      const ids: number[] = [];
      for (let i = 0; i <= BOOKMARKS_PAGE_SIZE; i++)
        ids.push(await insertReply(threadId, carol, `reply ${i}`));
      await t.dataSource.query(
        `INSERT INTO bookmarks (user_id, reply_id, created_at)
         SELECT $1, id, now() - (id * interval '1 second') FROM unnest($2::int[]) id`,
        [bob.user.id, ids],
      );
      const first = bookmarksPageSchema.parse((await bob.browser.get(API.bookmarks).expect(200)).body);
      expect(first.bookmarks).toHaveLength(BOOKMARKS_PAGE_SIZE);
      const next = bookmarksPageSchema.parse(
        (await bob.browser.get(API.bookmarks).query({ cursor: first.nextCursor }).expect(200)).body,
      );
      expect([...first.bookmarks, ...next.bookmarks].map((b) => b.target)).toEqual(ids);
      expect(next.nextCursor).toBeNull();
      await t.dataSource.query('DELETE FROM bookmarks WHERE user_id = $1', [bob.user.id]);
    });
  });

  describe('what the member may no longer read', () => {
    it.each(['private', 'hidden', 'deleted'] as const)(
      'leaves the bookmarks and the watching list once the paste is %s, naming nothing',
      async (change) => {
        const title = `Soon ${change} ${runs++}`;
        const ref = await paste(alice, { title });
        const threadId = await idOf(ref);
        const replyId = await reply(alice, ref, 'reply on it');
        await carol.browser.put(API.threadWatch(ref)).expect(204);
        await carol.browser.put(API.bookmark('paste', ref)).send({ note: 'n' }).expect(204);
        await carol.browser.put(API.bookmark('reply', replyId)).send({}).expect(204);
        const shown = async () => {
          const bookmarks = await carol.browser.get(API.bookmarks).expect(200);
          const list = await carol.browser.get(API.userWatching).expect(200);
          watchingListSchema.strict().parse(list.body);
          return JSON.stringify(bookmarks.body).includes(title) || JSON.stringify(list.body).includes(title);
        };
        expect(await shown()).toBe(true);
        const set = {
          private: "visibility = 'private', key = substr(md5('k' || id), 1, 22)",
          hidden: 'hidden_at = now()',
          deleted: 'deleted_at = now()',
        }[change];
        await t.dataSource.query(`UPDATE threads SET ${set} WHERE id = $1`, [threadId]);
        expect(await shown()).toBe(false);
        // Its author still sees their own private or hidden paste in theirs.
        expect((await carol.browser.put(API.threadWatch(threadId))).body).toEqual(PASTE_404);
      },
    );
  });

  describe('the watching screen', () => {
    it('lists watched pastes, followed members and watched tags, newest first, with the setting', async () => {
      const member = await registered(t);
      const first = await paste(alice, { title: 'First watched' });
      const second = await paste(bob, { title: 'Second watched' });
      await member.browser.put(API.threadWatch(first)).expect(204);
      await member.browser.put(API.threadWatch(second)).expect(204);
      await member.browser.put(API.userFollow(alice.user.id)).expect(204);
      await tag('listed-tag');
      await member.browser.put(API.tagWatch('listed-tag')).expect(204);
      const list = watchingListSchema.parse((await member.browser.get(API.userWatching).expect(200)).body);
      expect(list.autoWatch).toBe(true);
      expect(list.pastes.map((p) => [p.ref, p.title])).toEqual([
        [second, 'Second watched'],
        [first, 'First watched'],
      ]);
      expect(list.members.map((m) => m.member.id)).toEqual([alice.user.id]);
      expect(list.tags.map((g) => g.name)).toEqual(['listed-tag']);
      expect((await member.browser.put(API.userWatching).send({ autoWatch: 'yes' })).body).toEqual(
        bad(`autoWatch: ${WATCHING_MESSAGES.autoWatchNotBoolean}`),
      );
      expect(
        (await member.browser.put(API.userWatching).send({ autoWatch: false }).expect(200)).body,
      ).toEqual({
        autoWatch: false,
      });
      expect((await member.browser.get(API.userWatching).expect(200)).body.autoWatch).toBe(false);
    });
  });

  describe('notifications', () => {
    it('tell a paste’s watchers of a reply, once per member, never its author', async () => {
      const ref = await paste(alice, { title: 'Fan-out' });
      const threadId = await idOf(ref);
      await runJob('thread', { threadId });
      expect(await watching(alice.browser, ref)).toBe(true); // the author, implicitly
      await carol.browser.put(API.threadWatch(ref)).expect(204);
      await dave.browser.put(API.threadWatch(ref)).expect(204);
      // Bob replies: alice hears 'reply' (not also 'watch'), carol and dave 'watch', bob nothing.
      const first = await reply(bob, ref, 'first');
      await runJob('reply', { replyId: first });
      expect(sorted(await notices(`reply:${first}`))).toEqual(
        sorted([
          [alice.user.id, 'reply'],
          [carol.user.id, 'watch'],
          [dave.user.id, 'watch'],
        ]),
      );
      const [row] = await t.dataSource.query(
        "SELECT content, thread_id FROM notifications WHERE source = $1 AND type = 'watch' LIMIT 1",
        [`reply:${first}`],
      );
      expect(row).toEqual({ content: `${bob.account.username} replied in "Fan-out"`, thread_id: threadId });
      expect(await watching(bob.browser, ref)).toBe(true); // who replied, implicitly
      // Dave mentions carol: carol hears 'mention' only; bob (who replied) 'watch'.
      const second = await reply(dave, ref, `@${carol.account.username} look`);
      await runJob('reply', { replyId: second });
      expect(sorted(await notices(`reply:${second}`))).toEqual(
        sorted([
          [alice.user.id, 'reply'],
          [bob.user.id, 'watch'],
          [carol.user.id, 'mention'],
        ]),
      );
    });

    it('keep an explicit unwatch of an implicitly watched paste, and respect the setting', async () => {
      const ref = await paste(alice, { title: 'Unwatched' });
      const replyOf = async (member: Member) => {
        const id = await reply(member, ref);
        await runJob('reply', { replyId: id });
        return id;
      };
      await replyOf(bob);
      expect(await watching(bob.browser, ref)).toBe(true);
      await bob.browser.delete(API.threadWatch(ref)).expect(204);
      await replyOf(bob); // replying again does not watch it again
      expect(await watching(bob.browser, ref)).toBe(false);
      const quiet = await registered(t);
      await quiet.browser.put(API.userWatching).send({ autoWatch: false }).expect(200);
      await replyOf(quiet);
      expect(await watching(quiet.browser, ref)).toBe(false);
      const last = await replyOf(carol);
      expect((await notices(`reply:${last}`)).map(([id]) => id)).not.toEqual(
        expect.arrayContaining([bob.user.id]),
      );
      expect((await notices(`reply:${last}`)).map(([id]) => id)).not.toContain(quiet.user.id);
    });

    it('tell no watcher of a hidden reply, a reply on a private or hidden paste, or one by a member they blocked', async () => {
      const threadId = await insertPaste(alice, 'Quiet paste');
      await carol.browser.put(API.threadWatch(threadId)).expect(204);
      const hiddenReply = await insertReply(threadId, bob);
      await t.dataSource.query('UPDATE replies SET hidden_at = now() WHERE id = $1', [hiddenReply]);
      await runJob('reply', { replyId: hiddenReply });
      // (The paste's author hears of it as before: a 'reply'.)
      expect(await notices(`reply:${hiddenReply}`)).toEqual([[alice.user.id, 'reply']]);

      await t.dataSource.query('UPDATE threads SET hidden_at = now() WHERE id = $1', [threadId]);
      const onHidden = await insertReply(threadId, bob);
      await runJob('reply', { replyId: onHidden });
      expect(await notices(`reply:${onHidden}`)).toEqual([[alice.user.id, 'reply']]);

      await t.dataSource.query(
        "UPDATE threads SET hidden_at = NULL, visibility = 'private', key = substr(md5('q' || id), 1, 22) WHERE id = $1",
        [threadId],
      );
      const onPrivate = await insertReply(threadId, alice);
      await runJob('reply', { replyId: onPrivate });
      expect(await notices(`reply:${onPrivate}`)).toEqual([]);

      const open = await insertPaste(alice, 'Open paste');
      await carol.browser.put(API.threadWatch(open)).expect(204);
      await dave.browser.put(API.threadWatch(open)).expect(204);
      await carol.browser.put(API.userBlock(bob.user.id)).expect(200);
      const blocked = await insertReply(open, bob);
      await runJob('reply', { replyId: blocked });
      expect(await notices(`reply:${blocked}`)).toEqual([
        [alice.user.id, 'reply'],
        [dave.user.id, 'watch'],
      ]);
      await carol.browser.delete(API.userBlock(bob.user.id)).expect(204);
    });

    it('tell followers and the tags’ watchers of a new public paste, once each', async () => {
      const author = await registered(t);
      const rust = await tag('rust');
      await carol.browser.put(API.userFollow(author.user.id)).expect(204);
      await carol.browser.put(API.tagWatch('rust')).expect(204); // both: one notice, 'follow'
      await dave.browser.put(API.tagWatch('rust')).expect(204);
      await bob.browser.put(API.userFollow(author.user.id)).expect(204);
      await bob.browser.put(API.userBlock(author.user.id)).expect(200); // blocked: never told
      await author.browser.put(API.tagWatch('rust')).expect(204); // the author: never told
      const threadId = await insertPaste(author, 'Tagged');
      await t.dataSource.query(
        'INSERT INTO paste_tags (thread_id, tag_id, created_at) VALUES ($1, $2, now())',
        [threadId, rust],
      );
      await runJob('thread', { threadId });
      expect(sorted(await notices(`thread:${threadId}`))).toEqual(
        sorted([
          [carol.user.id, 'follow'],
          [dave.user.id, 'tag'],
        ]),
      );
      const [row] = await t.dataSource.query(
        "SELECT content FROM notifications WHERE source = $1 AND type = 'follow'",
        [`thread:${threadId}`],
      );
      expect(row).toEqual({ content: `${author.account.username} posted "Tagged"` });

      // Unlisted, private, hidden: nobody is told.
      for (const set of [
        "visibility = 'unlisted', key = substr(md5('u' || id), 1, 22)",
        "visibility = 'private', key = substr(md5('p' || id), 1, 22)",
        'hidden_at = now()',
      ]) {
        const other = await insertPaste(author, `Not listed ${set}`);
        await t.dataSource.query(`UPDATE threads SET ${set} WHERE id = $1`, [other]);
        await t.dataSource.query(
          'INSERT INTO paste_tags (thread_id, tag_id, created_at) VALUES ($1, $2, now())',
          [other, rust],
        );
        await runJob('thread', { threadId: other });
        expect({ set, told: await notices(`thread:${other}`) }).toEqual({ set, told: [] });
      }
      await bob.browser.delete(API.userBlock(author.user.id)).expect(204);
    });

    it('come through the queue for a paste that mentions nobody, and a code paste (none for a private one)', async () => {
      const author = await registered(t);
      await dave.browser.put(API.userFollow(author.user.id)).expect(204);
      const plain = await paste(author, { title: 'Plain' });
      const code = await paste(author, { title: 'Code', language: 'python', content: '@nobody = 1' });
      const secret = await paste(author, { title: 'Secret', visibility: 'private' });
      for (const ref of [plain, code]) {
        await waitFor('the follow notice', async () => (await notices(`thread:${ref}`)).length > 0);
        expect(await notices(`thread:${ref}`)).toEqual([[dave.user.id, 'follow']]);
      }
      // The author watches what they posted (the job made the watch).
      expect(await watching(author.browser, plain)).toBe(true);
      const rows = await t.dataSource.query('SELECT 1 FROM outbox WHERE job_id = $1', [
        `paste-${await idOf(secret)}`,
      ]);
      expect(rows).toEqual([]);
    });
  });
});
