import {
  API,
  type ChatMessage,
  LIVE_EVENT,
  LIVE_MAX_CLIENT_FRAME_BYTES,
  type LiveEvent,
} from '@termpaste/contracts';
import { EventsPort } from '../src/infra/events/events.port.js';
import { LiveGateway, MAX_SOCKETS_PER_USER } from '../src/modules/live/live.gateway.js';
import { connect, type LiveClient, type LiveUser, liveUser, refusal, settle } from './support/live.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const ADMIN_ORIGIN = 'https://admin.example.com';

describe('live socket /ws/chat', () => {
  let t: TestApp;
  let alice: LiveUser;
  let bob: LiveUser;
  const open: LiveClient[] = [];

  /** Connects and remembers the socket, to close it after the test. */
  async function socket(member: LiveUser, options: Parameters<typeof connect>[1] = {}): Promise<LiveClient> {
    const client = await connect(t, { cookie: member.cookie, ...options });
    open.push(client);
    return client;
  }

  function publish(envelope: Parameters<EventsPort['publish']>[0]): Promise<void> {
    return t.app.get(EventsPort).publish(envelope);
  }

  beforeAll(async () => {
    t = await createTestApp({ env: { ALLOWED_ORIGINS: ADMIN_ORIGIN } });
    alice = await liveUser(t);
    bob = await liveUser(t);
  });

  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('the upgrade', () => {
    it('is refused to a visitor (401)', async () => {
      expect(await refusal(connect(t))).toBe('401');
      expect(await refusal(connect(t, { cookie: 'termpaste.sid=s%3Amade-up.signature' }))).toBe('401');
    });

    it('is refused from a foreign site (403), even with a valid session', async () => {
      for (const origin of [
        'https://evil.example',
        `${t.url}.evil.example`,
        'http://192.168.1.10:3000',
        'null',
        'not a url',
      ]) {
        expect(await refusal(connect(t, { cookie: alice.cookie, origin }))).toBe('403');
      }
    });

    it('is refused without an Origin header (403)', async () => {
      expect(await refusal(connect(t, { cookie: alice.cookie, origin: null }))).toBe('403');
    });

    it('is accepted from our own origins: loopback ones (PUBLIC_URL unset) and ALLOWED_ORIGINS', async () => {
      for (const origin of [
        t.url,
        t.url.replace('127.0.0.1', 'localhost'),
        new URL(t.config.publicUrl).origin,
        ADMIN_ORIGIN,
      ]) {
        const client = await socket(alice, { origin });
        await client.roundTrip();
      }
    });

    it('is refused to a banned member (401)', async () => {
      const banned = await liveUser(t);
      await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [banned.user.id]);
      expect(await refusal(connect(t, { cookie: banned.cookie }))).toBe('401');
    });

    it('is refused after signing out', async () => {
      const gone = await liveUser(t);
      await gone.browser
        .get(API.logout)
        .set('Sec-Fetch-Dest', 'document')
        .set('Sec-Fetch-Site', 'same-origin')
        .expect((res) => expect(res.status).toBeLessThan(400));
      expect(await refusal(connect(t, { cookie: gone.cookie }))).toBe('401');
    });

    it('is refused on an unknown path, and the server goes on serving', async () => {
      for (const path of ['/ws/other', '/ws/chat/extra', '/api/chat', '/']) {
        await expect(connect(t, { cookie: alice.cookie, path })).rejects.toThrow();
      }
      await (await socket(alice)).roundTrip();
      await alice.browser.get(API.chat).expect(200);
    });
  });

  describe('events', () => {
    it('sends a new chat message to every socket, in both shapes', async () => {
      const clients = [await socket(alice), await socket(alice), await socket(bob)];
      const res = await bob.browser.post(API.chatMessages).send({ content: 'live hello' }).expect(201);
      const message = res.body as ChatMessage;
      for (const client of clients) {
        const isThis = (type: string) => (frame: unknown) =>
          (frame as LiveEvent).type === type && (frame as { message: ChatMessage }).message.id === message.id;
        expect(await client.next('chat_message', isThis(LIVE_EVENT.chatMessage))).toEqual({
          type: LIVE_EVENT.chatMessage,
          message,
        });
        expect(await client.next('new_message', isThis(LIVE_EVENT.newMessage))).toEqual({
          type: LIVE_EVENT.newMessage,
          message,
        });
      }
      // The popover variant goes live too.
      const popover = await alice.browser.post(API.chat).send({ message: 'from the popover' }).expect(201);
      await clients[2]!.next(
        'the popover message',
        (frame) => (frame as { message?: ChatMessage }).message?.id === (popover.body as ChatMessage).id,
      );
    });

    it('sends no chat to a ?scope=user socket, but its member’s own events', async () => {
      const own = await socket(alice, { path: '/ws/chat?scope=user' });
      const all = await socket(alice);
      await bob.browser.post(API.chat).send({ message: 'not for the badge' }).expect(201);
      await all.next('the chat message', (frame) => (frame as LiveEvent).type === LIVE_EVENT.chatMessage);
      // Published after the chat message, so delivered after it.
      await publish({ to: 'user', userId: alice.user.id, event: { type: LIVE_EVENT.unreadCount, count: 7 } });
      expect(await own.next('the unread count', () => own.frames.length > 0)).toEqual({
        type: LIVE_EVENT.unreadCount,
        count: 7,
      });
      expect(own.frames).toEqual([{ type: LIVE_EVENT.unreadCount, count: 7 }]);
    });

    it('sends a member’s own events to each of their sockets, and to no one else', async () => {
      const mine = [await socket(alice), await socket(alice, { path: '/ws/chat?scope=user' })];
      const bobs = await socket(bob);
      const event = { type: LIVE_EVENT.unreadCount, count: 3 } as const;
      await publish({ to: 'user', userId: alice.user.id, event });
      await publish({ to: 'user', userId: bob.user.id, event: { type: LIVE_EVENT.unreadCount, count: 99 } });
      for (const client of mine)
        await client.next('alice’s event', (frame) => (frame as { count?: number }).count === 3);
      await bobs.next('bob’s event', (frame) => (frame as { count?: number }).count === 99);
      expect(bobs.eventFrames).toEqual([{ type: LIVE_EVENT.unreadCount, count: 99 }]);
      for (const client of mine) expect(client.events(LIVE_EVENT.unreadCount)).toEqual([event]);
    });

    it('forgets closed sockets', async () => {
      const gateway = t.app.get(LiveGateway);
      const before = gateway.connectionCount;
      const client = await connect(t, { cookie: bob.cookie });
      await waitFor('the socket counted', () => gateway.connectionCount === before + 1);
      await client.close();
      await waitFor('the socket forgotten', () => gateway.connectionCount === before);
      await publish({ to: 'user', userId: bob.user.id, event: { type: LIVE_EVENT.unreadCount, count: 1 } });
    });
  });

  describe('limits', () => {
    it(`closes a member's socket beyond ${MAX_SOCKETS_PER_USER} at once (1008); others still connect`, async () => {
      const carol = await liveUser(t);
      const held = await Promise.all(
        Array.from({ length: MAX_SOCKETS_PER_USER }, () => connect(t, { cookie: carol.cookie })),
      );
      const extra = await connect(t, { cookie: carol.cookie });
      expect(await extra.closed).toBe(1008);
      await held[0]!.roundTrip();
      const other = await socket(alice);
      await other.roundTrip();
      const gateway = t.app.get(LiveGateway);
      const full = gateway.connectionCount;
      await held[0]!.close();
      await waitFor('the closed socket forgotten', () => gateway.connectionCount < full);
      const again = await connect(t, { cookie: carol.cookie });
      await again.roundTrip();
      await Promise.all([...held.slice(1), again, other].map((client) => client.close()));
    });
  });

  describe('client frames', () => {
    it('answers {"type":"ping"} with {"type":"pong"}', async () => {
      const client = await socket(alice);
      client.ws.send(JSON.stringify({ type: 'ping' }));
      expect(
        await client.next('a pong', (frame) => (frame as { type?: string }).type === LIVE_EVENT.pong),
      ).toEqual({ type: 'pong' });
      expect(client.eventFrames).toEqual([{ type: 'pong' }]);
    });

    it('ignores malformed JSON, binary frames and wrong shapes; the socket stays usable', async () => {
      const client = await socket(alice);
      for (const frame of [
        'not json',
        '{"type":',
        '',
        'null',
        '42',
        '"ping"',
        '[{"type":"ping"}]',
        '{"type":"PING"}',
        '{"type":["ping"]}',
        '{"event":"ping"}',
        '{"event":"message","data":{"content":"sneaky"}}',
        '{"__proto__":{"type":"ping"}}',
        '{"type":"chat_message","message":{"id":1,"content":"forged","createdAt":"x","author":null}}',
      ]) {
        client.ws.send(frame);
      }
      client.ws.send(Buffer.from(JSON.stringify({ type: 'ping' })), { binary: true });
      client.ws.send(Buffer.from([0, 1, 2, 255]), { binary: true });
      await client.roundTrip();
      await settle();
      // One pong: the round trip's. Nothing else came back, and nothing went to anyone else.
      expect(client.eventFrames).toEqual([{ type: 'pong' }]);
    });

    it('closes a socket that sends a frame over the limit (1009), and only that one', async () => {
      const other = await socket(bob);
      const big = await socket(alice);
      big.ws.send(JSON.stringify({ type: 'ping', pad: 'x'.repeat(LIVE_MAX_CLIENT_FRAME_BYTES) }));
      expect(await big.closed).toBe(1009);
      await other.roundTrip();
      // A frame at the limit is fine.
      const atLimit = await socket(alice);
      const padding = 'x'.repeat(
        LIVE_MAX_CLIENT_FRAME_BYTES - JSON.stringify({ type: 'ping', pad: '' }).length,
      );
      atLimit.ws.send(JSON.stringify({ type: 'ping', pad: padding }));
      await atLimit.next('a pong for a frame at the limit', () => atLimit.eventFrames.length > 0);
      await (await socket(alice)).roundTrip();
    });

    it('closes a socket that sends invalid UTF-8 text, and only that one', async () => {
      const other = await socket(bob);
      const bad = await socket(alice);
      bad.ws.send(Buffer.from([0x7b, 0xff, 0x7d]), { binary: false });
      expect(await bad.closed).toBe(1007);
      await other.roundTrip();
    });

    it('logs nothing as an error for what clients sent', () => {
      expect(t.logs.entries.filter((entry) => entry.level === 'error')).toEqual([]);
    });
  });
});

describe('live socket heartbeat and shutdown', () => {
  let t: TestApp;
  let member: LiveUser;

  beforeAll(async () => {
    t = await createTestApp({ env: { LIVE_HEARTBEAT_MS: '100' } });
    member = await liveUser(t);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('cuts a socket that stops answering pings, and keeps one that answers', async () => {
    const silent = await connect(t, { cookie: member.cookie, autoPong: false });
    const alive = await connect(t, { cookie: member.cookie });
    // Cut (no close frame: 1006) between the second and the third ping.
    expect(await silent.closed).toBe(1006);
    await settle(400);
    await alive.roundTrip();
    expect(alive.closeCode).toBeUndefined();
    await alive.close();
  });

  it('closes every socket with 1001 when the app shuts down', async () => {
    const clients = [
      await connect(t, { cookie: member.cookie }),
      await connect(t, { cookie: member.cookie }),
    ];
    const started = Date.now();
    await t.close();
    t = undefined as unknown as TestApp;
    expect(await Promise.all(clients.map((client) => client.closed))).toEqual([1001, 1001]);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
