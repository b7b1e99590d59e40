import { Logger } from '@nestjs/common';
import { API, LIVE_EVENT } from '@termpaste/contracts';
import { Redis } from 'ioredis';
import type { LiveEnvelope } from '../src/infra/events/events.port.js';
import { RedisEvents } from '../src/infra/events/redis.events.js';
import { CLOSE_SIGNED_OUT } from '../src/modules/live/live.gateway.js';
import { CapturingLogger } from './support/capturing-logger.js';
import { type LiveClient, settle } from './support/live.js';
import { describeWithRedis, type RedisHandle, startRedis } from './support/redis.js';
import {
  changePassword,
  expectSignedOut,
  openSocket,
  resetToken,
  signOutNavigation,
  twoSessions,
} from './support/sign-out-sockets.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

describeWithRedis(
  'a sign-out, password change or reset closes live sockets on every instance (Redis)',
  () => {
    let redis: RedisHandle;

    beforeAll(async () => {
      redis = await startRedis();
    });

    afterAll(async () => {
      await redis?.stop();
    });

    describe('RedisEvents', () => {
      const CHANNEL = 'termpaste:test-sign-out';
      const logs = new CapturingLogger();
      let one: RedisEvents;
      let two: RedisEvents;
      const got: LiveEnvelope[] = [];

      beforeAll(async () => {
        Logger.overrideLogger(logs);
        one = new RedisEvents(redis.url, CHANNEL);
        two = new RedisEvents(redis.url, CHANNEL);
        await Promise.all([one.onModuleInit(), two.onModuleInit()]);
        two.subscribe((envelope) => got.push(envelope));
      });

      afterAll(async () => {
        await Promise.all([one?.onApplicationShutdown(), two?.onApplicationShutdown()]);
      });

      it('carries the session a member event spares, as sent', async () => {
        const envelope: LiveEnvelope = {
          to: 'user',
          userId: 7,
          exceptSession: 'the-session-that-changed-it',
          event: { type: LIVE_EVENT.signedOut },
        };
        await one.publish(envelope);
        await waitFor('the envelope on the other instance', () => got.length === 1);
        expect(got).toEqual([envelope]);
      });

      it('carries the one session a sign-out ends, as sent', async () => {
        const envelope: LiveEnvelope = {
          to: 'user',
          userId: 9,
          onlySession: 'the-session-that-signed-out',
          event: { type: LIVE_EVENT.signedOut },
        };
        const before = got.length;
        await one.publish(envelope);
        await waitFor('the envelope on the other instance', () => got.length === before + 1);
        expect(got.at(-1)).toEqual(envelope);
      });

      it('drops an envelope whose spared session is not a session id', async () => {
        const raw = new Redis(redis.url);
        try {
          for (const exceptSession of [42, '', 'x'.repeat(257)]) {
            await raw.publish(
              CHANNEL,
              JSON.stringify({ to: 'user', userId: 7, exceptSession, event: { type: LIVE_EVENT.signedOut } }),
            );
          }
          const valid: LiveEnvelope = { to: 'user', userId: 8, event: { type: LIVE_EVENT.signedOut } };
          const before = got.length;
          await raw.publish(CHANNEL, JSON.stringify(valid));
          await waitFor('the valid envelope', () => got.length === before + 1);
          expect(got.at(-1)).toEqual(valid);
          await waitFor(
            'the invalid ones logged',
            () =>
              logs.entries.filter((e) => e.message.startsWith('Ignored an invalid live event')).length >= 6,
          );
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
        a = await createTestApp({ env: { REDIS_URL: redis.url } });
        b = await createTestApp({ database: a.database, env: { REDIS_URL: redis.url } });
      });

      afterEach(async () => {
        await Promise.all(open.splice(0).map((client) => client.close()));
      });

      afterAll(async () => {
        await b?.close();
        await a?.close();
      });

      it("a change on A closes the member's other sessions' sockets on B, not the changing session's", async () => {
        const member = await twoSessions(a, b);
        const mineOnB = await openSocket(b, member.here.cookie, open);
        const theirsOnB = [
          await openSocket(b, member.elsewhere.cookie, open),
          await openSocket(b, member.elsewhere.cookie, open, '/ws/chat?scope=user'),
        ];
        const theirsOnA = await openSocket(a, member.elsewhere.cookie, open);

        await changePassword(member.here.browser);

        for (const client of [...theirsOnB, theirsOnA]) await expectSignedOut(client, CLOSE_SIGNED_OUT);
        await settle();
        await mineOnB.roundTrip();
        expect(mineOnB.closeCode).toBeUndefined();
        expect(mineOnB.events(LIVE_EVENT.signedOut)).toEqual([]);
        await member.elsewhere.browser.get(API.currentUser).expect(401);
      });

      it("a sign-out on A closes that session's sockets on B, not the member's other session's", async () => {
        const member = await twoSessions(a, b);
        const mineOnB = [
          await openSocket(b, member.here.cookie, open),
          await openSocket(b, member.here.cookie, open, '/ws/chat?scope=user'),
        ];
        const mineOnA = await openSocket(a, member.here.cookie, open);
        const theirsOnB = await openSocket(b, member.elsewhere.cookie, open);

        await signOutNavigation(member.here.browser);

        for (const client of [...mineOnB, mineOnA]) await expectSignedOut(client, CLOSE_SIGNED_OUT);
        await settle();
        await theirsOnB.roundTrip();
        expect(theirsOnB.closeCode).toBeUndefined();
        expect(theirsOnB.events(LIVE_EVENT.signedOut)).toEqual([]);
        await member.elsewhere.browser.get(API.currentUser).expect(200);
      });

      it("a reset on A closes every socket of the member's on B", async () => {
        const member = await twoSessions(a, b);
        const bystander = await twoSessions(b);
        const onB = [
          await openSocket(b, member.here.cookie, open),
          await openSocket(b, member.elsewhere.cookie, open, '/ws/chat?scope=user'),
        ];
        const others = await openSocket(b, bystander.here.cookie, open);

        await a
          .browser()
          .post(API.resetPassword)
          .send({ token: await resetToken(a, member.user.id), newPassword: 'a reset password' })
          .expect(200);

        for (const client of onB) await expectSignedOut(client, CLOSE_SIGNED_OUT);
        await settle();
        await others.roundTrip();
        expect(others.events(LIVE_EVENT.signedOut)).toEqual([]);
      });
    });
  },
);
