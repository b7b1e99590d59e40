import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { LIVE_EVENT } from '@termpaste/contracts';
import type { LiveEnvelope } from '../src/infra/events/events.port.js';
import { RedisEvents } from '../src/infra/events/redis.events.js';
import { describeWithRedis, type RedisHandle, startRedis } from './support/redis.js';
import { waitFor } from './support/wait-for.js';

/*
 * An app shut down while Redis is just coming back (a restart, the end of an outage) closes connections
 * that are midway through reconnecting. Nothing they were doing may surface as an unhandled rejection
 * (jest fails the test running when one happens; in production it is an 'unhandledRejection').
 */
describeWithRedis('Redis clients closed as Redis comes back', () => {
  let redis: RedisHandle;

  beforeEach(async () => {
    redis = await startRedis();
  });

  afterEach(async () => {
    await redis?.stop();
  });

  it('RedisEvents: subscribes again once Redis is back, so what is published then still arrives', async () => {
    const channel = `termpaste:test-reconnect-${Date.now()}`;
    const one = new RedisEvents(redis.url, channel);
    const two = new RedisEvents(redis.url, channel);
    try {
      await Promise.all([one.onModuleInit(), two.onModuleInit()]);
      const received: unknown[] = [];
      two.subscribe((envelope) => received.push(envelope));
      const subscriber = (two as unknown as { subscriber: Redis }).subscriber;
      await redis.stop();
      await waitFor('the subscriber to reconnect', () => subscriber.status === 'reconnecting');
      redis = await startRedis({ port: redis.port });
      const envelope: LiveEnvelope = {
        to: 'user',
        userId: 42,
        event: { type: LIVE_EVENT.unreadCount, count: 5 },
      };
      // Published until it arrives: the publisher and the renewed subscription come back on their own.
      await waitFor(
        'the event published after the restart',
        async () => {
          await one.publish(envelope).catch(() => undefined);
          await sleep(50);
          return received.length > 0;
        },
        10_000,
      );
      expect(received[0]).toEqual(envelope);
    } finally {
      await Promise.all([one.onApplicationShutdown(), two.onApplicationShutdown()]);
    }
  });

  it.each([1, 2, 3, 4, 5])(
    'RedisEvents: closed the moment its subscriber reconnects, it leaves no rejection behind (round %i)',
    async () => {
      const events = new RedisEvents(redis.url, `termpaste:test-shutdown-${Date.now()}`);
      await events.onModuleInit();
      const subscriber = (events as unknown as { subscriber: Redis }).subscriber;
      await redis.stop();
      await waitFor('the subscriber to reconnect', () => subscriber.status === 'reconnecting');
      // Shut down the moment the reconnected subscriber has sent its ready check (INFO), before the answer:
      // the timing a shutdown right after a Redis restart meets (ioredis' own step, hooked to hit it). Hooked
      // before Redis starts: on a loaded machine the subscriber may reconnect before startRedis returns.
      const internals = subscriber as unknown as { _readyCheck(callback: unknown): void };
      const readyCheck = internals._readyCheck.bind(subscriber);
      const closed = new Promise<void>((resolve) => {
        internals._readyCheck = (callback) => {
          readyCheck(callback);
          void events.onApplicationShutdown().then(resolve);
        };
      });
      redis = await startRedis({ port: redis.port });
      await closed;
      await waitFor('the subscriber to be closed', () => subscriber.status === 'end');
      // Time for whatever the closed connection still held to be rejected, within this test.
      await sleep(300);
    },
  );
});
