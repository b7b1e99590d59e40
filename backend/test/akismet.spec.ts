import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { API, signalHiddenNotice } from '@termpaste/contracts';
import { AkismetChecker } from '../src/modules/moderation/akismet.js';
import { AKISMET_CHECK_JOB, type AkismetCheckJob } from '../src/modules/screening/akismet.queue.js';
import { SignalHiding } from '../src/modules/moderation/signal-hiding.js';
import { registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

type Member = Awaited<ReturnType<typeof registered>>;

const KEY = 'akismet-test-key';
/** Texts the stand-in calls spam, or answers a 500 for. */
const SPAM = 'VIAGRA-CASINO-SPAM';
const BROKEN = 'MAKES-AKISMET-FAIL';

/**
 * A stand-in for Akismet on loopback that speaks its protocol: `POST /1.1/comment-check`, form-encoded;
 * `invalid` (and X-akismet-debug-help) for another key, `true` for a known spam text, a 500 for the
 * broken one, `false` otherwise. It keeps every form it was sent.
 */
async function akismetStandIn(): Promise<{ url: string; forms: URLSearchParams[]; close(): Promise<void> }> {
  const forms: URLSearchParams[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const formType = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
      if (req.method !== 'POST' || req.url !== '/1.1/comment-check' || !formType) {
        res.writeHead(404).end('not found');
        return;
      }
      forms.push(form);
      if (form.get('api_key') !== KEY) {
        res.writeHead(200, { 'X-akismet-debug-help': 'Empty "api_key" value' }).end('invalid');
        return;
      }
      const content = form.get('comment_content') ?? '';
      if (content.includes(BROKEN)) res.writeHead(500).end('Internal Server Error');
      else
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end(content.includes(SPAM) ? 'true' : 'false');
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    forms,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('the Akismet check (AKISMET_KEY), against a stand-in on loopback', () => {
  let akismet: Awaited<ReturnType<typeof akismetStandIn>>;
  let t: TestApp;
  let owner: Member;
  /** A member (each test its own: a burst of posts would be held). */
  let member: Member;

  beforeAll(async () => {
    akismet = await akismetStandIn();
    t = await createTestApp({ env: { AKISMET_KEY: KEY, AKISMET_URL: `${akismet.url}/` } });
    owner = await registered(t);
  });

  beforeEach(async () => {
    member = await registered(t);
  });

  afterAll(async () => {
    await t?.close();
    await akismet?.close();
  });

  const formsAbout = (text: string) =>
    akismet.forms.filter((form) => form.get('comment_content')?.includes(text));

  const hiddenAt = async (table: 'threads' | 'replies', id: number): Promise<Date | null> => {
    const [row] = await t.dataSource.query(`SELECT hidden_at FROM ${table} WHERE id = $1`, [id]);
    return row.hidden_at;
  };

  const openItem = async (targetType: string, targetId: number) => {
    const [row] = await t.dataSource.query(
      "SELECT id, kind, signals, hidden, author_id FROM review_items WHERE target_type = $1 AND target_id = $2 AND status = 'open'",
      [targetType, targetId],
    );
    return row as
      { id: number; kind: string; signals: string[]; hidden: boolean; author_id: number } | undefined;
  };

  it('sends each published paste, and hides one Akismet calls spam pending review (its author is told)', async () => {
    const title = `Cheap deals ${Date.now()}`;
    const res = await member.browser
      .post(API.threads)
      .set('User-Agent', 'SpamBot/1.0')
      .send({ title, content: `Best prices: ${SPAM}` })
      .expect(201);
    const id = res.body.id as number;
    await waitFor('the paste hidden', () => hiddenAt('threads', id), 15_000);
    const [form] = formsAbout(SPAM);
    expect(Object.fromEntries(form!)).toEqual({
      api_key: KEY,
      blog: t.config.publicUrl,
      user_ip: expect.stringMatching(/127\.0\.0\.1$/),
      user_agent: 'SpamBot/1.0',
      comment_type: 'forum-post',
      comment_author: member.user.username,
      comment_author_email: member.account.email,
      comment_content: `${title}\n\nBest prices: ${SPAM}`,
    });
    expect(await openItem('paste', id)).toMatchObject({
      kind: 'flagged',
      signals: ['akismet'],
      hidden: true,
      author_id: member.user.id,
    });
    const notices = await waitFor('the notification', async () => {
      const rows = await t.dataSource.query(
        "SELECT content, thread_id FROM notifications WHERE user_id = $1 AND type = 'moderation'",
        [member.user.id],
      );
      return rows.length > 0 && rows;
    });
    expect(notices).toEqual([{ content: signalHiddenNotice('paste', title), thread_id: id }]);
    // Others no longer see it; its author still reads it.
    await t.http.get(API.thread(id)).expect(404);
    expect(JSON.stringify((await t.http.get(API.threadsRecent).expect(200)).body)).not.toContain(title);
    await member.browser.get(API.thread(id)).expect(200);
  });

  it('hides a reply Akismet calls spam; leaves a post it calls ham alone', async () => {
    const host = (await owner.browser.post(API.threads).send({ title: 'host', content: 'x' }).expect(201))
      .body.id as number;
    const spam = (
      await member.browser
        .post(API.threadReplies(host))
        .send({ content: `Reply ${SPAM}` })
        .expect(201)
    ).body.id as number;
    await waitFor('the reply hidden', () => hiddenAt('replies', spam), 15_000);
    expect(await openItem('reply', spam)).toMatchObject({ signals: ['akismet'], hidden: true });

    const hamText = `An honest question about cron ${Date.now()}`;
    const ham = (await member.browser.post(API.threads).send({ title: 'ham', content: hamText }).expect(201))
      .body.id as number;
    await waitFor('the ham checked', () => formsAbout(hamText).length === 1, 15_000);
    await sleep(300);
    expect(await hiddenAt('threads', ham)).toBeNull();
    expect(await openItem('paste', ham)).toBeUndefined();
  });

  it('retries when Akismet fails (HTTP 500), then gives up with a log line; the post stays', async () => {
    const text = `Something ${BROKEN} ${Date.now()}`;
    const id = (await member.browser.post(API.threads).send({ title: 'broken', content: text }).expect(201))
      .body.id as number;
    // The queue's backoff: a second attempt two seconds after the first.
    await waitFor('a retry', () => formsAbout(text).length >= 2, 15_000);
    expect(await hiddenAt('threads', id)).toBeNull();

    const checker = t.app.get(AkismetChecker);
    const job = (attemptsMade: number) => ({
      id: 'x',
      name: AKISMET_CHECK_JOB,
      attemptsMade,
      data: {
        targetType: 'paste',
        targetId: id,
        threadId: id,
        authorId: member.user.id,
        authorName: member.user.username,
        authorEmail: member.account.email,
        title: 'broken',
        content: text,
        ip: null,
        userAgent: null,
      } satisfies AkismetCheckJob,
    });
    await expect(checker.process(job(0))).rejects.toThrow('HTTP 500');
    await checker.process(job(4));
    expect(
      t.logs.entries.some(
        (entry) =>
          entry.level === 'warn' &&
          entry.message.includes(`Akismet check of paste ${id} given up after 5 attempts`),
      ),
    ).toBe(true);
    expect(await hiddenAt('threads', id)).toBeNull();
    // A wrong key is an answer Akismet explains, not a verdict.
    await expect(checker.check('wrong-key', job(0).data)).rejects.toThrow(/unexpected answer "invalid"/);
  });

  it('never checks staff, nor anything while AKISMET_KEY is unset', async () => {
    const staffText = `Staff ${SPAM} ${Date.now()}`;
    const staff = (
      await owner.browser.post(API.threads).send({ title: 'staff', content: staffText }).expect(201)
    ).body.id as number;
    const key = t.config.moderation.akismetKey;
    t.config.moderation.akismetKey = undefined;
    const unsetText = `Unset ${SPAM} ${Date.now()}`;
    try {
      const unset = (
        await member.browser.post(API.threads).send({ title: 'unset', content: unsetText }).expect(201)
      ).body.id as number;
      const [queued] = await t.dataSource.query(
        "SELECT count(*)::int AS n FROM outbox WHERE queue = 'akismet' AND data->>'content' = $1",
        [unsetText],
      );
      expect(queued.n).toBe(0);
      // A post made since is checked at once; the two before never are.
      t.config.moderation.akismetKey = key;
      const laterText = `Later ${Date.now()}`;
      await member.browser.post(API.threads).send({ title: 'later', content: laterText }).expect(201);
      await waitFor('the later post checked', () => formsAbout(laterText).length === 1, 15_000);
      expect(formsAbout(staffText)).toHaveLength(0);
      expect(formsAbout(unsetText)).toHaveLength(0);
      expect(await hiddenAt('threads', staff)).toBeNull();
      expect(await hiddenAt('threads', unset)).toBeNull();
    } finally {
      t.config.moderation.akismetKey = key;
    }
  });

  it('never sends a private paste, nor one that burns after reading', async () => {
    const privateText = `Private ${SPAM} ${Date.now()}`;
    const burnText = `Burning ${SPAM} ${Date.now()}`;
    await member.browser
      .post(API.threads)
      .send({ title: 'mine', content: privateText, visibility: 'private' })
      .expect(201);
    await member.browser
      .post(API.threads)
      .send({ title: 'once', content: burnText, burnAfterReading: true })
      .expect(201);
    const sharedText = `Shared ${Date.now()}`;
    await member.browser
      .post(API.threads)
      .send({ title: 'shared', content: sharedText, visibility: 'unlisted' })
      .expect(201);
    await waitFor('the unlisted paste checked', () => formsAbout(sharedText).length === 1, 15_000);
    expect(formsAbout(privateText)).toHaveLength(0);
    expect(formsAbout(burnText)).toHaveLength(0);
  });

  it("adds the signal to an item members' flags opened, keeping one open item per post", async () => {
    const id = (
      await owner.browser.post(API.threads).send({ title: 'flagged', content: 'flagged' }).expect(201)
    ).body.id as number;
    const [{ id: itemId }] = await t.dataSource.query(
      "INSERT INTO review_items (kind, target_type, target_id, author_id, score) VALUES ('flagged', 'paste', $1, $2, 1) RETURNING id",
      [id, owner.user.id],
    );
    const hiding = t.app.get(SignalHiding);
    const post = {
      targetType: 'paste' as const,
      targetId: id,
      threadId: id,
      authorId: owner.user.id,
      title: 'flagged',
    };
    expect(await hiding.hide(post, 'akismet')).toBe(itemId);
    expect(await hiding.hide(post, 'akismet')).toBe(itemId);
    expect(await openItem('paste', id)).toMatchObject({ id: itemId, signals: ['akismet'], hidden: true });
    expect(await hiddenAt('threads', id)).not.toBeNull();
    // A post gone meanwhile is left alone.
    expect(await hiding.hide({ ...post, targetId: 999_999, threadId: 999_999 }, 'akismet')).toBeNull();
  });
});
