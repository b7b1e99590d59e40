import { API, POST_MESSAGES, SETTINGS_MESSAGES } from '@termpaste/contracts';
import { RATE_LIMIT_DEFAULTS } from '../src/config/config.js';
import { writeLimitThrottlers } from '../src/modules/auth/write-limits.js';
import { registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

type Member = Awaited<ReturnType<typeof registered>>;
type TooMany = (seconds: number) => string;

/** A 429 with `text`'s message for the seconds of its Retry-After, which lies within (min, max]. */
function expectRefused(
  res: { status: number; body: { message?: string }; headers: Record<string, string> },
  text: TooMany,
  { min = 0, max }: { min?: number; max: number },
): void {
  expect(res.status).toBe(429);
  const seconds = Number(res.headers['retry-after']);
  expect(seconds).toBeGreaterThan(min);
  expect(seconds).toBeLessThanOrEqual(max);
  expect(res.body).toEqual({ statusCode: 429, message: text(seconds) });
}

describe('per-member limits of pastes, replies, votes and mentions', () => {
  let t: TestApp;
  let host: Member;
  let hostPaste: number;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        RATE_LIMITS: 'on',
        RATE_LIMIT_REGISTER_PER_HOUR: '100',
        // The hourly limit of pastes bites first, the per-minute one of replies and votes.
        RATE_LIMIT_PASTES_PER_MINUTE: '5',
        RATE_LIMIT_PASTES_PER_HOUR: '2',
        RATE_LIMIT_REPLIES_PER_MINUTE: '2',
        RATE_LIMIT_REPLIES_PER_HOUR: '50',
        RATE_LIMIT_VOTES_PER_MINUTE: '3',
        RATE_LIMIT_VOTES_PER_HOUR: '50',
        RATE_LIMIT_MENTIONS_PER_HOUR: '5',
      },
    });
    host = await registered(t);
    hostPaste = (await host.browser.post(API.threads).send({ title: 'host', content: 'x' }).expect(201)).body
      .id as number;
  });

  afterAll(async () => {
    await t?.close();
  });

  const count = async (table: string, column: string, userId: number): Promise<number> => {
    const [row]: Array<{ n: number }> = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`,
      [userId],
    );
    return row!.n;
  };

  const pasteBy = (member: Member, content = 'content') =>
    member.browser.post(API.threads).send({ title: 'title', content });
  const replyBy = (member: Member, content = 'a reply', threadId = hostPaste) =>
    member.browser.post(API.threadReplies(threadId)).send({ content });

  it('pastes: RATE_LIMIT_PASTES_PER_HOUR, then 429 `You are posting too fast…`; nothing refused is saved', async () => {
    const alice = await registered(t);
    await pasteBy(alice).expect(201);
    await pasteBy(alice).expect(201);
    expectRefused(await pasteBy(alice), POST_MESSAGES.postTooFast, { min: 60, max: 3600 });
    expect(await count('threads', 'author_id', alice.user.id)).toBe(2);
    // Per member: another is not held back.
    await pasteBy(await registered(t)).expect(201);
  });

  it('replies: RATE_LIMIT_REPLIES_PER_MINUTE, then 429 `You are posting too fast…`', async () => {
    const bob = await registered(t);
    await replyBy(bob).expect(201);
    await replyBy(bob).expect(201);
    expectRefused(await replyBy(bob), POST_MESSAGES.postTooFast, { max: 60 });
    expect(await count('replies', 'author_id', bob.user.id)).toBe(2);
    // A reply's limit is its own: bob may still post a paste.
    await pasteBy(bob).expect(201);
  });

  it('votes: RATE_LIMIT_VOTES_PER_MINUTE (taking one back counts too), then 429 `You are voting too fast…`', async () => {
    const carol = await registered(t);
    const vote = () => carol.browser.post(API.votes).send({ threadId: hostPaste, value: 1 });
    await vote().expect(200, { value: 1, voteScore: 1 });
    await vote().expect(200, { value: null, voteScore: 0 });
    await vote().expect(200, { value: 1, voteScore: 1 });
    expectRefused(await vote(), POST_MESSAGES.voteTooFast, { max: 60 });
    expect(await count('votes', 'user_id', carol.user.id)).toBe(1);
    // Voting's limit does not stop a reply.
    await replyBy(carol).expect(201);
  });

  it('mentions: each member @mentioned counts against RATE_LIMIT_MENTIONS_PER_HOUR; posts without any pass', async () => {
    const dave = await registered(t);
    await pasteBy(dave, 'cc @neo @trinity @morpheus').expect(201); // 3 of 5
    // One member mentioned twice counts once; code is not read.
    await replyBy(dave, '@neo and @NEO again, `@smith` in code').expect(201); // 4 of 5
    expectRefused(await replyBy(dave, 'ping @oracle @niobe'), POST_MESSAGES.mentionsTooMany, {
      min: 60,
      max: 3600,
    });
    // Not saved; a reply that mentions nobody still goes through.
    expect(await count('replies', 'author_id', dave.user.id)).toBe(1);
    await pasteBy(dave, 'no mentions here, mail me at dave@example.com').expect(201);
    // Another member has a budget of their own.
    await replyBy(await registered(t), '@neo @trinity @morpheus @oracle @niobe').expect(201);
  });

  it('checks who is writing first: a visitor gets 401 and is not counted', async () => {
    const visitor = t.browser();
    for (let i = 0; i < 4; i++) {
      await visitor.post(API.votes).send({ threadId: hostPaste, value: 1 }).expect(401);
      await visitor.post(API.threads).send({ title: 't', content: 'c' }).expect(401);
    }
  });

  it('RATE_LIMITS=off lifts them', async () => {
    const unlimited = await createTestApp({
      env: { RATE_LIMITS: 'off', RATE_LIMIT_PASTES_PER_MINUTE: '1', RATE_LIMIT_MENTIONS_PER_HOUR: '1' },
    });
    try {
      const erin = await registered(unlimited);
      for (let i = 0; i < 3; i++) {
        await erin.browser.post(API.threads).send({ title: 't', content: '@a_b_c @d_e_f' }).expect(201);
      }
    } finally {
      await unlimited.close();
    }
  });
});

describe('limits of edits and profile saves, per member and per address', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        RATE_LIMITS: 'on',
        RATE_LIMIT_REGISTER_PER_HOUR: '100',
        RATE_LIMIT_EDITS_PER_HOUR: '2',
        RATE_LIMIT_EDITS_PER_ADDRESS_PER_HOUR: '3',
        RATE_LIMIT_PROFILE_SAVES_PER_HOUR: '2',
        RATE_LIMIT_PROFILE_SAVES_PER_ADDRESS_PER_HOUR: '3',
      },
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  const versions = async (threadId: number): Promise<number> => {
    const [row]: Array<{ n: number }> = await t.dataSource.query(
      'SELECT count(*)::int AS n FROM thread_revisions WHERE thread_id = $1',
      [threadId],
    );
    return row!.n;
  };

  it('edits: pastes and replies together, RATE_LIMIT_EDITS_PER_HOUR a member, then the address; 429 `You are editing too fast…`, nothing kept', async () => {
    const alice = await registered(t);
    const paste = (await alice.browser.post(API.threads).send({ title: 't', content: 'v1' }).expect(201)).body
      .id as number;
    const reply = (await alice.browser.post(API.threadReplies(paste)).send({ content: 'r1' }).expect(201))
      .body.id as number;
    await alice.browser.patch(API.thread(paste)).send({ content: 'v2' }).expect(200);
    await alice.browser.patch(API.reply(reply)).send({ content: 'r2' }).expect(200);
    expectRefused(
      await alice.browser.patch(API.thread(paste)).send({ content: 'v3' }),
      POST_MESSAGES.editTooFast,
      {
        min: 60,
        max: 3600,
      },
    );
    expect(await versions(paste)).toBe(2);
    expect((await t.http.get(API.thread(paste)).expect(200)).body.content).toBe('v2');
    // Another member from the same address: one more edit, then the address's limit.
    const bob = await registered(t);
    const hers = (await bob.browser.post(API.threads).send({ title: 't', content: 'b1' }).expect(201)).body
      .id as number;
    await bob.browser.patch(API.thread(hers)).send({ content: 'b2' }).expect(200);
    expectRefused(
      await bob.browser.patch(API.thread(hers)).send({ content: 'b3' }),
      POST_MESSAGES.editTooFast,
      {
        min: 60,
        max: 3600,
      },
    );
  });

  it('profile saves: RATE_LIMIT_PROFILE_SAVES_PER_HOUR a member, then the address; 429 `Too many profile changes…`', async () => {
    const save = (member: Member, bio: string) => member.browser.put(API.userProfile).send({ bio });
    const carol = await registered(t);
    await save(carol, 'one').expect(200);
    await save(carol, 'two').expect(200);
    expectRefused(await save(carol, 'three'), SETTINGS_MESSAGES.profileSaveTooMany, { min: 60, max: 3600 });
    const [row]: Array<{ bio: string }> = await t.dataSource.query('SELECT bio FROM users WHERE id = $1', [
      carol.user.id,
    ]);
    expect(row!.bio).toBe('two');
    const dave = await registered(t);
    await save(dave, 'one').expect(200);
    expectRefused(await save(dave, 'two'), SETTINGS_MESSAGES.profileSaveTooMany, { min: 60, max: 3600 });
    // A visitor is refused before any count.
    await t.browser().put(API.userProfile).send({ bio: 'x' }).expect(401);
  });
});

describe('writeLimitThrottlers', () => {
  it('has Discourse-like defaults, per member (edits and profile saves per address too)', () => {
    const rules = writeLimitThrottlers({ enabled: true, ...RATE_LIMIT_DEFAULTS }).map(
      ({ name, ttl, limit }) => `${name}: ${limit} in ${Number(ttl) / 1000}s`,
    );
    expect(rules).toEqual([
      'paste-per-member-per-minute: 3 in 60s',
      'paste-per-member-per-hour: 20 in 3600s',
      'reply-per-member-per-minute: 6 in 60s',
      'reply-per-member-per-hour: 60 in 3600s',
      'vote-per-member-per-minute: 30 in 60s',
      'vote-per-member-per-hour: 300 in 3600s',
      'edit-per-member-per-hour: 30 in 3600s',
      'edit-per-address-per-hour: 60 in 3600s',
      'profile-per-member-per-hour: 10 in 3600s',
      'profile-per-address-per-hour: 20 in 3600s',
    ]);
  });
});
