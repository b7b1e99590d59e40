import { API, heldPostSchema, MODERATION_MESSAGES, type SpamSignal } from '@termpaste/contracts';
import { MODERATION_DEFAULTS } from '../src/config/config.js';
import { addressMark, linksIn, mostlyLinks, normalisedText } from '../src/modules/screening/spam-screen.js';
import { registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

type Member = Awaited<ReturnType<typeof registered>>;

let sequence = 0;
/** An ordinary text no other test posts (long enough to count as a copy). */
const ordinary = (label: string): string =>
  `Some ordinary words about ${label}, number ${sequence++}, long enough to be compared`;

describe('links, as the spam signals count them', () => {
  it('counts bare http(s) URLs and markdown links (each once, whatever its target)', () => {
    expect(linksIn('see https://a.example/x and http://b.example')).toHaveLength(2);
    expect(linksIn('[docs](https://a.example/docs) and ![img](https://a.example/i.png)')).toHaveLength(2);
    expect(linksIn('<https://a.example> plain text ftp://no.example www.no.example')).toHaveLength(1);
    expect(linksIn('no links at all')).toHaveLength(0);
  });

  it('a text is mostly links when its links are more than half of its non-blank characters', () => {
    expect(mostlyLinks('https://spam.example/buy-now https://spam.example/cheap')).toBe(true);
    expect(mostlyLinks('[cheap pills](https://spam.example/pills-for-everyone) buy')).toBe(true);
    expect(mostlyLinks('A long explanation of the bug we hit yesterday, see https://a.example')).toBe(false);
    expect(mostlyLinks('no links here')).toBe(false);
  });

  it('compares texts lower-cased with their blanks collapsed', () => {
    expect(normalisedText('  Hello\n\tWORLD  again ')).toBe('hello world again');
  });
});

describe('new members and the spam signals', () => {
  let t: TestApp;
  let owner: Member;
  let hostPaste: number;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        // RATE_LIMITS stays off but for the new members' limit's test, where only that one bites.
        RATE_LIMIT_REGISTER_PER_HOUR: '1000',
        RATE_LIMIT_PASTES_PER_MINUTE: '1000',
        RATE_LIMIT_PASTES_PER_HOUR: '1000',
        RATE_LIMIT_REPLIES_PER_MINUTE: '1000',
        RATE_LIMIT_REPLIES_PER_HOUR: '1000',
        RATE_LIMIT_NEW_MEMBER_POSTS_PER_HOUR: '2',
        // The signals as an install has them by default (the tests' app turns them off).
        MODERATION_NEW_MEMBER_POSTS: String(MODERATION_DEFAULTS.newUserPosts),
        MODERATION_DUPLICATE_ACCOUNTS: String(MODERATION_DEFAULTS.duplicateAccounts),
        MODERATION_BURST_POSTS: String(MODERATION_DEFAULTS.burstPosts),
      },
    });
    owner = await registered(t);
    hostPaste = (await owner.browser.post(API.threads).send({ title: 'host', content: 'x' }).expect(201)).body
      .id as number;
  });

  afterAll(async () => {
    await t?.close();
  });

  const paste = (member: Member, content: string, title = 'A paste') =>
    member.browser.post(API.threads).send({ title, content });
  const reply = (member: Member, content: string, threadId = hostPaste) =>
    member.browser.post(API.threadReplies(threadId)).send({ content });

  /** A member with `posts` accepted posts already (their counters, as posts would have moved them). */
  async function member(posts = 1): Promise<Member> {
    const m = await registered(t);
    await t.dataSource.query('UPDATE users SET thread_count = $2 WHERE id = $1', [m.user.id, posts]);
    return m;
  }

  async function heldItem(itemId: number): Promise<{
    kind: string;
    status: string;
    target_type: string;
    target_id: number | null;
    author_id: number;
    signals: SpamSignal[];
    payload: { title: string | null; content: string; request: Record<string, unknown> };
  }> {
    const [row] = await t.dataSource.query(
      'SELECT kind, status, target_type, target_id, author_id, signals, payload FROM review_items WHERE id = $1',
      [itemId],
    );
    return row;
  }

  /** A 202 naming the held post's review item, with these signals. */
  async function expectHeld(
    res: { status: number; body: unknown },
    signals: SpamSignal[],
    authorId: number,
  ): Promise<number> {
    expect(res.status).toBe(202);
    const held = heldPostSchema.parse(res.body);
    expect(held).toEqual({ held: true, message: MODERATION_MESSAGES.held, itemId: expect.any(Number) });
    const item = await heldItem(held.itemId);
    expect(item).toMatchObject({ kind: 'held', status: 'open', target_id: null, author_id: authorId });
    expect([...item.signals].sort()).toEqual([...signals].sort());
    return held.itemId;
  }

  const pastesBy = async (userId: number): Promise<number> => {
    const [row] = await t.dataSource.query('SELECT count(*)::int AS n FROM threads WHERE author_id = $1', [
      userId,
    ]);
    return row.n;
  };

  it('holds the same text posted by a third fresh account within the hour (201, 201, 202)', async () => {
    const text = ordinary('a copied paste');
    const [a, b, c] = [await member(), await member(), await member()];
    await paste(a, text).expect(201);
    // Letter case and blanks do not make a copy new.
    await paste(b, `  ${text.toUpperCase()}\n`).expect(201);
    const itemId = await expectHeld(await paste(c, text, 'Copied'), ['duplicate'], c.user.id);
    expect(await pastesBy(c.user.id)).toBe(0);
    const item = await heldItem(itemId);
    expect(item.target_type).toBe('paste');
    expect(item.payload).toMatchObject({ title: 'Copied', content: text, threadRef: null, parentId: null });
    expect(item.payload.request).toMatchObject({ kind: 'paste', via: 'web' });
    // Once several accounts posted it, the text is held from anyone but staff; one account posting its
    // own text again is one account.
    await expectHeld(await paste(a, text), ['duplicate'], a.user.id);
    const again = ordinary('said twice');
    await paste(a, again).expect(201);
    await reply(a, again).expect(201);
  });

  it('holds copies among replies and pastes alike, and from the terminal (202 with the message)', async () => {
    const text = ordinary('a copied reply');
    const [a, b, c, d] = [await member(), await member(), await member(), await member()];
    await reply(a, text).expect(201);
    await paste(b, text).expect(201);
    const itemId = await expectHeld(await reply(c, text), ['duplicate'], c.user.id);
    const item = await heldItem(itemId);
    expect(item.target_type).toBe('reply');
    expect(item.payload).toMatchObject({ title: null, content: text, threadRef: hostPaste, parentId: null });
    // curl: the message as text…
    const curl = await d.browser.post(API.pastes).type('text/plain').send(text);
    expect(curl.status).toBe(202);
    expect(curl.text).toBe(`${MODERATION_MESSAGES.held}\n`);
    expect(curl.headers['location']).toBeUndefined();
    // …or the object when JSON is preferred.
    const json = await d.browser
      .post(API.pastes)
      .set('Accept', 'application/json')
      .type('text/plain')
      .send(text);
    await expectHeld(json, ['duplicate'], d.user.id);
    expect((await heldItem(json.body.itemId)).payload.request).toMatchObject({ via: 'terminal' });
  });

  it('holds a fork of copied text, and never holds short texts as copies', async () => {
    const text = ordinary('a copied fork');
    const [a, b, c] = [await member(), await member(), await member()];
    const original = (await paste(a, text).expect(201)).body.id as number;
    await b.browser.post(API.threadFork(original)).send({}).expect(201);
    const fork = await c.browser.post(API.threadFork(original)).send({ title: 'Mine' });
    const itemId = await expectHeld(fork, ['duplicate'], c.user.id);
    expect((await heldItem(itemId)).payload.request).toMatchObject({ via: 'fork', forkedFrom: original });
    for (const m of [a, b, c]) await reply(m, 'Thanks, works!').expect(201);
  });

  it('refuses a new member a post with more links than MODERATION_NEW_MEMBER_MAX_LINKS (400)', async () => {
    const max = MODERATION_DEFAULTS.newUserMaxLinks;
    const links = (n: number) =>
      Array.from({ length: n }, (_, i) => `[link ${i}](https://docs.example/page-${i})`).join(' and ');
    const prose = 'A careful write-up of what we found in the logs yesterday evening, with sources: ';
    const fresh = await member(1);
    const refused = await paste(fresh, prose + links(max + 1));
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ statusCode: 400, message: MODERATION_MESSAGES.tooManyLinks(max) });
    // Bare URLs count, the title's too, and replies are held to it as well.
    await paste(
      fresh,
      `${prose} https://a.example https://b.example https://c.example`,
      'https://d.example',
    ).expect(400, { statusCode: 400, message: MODERATION_MESSAGES.tooManyLinks(max) });
    await reply(fresh, prose + links(max + 1)).expect(400);
    expect(await pastesBy(fresh.user.id)).toBe(0);
    await paste(fresh, prose + links(max)).expect(201);
    // Once a member has MODERATION_NEW_MEMBER_POSTS accepted posts, links are theirs to post.
    const trusted = await member(MODERATION_DEFAULTS.newUserPosts);
    await paste(trusted, prose + links(max + 5)).expect(201);
    // Staff are never screened.
    await paste(owner, prose + links(max + 5)).expect(201);
    // MODERATION_NEW_MEMBER_POSTS=0: nobody is new (no cap, no first-post check).
    t.config.moderation.newUserPosts = 0;
    try {
      await paste(
        await member(0),
        'https://a.example https://b.example https://c.example https://d.example',
      ).expect(201);
    } finally {
      t.config.moderation.newUserPosts = MODERATION_DEFAULTS.newUserPosts;
    }
  });

  it("holds a member's first post when it is mostly links, not a later one", async () => {
    const first = await member(0);
    const spam = 'https://cheap.example/pills https://cheap.example/watches';
    await expectHeld(await paste(first, spam), ['links'], first.user.id);
    await expectHeld(await reply(first, `[buy now](https://cheap.example/now)`), ['links'], first.user.id);
    // A first post with some links among words is fine.
    const writer = await member(0);
    await paste(writer, `${ordinary('a first post')} — details at https://docs.example/a`).expect(201);
    const later = await member(1);
    await paste(later, spam).expect(201);
  });

  it('holds a burst from an account younger than a day: the MODERATION_BURST_POSTS-th post in 10 minutes', async () => {
    const burst = MODERATION_DEFAULTS.burstPosts;
    const young = await member();
    for (let i = 1; i < burst; i++) {
      await (i % 2 ? paste(young, ordinary('burst')) : reply(young, ordinary('burst'))).expect(201);
    }
    await expectHeld(await paste(young, ordinary('burst')), ['burst'], young.user.id);
    // Held posts count too.
    await expectHeld(await reply(young, ordinary('burst')), ['burst'], young.user.id);
    const older = await member();
    await t.dataSource.query("UPDATE users SET created_at = now() - interval '25 hours' WHERE id = $1", [
      older.user.id,
    ]);
    for (let i = 0; i <= burst; i++) await paste(older, ordinary('older')).expect(201);
  });

  it('does not screen a trusted member (older than a day, past their first posts), nor count their copies', async () => {
    const text = ordinary('trusted copies');
    const trusted = await member(MODERATION_DEFAULTS.newUserPosts);
    await t.dataSource.query("UPDATE users SET created_at = now() - interval '2 days' WHERE id = $1", [
      trusted.user.id,
    ]);
    const [a, b] = [await member(), await member()];
    await paste(a, text).expect(201);
    await paste(b, text).expect(201);
    // A third account, but a trusted one: published, and neither held nor remembered.
    await paste(trusted, text).expect(201);
    await reply(trusted, text).expect(201);
    for (let i = 0; i <= MODERATION_DEFAULTS.burstPosts; i++)
      await reply(trusted, ordinary('trusted')).expect(201);
    const [row]: Array<{ n: number }> = await t.dataSource.query(
      'SELECT count(*)::int AS n FROM post_fingerprints WHERE author_id = $1',
      [trusted.user.id],
    );
    expect(row!.n).toBe(0);
    // Still young, or still short of their first posts: screened.
    const young = await member(MODERATION_DEFAULTS.newUserPosts);
    await expectHeld(await paste(young, text), ['duplicate'], young.user.id);
  });

  it("holds the posts of a deleted spammer's address or e-mail domain", async () => {
    const byAddress = await member();
    await t.dataSource.query("INSERT INTO spam_marks (kind, value) VALUES ('address', $1)", [
      addressMark(byAddress.account.email.toUpperCase()),
    ]);
    await expectHeld(await paste(byAddress, ordinary('known')), ['known-spammer'], byAddress.user.id);
    const spammy = await registered(t, { email: `someone-${Date.now()}@Spam-Domain.example` });
    await t.dataSource.query("INSERT INTO spam_marks (kind, value) VALUES ('domain', 'spam-domain.example')");
    await t.dataSource.query('UPDATE users SET thread_count = 1 WHERE id = $1', [spammy.user.id]);
    await expectHeld(await reply(spammy, ordinary('known')), ['known-spammer'], spammy.user.id);
    // Several signals at once are all recorded.
    const both = await registered(t, { email: `other-${Date.now()}@spam-domain.example` });
    await expectHeld(
      await paste(both, 'https://cheap.example/a https://cheap.example/b'),
      ['known-spammer', 'links'],
      both.user.id,
    );
  });

  it('never screens staff: copies, links, bursts and marks all pass', async () => {
    const text = ordinary('staff copies');
    await paste(await member(), text).expect(201);
    await paste(await member(), text).expect(201);
    await paste(owner, text).expect(201);
    await t.dataSource.query(
      "INSERT INTO spam_marks (kind, value) VALUES ('domain', 'example.com') ON CONFLICT DO NOTHING",
    );
    for (let i = 0; i < MODERATION_DEFAULTS.burstPosts + 1; i++) {
      await paste(owner, 'https://a.example https://b.example').expect(201);
    }
    await t.dataSource.query("DELETE FROM spam_marks WHERE kind = 'domain' AND value = 'example.com'");
  });

  it("holds a new member's first MODERATION_HOLD_FIRST_POSTS posts (0: none)", async () => {
    t.config.moderation.holdFirstPosts = 2;
    try {
      const fresh = await member(0);
      await expectHeld(await paste(fresh, ordinary('first')), ['first-posts'], fresh.user.id);
      await expectHeld(await reply(fresh, ordinary('first')), ['first-posts'], fresh.user.id);
      // Held posts are not accepted ones: still held.
      await expectHeld(await paste(fresh, ordinary('first')), ['first-posts'], fresh.user.id);
      const one = await member(1);
      await expectHeld(await paste(one, ordinary('second')), ['first-posts'], one.user.id);
      await paste(await member(2), ordinary('third')).expect(201);
      await paste(owner, ordinary('staff')).expect(201);
    } finally {
      t.config.moderation.holdFirstPosts = 0;
    }
    await paste(await member(0), ordinary('off again')).expect(201);
  });

  it('keeps an hour of fingerprints: older ones are purged as posts come', async () => {
    await t.dataSource.query(
      "INSERT INTO post_fingerprints (hash, author_id, created_at) VALUES ('old', $1, now() - interval '2 hours')",
      [owner.user.id],
    );
    await paste(await member(), ordinary('purge')).expect(201);
    const [row] = await t.dataSource.query(
      "SELECT count(*)::int AS n FROM post_fingerprints WHERE hash = 'old'",
    );
    expect(row.n).toBe(0);
  });

  it('never shows a held post in a list, a search or a profile', async () => {
    const word = `heldword${Date.now()}`;
    const text = `${ordinary('never shown')} ${word}`;
    const [a, b, c] = [await member(), await member(), await member()];
    await paste(a, text, `${word} a`).expect(201);
    await paste(b, text, `${word} b`).expect(201);
    await expectHeld(await paste(c, text, `${word} c`), ['duplicate'], c.user.id);
    const recent = await t.http.get(API.threadsRecent).expect(200);
    expect(JSON.stringify(recent.body)).not.toContain(`${word} c`);
    const found = await t.http.get(API.search).query({ q: word }).expect(200);
    expect(JSON.stringify(found.body)).toContain(`${word} a`);
    expect(JSON.stringify(found.body)).not.toContain(`${word} c`);
    // Not even on the author's own profile.
    const profile = await c.browser.get(API.user(c.user.id)).expect(200);
    expect(JSON.stringify(profile.body)).not.toContain(word);
    expect(await pastesBy(c.user.id)).toBe(0);
  });

  it("limits a new member's pastes and replies together to RATE_LIMIT_NEW_MEMBER_POSTS_PER_HOUR (429)", async () => {
    const limit = t.config.moderation.newUserPostsPerHour;
    const fresh = await member(0);
    const trusted = await member(MODERATION_DEFAULTS.newUserPosts);
    await t.dataSource.query("UPDATE users SET created_at = now() - interval '2 days' WHERE id = $1", [
      trusted.user.id,
    ]);
    t.config.rateLimits.enabled = true;
    try {
      for (let i = 0; i < limit; i++) {
        const res = await (i % 2 ? reply(fresh, ordinary('limit')) : paste(fresh, ordinary('limit')));
        expect([201, 202]).toContain(res.status);
      }
      const refused = await reply(fresh, ordinary('limit'));
      expect(refused.status).toBe(429);
      const seconds = Number(refused.headers['retry-after']);
      expect(seconds).toBeGreaterThan(0);
      expect(refused.body).toEqual({
        statusCode: 429,
        message: MODERATION_MESSAGES.newUserTooFast(seconds),
      });
      // A member with enough accepted posts is counted by the ordinary limits only, as are staff.
      for (let i = 0; i <= limit; i++) await reply(owner, ordinary('staff')).expect(201);
      for (let i = 0; i <= limit; i++) await reply(trusted, ordinary('trusted')).expect(201);
    } finally {
      t.config.rateLimits.enabled = false;
    }
  });
});
