import {
  API,
  type AuditPage,
  editedPasteSchema,
  PASTE_LIVE_EVENT,
  type NotificationsPage,
  OWN_POSTS_MESSAGES,
  PASTE_KEY_PATTERN,
  type RecentPastesPage,
  type ReputationLedgerPage,
  type PasteDetail,
  pasteDetailSchema,
  type UserProfile,
} from '@termpaste/contracts';
import { waitFor } from './support/wait-for.js';
import { connect, type LiveClient, liveUser, type LiveUser } from './support/live.js';
import {
  memberViewer,
  expectLiveSilent,
  expectPasteHidden,
  expectPasteListedNowhere,
  expectPasteUnlistedButReadable,
  PASTE_404,
  visitorOf,
  type WalkedPaste,
} from './support/paste-routes.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/*
 * Unlisted and private pastes through every route: a visitor, another member, the author and an admin
 * each walk them (support/paste-routes.ts), and nothing of a paste leaks to one who may not read it.
 */
describe('visibility: unlisted and private pastes', () => {
  let t: TestApp;
  let admin: LiveUser;
  let alice: LiveUser;
  let bob: LiveUser;
  let words = 0;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await liveUser(t); // the first account: owner and admin
    alice = await liveUser(t);
    bob = await liveUser(t);
  });

  afterAll(async () => {
    await t.close();
  });

  const viewer = memberViewer;
  const asVisitor = () => visitorOf(t);
  const asBob = () => viewer(bob, 'another member');
  const asAdmin = () => viewer(admin, 'an admin');
  const asAlice = () => viewer(alice, 'the author');

  /** A word no other paste has, for search. */
  const newWord = () => `zyxword${Date.now().toString(36)}q${(words++).toString(36)}`;

  /** Alice's new paste; its number and key read back from the database. */
  async function post(
    visibility: 'public' | 'unlisted' | 'private',
    extra: { content?: string; by?: LiveUser } = {},
  ): Promise<WalkedPaste> {
    const word = newWord();
    const author = extra.by ?? alice;
    const title = `Paste ${word}`;
    const res = await author.browser
      .post(API.threads)
      .send({ title, content: extra.content ?? `the ${word} text`, visibility, tags: [word] })
      .expect(201);
    const [row]: Array<{ id: number; key: string | null }> = await t.dataSource.query(
      'SELECT id, key FROM threads WHERE title = $1',
      [title],
    );
    if (visibility === 'public') expect(res.body).toEqual({ id: row!.id });
    else {
      expect(res.body).toEqual({ id: row!.key });
      expect(row!.key).toMatch(PASTE_KEY_PATTERN);
    }
    return { id: row!.id, key: row!.key, title, authorId: author.user.id, word, tag: word };
  }

  async function counts(userId: number) {
    const home = (await t.http.get(API.threadsRecent).set('Cache-Control', 'no-cache').expect(200))
      .body as RecentPastesPage;
    const [user]: Array<{ thread_count: number }> = await t.dataSource.query(
      'SELECT thread_count FROM users WHERE id = $1',
      [userId],
    );
    return { homeTotal: home.total, profileCount: user!.thread_count };
  }

  async function auditOf(targetId: number) {
    const page = (await admin.browser.get(API.adminAudit).expect(200)).body as AuditPage;
    return page.entries.filter((e) => e.targetType === 'thread' && e.targetId === targetId);
  }

  describe('an unlisted paste', () => {
    it('is read by anyone holding its key, and listed and counted nowhere', async () => {
      const before = await counts(alice.user.id);
      const paste = await post('unlisted');
      expect(await counts(alice.user.id)).toEqual(before);
      for (const who of [asVisitor(), asBob(), asAdmin(), asAlice()]) {
        await expectPasteUnlistedButReadable(paste, who, before);
      }
      const page = pasteDetailSchema.parse((await bob.browser.get(API.thread(paste.key!)).expect(200)).body);
      expect(page).toMatchObject({ id: paste.key, visibility: 'unlisted', title: paste.title });
      // Its number names nothing, even to its author.
      await alice.browser.get(API.thread(paste.id)).expect(404, PASTE_404);
    });

    it('takes replies, votes and reply votes by key from anyone with the link', async () => {
      const paste = await post('unlisted');
      const reply = await bob.browser
        .post(API.threadReplies(paste.key!))
        .send({ content: 'a reply by link' })
        .expect(201);
      await bob.browser.post(API.votes).send({ threadId: paste.key, value: 1 }).expect(200);
      await alice.browser.post(API.votes).send({ replyId: reply.body.id, value: 1 }).expect(200);
      // By its number, nothing.
      await bob.browser
        .post(API.threadReplies(paste.id))
        .send({ content: 'by number' })
        .expect(404, PASTE_404);
      await bob.browser.post(API.votes).send({ threadId: paste.id, value: 1 }).expect(404, PASTE_404);
      const page = (await alice.browser.get(API.thread(paste.key!)).expect(200)).body as PasteDetail;
      expect(page.voteScore).toBe(1);
      expect(page.replies).toEqual([
        expect.objectContaining({ content: 'a reply by link', threadId: paste.key }),
      ]);
      // Revisions by key, and a reply's revisions.
      await bob.browser.get(API.threadRevisions(paste.key!)).expect(200);
      await bob.browser.get(API.replyRevisions(reply.body.id as number)).expect(200);
    });

    it("is on its author's own profile only, and never in the page cache's shared copy", async () => {
      const paste = await post('unlisted');
      const own = (await alice.browser.get(API.user(alice.user.id)).expect(200)).body as UserProfile;
      expect(own.recentThreads.find((card) => card.id === paste.key)).toMatchObject({
        visibility: 'unlisted',
      });
      const ownRes = await alice.browser.get(API.user(alice.user.id)).expect(200);
      expect(ownRes.headers['cache-control']).toBe('private, no-cache');
      // Others (and the cache they are served from) see no trace of it.
      for (const who of [asVisitor(), asBob()]) {
        const seen = (await who.agent.get(API.user(alice.user.id)).expect(200)).body as UserProfile;
        expect(seen.recentThreads.some((card) => card.id === paste.key || card.title === paste.title)).toBe(
          false,
        );
        expect(seen.threadCount).toBe(own.threadCount);
      }
    });

    it('mentions notify, and the notification links by its key', async () => {
      const paste = await post('unlisted', { content: `hello @${bob.user.username} ${newWord()}` });
      const note = await waitFor('the mention', async () => {
        const page = (await bob.browser.get(API.notifications).expect(200)).body as NotificationsPage;
        return page.notifications.find((n) => n.content.includes(paste.title));
      });
      expect(note.threadId).toBe(paste.key);
    });
  });

  describe('a private paste', () => {
    it('is its author’s alone: every route hides it from a visitor, a member and an admin', async () => {
      const before = await counts(alice.user.id);
      const paste = await post('private', { content: `for me @${bob.user.username} ${newWord()}` });
      expect(await counts(alice.user.id)).toEqual(before);
      // The author reads, replies and votes (the reply's versions too).
      const mine = (await alice.browser.get(API.thread(paste.key!)).expect(200)).body as PasteDetail;
      expect(mine).toMatchObject({ id: paste.key, visibility: 'private' });
      const reply = await alice.browser
        .post(API.threadReplies(paste.key!))
        .send({ content: `note to self @${bob.user.username}` })
        .expect(201);
      paste.replyId = reply.body.id as number;
      const raw = await alice.browser.get(API.threadRaw(paste.key!)).expect(200);
      expect(raw.text).toMatch(/^for me @/);
      await alice.browser.get(API.replyRevisions(paste.replyId)).expect(200);
      // Staff pin and feature it by number: it still shows in no list.
      await admin.browser.post(API.adminThreadPin(paste.id)).expect(200);
      await admin.browser.post(API.adminThreadFeatured(paste.id)).expect(200);
      for (const who of [asVisitor(), asBob(), asAdmin()]) await expectPasteHidden(paste, who, before);
      await expectPasteListedNowhere(paste, asAlice(), before, { ownProfileShows: true });
      // Its mentions told nobody (the jobs ran: the unlisted paste's mention above arrives, this one never).
      const bobs = (await bob.browser.get(API.notifications).expect(200)).body as NotificationsPage;
      expect(bobs.notifications.some((n) => n.content.includes(paste.title))).toBe(false);
      const [{ n }] = await t.dataSource.query(
        'SELECT count(*)::int AS n FROM notifications WHERE thread_id = $1',
        [paste.id],
      );
      expect(n).toBe(0);
    });

    it('admins read it only through the moderation route, and each read is audit-logged', async () => {
      const paste = await post('private');
      await admin.browser.get(API.thread(paste.key!)).expect(404, PASTE_404);
      const read = await admin.browser.get(API.adminThread(paste.key!)).expect(200);
      expect(pasteDetailSchema.parse(read.body)).toMatchObject({ id: paste.key, title: paste.title });
      expect(read.headers['cache-control']).toBe('private, no-store');
      expect(await auditOf(paste.id)).toEqual([
        expect.objectContaining({
          action: 'thread.private_read',
          actorId: admin.user.id,
          targetLabel: paste.title,
        }),
      ]);
      // Its number names nothing here either; a member or a visitor is refused the route.
      await admin.browser.get(API.adminThread(paste.id)).expect(404, PASTE_404);
      await bob.browser.get(API.adminThread(paste.key!)).expect(403);
      await t.http.get(API.adminThread(paste.key!)).expect(401);
      // A public paste's read records nothing; an admin's own private paste neither.
      const open = await post('public');
      await admin.browser.get(API.adminThread(open.id)).expect(200);
      const own = await post('private', { by: admin });
      await admin.browser.get(API.adminThread(own.key!)).expect(200);
      expect(await auditOf(open.id)).toEqual([]);
      expect(await auditOf(own.id)).toEqual([]);
    });

    it('a paste made private leaves the notifications and ledgers that named it', async () => {
      const paste = await post('public', { content: `hi @${bob.user.username} ${newWord()}` });
      const reply = await bob.browser
        .post(API.threadReplies(paste.id))
        .send({ content: 'earned' })
        .expect(201);
      paste.replyId = reply.body.id as number;
      await admin.browser.post(API.votes).send({ replyId: paste.replyId, value: 1 }).expect(200);
      await waitFor('the mention', async () => {
        const page = (await bob.browser.get(API.notifications).expect(200)).body as NotificationsPage;
        return page.notifications.find((n) => n.threadId === paste.id);
      });
      const ledger = (await bob.browser.get(API.userReputation(bob.user.id)).expect(200))
        .body as ReputationLedgerPage;
      expect(ledger.entries.some((e) => e.threadId === paste.id)).toBe(true);

      const edited = await alice.browser
        .patch(API.thread(paste.id))
        .send({ visibility: 'private' })
        .expect(200);
      paste.key = editedPasteSchema.parse(edited.body).id as string;
      expect(paste.key).toMatch(PASTE_KEY_PATTERN);
      for (const who of [asVisitor(), asBob(), asAdmin()]) await expectPasteHidden(paste, who);
      // The ledger keeps bob's points, naming nothing.
      const after = (await bob.browser.get(API.userReputation(bob.user.id)).expect(200))
        .body as ReputationLedgerPage;
      expect(after.total).toBe(ledger.total);
      const rows = after.entries.filter((e) => e.reason === 'reply' || e.reason === 'vote');
      expect(rows.length).toBeGreaterThan(0);
      // The author's own ledger names it by its key.
      const alices = (await alice.browser.get(API.userReputation(alice.user.id)).expect(200))
        .body as ReputationLedgerPage;
      expect(alices.entries.find((e) => e.threadTitle === paste.title)?.threadId).toBe(paste.key);
      // An admin reading alice's ledger is not shown what the private paste is.
      const seenByAdmin = (await admin.browser.get(API.userReputation(alice.user.id)).expect(200))
        .body as ReputationLedgerPage;
      expect(seenByAdmin.entries.some((e) => e.threadTitle === paste.title || e.threadId === paste.key)).toBe(
        false,
      );
    });
  });

  describe('PATCH visibility', () => {
    it('moves a paste between its number and its key, and the counts with it', async () => {
      const start = await counts(alice.user.id);
      const paste = await post('public');
      expect(await counts(alice.user.id)).toEqual({
        homeTotal: start.homeTotal + 1,
        profileCount: start.profileCount + 1,
      });
      const unlisted = editedPasteSchema.parse(
        (await alice.browser.patch(API.thread(paste.id)).send({ visibility: 'unlisted' }).expect(200)).body,
      );
      expect(unlisted).toMatchObject({ visibility: 'unlisted', title: paste.title });
      expect(unlisted.id).toMatch(PASTE_KEY_PATTERN);
      paste.key = unlisted.id as string;
      expect(await counts(alice.user.id)).toEqual(start);
      await expectPasteUnlistedButReadable(paste, asBob(), start);
      // Unlisted to private: counts stay; the key stays.
      const hidden = editedPasteSchema.parse(
        (await alice.browser.patch(API.thread(paste.key)).send({ visibility: 'private' }).expect(200)).body,
      );
      expect(hidden).toMatchObject({ id: paste.key, visibility: 'private' });
      expect(await counts(alice.user.id)).toEqual(start);
      await expectPasteHidden(paste, asBob(), start);
      // Back to public: its number again, counted again, listed again.
      const shown = editedPasteSchema.parse(
        (await alice.browser.patch(API.thread(paste.key)).send({ visibility: 'public' }).expect(200)).body,
      );
      expect(shown).toMatchObject({ id: paste.id, visibility: 'public' });
      expect(await counts(alice.user.id)).toEqual({
        homeTotal: start.homeTotal + 1,
        profileCount: start.profileCount + 1,
      });
      const home = (await t.http.get(API.threadsRecent).set('Cache-Control', 'no-cache').expect(200))
        .body as RecentPastesPage;
      expect(home.threads.some((card) => card.id === paste.id)).toBe(true);
      const page = await t.http.get(API.thread(paste.id)).expect(200);
      expect(page.headers['x-robots-tag']).toBeUndefined();
      // Its old key still names it (a link given out stays good), but makes no list show it by key.
      await t.http.get(API.thread(paste.key)).expect(200);
    });

    it("is the author's alone: an admin is refused, another member finds no private paste", async () => {
      const paste = await post('public');
      await admin.browser
        .patch(API.thread(paste.id))
        .send({ visibility: 'private' })
        .expect(403, { statusCode: 403, message: OWN_POSTS_MESSAGES.notYourVisibility });
      // An admin's edit that keeps the visibility as it is goes through.
      await admin.browser
        .patch(API.thread(paste.id))
        .send({ visibility: 'public', title: 'Fixed title' })
        .expect(200);
      await bob.browser.patch(API.thread(paste.id)).send({ visibility: 'private' }).expect(403);
      const hidden = await post('private');
      await bob.browser.patch(API.thread(hidden.key!)).send({ visibility: 'public' }).expect(404, PASTE_404);
      await admin.browser
        .patch(API.thread(hidden.key!))
        .send({ visibility: 'public' })
        .expect(404, PASTE_404);
      await alice.browser.patch(API.thread(hidden.key!)).send({ visibility: 'secret' }).expect(400);
    });

    it('staff deleting an unlisted paste leaves the counts as they were (it was never counted)', async () => {
      const start = await counts(alice.user.id);
      const paste = await post('unlisted');
      await admin.browser.delete(API.adminThread(paste.id)).expect(200);
      expect(await counts(alice.user.id)).toEqual(start);
      const open = await post('public');
      await admin.browser.delete(API.adminThread(open.id)).expect(200);
      expect(await counts(alice.user.id)).toEqual(start);
    });

    it('a visibility change alone writes no version', async () => {
      const paste = await post('public');
      const edited = editedPasteSchema.parse(
        (await alice.browser.patch(API.thread(paste.id)).send({ visibility: 'unlisted' }).expect(200)).body,
      );
      expect(edited.revisions).toBe(1);
      expect(edited.editedAt).toBeNull();
    });
  });

  describe('the live socket', () => {
    const sockets: LiveClient[] = [];
    afterEach(async () => {
      await Promise.all(sockets.splice(0).map((socket) => socket.close()));
    });
    async function watching(member: LiveUser | null, watch: object): Promise<LiveClient> {
      const socket = await connect(t, member ? { cookie: member.cookie } : { path: '/ws/chat?scope=public' });
      sockets.push(socket);
      socket.ws.send(JSON.stringify({ type: 'watch', ...watch }));
      await socket.roundTrip();
      return socket;
    }

    it('tells nobody but its author of a private paste, by number or key', async () => {
      const paste = await post('private');
      const own = await watching(alice, { thread: paste.key });
      const act = async () => {
        await alice.browser.post(API.threadReplies(paste.key!)).send({ content: 'quiet' }).expect(201);
        await alice.browser
          .patch(API.thread(paste.key!))
          .send({ title: `${paste.title} edited` })
          .expect(200);
      };
      for (const who of [asVisitor(), asBob(), asAdmin()]) await expectLiveSilent(t, paste, who, act);
      // Its author's socket hears of it, by its key.
      const added = await own.next<{ threadId: unknown }>(
        'the reply',
        (frame) => (frame as { type?: string }).type === PASTE_LIVE_EVENT.replyAdded,
      );
      expect(added.threadId).toBe(paste.key);
      expect(JSON.stringify(own.frames)).not.toMatch(new RegExp(`"threadId":${paste.id}[,}]`));
    });

    it('names an unlisted paste by its key to its readers, and the lists hear nothing of it', async () => {
      const lists = await watching(null, { lists: true });
      const paste = await post('unlisted');
      const reader = await watching(bob, { thread: paste.key });
      await alice.browser.post(API.threadReplies(paste.key!)).send({ content: 'hello' }).expect(201);
      const added = await reader.next<{ threadId: unknown }>(
        'the reply',
        (frame) => (frame as { type?: string }).type === PASTE_LIVE_EVENT.replyAdded,
      );
      expect(added.threadId).toBe(paste.key);
      const readers = await reader.next<{ threadId: unknown }>(
        'the readers count',
        (frame) => (frame as { type?: string }).type === PASTE_LIVE_EVENT.threadReaders,
      );
      expect(readers.threadId).toBe(paste.key);
      await lists.roundTrip();
      expect(JSON.stringify(lists.frames)).not.toMatch(
        new RegExp(`"threadId":(${paste.id}|"${paste.key}")[,}]`),
      );
    });

    it("staff flags on a keyed paste reach its author's page, never the lists", async () => {
      const paste = await post('private');
      const lists = await watching(null, { lists: true, cards: [paste.id] });
      const bobs = await watching(bob, { lists: true });
      const own = await watching(alice, { thread: paste.key });
      await admin.browser.post(API.adminThreadPin(paste.id)).expect(200);
      await admin.browser.post(API.adminThreadFeatured(paste.id)).expect(200);
      const flags = await own.next<{ threadId: unknown; isPinned: boolean }>(
        'the flags',
        (frame) => (frame as { type?: string }).type === PASTE_LIVE_EVENT.pasteFlags,
      );
      expect(flags).toMatchObject({ threadId: paste.key, isPinned: true });
      for (const socket of [lists, bobs]) {
        await socket.roundTrip();
        expect(socket.eventFrames.filter((frame) => (frame as { type?: string }).type !== 'pong')).toEqual(
          [],
        );
      }
    });

    it('a paste made unlisted leaves the lists and the sockets that read it by number', async () => {
      const paste = await post('public');
      const lists = await watching(null, { lists: true, cards: [paste.id] });
      const reader = await watching(bob, { thread: paste.id });
      const own = await watching(alice, { thread: paste.id });
      const edited = await alice.browser
        .patch(API.thread(paste.id))
        .send({ visibility: 'unlisted' })
        .expect(200);
      paste.key = edited.body.id as string;
      const deleted = (frame: unknown) =>
        (frame as { type?: string; threadId?: unknown }).type === PASTE_LIVE_EVENT.pasteDeleted;
      await lists.next('the paste leaving the lists', deleted);
      await reader.next('the paste gone for its reader', deleted);
      // They hear no more of it; its author's page reads on.
      await alice.browser.post(API.threadReplies(paste.key)).send({ content: 'after' }).expect(201);
      await own.next(
        'the reply',
        (frame) => (frame as { type?: string }).type === PASTE_LIVE_EVENT.replyAdded,
      );
      await lists.roundTrip();
      await reader.roundTrip();
      for (const socket of [lists, reader]) {
        expect(
          socket.frames.some((frame) => (frame as { type?: string }).type === PASTE_LIVE_EVENT.replyAdded),
        ).toBe(false);
      }
      expect(own.frames.some(deleted)).toBe(false);
      // Made public again: the lists hear of it.
      await alice.browser.patch(API.thread(paste.key)).send({ visibility: 'public' }).expect(200);
      await lists.next(
        'the paste back in the lists',
        (frame) =>
          (frame as { type?: string }).type === PASTE_LIVE_EVENT.pasteAdded &&
          (frame as { threadId?: unknown }).threadId === paste.id,
      );
    });
  });

  it('pages and raw text of keyed pastes say noindex; public ones do not', async () => {
    const open = await post('public');
    const page = await t.http.get(API.thread(open.id)).expect(200);
    expect(page.headers['x-robots-tag']).toBeUndefined();
    const raw = await t.http.get(API.threadRaw(open.id)).expect(200);
    expect(raw.headers['x-robots-tag']).toBeUndefined();
    const hidden = await post('private');
    const own = await alice.browser.get(API.thread(hidden.key!)).expect(200);
    expect(own.headers['x-robots-tag']).toBe('noindex');
    const ownRaw = await alice.browser.get(API.threadRaw(hidden.key!)).expect(200);
    expect(ownRaw.headers['x-robots-tag']).toBe('noindex');
  });
});
