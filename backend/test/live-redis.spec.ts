import { Logger } from '@nestjs/common';
import {
  API,
  type ChatMessage,
  LIVE_EVENT,
  type LiveEvent,
  type RecentThreadsPage,
  type ThreadDetail,
} from '@termpaste/contracts';
import { Redis } from 'ioredis';
import supertest from 'supertest';
import { EventsPort, type InstanceEvent, type LiveEnvelope } from '../src/infra/events/events.port.js';
import { RedisEvents } from '../src/infra/events/redis.events.js';
import { CapturingLogger } from './support/capturing-logger.js';
import { connect, type LiveClient, liveMember, settle } from './support/live.js';
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

  describe('two instances on one database', () => {
    let a: TestApp;
    let b: TestApp;
    const open: LiveClient[] = [];

    beforeAll(async () => {
      a = await createTestApp({ env: { REDIS_URL: redis.url } });
      b = await createTestApp({ database: a.database, env: { REDIS_URL: redis.url } });
    });

    afterAll(async () => {
      await Promise.all(open.map((client) => client.close()));
      await b?.close();
      await a?.close();
    });

    it('a paste written on B shows on A at once, whose home and paste pages were cached', async () => {
      const writer = await liveMember(b);
      const readA = async () =>
        ((await supertest(a.url).get(API.threadsRecent).expect(200)).body as RecentThreadsPage).threads.map(
          (card) => card.title,
        );
      await readA(); // cached on A
      await writer.browser.post(API.threads).send({ title: 'written on B', content: 'x' }).expect(201);
      await waitFor('A to drop its home page', async () => (await readA()).includes('written on B'));
      const id = ((await supertest(b.url).get(API.threadsRecent)).body as RecentThreadsPage).threads[0]!.id;
      await supertest(a.url).get(API.thread(id)).expect(200); // cached on A
      await writer.browser.post(API.threadReplies(id)).send({ content: 'replied on B' }).expect(201);
      await waitFor('A to drop the paste page', async () => {
        const detail = (await supertest(a.url).get(API.thread(id))).body as ThreadDetail;
        return detail.replyCount === 1;
      });
    });

    it('use the Redis adapter of the events port', () => {
      expect(a.app.get(EventsPort)).toBeInstanceOf(RedisEvents);
      expect(b.app.get(EventsPort)).toBeInstanceOf(RedisEvents);
    });

    it('a chat message posted on A reaches a socket on B (and one on A), in both shapes', async () => {
      const poster = await liveMember(a);
      const reader = await liveMember(a);
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
      const alice = await liveMember(a);
      const bob = await liveMember(a);
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
  });
});
