import { API, heldPostSchema, LIVE_EVENT, MODERATION_MESSAGES, reviewPageSchema } from '@termpaste/contracts';
import { HeldPostsService } from '../src/modules/moderation/held-posts.service.js';
import { registered } from './support/accounts.js';
import { connect, liveUser, type LiveUser } from './support/live.js';
import { createTestApp, type TestApp } from './support/test-app.js';

type Member = Awaited<ReturnType<typeof registered>>;

describe('posts held for approval: APPROVE and REJECT', () => {
  let t: TestApp;
  let owner: LiveUser;
  let hostPaste: number;

  beforeAll(async () => {
    // Every new member's first post is held (their posts are held until one is accepted).
    t = await createTestApp({ env: { MODERATION_HOLD_FIRST_POSTS: '1' } });
    owner = await liveUser(t);
    hostPaste = (await owner.browser.post(API.threads).send({ title: 'host', content: 'x' }).expect(201)).body
      .id as number;
  });

  afterAll(async () => {
    await t?.close();
  });

  const decide = (itemId: number, decision: string, by: Pick<Member, 'browser'> = owner) =>
    by.browser.post(API.adminReviewItem(itemId)).send({ decision });

  const item = async (itemId: number) => {
    const [row] = await t.dataSource.query(
      'SELECT status, target_id, decided_by FROM review_items WHERE id = $1',
      [itemId],
    );
    return row as { status: string; target_id: number | null; decided_by: number | null };
  };

  const counts = async (userId: number) => {
    const [row] = await t.dataSource.query('SELECT thread_count, reply_count FROM users WHERE id = $1', [
      userId,
    ]);
    return row as { thread_count: number; reply_count: number };
  };

  const notices = async (userId: number) =>
    (await t.dataSource.query(
      "SELECT content, thread_id FROM notifications WHERE user_id = $1 AND type = 'moderation' ORDER BY id",
      [userId],
    )) as Array<{ content: string; thread_id: number | null }>;

  const audits = async (action: string, targetId: number) =>
    (await t.dataSource.query(
      'SELECT actor_id, target_type, target_label FROM audit_log WHERE action = $1 AND target_id = $2',
      [action, targetId],
    )) as Array<{ actor_id: number; target_type: string; target_label: string }>;

  async function held(res: { status: number; body: unknown }): Promise<number> {
    expect(res.status).toBe(202);
    return heldPostSchema.parse(res.body).itemId;
  }

  it('shows a held paste in the queue; APPROVE makes it as its author sent it, and tells them', async () => {
    const m = await registered(t);
    const itemId = await held(
      await m.browser.post(API.threads).send({
        title: 'Held paste',
        content: 'print("hello")\n',
        language: 'python',
        visibility: 'unlisted',
      }),
    );
    const queue = reviewPageSchema.parse((await owner.browser.get(API.adminReview).expect(200)).body);
    const shown = queue.items.find((entry) => entry.id === itemId);
    expect(shown).toMatchObject({
      kind: 'held',
      targetType: 'paste',
      targetId: null,
      signals: ['first-posts'],
      target: { title: 'Held paste', content: 'print("hello")\n', language: 'python' },
    });

    await decide(itemId, 'approve').expect(200);
    const decided = await item(itemId);
    expect(decided).toMatchObject({ status: 'approved', decided_by: owner.user.id });
    const [paste] = await t.dataSource.query(
      'SELECT id, author_id, title, content, language, visibility, key FROM threads WHERE id = $1',
      [decided.target_id],
    );
    expect(paste).toMatchObject({
      author_id: m.user.id,
      title: 'Held paste',
      content: 'print("hello")\n',
      language: 'python',
      visibility: 'unlisted',
    });
    // Unlisted: read by its key, which its author finds on their profile.
    await m.browser.get(API.thread(paste.key)).expect(200);
    expect(await counts(m.user.id)).toEqual({ thread_count: 0, reply_count: 0 });
    expect(await notices(m.user.id)).toEqual([
      { content: 'Your paste "Held paste" was approved by the staff', thread_id: paste.id },
    ]);
    expect(await audits('review.approve', paste.id)).toEqual([
      { actor_id: owner.user.id, target_type: 'thread', target_label: 'Held paste' },
    ]);

    // Decided once: 409, for the route and the service alike.
    await decide(itemId, 'approve').expect(409, {
      statusCode: 409,
      message: MODERATION_MESSAGES.itemDecided,
    });
    await expect(
      t.app.get(HeldPostsService).decide(itemId, 'reject', owner.user as never),
    ).rejects.toMatchObject({ status: 409 });
  });

  it("counts an approved public paste as the author's accepted post: the next one is not held", async () => {
    const m = await registered(t);
    const itemId = await held(
      await m.browser.post(API.threads).send({ title: 'First', content: 'first post' }),
    );
    await decide(itemId, 'approve').expect(200);
    const { target_id } = await item(itemId);
    await t.http.get(API.thread(target_id!)).expect(200);
    const recent = await t.http.get(API.threadsRecent).expect(200);
    expect(JSON.stringify(recent.body)).toContain('First');
    expect(await counts(m.user.id)).toEqual({ thread_count: 1, reply_count: 0 });
    await m.browser.post(API.threads).send({ title: 'Second', content: 'second post' }).expect(201);
  });

  it('APPROVE makes a held reply on its paste, with the counts of the paste and the author', async () => {
    const m = await registered(t);
    const itemId = await held(
      await m.browser.post(API.threadReplies(hostPaste)).send({ content: 'A held reply that waits' }),
    );
    const [before] = await t.dataSource.query('SELECT reply_count FROM threads WHERE id = $1', [hostPaste]);
    await decide(itemId, 'approve').expect(200);
    const { target_id } = await item(itemId);
    const [reply] = await t.dataSource.query(
      'SELECT thread_id, author_id, content FROM replies WHERE id = $1',
      [target_id],
    );
    expect(reply).toEqual({
      thread_id: hostPaste,
      author_id: m.user.id,
      content: 'A held reply that waits',
    });
    const [after] = await t.dataSource.query('SELECT reply_count FROM threads WHERE id = $1', [hostPaste]);
    expect(after.reply_count).toBe(before.reply_count + 1);
    expect(await counts(m.user.id)).toEqual({ thread_count: 0, reply_count: 1 });
    expect(await notices(m.user.id)).toEqual([
      { content: 'Your reply "A held reply that waits" was approved by the staff', thread_id: hostPaste },
    ]);
    const detail = await t.http.get(API.thread(hostPaste)).expect(200);
    expect(JSON.stringify(detail.body)).toContain('A held reply that waits');
  });

  it('a held line comment keeps its lines and suggestion when approved; a bad one is refused, not held', async () => {
    const m = await registered(t);
    const anchor = { fromLine: 1, toLine: 1, version: 1 };
    // Judged before it is held: lines past the end are a 400 at once.
    await m.browser
      .post(API.threadReplies(hostPaste))
      .send({ content: 'On line 9', anchor: { ...anchor, fromLine: 9, toLine: 9 } })
      .expect(400);
    const itemId = await held(
      await m.browser.post(API.threadReplies(hostPaste)).send({ content: 'Say y', anchor, suggestion: 'y' }),
    );
    await decide(itemId, 'approve').expect(200);
    const { target_id } = await item(itemId);
    const [reply] = await t.dataSource.query(
      'SELECT anchor_from, anchor_to, anchor_version, suggestion FROM replies WHERE id = $1',
      [target_id],
    );
    expect(reply).toEqual({ anchor_from: 1, anchor_to: 1, anchor_version: 1, suggestion: 'y' });
  });

  it("moves the admins' live count of open items when a post is held", async () => {
    const socket = await connect(t, { cookie: owner.cookie });
    try {
      const m = await registered(t);
      await held(await m.browser.post(API.threads).send({ title: 'Counted', content: 'counted' }));
      const count = (await owner.browser.get(API.adminReviewCount).expect(200)).body as number;
      await socket.next('the review count', (frame) => {
        const event = frame as { type?: string; count?: number };
        return event.type === LIVE_EVENT.reviewCount && event.count === count;
      });
    } finally {
      await socket.close();
    }
  });

  it('REJECT drops the held post, records it and tells its author', async () => {
    const m = await registered(t);
    const itemId = await held(
      await m.browser.post(API.threads).send({ title: 'Spammy', content: 'buy now' }),
    );
    await decide(itemId, 'reject').expect(200);
    expect(await item(itemId)).toMatchObject({ status: 'rejected', target_id: null });
    const [row] = await t.dataSource.query('SELECT count(*)::int AS n FROM threads WHERE author_id = $1', [
      m.user.id,
    ]);
    expect(row.n).toBe(0);
    expect(await notices(m.user.id)).toEqual([
      { content: 'Your paste "Spammy" was rejected by the staff', thread_id: null },
    ]);
    expect(await audits('review.reject', m.user.id)).toEqual([
      { actor_id: owner.user.id, target_type: 'user', target_label: 'Spammy' },
    ]);
    await decide(itemId, 'approve').expect(409);
  });

  it('a held reply whose paste is gone: APPROVE is a 409 with a message, the item stays for REJECT', async () => {
    const m = await registered(t);
    const paste = (
      await owner.browser.post(API.threads).send({ title: 'Soon gone', content: 'x' }).expect(201)
    ).body.id as number;
    const itemId = await held(
      await m.browser.post(API.threadReplies(paste)).send({ content: 'On a gone paste' }),
    );
    await owner.browser.delete(API.thread(paste)).expect(204);
    await decide(itemId, 'approve').expect(409, {
      statusCode: 409,
      message: MODERATION_MESSAGES.heldPasteGone,
    });
    expect(await item(itemId)).toMatchObject({ status: 'open', target_id: null });
    await decide(itemId, 'reject').expect(200);
    expect((await item(itemId)).status).toBe('rejected');
  });

  it('an author whose account is gone: APPROVE is a 409 with a message, REJECT tells nobody', async () => {
    const m = await registered(t);
    const itemId = await held(await m.browser.post(API.threads).send({ title: 'Orphan', content: 'orphan' }));
    await t.dataSource.query('DELETE FROM users WHERE id = $1', [m.user.id]);
    await decide(itemId, 'approve').expect(409, {
      statusCode: 409,
      message: MODERATION_MESSAGES.heldAuthorGone,
    });
    expect((await item(itemId)).status).toBe('open');
    await decide(itemId, 'reject').expect(200);
    expect((await item(itemId)).status).toBe('rejected');
  });

  it('approves a held post from the terminal and a held fork as they were asked for', async () => {
    const m = await registered(t);
    const curl = await m.browser
      .post(`${API.pastes}?visibility=private&title=From%20curl`)
      .type('text/plain')
      .send('echo from the terminal\n');
    expect(curl.status).toBe(202);
    expect(curl.text).toBe(`${MODERATION_MESSAGES.held}\n`);
    const [{ id: terminalItem }] = await t.dataSource.query(
      "SELECT id FROM review_items WHERE author_id = $1 AND kind = 'held'",
      [m.user.id],
    );
    await decide(terminalItem, 'approve').expect(200);
    const [fromCurl] = await t.dataSource.query(
      'SELECT title, content, visibility FROM threads WHERE id = $1',
      [(await item(terminalItem)).target_id],
    );
    expect(fromCurl).toEqual({
      title: 'From curl',
      content: 'echo from the terminal\n',
      visibility: 'private',
    });

    const forker = await registered(t);
    const forkItem = await held(
      await forker.browser.post(API.threadFork(hostPaste)).send({ title: 'My fork' }),
    );
    await decide(forkItem, 'approve').expect(200);
    const [fork] = await t.dataSource.query(
      'SELECT title, forked_from_id, is_fork, author_id FROM threads WHERE id = $1',
      [(await item(forkItem)).target_id],
    );
    expect(fork).toEqual({
      title: 'My fork',
      forked_from_id: hostPaste,
      is_fork: true,
      author_id: forker.user.id,
    });
  });

  it('lets one of two admins deciding at once win (the row lock); members may not decide (403)', async () => {
    const m = await registered(t);
    const itemId = await held(await m.browser.post(API.threads).send({ title: 'Raced', content: 'raced' }));
    await decide(itemId, 'approve', m).expect(403);
    const answers = await Promise.all([decide(itemId, 'approve'), decide(itemId, 'reject')]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
    const [row] = await t.dataSource.query('SELECT count(*)::int AS n FROM threads WHERE title = $1', [
      'Raced',
    ]);
    expect(row.n).toBe((await item(itemId)).status === 'approved' ? 1 : 0);
    await expect(
      t.app.get(HeldPostsService).decide(999_999, 'approve', owner.user as never),
    ).rejects.toMatchObject({
      status: 404,
    });
  });
});
