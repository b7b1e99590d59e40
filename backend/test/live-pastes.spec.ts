import {
  API,
  PASTE_LIVE_EVENT,
  LIVE_CLOSE,
  LIVE_EVENT,
  LIVE_WATCH_CARDS_MAX,
  type LiveWatch,
  type PasteDetail,
} from '@termpaste/contracts';
import supertest from 'supertest';
import { EventsPort } from '../src/infra/events/events.port.js';
import { LiveGateway, MAX_WATCHES_PER_WINDOW } from '../src/modules/live/live.gateway.js';
import {
  connect,
  type ConnectOptions,
  type LiveClient,
  type LiveUser,
  liveUser,
  refusal,
  settle,
} from './support/live.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const PUBLIC = '/ws/chat?scope=public';

/** Says what the socket shows, and proves the server read it (a ping after it comes back after it). */
async function watch(client: LiveClient, what: LiveWatch): Promise<void> {
  client.ws.send(JSON.stringify({ type: 'watch', ...what }));
  await client.roundTrip();
}

/** A paste's events a socket got, presence counts and pongs left out. */
function pasteEvents(client: LiveClient): unknown[] {
  return client.eventFrames.filter((frame) => (frame as { type?: unknown }).type !== LIVE_EVENT.pong);
}

async function newPaste(member: LiveUser, title: string): Promise<number> {
  const res = await member.browser
    .post(API.threads)
    .send({ title, content: `${title} text` })
    .expect(201);
  return (res.body as { id: number }).id;
}

async function newReply(member: LiveUser, threadId: number, parentId: number | null = null): Promise<number> {
  const res = await member.browser
    .post(API.threadReplies(threadId))
    .send({ content: 'a reply', parentId })
    .expect(201);
  return (res.body as { id: number }).id;
}

