import { API, MESSAGING_MESSAGES } from '@termpaste/contracts';
import { registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** A 429 with the "too fast" text and a Retry-After of at most `windowSeconds`. */
function expectTooFast(
  res: { status: number; body: { message?: string }; headers: Record<string, string> },
  windowSeconds: number,
) {
  expect(res.status).toBe(429);
  const seconds = Number(res.headers['retry-after']);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(windowSeconds);
  expect(res.body).toEqual({ statusCode: 429, message: MESSAGING_MESSAGES.chatTooFast(seconds) });
}

const message = (to: string, n: number) => ({ recipientEmail: to, subject: `s${n}`, content: `c${n}` });

describe('private message rate limit (per member; support requests count too)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: { RATE_LIMITS: 'on', RATE_LIMIT_MESSAGES_PER_MINUTE: '3', RATE_LIMIT_MESSAGES_PER_HOUR: '4' },
    });
    await registered(t); // the owner: support requests go to them
  });

  afterAll(async () => {
    await t?.close();
  });

  const sentBy = async (userId: number) => {
    const [{ count }]: Array<{ count: number }> = await t.dataSource.query(
      'SELECT count(*)::int AS count FROM private_messages WHERE sender_id = $1',
      [userId],
    );
    return count;
  };

  it('allows RATE_LIMIT_MESSAGES_PER_MINUTE, then 429 with the reason; nothing refused is saved', async () => {
    const alice = await registered(t);
    const bob = await registered(t);
    await alice.browser.post(API.messages).send(message(bob.user.username, 1)).expect(201);
    await alice.browser.post(API.support).send({ subject: 'help', content: 'please' }).expect(201);
    await alice.browser.post(API.messages).send(message(bob.user.username, 2)).expect(201);
    expectTooFast(await alice.browser.post(API.messages).send(message(bob.user.username, 3)), 60);
    expectTooFast(await alice.browser.post(API.support).send({ subject: 'again', content: 'x' }), 60);
    expect(await sentBy(alice.user.id)).toBe(3);
    // Reading and marking read are not limited.
    await alice.browser.get(API.messages).expect(200);
    await alice.browser.get(API.messagesSent).expect(200);
  });

  it('counts per member: another member is not held back', async () => {
    const carol = await registered(t);
    const dave = await registered(t);
    for (let i = 0; i < 3; i++)
      await carol.browser.post(API.messages).send(message(dave.user.username, i)).expect(201);
    expectTooFast(await carol.browser.post(API.messages).send(message(dave.user.username, 3)), 60);
    await dave.browser.post(API.messages).send(message(carol.user.username, 0)).expect(201);
  });

  it('checks who is writing first: a visitor gets 401, not a count', async () => {
    const visitor = t.browser();
    for (let i = 0; i < 5; i++) await visitor.post(API.messages).send(message('nobody', i)).expect(401);
  });

  it('RATE_LIMITS=off lifts it', async () => {
    const unlimited = await createTestApp({
      env: { RATE_LIMITS: 'off', RATE_LIMIT_MESSAGES_PER_MINUTE: '1' },
    });
    try {
      const frank = await registered(unlimited);
      const gina = await registered(unlimited);
      for (let i = 0; i < 3; i++)
        await frank.browser.post(API.messages).send(message(gina.user.username, i)).expect(201);
    } finally {
      await unlimited.close();
    }
  });
});
