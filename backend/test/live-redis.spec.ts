import { Logger } from '@nestjs/common';
import {
  API,
  type ChatMessage,
  PASTE_LIVE_EVENT,
  LIVE_CLOSE,
  LIVE_EVENT,
  type LiveEvent,
  type RecentPastesPage,
  type PasteDetail,
} from '@termpaste/contracts';
import { Redis } from 'ioredis';
import supertest from 'supertest';
import { EventsPort, type InstanceEvent, type LiveEnvelope } from '../src/infra/events/events.port.js';
import { RedisEvents } from '../src/infra/events/redis.events.js';
import { PresencePort } from '../src/infra/presence/presence.port.js';
import { RedisPresence } from '../src/infra/presence/redis.presence.js';
import { CapturingLogger } from './support/capturing-logger.js';
import { connect, type LiveClient, liveUser, settle } from './support/live.js';
import { describeWithRedis, type RedisHandle, startRedis } from './support/redis.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

describeWithRedis('live events over Redis (REDIS_URL set)', () => {
  let redis: RedisHandle;

  beforeAll(async () => {
    redis = await startRedis();
  });

  afterAll(async () => {
    await redis?.stop();
  });

  describe('RedisEvents', () => {
    const CHANNEL = 'termpaste:test-live';
    const logs = new CapturingLogger();
    let one: RedisEvents;
    let two: RedisEvents;
    const got: { one: LiveEnvelope[]; two: LiveEnvelope[] } = { one: [], two: [] };

    beforeAll(async () => {
      Logger.overrideLogger(logs);
      one = new RedisEvents(redis.url, CHANNEL);
      two = new RedisEvents(redis.url, CHANNEL);
      await Promise.all([one.onModuleInit(), two.onModuleInit()]);
      one.subscribe((envelope) => got.one.push(envelope));
      two.subscribe((envelope) => got.two.push(envelope));
    });

    afterAll(async () => {
      await Promise.all([one?.onApplicationShutdown(), two?.onApplicationShutdown()]);
    });

    it('delivers what one instance publishes to the subscribers of every instance, as sent', async () => {
      const envelope: LiveEnvelope = {
        to: 'user',
        userId: 42,
        event: { type: LIVE_EVENT.unreadCount, count: 5 },
      };
      await one.publish(envelope);
      await waitFor('both instances', () => got.one.length === 1 && got.two.length === 1);
      expect(got).toEqual({ one: [envelope], two: [envelope] });
    });

    it('stops calling a listener once it unsubscribed; a failing listener harms no other', async () => {
      const seen: LiveEnvelope[] = [];
      const unsubscribe = two.subscribe((envelope) => seen.push(envelope));
      const failing = two.subscribe(() => {
        throw new Error('listener bug');
      });
      const first: LiveEnvelope = { to: 'all', event: { type: LIVE_EVENT.pong } };
      await one.publish(first);
      await waitFor('the first event', () => seen.length === 1);
      unsubscribe();
      failing();
      await one.publish({ to: 'user', userId: 1, event: { type: LIVE_EVENT.unreadCount, count: 0 } });
      await waitFor('the second event elsewhere', () => got.two.length === 3);
      expect(seen).toEqual([first]);
      expect(logs.text()).toContain('A live event listener failed');
    });

    it('ignores and logs payloads that are not live envelopes', async () => {
      const raw = new Redis(redis.url);
      try {
        const before = got.one.length;
        for (const payload of [
          'not json',
          'null',
          '{"to":"all"}',
          '{"to":"everyone","event":{"type":"pong"}}',
          '{"to":"user","event":{"type":"pong"}}',
          '{"to":"user","userId":"1","event":{"type":"pong"}}',
          '{"to":"all","event":{"type":"unknown"}}',
          '{"to":"all","event":{"type":"unread_count","count":-1}}',
        ]) {
          await raw.publish(CHANNEL, payload);
        }
        const valid: LiveEnvelope = { to: 'all', event: { type: LIVE_EVENT.unreadCount, count: 2 } };
        await raw.publish(CHANNEL, JSON.stringify(valid));
        await waitFor('the valid envelope', () => got.one.length === before + 1);
        expect(got.one.at(-1)).toEqual(valid);
        // Each of the 8 logged by both instances.
        const ignored = () =>
          logs.entries.filter((e) => e.message.startsWith('Ignored an invalid live event'));
        await waitFor('the invalid payloads logged', () => ignored().length === 16);
        expect(ignored().map((e) => e.level)).toEqual(Array(16).fill('warn'));
      } finally {
        await raw.quit();
      }
    });

    it('broadcasts instance events: its own listeners at once, every other instance once, never as live events', async () => {
      const mine: InstanceEvent[] = [];
      const theirs: InstanceEvent[] = [];
      const offMine = one.onBroadcast((event) => mine.push(event));
      const offTheirs = two.onBroadcast((event) => theirs.push(event));
      const liveBefore = { one: got.one.length, two: got.two.length };
      const event: InstanceEvent = { type: 'pages_changed', lists: true, threads: [7, 8] };
      const sent = one.broadcast(event);
      expect(mine).toEqual([event]); // before the broadcast even returns
      await sent;
      await waitFor('the other instance', () => theirs.length === 1);
      await settle(100);
      expect(mine).toEqual([event]); // its own message, back from Redis, is not delivered twice
      expect(theirs).toEqual([event]);
      expect({ one: got.one.length, two: got.two.length }).toEqual(liveBefore);
      offMine();
      offTheirs();
    });

    it('carries the members a profile save changed to the other instances', async () => {
      const theirs: InstanceEvent[] = [];
      const off = two.onBroadcast((event) => theirs.push(event));
      const event: InstanceEvent = { type: 'pages_changed', profiles: [3], members: [3] };
      await one.broadcast(event);
      await waitFor('the other instance', () => theirs.length === 1);
      expect(theirs).toEqual([event]);
      off();
    });

    it("carries a vote's score, a reply's cards, a new paste's lists, a client's write and sessions", async () => {
      const theirs: InstanceEvent[] = [];
      const off = two.onBroadcast((event) => theirs.push(event));
      const events: InstanceEvent[] = [
        {
          type: 'pages_changed',
          scores: [{ threadId: 7, replyId: null, voteScore: -2 }],
          profiles: [3],
          countsOnly: true,
        },
        { type: 'pages_changed', threads: [7], cards: [7], profiles: [4] },
        { type: 'pages_changed', listPages: ['home:*', 'feed:*'], posted: [9], profiles: [4] },
        { type: 'client_wrote', client: 'abc123' },
        { type: 'sessions_changed', members: [4] },
      ];
      for (const event of events) await one.broadcast(event);
      await waitFor('the other instance', () => theirs.length === events.length);
      expect(theirs).toEqual(events);
      off();
    });

    it('ignores and logs instance events that do not parse', async () => {
      const raw = new Redis(redis.url);
      const seen: InstanceEvent[] = [];
      const off = two.onBroadcast((event) => seen.push(event));
      try {
        for (const payload of [
          'not json',
          '{"from":"x"}',
          '{"from":"x","event":{"type":"pages_changed","threads":["1"]}}',
          '{"from":"x","event":{"type":"other"}}',
        ]) {
          await raw.publish(`${CHANNEL}:instances`, payload);
        }
        await raw.publish(`${CHANNEL}:instances`, '{"from":"x","event":{"type":"pages_changed","all":true}}');
        await waitFor('the valid event', () => seen.length === 1);
        expect(seen).toEqual([{ type: 'pages_changed', all: true }]);
        const ignored = () =>
          logs.entries.filter((e) => e.message.startsWith('Ignored an invalid instance event'));
        await waitFor('the invalid ones logged', () => ignored().length === 8);
      } finally {
        off();
        await raw.quit();
      }
    });

    it('keeps to its channel', async () => {
      const other = new RedisEvents(redis.url, `${CHANNEL}-other`);
      await other.onModuleInit();
      const before = got.one.length;
      await other.publish({ to: 'all', event: { type: LIVE_EVENT.pong } });
      await settle(100);
      expect(got.one).toHaveLength(before);
      await other.onApplicationShutdown();
    });
  });

  describe('RedisPresence', () => {
    const made: RedisPresence[] = [];
    let prefix = 0;

    /** One instance's presence, on keys of its test's own. */
    function instance(ttlMs?: number, keys = `termpaste:test-presence-${prefix}:`): RedisPresence {
      const presence = new RedisPresence(redis.url, { ttlMs, prefix: keys });
      made.push(presence);
      return presence;
    }

    beforeEach(() => {
      prefix++;
    });

    afterAll(async () => {
      await Promise.all(made.map((presence) => presence.onApplicationShutdown().catch(() => undefined)));
    });

    it('counts a member held by two instances once, until both let go', async () => {
      const [one, two] = [instance(), instance()];
      expect(await one.join('thread:1', '7')).toBe(1);
      expect(await two.join('thread:1', '7')).toBe(1);
      expect(await two.join('thread:1', '8')).toBe(2);
      expect(await one.leave('thread:1', '7')).toBe(2);
      expect(await two.counts(['thread:1', 'thread:2'])).toEqual([2, 0]);
      expect(await two.leave('thread:1', '7')).toBe(1);
      expect(await one.counts(['thread:1'])).toEqual([1]);
    });

    it('tells which members are present in a topic, whichever instance holds them', async () => {
      const [one, two] = [instance(), instance()];
      await one.join('online', '7');
      await two.join('online', '8');
      expect(await one.present('online', ['7', '8', '9'])).toEqual([true, true, false]);
      await two.leave('online', '8');
      expect(await one.present('online', ['8', '7'])).toEqual([false, true]);
      expect(await one.present('online', [])).toEqual([]);
    });

    it('keeps what a live instance holds past the time to live (renewed), and drops what a crashed one held', async () => {
      const alive = instance(300);
      const crashing = instance(300);
      await alive.join('online', '1');
      await crashing.join('online', '2');
      await crashing.join('online', '1');
      expect(await alive.counts(['online'])).toEqual([2]);
      crashing.crashForTest();
      await waitFor(
        'the crashed instance’s member to expire',
        async () => (await alive.counts(['online']))[0] === 1,
        3000,
      );
      await settle(700);
      // Member 1, held by the live instance too, stayed throughout; it still does.
      expect(await alive.counts(['online'])).toEqual([1]);
    });

    it('lets go of everything on shutdown, and leaves no keys behind', async () => {
      const keys = `termpaste:test-presence-shutdown:`;
      const one = instance(undefined, keys);
      const other = instance(undefined, keys);
      await one.join('online', '1');
      await one.join('thread:3', '1');
      await other.join('online', '2');
      await one.onApplicationShutdown();
      expect(await other.counts(['online', 'thread:3'])).toEqual([1, 0]);
      await other.leave('online', '2');
      const raw = new Redis(redis.url);
      try {
        expect(await raw.keys(`${keys}*`)).toEqual([]);
      } finally {
        await raw.quit();
      }
    });
  });

  describe('two instances on one database', () => {
    let a: TestApp;
    let b: TestApp;
    const open: LiveClient[] = [];

    beforeAll(async () => {
      const env = { REDIS_URL: redis.url, LIVE_VISITOR_SOCKETS_PER_ADDRESS: '2' };
      a = await createTestApp({ env });
      b = await createTestApp({ database: a.database, env });
    });

    afterEach(async () => {
      await Promise.all(open.splice(0).map((client) => client.close()));
    });

    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it('a paste written on B shows on A at once, whose home and paste pages were cached', async () => {
      const writer = await liveUser(b);
      const readA = async () =>
        ((await supertest(a.url).get(API.threadsRecent).expect(200)).body as RecentPastesPage).threads.map(
          (card) => card.title,
        );
      await readA(); // cached on A
      await writer.browser.post(API.threads).send({ title: 'written on B', content: 'x' }).expect(201);
      await waitFor('A to drop its home page', async () => (await readA()).includes('written on B'));
      const id = ((await supertest(b.url).get(API.threadsRecent)).body as RecentPastesPage).threads[0]!.id;
      await supertest(a.url).get(API.thread(id)).expect(200); // cached on A
      await writer.browser.post(API.threadReplies(id)).send({ content: 'replied on B' }).expect(201);
      await waitFor('A to drop the paste page', async () => {
        const detail = (await supertest(a.url).get(API.thread(id))).body as PasteDetail;
        return detail.replyCount === 1;
      });
      // A vote on B: its score put into A's cached paste page and home card, the voter's own vote theirs.
      const voter = await liveUser(b);
      await readA();
      await voter.browser.post(API.votes).send({ threadId: id, value: 1 }).expect(200);
      await waitFor('A to show the score', async () => {
        const detail = (await supertest(a.url).get(API.thread(id))).body as PasteDetail;
        const home = (await supertest(a.url).get(API.threadsRecent)).body as RecentPastesPage;
        return detail.voteScore === 1 && home.threads.find((card) => card.id === id)?.voteScore === 1;
      });
      expect(((await supertest(a.url).get(API.thread(id))).body as PasteDetail).myVote).toBeNull();
    });

    it('a profile saved on B drops on A the pages that show its member, and no other', async () => {
      const carol = await liveUser(b);
      const erin = await liveUser(b);
      const hers = (
        await carol.browser.post(API.threads).send({ title: 'carol on B', content: 'x' }).expect(201)
      ).body.id as number;
      const other = (
        await erin.browser.post(API.threads).send({ title: 'erin on B', content: 'x' }).expect(201)
      ).body.id as number;
      const titleOnA = async (id: number) =>
        ((await supertest(a.url).get(API.thread(id)).expect(200)).body as PasteDetail).title;
      await titleOnA(hers); // cached on A
      await titleOnA(other);
      // Changed behind the apps' backs: a cached page keeps its old title.
      await a.dataSource.query(`UPDATE threads SET title = title || ' (changed)' WHERE id = ANY($1)`, [
        [hers, other],
      ]);
      await carol.browser.put(API.userProfile).send({ bio: 'saved on B' }).expect(200);
      await waitFor(
        'A to drop her paste page',
        async () => (await titleOnA(hers)) === 'carol on B (changed)',
      );
      expect(await titleOnA(other)).toBe('erin on B');
    });

    it('use the Redis adapter of the events port', () => {
      expect(a.app.get(EventsPort)).toBeInstanceOf(RedisEvents);
      expect(b.app.get(EventsPort)).toBeInstanceOf(RedisEvents);
    });

    it('a chat message posted on A reaches a socket on B (and one on A), in both shapes', async () => {
      const poster = await liveUser(a);
      const reader = await liveUser(a);
      const onB = await connect(b, { cookie: reader.cookie });
      const onA = await connect(a, { cookie: poster.cookie });
      open.push(onB, onA);
      const res = await poster.browser.post(API.chat).send({ message: 'across instances' }).expect(201);
      const message = res.body as ChatMessage;
      for (const client of [onB, onA]) {
        for (const type of [LIVE_EVENT.chatMessage, LIVE_EVENT.newMessage]) {
          expect(await client.next(type, (frame) => (frame as LiveEvent).type === type)).toEqual({
            type,
            message,
          });
        }
      }
      // Each delivered once, not once per instance.
      await settle(100);
      expect(onB.eventFrames).toHaveLength(2);
    });

    it('a member’s event published on A reaches that member’s socket on B only', async () => {
      const alice = await liveUser(a);
      const bob = await liveUser(a);
      const alicesOnB = await connect(b, { cookie: alice.cookie, path: '/ws/chat?scope=user' });
      const bobsOnB = await connect(b, { cookie: bob.cookie });
      open.push(alicesOnB, bobsOnB);
      await a.app.get(EventsPort).publish({
        to: 'user',
        userId: alice.user.id,
        event: { type: LIVE_EVENT.unreadCount, count: 4 },
      });
      await a.app.get(EventsPort).publish({
        to: 'user',
        userId: bob.user.id,
        event: { type: LIVE_EVENT.unreadCount, count: 8 },
      });
      expect(await alicesOnB.next('alice’s event', () => alicesOnB.frames.length > 0)).toEqual({
        type: LIVE_EVENT.unreadCount,
        count: 4,
      });
      await bobsOnB.next('bob’s event', () => bobsOnB.eventFrames.length > 0);
      expect(bobsOnB.eventFrames).toEqual([{ type: LIVE_EVENT.unreadCount, count: 8 }]);
    });

    /** The latest count of a kind this socket was told. */
    function lastCount(client: LiveClient, type: 'online_count' | 'thread_readers'): number | undefined {
      const counts = client.frames.filter((frame) => (frame as { type?: string }).type === type);
      return (counts.at(-1) as { count: number } | undefined)?.count;
    }

    function watch(client: LiveClient, thread: number | null): Promise<void> {
      client.ws.send(JSON.stringify({ type: 'watch', thread }));
      return client.roundTrip();
    }

    it('a reply written on A reaches the paste’s readers on B (a visitor’s too), and their page is fresh', async () => {
      const writer = await liveUser(a);
      const res = await writer.browser
        .post(API.threads)
        .send({ title: 'read on B', content: 'x' })
        .expect(201);
      const id = (res.body as { id: number }).id;
      await supertest(b.url).get(API.thread(id)).expect(200); // cached on B
      const member = await liveUser(a);
      const onB = await connect(b, { cookie: member.cookie });
      const visitorOnB = await connect(b, { path: '/ws/chat?scope=public' });
      open.push(onB, visitorOnB);
      await watch(onB, id);
      await watch(visitorOnB, id);
      const reply = await writer.browser.post(API.threadReplies(id)).send({ content: 'from A' }).expect(201);
      for (const client of [onB, visitorOnB]) {
        const event = await client.next(
          'the reply',
          (frame) => (frame as { type?: string }).type === PASTE_LIVE_EVENT.replyAdded,
        );
        expect(event).toMatchObject({
          threadId: id,
          replyId: (reply.body as { id: number }).id,
          replyCount: 1,
        });
      }
      // Told of it, B's readers read the paste again from B: its cached page was dropped first.
      const detail = (await supertest(b.url).get(`${API.thread(id)}?refresh=true`)).body as PasteDetail;
      expect(detail.replies.map((r) => r.content)).toEqual(['from A']);
    });

    it('counts members online and a paste’s readers per member across both instances, and drops them when their sockets close', async () => {
      const alice = await liveUser(a);
      const bob = await liveUser(a);
      const res = await alice.browser
        .post(API.threads)
        .send({ title: 'two instances', content: 'x' })
        .expect(201);
      const id = (res.body as { id: number }).id;
      const aliceOnA = await connect(a, { cookie: alice.cookie });
      const aliceOnB = await connect(b, { cookie: alice.cookie });
      const bobOnB = await connect(b, { cookie: bob.cookie });
      open.push(aliceOnA, aliceOnB, bobOnB);
      const online = () => lastCount(bobOnB, 'online_count');
      await waitFor('both online', async () => online() !== undefined && online()! >= 2);
      const base = online()! - 2; // members of earlier tests still online
      for (const client of [aliceOnA, aliceOnB, bobOnB]) await watch(client, id);
      for (const client of [aliceOnA, aliceOnB, bobOnB]) {
        await waitFor('two reading', () => lastCount(client, 'thread_readers') === 2);
      }
      await aliceOnA.close();
      await settle(500);
      expect(lastCount(bobOnB, 'thread_readers')).toBe(2);
      expect(online()).toBe(base + 2);
      await aliceOnB.close();
      await waitFor('alice gone from the paste', () => lastCount(bobOnB, 'thread_readers') === 1);
      await waitFor('alice offline', () => online() === base + 1);
      expect(await a.app.get(PresencePort).counts([`thread:${id}`])).toEqual([1]);
    });

    it('caps visitor sockets per address over both instances (4429)', async () => {
      const one = await connect(a, { path: '/ws/chat?scope=public' });
      const two = await connect(b, { path: '/ws/chat?scope=public' });
      open.push(one, two);
      await one.roundTrip();
      await two.roundTrip();
      await settle(100);
      const third = await connect(a, { path: '/ws/chat?scope=public' });
      expect(await third.closed).toBe(LIVE_CLOSE.tooManyVisitorSockets.code);
      await two.close();
      await waitFor(
        'the place freed',
        async () => (await a.app.get(PresencePort).counts(['visitors:127.0.0.1']))[0] === 1,
      );
      const again = await connect(a, { path: '/ws/chat?scope=public' });
      open.push(again);
      await again.roundTrip();
      await settle(200);
      expect(again.closeCode).toBeUndefined();
    });
  });
});