describe('live paste events on /ws/chat', () => {
  let t: TestApp;
  let alice: LiveUser;
  let bob: LiveUser;
  let admin: LiveUser;
  const open: LiveClient[] = [];

  async function socket(options: ConnectOptions = {}): Promise<LiveClient> {
    const client = await connect(t, options);
    open.push(client);
    return client;
  }

  beforeAll(async () => {
    t = await createTestApp({ env: { LIVE_VISITOR_SOCKETS_PER_ADDRESS: '3' } });
    alice = await liveUser(t);
    bob = await liveUser(t);
    admin = await liveUser(t);
    await t.dataSource.query('UPDATE users SET is_admin = true WHERE id = $1', [admin.user.id]);
  });

  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
  });

  afterAll(async () => {
    await t?.close();
  });

  it("gives a reader of paste A A's reply, vote, edit, flag and delete events, in order, and none of B's", async () => {
    const a = await newPaste(alice, 'paste A');
    const b = await newPaste(alice, 'paste B');
    const reader = await socket({ cookie: bob.cookie });
    await watch(reader, { thread: a });

    // The same on B first: nothing of it reaches A's reader.
    const bReply = await newReply(alice, b);
    await bob.browser.post(API.votes).send({ threadId: b, value: 1 }).expect(200);
    await admin.browser.post(API.adminThreadPin(b)).expect(200);
    await alice.browser.patch(API.reply(bReply)).send({ content: 'edited on B' }).expect(200);
    await admin.browser.delete(API.adminThread(b)).expect(200);

    const reply = await newReply(alice, a);
    const answer = await newReply(bob, a, reply);
    await bob.browser.post(API.votes).send({ threadId: a, value: 1 }).expect(200);
    await alice.browser.post(API.votes).send({ replyId: answer, value: -1 }).expect(200);
    const edited = await alice.browser.patch(API.thread(a)).send({ title: 'paste A, edited' }).expect(200);
    const replyEdited = await alice.browser.patch(API.reply(reply)).send({ content: 'changed' }).expect(200);
    await admin.browser.post(API.adminThreadPin(a)).expect(200);
    await admin.browser.post(API.adminThreadLock(a)).expect(200);
    await admin.browser.delete(API.adminReply(reply)).expect(200);
    await admin.browser.delete(API.adminThread(a)).expect(200);

    await reader.next('the deletion', (frame) => (frame as { type?: string }).type === 'paste_deleted');
    await settle();
    expect(pasteEvents(reader)).toEqual([
      {
        type: PASTE_LIVE_EVENT.replyAdded,
        threadId: a,
        replyId: reply,
        parentId: null,
        authorId: alice.user.id,
        replyCount: 1,
      },
      {
        type: PASTE_LIVE_EVENT.replyAdded,
        threadId: a,
        replyId: answer,
        parentId: reply,
        authorId: bob.user.id,
        replyCount: 2,
      },
      { type: PASTE_LIVE_EVENT.voteScore, threadId: a, replyId: null, voteScore: 1 },
      { type: PASTE_LIVE_EVENT.voteScore, threadId: a, replyId: answer, voteScore: -1 },
      {
        type: PASTE_LIVE_EVENT.pasteEdited,
        threadId: a,
        title: 'paste A, edited',
        editedAt: (edited.body as { editedAt: string }).editedAt,
      },
      {
        type: PASTE_LIVE_EVENT.replyEdited,
        threadId: a,
        replyId: reply,
        editedAt: (replyEdited.body as { editedAt: string }).editedAt,
      },
      { type: PASTE_LIVE_EVENT.pasteFlags, threadId: a, isPinned: true, isLocked: false, isFeatured: false },
      { type: PASTE_LIVE_EVENT.pasteFlags, threadId: a, isPinned: true, isLocked: true, isFeatured: false },
      // The reply and the answer under it: two fewer.
      { type: PASTE_LIVE_EVENT.replyDeleted, threadId: a, replyId: reply, replyCount: 0 },
      { type: PASTE_LIVE_EVENT.pasteDeleted, threadId: a },
    ]);
  });

  it('sends nothing of a paste to a socket that stopped watching it, or never did', async () => {
    const a = await newPaste(alice, 'watched, then not');
    const reader = await socket({ cookie: bob.cookie });
    const idle = await socket({ cookie: bob.cookie });
    await watch(reader, { thread: a });
    await newReply(alice, a);
    await reader.next('the first reply', (frame) => (frame as { type?: string }).type === 'reply_added');
    await watch(reader, { thread: null });
    await newReply(alice, a);
    await settle(200);
    expect(pasteEvents(reader)).toHaveLength(1);
    expect(pasteEvents(idle)).toEqual([]);
  });

  it("gives a card's watcher its counts, flags and title, not its replies' scores or texts; the lists get new pastes", async () => {
    const a = await newPaste(alice, 'a card');
    const cards = await socket({ cookie: bob.cookie });
    const lists = await socket({ path: PUBLIC });
    await watch(cards, { cards: [a] });
    await watch(lists, { lists: true });
    const reply = await newReply(alice, a);
    await bob.browser.post(API.votes).send({ replyId: reply, value: 1 }).expect(200);
    await alice.browser.patch(API.reply(reply)).send({ content: 'new text' }).expect(200);
    await bob.browser.post(API.votes).send({ threadId: a, value: 1 }).expect(200);
    await admin.browser.post(API.adminThreadFeatured(a)).expect(200);
    const fresh = await newPaste(bob, 'a new paste');
    await lists.next('the new paste', (frame) => (frame as { type?: string }).type === 'paste_added');
    await settle();
    expect(pasteEvents(cards).map((frame) => (frame as { type: string }).type)).toEqual([
      PASTE_LIVE_EVENT.replyAdded,
      PASTE_LIVE_EVENT.voteScore,
      PASTE_LIVE_EVENT.pasteFlags,
    ]);
    expect(pasteEvents(lists)).toEqual([
      { type: PASTE_LIVE_EVENT.pasteFlags, threadId: a, isPinned: false, isLocked: false, isFeatured: true },
      { type: PASTE_LIVE_EVENT.pasteAdded, threadId: fresh },
    ]);
  });

  describe("a visitor's socket (?scope=public)", () => {
    it('opens without a session and gets the public events of what it watches, nothing private', async () => {
      const a = await newPaste(alice, 'read by a visitor');
      const visitor = await socket({ path: PUBLIC });
      // A member's cookie on a public socket changes nothing: it stays a visitor's.
      const withCookie = await socket({ path: PUBLIC, cookie: bob.cookie });
      await watch(visitor, { thread: a });
      await watch(withCookie, { thread: a });
      await bob.browser.post(API.chat).send({ message: 'members only' }).expect(201);
      await t.app.get(EventsPort).publish({
        to: 'user',
        userId: bob.user.id,
        event: { type: LIVE_EVENT.unreadCount, count: 5 },
      });
      await t.app.get(EventsPort).publish({ to: 'user', userId: bob.user.id, event: { type: 'signed_out' } });
      await newReply(alice, a);
      for (const client of [visitor, withCookie]) {
        await client.next('the reply', (frame) => (frame as { type?: string }).type === 'reply_added');
      }
      await settle(300);
      for (const client of [visitor, withCookie]) {
        const types = client.frames.map((frame) => (frame as { type: string }).type);
        expect(types.filter((type) => type !== LIVE_EVENT.pong)).toEqual([
          PASTE_LIVE_EVENT.threadReaders,
          PASTE_LIVE_EVENT.replyAdded,
        ]);
        expect(client.closeCode).toBeUndefined();
      }
    });

    it('is refused from a foreign site (403), as a member socket is', async () => {
      expect(await refusal(connect(t, { path: PUBLIC, origin: 'https://evil.example' }))).toBe('403');
    });

    it('is capped per address (4429 with its reason); a closed one frees its place; members are not capped by it', async () => {
      const held = [
        await socket({ path: PUBLIC }),
        await socket({ path: PUBLIC }),
        await socket({ path: PUBLIC }),
      ];
      const extra = await connect(t, { path: PUBLIC });
      const reason = new Promise<string>((resolve) =>
        extra.ws.once('close', (_code, why) => resolve(String(why))),
      );
      expect(await extra.closed).toBe(LIVE_CLOSE.tooManyVisitorSockets.code);
      expect(await reason).toBe('Too many visitor connections from this address');
      await held[0]!.roundTrip();
      const member = await socket({ cookie: alice.cookie });
      await member.roundTrip();
      await held[0]!.close();
      const gateway = t.app.get(LiveGateway);
      await waitFor('the closed one forgotten', () => gateway.connectionCount === 3);
      const again = await socket({ path: PUBLIC });
      await again.roundTrip();
    });
  });

  describe('watch frames', () => {
    it('closes a socket whose watch frame is invalid (4400), and only that one', async () => {
      const other = await socket({ cookie: alice.cookie });
      for (const frame of [
        { type: 'watch', thread: 'one' },
        { type: 'watch', thread: -1 },
        { type: 'watch', thread: 1.5 },
        { type: 'watch', cards: Array.from({ length: LIVE_WATCH_CARDS_MAX + 1 }, (_, i) => i + 1) },
        { type: 'watch', lists: 'yes' },
        { type: 'watch', extra: true },
      ]) {
        const client = await socket({ path: PUBLIC });
        client.ws.send(JSON.stringify(frame));
        expect(await client.closed).toBe(LIVE_CLOSE.badWatch.code);
        await client.close();
      }
      await other.roundTrip();
    });

    it(`closes a socket that sends more than ${MAX_WATCHES_PER_WINDOW} watch frames in 10 s (4430)`, async () => {
      const client = await socket({ cookie: alice.cookie });
      for (let i = 0; i <= MAX_WATCHES_PER_WINDOW; i++) {
        client.ws.send(JSON.stringify({ type: 'watch', thread: i + 1 }));
      }
      expect(await client.closed).toBe(LIVE_CLOSE.tooManyWatches.code);
    });

    it('logs nothing as an error for what clients sent', () => {
      expect(t.logs.entries.filter((entry) => entry.level === 'error')).toEqual([]);
    });
  });

  it('a live refresh (?refresh=true) reads the paste without counting a view', async () => {
    const a = await newPaste(alice, 'viewed');
    const views = async (query = '') =>
      (
        (
          await supertest(t.url)
            .get(`${API.thread(a)}${query}`)
            .expect(200)
        ).body as PasteDetail
      ).viewCount;
    expect(await views()).toBe(1);
    expect(await views('?refresh=true')).toBe(1);
    expect(await views('?refresh=true')).toBe(1);
    expect(await views('?refresh=nope')).toBe(2);
  });
});

