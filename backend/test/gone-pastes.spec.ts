import { API, OWN_POSTS_MESSAGES, type RecentPastesPage, type PasteDetail } from '@termpaste/contracts';
import { liveUser, type LiveUser } from './support/live.js';
import {
  expectPasteHidden,
  memberViewer,
  type PasteViewer,
  visitorOf,
  type WalkedPaste,
} from './support/paste-routes.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/*
 * A paste that is gone — deleted by its author, expired, burnt by its one reading — is gone for everyone,
 * its author and staff included, through every route (support/paste-routes.ts walks them), even right
 * after its page was read and cached.
 */
describe('gone pastes: deleted, expired, burnt', () => {
  let t: TestApp;
  let admin: LiveUser;
  let alice: LiveUser;
  let bob: LiveUser;
  let words = 0;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await liveUser(t); // the first account: owner and admin
    alice = await liveUser(t);
    bob = await liveUser(t);
  });

  afterAll(async () => {
    await t.close();
  });

  const viewer = memberViewer;
  const everyone = (): PasteViewer[] => [
    visitorOf(t),
    viewer(bob, 'another member'),
    viewer(admin, 'an admin'),
    viewer(alice, 'its author'),
  ];

  /**
   * Alice's new paste with a reply of her own under it, read once (by number or key) so that its page is
   * cached, unless `cached` is false.
   */
  async function post(
    body: Record<string, unknown> = {},
    { cached = true } = {},
  ): Promise<WalkedPaste & { ref: number | string }> {
    const word = `gonepaste${Date.now().toString(36)}q${(words++).toString(36)}`;
    const title = `Gone ${word}`;
    const created = await alice.browser
      .post(API.threads)
      .send({ title, content: `the ${word} text`, tags: [word], ...body })
      .expect(201);
    const ref = created.body.id as number | string;
    const [row]: Array<{ id: number; key: string | null }> = await t.dataSource.query(
      'SELECT id, key FROM threads WHERE title = $1',
      [title],
    );
    let replyId: number | undefined;
    if (!body['burnAfterReading']) {
      replyId = (
        await alice.browser.post(API.threadReplies(ref)).send({ content: 'my own note' }).expect(201)
      ).body.id as number;
      if (cached) await t.http.get(API.thread(ref)).expect(200);
    }
    return { id: row!.id, key: row!.key, title, authorId: alice.user.id, word, replyId, ref, tag: word };
  }

  async function homeTotal(): Promise<number> {
    const home = (await t.http.get(API.threadsRecent).set('Cache-Control', 'no-cache').expect(200))
      .body as RecentPastesPage;
    return home.total;
  }

  it('deleted by its author (public, by number): gone for everyone, the count back where it was', async () => {
    const before = await homeTotal();
    const paste = await post();
    expect(await homeTotal()).toBe(before + 1);
    await alice.browser.delete(API.thread(paste.ref)).expect(204);
    for (const who of everyone()) await expectPasteHidden(paste, who, { homeTotal: before });
  });

  it('deleted by its author (unlisted, by key): gone for everyone', async () => {
    const paste = await post({ visibility: 'unlisted' });
    await bob.browser.get(API.thread(paste.key!)).expect(200);
    await alice.browser.delete(API.thread(paste.key!)).expect(204);
    for (const who of everyone()) await expectPasteHidden(paste, who);
  });

  // A cached page checks the expiry it shows against the clock (expiry-burn.spec passes the clock with
  // EXPIRY_TIME_SCALE); here the database says it expired already, so nothing is read before.
  it('expired (its job not run yet): gone for everyone at the instant', async () => {
    const paste = await post({ expiresIn: '1h' }, { cached: false });
    // The clock passes its expiry: the row is still there, the job has not removed it.
    await t.dataSource.query(`UPDATE threads SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      paste.id,
    ]);
    // Counts come down when its job removes it (expiry-burn.spec); what shows goes at once.
    for (const who of everyone()) await expectPasteHidden({ ...paste, tagCounted: true }, who);
  });

  it('burnt by its one reading: gone for everyone after, its author too', async () => {
    const paste = await post({ burnAfterReading: true });
    const warned = (await bob.browser.get(API.thread(paste.key!)).expect(200)).body as PasteDetail;
    expect(warned).toMatchObject({ burnAfterReading: true });
    expect(warned.content).toBeUndefined();
    const refused = await bob.browser.post(API.threadReplies(paste.key!)).send({ content: 'hi' }).expect(403);
    expect(refused.body).toMatchObject({ message: OWN_POSTS_MESSAGES.burnNoReplies });
    const read = (await bob.browser.post(API.threadReadOnce(paste.key!)).expect(200)).body as PasteDetail;
    expect(read.content).toBe(`the ${paste.word} text`);
    for (const who of everyone()) await expectPasteHidden(paste, who);
    await bob.browser.post(API.threadReadOnce(paste.key!)).expect(404);
  });
});
