import {
  API,
  EXPIRES_IN,
  EXPIRES_IN_CHOICES,
  POST_MESSAGES,
  OWN_POSTS_MESSAGES,
  type PasteRef,
  type RecentPastesPage,
  type PasteDetail,
  pasteDetailSchema,
  type UserProfile,
} from '@termpaste/contracts';
import supertest from 'supertest';
import { QueuePort } from '../src/infra/queue/queue.port.js';
import {
  EXPIRY_QUEUE,
  EXPIRY_SWEEP_INTERVAL_MS,
  EXPIRY_SWEEP_JOB,
  EXPIRY_SWEEP_SCHEDULE,
} from '../src/modules/pastes/expiry.queue.js';
import { PasteExpiry } from '../src/modules/pastes/paste-expiry.js';
import { type Browser, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

/** Every expiry choice passes this many times faster here: `10m` lasts one second, `1d` 144. */
const SCALE = 600;
const NOT_FOUND = { statusCode: 404, message: POST_MESSAGES.pasteNotFound };
const EXPIRES_IN_MESSAGE = `expiresIn must be one of ${EXPIRES_IN_CHOICES.join(', ')}`;

interface Member {
  browser: Browser;
  user: { id: number; username: string };
}

describe('pastes that expire, and pastes that burn after reading', () => {
  let t: TestApp;
  let alice: Member;
  let bob: Member;
  let carol: Member;
  const visitor = () => supertest(t.url);
  /** A visitor's browser on our site (it sends Origin, as a browser does on a POST). */
  const visitorBrowser = () => t.browser();

  beforeAll(async () => {
    t = await createTestApp({ env: { EXPIRY_TIME_SCALE: String(SCALE) } });
    alice = await registered(t);
    bob = await registered(t);
    carol = await registered(t);
  });

  afterAll(async () => {
    await t.close();
  });

  async function paste(browser: Browser, body: Record<string, unknown> = {}): Promise<PasteRef> {
    const res = await browser
      .post(API.threads)
      .send({ title: 'A paste', content: 'some text\n', ...body })
      .expect(201);
    return res.body.id as PasteRef;
  }

  async function detail(browser: Browser | ReturnType<typeof visitor>, ref: PasteRef): Promise<PasteDetail> {
    return pasteDetailSchema.parse((await browser.get(API.thread(ref)).expect(200)).body);
  }

  async function rowOf(ref: PasteRef): Promise<{ id: number; expires_at: Date | null } | undefined> {
    const [row] = await t.dataSource.query(
      `SELECT id, expires_at FROM threads WHERE ${typeof ref === 'number' ? 'id' : 'key'} = $1`,
      [ref],
    );
    return row;
  }

  /** Makes the paste expired a second ago, behind the app's back (its pages dropped, as a write would). */
  async function expire(ref: PasteRef): Promise<void> {
    await t.dataSource.query(
      `UPDATE threads SET expires_at = now() - interval '1 second' WHERE ${typeof ref === 'number' ? 'id' : 'key'} = $1`,
      [ref],
    );
    await t.pagesChanged();
  }

  async function counts(userIds: number[]): Promise<{ forum: number; threads: number[]; replies: number[] }> {
    const [stats]: Array<{ n: number }> = await t.dataSource.query(
      'SELECT sum(thread_count)::int AS n FROM forum_stats',
    );
    const users: Array<{ id: number; thread_count: number; reply_count: number }> = await t.dataSource.query(
      'SELECT id, thread_count, reply_count FROM users WHERE id = ANY ($1::int[])',
      [userIds],
    );
    const of = (id: number) => users.find((user) => user.id === id)!;
    return {
      forum: stats!.n,
      threads: userIds.map((id) => of(id).thread_count),
      replies: userIds.map((id) => of(id).reply_count),
    };
  }

  const secondsFromNow = (iso: string | null) => (Date.parse(iso!) - Date.now()) / 1000;

  describe('expiry', () => {
    it('stores each choice on a new paste, from the form and from the terminal, shortened by EXPIRY_TIME_SCALE', async () => {
      for (const choice of ['1h', '1d', '1w', '1mo'] as const) {
        const ref = await paste(alice.browser, { expiresIn: choice });
        const seconds = secondsFromNow((await detail(visitor(), ref)).expiresAt);
        expect(seconds).toBeGreaterThan(EXPIRES_IN[choice] / SCALE - 5);
        expect(seconds).toBeLessThanOrEqual(EXPIRES_IN[choice] / SCALE);
        // Not to expire while the later tests count what expired.
        await alice.browser.patch(API.thread(ref)).send({ expiresIn: 'never' }).expect(200);
      }
      const forever = await paste(alice.browser, { expiresIn: 'never' });
      expect((await detail(visitor(), forever)).expiresAt).toBeNull();
      expect((await detail(visitor(), await paste(alice.browser))).expiresAt).toBeNull();

      const created = await alice.browser
        .post(`${API.pastes}?expiresIn=1d`)
        .set('Accept', 'application/json')
        .set('Content-Type', 'text/plain')
        .send('from the terminal\n')
        .expect(201);
      const seconds = secondsFromNow((await detail(visitor(), created.body.id as PasteRef)).expiresAt);
      expect(seconds).toBeGreaterThan(EXPIRES_IN['1d'] / SCALE - 5);
      await alice.browser
        .patch(API.thread(created.body.id as PasteRef))
        .send({ expiresIn: 'never' })
        .expect(200);
    });

    it('refuses an expiry that is not a choice, with its message, on every route that takes one', async () => {
      for (const expiresIn of ['2h', '', 10, null]) {
        const res = await alice.browser
          .post(API.threads)
          .send({ title: 'A paste', content: 'x', expiresIn })
          .expect(400);
        expect(res.body.message).toContain(EXPIRES_IN_MESSAGE);
      }
      const terminal = await alice.browser
        .post(`${API.pastes}?expiresIn=forever`)
        .set('Content-Type', 'text/plain')
        .send('x\n')
        .expect(400);
      expect(terminal.text).toContain(EXPIRES_IN_MESSAGE);
      const ref = await paste(alice.browser);
      const edit = await alice.browser.patch(API.thread(ref)).send({ expiresIn: 'soon' }).expect(400);
      expect(edit.body.message).toContain(EXPIRES_IN_MESSAGE);
      expect((await rowOf(ref))!.expires_at).toBeNull();
    });

    it('lets the author change it from now, or clear it with never, on PATCH; another member is refused', async () => {
      const ref = await paste(alice.browser, { expiresIn: '1d' });
      const set = await alice.browser.patch(API.thread(ref)).send({ expiresIn: '1w' }).expect(200);
      expect(secondsFromNow(set.body.expiresAt as string)).toBeGreaterThan(EXPIRES_IN['1w'] / SCALE - 5);
      // Its page says so at once (the cached page was dropped).
      expect(secondsFromNow((await detail(visitor(), ref)).expiresAt)).toBeGreaterThan(
        EXPIRES_IN['1d'] / SCALE,
      );
      // Nothing else changed: no new version.
      expect(set.body.revisions).toBe(1);

      const refused = await bob.browser.patch(API.thread(ref)).send({ expiresIn: 'never' }).expect(403);
      expect(refused.body.message).toBeTruthy();
      await visitor().patch(API.thread(ref)).send({ expiresIn: 'never' }).expect(403);

      const cleared = await alice.browser.patch(API.thread(ref)).send({ expiresIn: 'never' }).expect(200);
      expect(cleared.body.expiresAt).toBeNull();
      expect((await detail(visitor(), ref)).expiresAt).toBeNull();
      expect((await rowOf(ref))!.expires_at).toBeNull();

      // With an edit of the text, in the same write.
      const both = await alice.browser
        .patch(API.thread(ref))
        .send({ content: 'new text\n', expiresIn: '1h' })
        .expect(200);
      expect(both.body.content).toBe('new text\n');
      expect(secondsFromNow(both.body.expiresAt as string)).toBeGreaterThan(EXPIRES_IN['1h'] / SCALE - 5);
      await alice.browser.patch(API.thread(ref)).send({ expiresIn: 'never' }).expect(200);
    });

    it('reads 404 everywhere once expired: page by number and key, raw, lists, search, profile, replies, votes, versions, edits', async () => {
      const word = `expiring${Date.now()}`;
      const listed = (await paste(alice.browser, {
        title: `Listed ${word}`,
        content: `${word}\n`,
      })) as number;
      const reply = (
        await bob.browser.post(API.threadReplies(listed)).send({ content: 'a reply' }).expect(201)
      ).body.id as number;
      await alice.browser
        .patch(API.thread(listed))
        .send({ content: `${word} v2\n` })
        .expect(200);
      const unlisted = await paste(alice.browser, { visibility: 'unlisted', title: `Unlisted ${word}` });
      expect(typeof unlisted).toBe('string');
      // Seen once, so that the lists and the page are in the cache.
      await detail(visitor(), listed);
      await detail(visitor(), unlisted);
      const home = async () =>
        ((await visitor().get(API.threadsRecent).expect(200)).body as RecentPastesPage).threads;
      expect((await home()).map((card) => card.id)).toContain(listed);
      const found = async () =>
        (await visitor().get(API.search).query({ q: word }).expect(200)).body.threads as Array<{
          id: number;
        }>;
      expect((await found()).map((card) => card.id)).toContain(listed);

      await expire(listed);
      await expire(unlisted);

      for (const ref of [listed, unlisted]) {
        await visitor().get(API.thread(ref)).expect(404, NOT_FOUND);
        await alice.browser.get(API.thread(ref)).expect(404, NOT_FOUND);
        await alice.browser.get(API.threadRaw(ref)).expect(404);
        await visitor().get(API.threadRaw(ref)).expect(404);
        await bob.browser.post(API.threadReplies(ref)).send({ content: 'too late' }).expect(404, NOT_FOUND);
        await bob.browser.post(API.votes).send({ threadId: ref, value: 1 }).expect(404, NOT_FOUND);
      }
      expect((await home()).map((card) => card.id)).not.toContain(listed);
      expect(await found()).toEqual([]);
      const profile = (await visitor().get(API.user(alice.user.id)).expect(200)).body as UserProfile;
      expect(profile.recentThreads.map((card) => card.id)).not.toContain(listed);
      // The author's own profile does not show it either.
      const own = (await alice.browser.get(API.user(alice.user.id)).expect(200)).body as UserProfile;
      expect(own.recentThreads.map((card) => card.id)).not.toContain(unlisted);
      await carol.browser.post(API.votes).send({ replyId: reply, value: 1 }).expect(404);
      await visitor().get(API.threadRevisions(listed)).expect(404, NOT_FOUND);
      await visitor().get(API.threadRevision(listed, 1)).expect(404, NOT_FOUND);
      await visitor().get(API.replyRevisions(reply)).expect(404);
      await alice.browser.patch(API.thread(listed)).send({ title: 'Back again' }).expect(404, NOT_FOUND);
      await alice.browser.patch(API.thread(listed)).send({ expiresIn: 'never' }).expect(404, NOT_FOUND);
    });

    it('reads 404 at the instant it expires, though its page and its list were in the cache and no job ran', async () => {
      const ref = (await paste(alice.browser, { title: 'Soon gone' })) as number;
      // Expiring a second from now, set behind the app's back: no job removes it.
      await t.dataSource.query(`UPDATE threads SET expires_at = now() + interval '1 second' WHERE id = $1`, [
        ref,
      ]);
      await t.pagesChanged();
      expect((await detail(visitor(), ref)).expiresAt).not.toBeNull();
      const home = async () =>
        ((await visitor().get(API.threadsRecent).expect(200)).body as RecentPastesPage).threads;
      expect((await home()).map((card) => card.id)).toContain(ref);

      await waitFor('the second to pass', async () => (await visitor().get(API.thread(ref))).status === 404);
      expect((await home()).map((card) => card.id)).not.toContain(ref);
      // Still in the database: the read itself refused it.
      expect(await rowOf(ref)).toBeDefined();
      expect(await t.app.get(PasteExpiry).sweep()).toBeGreaterThanOrEqual(1);
      expect(await rowOf(ref)).toBeUndefined();
    });

    it("is removed for good by its delayed job once expired: the forum's, its author's and its repliers' counts go down", async () => {
      const ref = (await paste(carol.browser, { title: 'Ten minutes' })) as number;
      await bob.browser.post(API.threadReplies(ref)).send({ content: 'quick reply' }).expect(201);
      const before = await counts([carol.user.id, bob.user.id]);
      // `10m` lasts a second here.
      await carol.browser.patch(API.thread(ref)).send({ expiresIn: '10m' }).expect(200);
      await waitFor('the expiry job to remove it', async () => (await rowOf(ref)) === undefined, 15_000);
      const after = await counts([carol.user.id, bob.user.id]);
      expect(after.forum).toBe(before.forum - 1);
      expect(after.threads).toEqual([before.threads[0]! - 1, before.threads[1]!]);
      expect(after.replies).toEqual([before.replies[0]!, before.replies[1]! - 1]);
      const profile = (await visitor().get(API.user(carol.user.id)).expect(200)).body as UserProfile;
      expect(profile.threadCount).toBe(after.threads[0]);
      await visitor().get(API.thread(ref)).expect(404, NOT_FOUND);

      // Idempotent: the job again, or the sweep, finds nothing to do.
      expect(await t.app.get(PasteExpiry).expire(ref)).toBe(false);
      expect(await counts([carol.user.id, bob.user.id])).toEqual(after);
    });

    it('counts an unlisted paste nowhere, so its removal lowers no public count', async () => {
      const ref = await paste(carol.browser, { visibility: 'unlisted' });
      const before = await counts([carol.user.id]);
      await expire(ref);
      expect(await t.app.get(PasteExpiry).sweep()).toBe(1);
      expect(await rowOf(ref)).toBeUndefined();
      expect(await counts([carol.user.id])).toEqual(before);
    });

    it('leaves a paste whose expiry moved later to its new job: the old one does nothing', async () => {
      const ref = (await paste(carol.browser, { expiresIn: '1d' })) as number;
      expect(await t.app.get(PasteExpiry).expire(ref)).toBe(false);
      expect(await t.app.get(PasteExpiry).sweep()).toBe(0);
      expect(await rowOf(ref)).toBeDefined();
    });

    it('sweeps every expired paste a job missed, and the sweep is a repeatable job of the expiry queue', async () => {
      const refs = [await paste(alice.browser), await paste(bob.browser)];
      for (const ref of refs) await expire(ref);
      expect(await t.app.get(PasteExpiry).sweep()).toBe(2);
      for (const ref of refs) expect(await rowOf(ref)).toBeUndefined();
      expect(await t.app.get(PasteExpiry).sweep()).toBe(0);
      expect(t.app.get(QueuePort).repeatableJobs).toContainEqual(
        expect.objectContaining({
          queue: EXPIRY_QUEUE,
          id: EXPIRY_SWEEP_SCHEDULE,
          name: EXPIRY_SWEEP_JOB,
          everyMs: EXPIRY_SWEEP_INTERVAL_MS,
        }),
      );
    });
  });

  describe('burn after reading', () => {
    async function burning(): Promise<string> {
      const ref = await paste(alice.browser, {
        title: 'Burns',
        content: 'read me once\n',
        burnAfterReading: true,
      });
      expect(typeof ref).toBe('string');
      return ref as string;
    }

    it('shows others the paste without its content; GET, HEAD and raw never burn it; its author sees it whole', async () => {
      const ref = await burning();
      for (const reader of [visitor(), bob.browser]) {
        const page = await detail(reader, ref);
        expect(page.burnAfterReading).toBe(true);
        expect(page.content).toBeUndefined();
        await reader.head(API.thread(ref)).expect(200);
        await reader.get(API.threadRaw(ref)).expect(404);
      }
      // A link preview or a crawler reads the page the same way, as often as it likes.
      for (let i = 0; i < 3; i++)
        await visitor().get(API.thread(ref)).set('User-Agent', 'Slackbot-LinkExpanding').expect(200);
      expect((await detail(alice.browser, ref)).content).toBe('read me once\n');
      expect((await alice.browser.get(API.threadRaw(ref)).expect(200)).text).toBe('read me once\n');
      expect(await rowOf(ref)).toBeDefined();
    });

    it('is named by its key only: its number finds nothing', async () => {
      const ref = await burning();
      const { id } = (await rowOf(ref))!;
      await visitor().get(API.thread(id)).expect(404, NOT_FOUND);
      await bob.browser.post(API.threadReadOnce(id)).expect(404, NOT_FOUND);
    });

    it('read-once answers the content to a member and removes it; any later call is a 404', async () => {
      const ref = await burning();
      const before = await counts([alice.user.id]);
      const read = pasteDetailSchema.parse(
        (await bob.browser.post(API.threadReadOnce(ref)).expect(200)).body,
      );
      expect(read).toMatchObject({
        id: ref,
        title: 'Burns',
        content: 'read me once\n',
        burnAfterReading: true,
      });
      expect(await rowOf(ref)).toBeUndefined();
      await bob.browser.post(API.threadReadOnce(ref)).expect(404, NOT_FOUND);
      await carol.browser.post(API.threadReadOnce(ref)).expect(404, NOT_FOUND);
      await visitor().get(API.thread(ref)).expect(404, NOT_FOUND);
      await alice.browser.get(API.thread(ref)).expect(404, NOT_FOUND);
      await alice.browser.get(API.threadRaw(ref)).expect(404);
      // It was never listed: no public count moves.
      expect(await counts([alice.user.id])).toEqual(before);
    });

    it('read-once is open to visitors', async () => {
      const ref = await burning();
      const read = await visitorBrowser().post(API.threadReadOnce(ref)).expect(200);
      expect(read.body.content).toBe('read me once\n');
      expect(read.headers['cache-control']).toBe('no-store');
      await visitorBrowser().post(API.threadReadOnce(ref)).expect(404, NOT_FOUND);
    });

    it('read-once by its author shows it and does not burn it', async () => {
      const ref = await burning();
      for (let i = 0; i < 2; i++) {
        expect((await alice.browser.post(API.threadReadOnce(ref)).expect(200)).body.content).toBe(
          'read me once\n',
        );
      }
      expect(await rowOf(ref)).toBeDefined();
      expect((await bob.browser.post(API.threadReadOnce(ref)).expect(200)).body.content).toBe(
        'read me once\n',
      );
      expect(await rowOf(ref)).toBeUndefined();
    });

    it('shows it to exactly one of many readers racing; the others get 404', async () => {
      const ref = await burning();
      const readers = [
        bob.browser,
        carol.browser,
        visitorBrowser(),
        visitorBrowser(),
        visitorBrowser(),
        visitorBrowser(),
      ];
      const answers = await Promise.all(readers.map((reader) => reader.post(API.threadReadOnce(ref))));
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses).toEqual([200, 404, 404, 404, 404, 404]);
      expect(answers.find((res) => res.status === 200)!.body.content).toBe('read me once\n');
      for (const res of answers.filter((one) => one.status === 404)) expect(res.body).toEqual(NOT_FOUND);
      expect(await rowOf(ref)).toBeUndefined();
    });

    it('takes no replies (403) and no votes (403), from anyone, its author included', async () => {
      const ref = await burning();
      for (const member of [bob, alice]) {
        await member.browser
          .post(API.threadReplies(ref))
          .send({ content: 'hello' })
          .expect(403, { statusCode: 403, message: OWN_POSTS_MESSAGES.burnNoReplies });
        await member.browser
          .post(API.votes)
          .send({ threadId: ref, value: 1 })
          .expect(403, { statusCode: 403, message: OWN_POSTS_MESSAGES.burnNoVotes });
      }
      expect(await rowOf(ref)).toBeDefined();
    });

    it('answers 404 to read-once of a paste that does not burn, or has expired', async () => {
      const plain = await paste(alice.browser);
      await bob.browser.post(API.threadReadOnce(plain)).expect(404, NOT_FOUND);
      const ref = await burning();
      await expire(ref);
      await bob.browser.post(API.threadReadOnce(ref)).expect(404, NOT_FOUND);
      await alice.browser.post(API.threadReadOnce(ref)).expect(404, NOT_FOUND);
      expect(await rowOf(ref)).toBeDefined();
      await visitorBrowser().post(API.threadReadOnce('not-a-paste')).expect(404, NOT_FOUND);
    });

    it('a burning paste may expire too; its reading still burns it before then', async () => {
      const ref = await paste(alice.browser, { content: 'both\n', burnAfterReading: true, expiresIn: '1d' });
      expect((await detail(bob.browser, ref)).expiresAt).not.toBeNull();
      expect((await bob.browser.post(API.threadReadOnce(ref)).expect(200)).body.content).toBe('both\n');
      expect(await rowOf(ref)).toBeUndefined();
    });
  });
});