describe('presence on one instance', () => {
  let t: TestApp;
  const open: LiveClient[] = [];

  async function socket(options: ConnectOptions = {}): Promise<LiveClient> {
    const client = await connect(t, options);
    open.push(client);
    return client;
  }

  /** The latest count of a kind this socket was told. */
  function lastCount(client: LiveClient, type: 'online_count' | 'thread_readers'): number | undefined {
    const counts = client.frames.filter((frame) => (frame as { type?: string }).type === type);
    return (counts.at(-1) as { count: number } | undefined)?.count;
  }

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
  });

  afterAll(async () => {
    await t?.close();
  });

  it('counts members online once however many tabs, and drops them when their last socket closes', async () => {
    const alice = await liveUser(t);
    const bob = await liveUser(t);
    const aliceChat = await socket({ cookie: alice.cookie });
    await waitFor('alice online', () => lastCount(aliceChat, 'online_count') === 1);
    // Another tab of hers (the badge's socket, and a second chat one): still one member.
    const aliceBadge = await socket({ cookie: alice.cookie, path: '/ws/chat?scope=user' });
    const aliceChat2 = await socket({ cookie: alice.cookie });
    await waitFor('her second tab told', () => lastCount(aliceChat2, 'online_count') === 1);
    const bobBadge = await socket({ cookie: bob.cookie, path: '/ws/chat?scope=user' });
    await waitFor('bob online too', () => lastCount(aliceChat, 'online_count') === 2);
    // A visitor is not counted.
    await socket({ path: PUBLIC });
    await aliceChat2.close();
    await aliceBadge.close();
    await settle(400);
    expect(lastCount(aliceChat, 'online_count')).toBe(2);
    await bobBadge.close();
    await waitFor('bob gone', () => lastCount(aliceChat, 'online_count') === 1);
    // The badge's socket is never told the count (it carries the member's own events only).
    expect(aliceBadge.frames.filter((frame) => (frame as { type?: string }).type === 'online_count')).toEqual(
      [],
    );
  });

  it("counts a paste's readers per member, tells each of its readers, and drops one whose socket closes", async () => {
    const alice = await liveUser(t);
    const bob = await liveUser(t);
    const res = await alice.browser
      .post(API.threads)
      .send({ title: 'read together', content: 'x' })
      .expect(201);
    const a = (res.body as { id: number }).id;
    const aliceTab1 = await socket({ cookie: alice.cookie });
    const aliceTab2 = await socket({ cookie: alice.cookie, path: '/ws/chat?scope=user' });
    const bobTab = await socket({ cookie: bob.cookie });
    const visitor = await socket({ path: PUBLIC });
    const elsewhere = await socket({ cookie: bob.cookie });
    await watch(aliceTab1, { thread: a });
    await waitFor('alice reading', () => lastCount(aliceTab1, 'thread_readers') === 1);
    await watch(aliceTab2, { thread: a });
    await watch(visitor, { thread: a });
    await watch(bobTab, { thread: a });
    for (const client of [aliceTab1, aliceTab2, bobTab, visitor]) {
      await waitFor('two reading', () => lastCount(client, 'thread_readers') === 2);
    }
    expect(visitor.frames.find((f) => (f as { type?: string }).type === 'thread_readers') as object).toEqual({
      type: 'thread_readers',
      threadId: a,
      count: expect.any(Number),
    });
    await aliceTab2.close();
    await settle(400);
    expect(lastCount(bobTab, 'thread_readers')).toBe(2);
    await bobTab.close();
    await waitFor('one reading', () => lastCount(aliceTab1, 'thread_readers') === 1);
    await waitFor('the visitor told', () => lastCount(visitor, 'thread_readers') === 1);
    // Moving to another paste leaves this one.
    await watch(aliceTab1, { thread: null });
    await waitFor('nobody reading', () => lastCount(visitor, 'thread_readers') === 0);
    expect(elsewhere.frames.filter((f) => (f as { type?: string }).type === 'thread_readers')).toEqual([]);
  });
});
