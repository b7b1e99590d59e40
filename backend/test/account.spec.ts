import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  ACCOUNT_MESSAGES,
  API,
  type CreatedAccessToken,
  type ExportStatusBody,
  TOKEN_MESSAGES,
} from '@termpaste/contracts';
import supertest from 'supertest';
import yauzl from 'yauzl';
import { OUTBOX_DIR } from '../src/infra/mail/mail.processor.js';
import { ExportsService } from '../src/modules/account/exports.service.js';
import { type Browser, PASSWORD, registered } from './support/accounts.js';
import { parseMessage } from './support/eml.js';
import { type FakeS3, startFakeS3 } from './support/fake-s3.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

type Member = Awaited<ReturnType<typeof registered>>;

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** The newest mail to `to` whose subject starts with `subject`, from the outbox folder, as text. */
async function outboxMail(t: TestApp, to: string, subject: string): Promise<string> {
  const dir = path.join(t.config.dataDir, OUTBOX_DIR);
  return waitFor(`a mail "${subject}" to ${to}`, async () => {
    const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.eml'));
    for (const name of names.sort().reverse()) {
      const message = parseMessage(await readFile(path.join(dir, name), 'utf8'));
      if (message.headers.get('to')?.toLowerCase() !== to.toLowerCase()) continue;
      if (message.headers.get('subject')?.startsWith(subject)) return message.body;
    }
    return undefined;
  });
}

/** Every file of a zip, by name (without the archive's top folder). */
function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('no zip'));
      const files = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            files.set(entry.fileName.split('/').slice(1).join('/'), Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

const binary = (res: supertest.Response, done: (error: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

describe('your data, and leaving', () => {
  let t: TestApp;
  let owner: Member;

  beforeAll(async () => {
    t = await createTestApp({ env: { PRODUCT_NAME: 'Termpaste' } });
    owner = await registered(t);
  });

  afterAll(async () => {
    await t?.close();
  });

  const status = async (browser: Browser) =>
    (await browser.get(API.userExport).expect(200)).body as ExportStatusBody;

  async function paste(browser: Browser, body: Record<string, unknown> = {}): Promise<string | number> {
    return (
      await browser
        .post(API.threads)
        .send({ title: 'A paste', content: 'hello\n', ...body })
        .expect(201)
    ).body.id as string | number;
  }

  async function reply(browser: Browser, threadId: string | number, content: string, parentId?: number) {
    return (
      await browser
        .post(API.threadReplies(threadId))
        .send({ content, ...(parentId ? { parentId } : {}) })
        .expect(201)
    ).body.id as number;
  }

  async function makeToken(browser: Browser): Promise<CreatedAccessToken> {
    return (
      await browser
        .post(API.userTokens)
        .send({ name: 'laptop', scopes: ['read', 'pastes:write'], expiresInDays: null })
        .expect(201)
    ).body as CreatedAccessToken;
  }

  /** Gives the member a stored avatar (a PNG in the local storage) the way a claimed upload leaves it. */
  async function giveAvatar(member: Member): Promise<void> {
    const key = `avatars/${member.user.id}/${'a'.repeat(22)}`;
    const file = path.join(t.config.dataDir, 'uploads', key);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, PNG);
    const url = `${t.config.publicUrl}${API.uploads}/${key}`;
    await t.dataSource.query('UPDATE users SET avatar_url = $2 WHERE id = $1', [member.user.id, url]);
  }

  /** Runs the member's queued export now (the in-process queue runs it too; this waits for it). */
  async function ready(browser: Browser): Promise<ExportStatusBody> {
    return waitFor('the export ready', async () => {
      const now = await status(browser);
      return now.status === 'ready' ? now : undefined;
    });
  }

  /** Every text or JSON column of every table that holds `needle` anywhere (any letter case). */
  async function whereIs(needle: string): Promise<string[]> {
    const columns: Array<{ table_name: string; column_name: string }> = await t.dataSource.query(
      `SELECT c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables tb ON tb.table_name = c.table_name AND tb.table_schema = c.table_schema
       WHERE c.table_schema = 'public' AND tb.table_type = 'BASE TABLE'
         AND (c.data_type IN ('text', 'json', 'jsonb', 'character varying', 'ARRAY') OR c.udt_name = 'citext')`,
    );
    const found: string[] = [];
    for (const { table_name: table, column_name: column } of columns) {
      const [row]: Array<{ n: number }> = await t.dataSource.query(
        `SELECT count(*)::int AS n FROM "${table}" WHERE strpos(lower("${column}"::text), lower($1)) > 0`,
        [needle],
      );
      if (row!.n > 0) found.push(`${table}.${column}`);
    }
    return found;
  }

  describe('export', () => {
    it('queues one export a day (202, then 429 with Retry-After), builds it, mails the link and serves the archive', async () => {
      const alice = await registered(t);
      const bob = await registered(t);
      expect(await status(alice.browser)).toEqual({ status: 'none' });
      await giveAvatar(alice);
      const publicId = await paste(alice.browser, { title: 'Public one', content: 'v1\n' });
      await alice.browser.patch(API.thread(publicId)).send({ content: 'v2\n' }).expect(200);
      const privateKey = await paste(alice.browser, { title: 'Private one', visibility: 'private' });
      const unlistedKey = await paste(alice.browser, {
        title: 'Unlisted expiring',
        visibility: 'unlisted',
        expiresIn: '1d',
      });
      const bobPaste = await paste(bob.browser, { title: "Bob's" });
      await reply(alice.browser, bobPaste, 'a reply of alice');
      await alice.browser.post(API.votes).send({ threadId: bobPaste, value: 1 }).expect(200);
      await alice.browser
        .post(API.messages)
        .send({ recipientEmail: bob.user.email, subject: 'Hi bob', content: 'from alice' })
        .expect(201);
      await bob.browser
        .post(API.messages)
        .send({ recipientEmail: alice.user.email, subject: 'Hi alice', content: 'from bob' })
        .expect(201);
      await reply(bob.browser, publicId, `@${alice.user.username} look`);
      const token = await makeToken(alice.browser);
      await t.dataSource.query(
        "INSERT INTO user_identities (user_id, provider, subject, email) VALUES ($1, 'github', 'gh-1', $2)",
        [alice.user.id, alice.user.email],
      );

      const res = await alice.browser.post(API.userExport).expect(202);
      expect(res.body).toEqual({ status: 'queued' });
      const again = await alice.browser.post(API.userExport).expect(429);
      expect(again.body.message).toBe(ACCOUNT_MESSAGES.exportTooSoon('24 hours'));
      expect(Number(again.headers['retry-after'])).toBeGreaterThan(23 * 3600);

      const done = await ready(alice.browser);
      expect(done.url).toMatch(/\/api\/user\/export\/\d+\/download\?expires=\d+&signature=/);
      expect(new Date(done.expiresAt!).getTime() - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);
      const mail = await outboxMail(t, alice.user.email, 'Your Termpaste data export is ready');
      const link = new URL(done.url!);
      expect(mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).toContain(done.url);

      const archive = await alice.browser
        .get(`${link.pathname}${link.search}`)
        .buffer(true)
        .parse(binary)
        .expect(200);
      expect(archive.headers['content-type']).toBe('application/zip');
      const files = await unzip(archive.body as Buffer);
      expect([...files.keys()].sort()).toEqual([
        'avatar.png',
        'messages.json',
        'notifications.json',
        'pastes.json',
        'profile.json',
        'providers.json',
        'replies.json',
        'reputation.json',
        'ssh-keys.json',
        'tokens.json',
        'votes.json',
      ]);
      const json = <T = unknown[]>(name: string) => JSON.parse(files.get(name)!.toString('utf8')) as T;
      expect(json('ssh-keys.json')).toEqual([]);
      expect(files.get('avatar.png')).toEqual(PNG);
      expect(json('profile.json')).toMatchObject({ id: alice.user.id, email: alice.user.email });
      expect(json('profile.json')).not.toHaveProperty('password_hash');
      const pastes = json('pastes.json') as Array<{ title: string; key: string | null; versions: unknown[] }>;
      expect(pastes.map((p) => p.title).sort()).toEqual(['Private one', 'Public one', 'Unlisted expiring']);
      expect(pastes.find((p) => p.title === 'Public one')!.versions).toHaveLength(2);
      expect(pastes.map((p) => p.key)).toEqual(expect.arrayContaining([privateKey, unlistedKey]));
      expect(json('replies.json')).toEqual([expect.objectContaining({ content: 'a reply of alice' })]);
      expect(json('replies.json')[0]).not.toHaveProperty('anchor_hash'); // internal, never exported
      expect(
        (json('messages.json') as Array<{ direction: string; subject: string }>).map((m) => [
          m.direction,
          m.subject,
        ]),
      ).toEqual([
        ['sent', 'Hi bob'],
        ['received', 'Hi alice'],
      ]);
      expect(json('notifications.json').length).toBeGreaterThan(0);
      expect(json('votes.json')).toEqual([expect.objectContaining({ value: 1 })]);
      expect(json('reputation.json').length).toBeGreaterThan(0);
      expect(json('tokens.json')).toEqual([
        expect.objectContaining({ name: 'laptop', scopes: ['read', 'pastes:write'] }),
      ]);
      expect(files.get('tokens.json')!.toString()).not.toContain(token.token);
      expect(files.get('tokens.json')!.toString()).not.toContain('hash');
      expect(json('providers.json')).toEqual([
        expect.objectContaining({ provider: 'github', subject: 'gh-1' }),
      ]);

      // Another member's session with the same link: refused as unknown.
      await bob.browser.get(`${link.pathname}${link.search}`).expect(404, {
        statusCode: 404,
        message: ACCOUNT_MESSAGES.exportNotFound,
      });
      // Signed out: 401; a tampered signature: 404.
      await supertest(t.url).get(`${link.pathname}${link.search}`).expect(401);
      // Its first character changed (to another: a signature may well begin with 'A').
      const tampered = link.search.replace(
        /signature=(.)/,
        (_, first: string) => `signature=${first === 'A' ? 'B' : 'A'}`,
      );
      await alice.browser.get(`${link.pathname}${tampered}`).expect(404);
      // A personal access token cannot export.
      await supertest(t.url).post(API.userExport).set('Authorization', `Bearer ${token.token}`).expect(403);

      // 24 hours later (the row's time moved back): the link is refused, the status says expired, the sweep removes it.
      await t.dataSource.query(
        "UPDATE account_exports SET requested_at = requested_at - interval '25 hours', expires_at = now() - interval '1 minute' WHERE user_id = $1",
        [alice.user.id],
      );
      await alice.browser.get(`${link.pathname}${link.search}`).expect(410, {
        statusCode: 410,
        message: ACCOUNT_MESSAGES.exportExpired,
      });
      expect((await status(alice.browser)).status).toBe('expired');
      const [{ storage_key: key }] = await t.dataSource.query(
        'SELECT storage_key FROM account_exports WHERE user_id = $1',
        [alice.user.id],
      );
      expect(await t.app.get(ExportsService).sweep()).toBeGreaterThanOrEqual(1);
      await expect(readFile(path.join(t.config.dataDir, 'uploads', key as string))).rejects.toThrow();
      expect(
        await t.dataSource.query('SELECT status, storage_key FROM account_exports WHERE user_id = $1', [
          alice.user.id,
        ]),
      ).toEqual([{ status: 'expired', storage_key: null }]);
      // A day on, a new export may be asked for.
      await alice.browser.post(API.userExport).expect(202);
    });

    it('moves queued → running → ready, and a failed build may be asked again at once', async () => {
      const carol = await registered(t);
      const exports = t.app.get(ExportsService);
      const [row] = await t.dataSource.query(
        'INSERT INTO account_exports (user_id) VALUES ($1) RETURNING id',
        [carol.user.id],
      );
      expect((await status(carol.browser)).status).toBe('queued');
      await t.dataSource.query("UPDATE account_exports SET status = 'running' WHERE id = $1", [row.id]);
      expect((await status(carol.browser)).status).toBe('running');
      await exports.build(row.id as number);
      expect((await status(carol.browser)).status).toBe('ready');
      await t.dataSource.query("UPDATE account_exports SET status = 'failed' WHERE id = $1", [row.id]);
      expect((await status(carol.browser)).status).toBe('failed');
      await carol.browser.post(API.userExport).expect(202);
    });
  });

  describe('delete my account', () => {
    it('wants the password: 400 without, 403 wrong, and the owner cannot leave', async () => {
      const dave = await registered(t);
      await dave.browser
        .delete(API.userAccount)
        .send({ keepContent: true })
        .expect(400, { statusCode: 400, message: ACCOUNT_MESSAGES.passwordRequired });
      await dave.browser
        .delete(API.userAccount)
        .send({ password: 'wrong password', keepContent: true })
        .expect(403, { statusCode: 403, message: ACCOUNT_MESSAGES.passwordIncorrect });
      await dave.browser.delete(API.userAccount).send({ password: PASSWORD }).expect(400);
      await owner.browser
        .delete(API.userAccount)
        .send({ password: PASSWORD, keepContent: false })
        .expect(403, { statusCode: 403, message: ACCOUNT_MESSAGES.ownerCannotLeave });
      const token = await makeToken(dave.browser);
      await supertest(t.url)
        .delete(API.userAccount)
        .set('Authorization', `Bearer ${token.token}`)
        .send({ password: PASSWORD, keepContent: true })
        .expect(403, { statusCode: 403, message: TOKEN_MESSAGES.notForTokens });
      await dave.browser.get(API.currentUser).expect(200);
    });

    /** A member with a bit of everything, and a second member who interacted with them. */
    async function busyUser() {
      const gone = await registered(t);
      const other = await registered(t);
      await giveAvatar(gone);
      const own = await paste(gone.browser, { title: 'Gone public' });
      const privateKey = await paste(gone.browser, { title: 'Gone private', visibility: 'private' });
      const theirs = await paste(other.browser, { title: 'Other paste' });
      const leaf = await reply(gone.browser, theirs, 'gone leaf reply');
      const parent = await reply(gone.browser, theirs, 'gone parent reply');
      const child = await reply(other.browser, theirs, 'other child reply', parent);
      const otherOnOwn = await reply(other.browser, own, 'other reply on gone paste');
      // A fork of the other member's paste: its count (read from the forks) goes with it.
      await gone.browser.post(API.threadFork(theirs)).send({ title: 'Gone fork' }).expect(201);
      await gone.browser.post(API.votes).send({ threadId: theirs, value: 1 }).expect(200);
      await gone.browser.post(API.votes).send({ replyId: child, value: -1 }).expect(200);
      await gone.browser
        .post(API.messages)
        .send({ recipientEmail: other.user.email, subject: 'sent', content: 'x' })
        .expect(201);
      await other.browser
        .post(API.messages)
        .send({ recipientEmail: gone.user.email, subject: 'received', content: 'y' })
        .expect(201);
      await makeToken(gone.browser);
      await t.dataSource.query(
        "INSERT INTO user_identities (user_id, provider, subject, email) VALUES ($1, 'github', $2, $3)",
        [gone.user.id, `gh-${gone.user.id}`, gone.user.email],
      );
      // An admin action that names the address in the audit log.
      await t.dataSource.query(
        `INSERT INTO audit_log (actor_id, actor_name, action, target_type, target_id, target_label, before, after)
         VALUES ($1, 'someone', 'user.rename', 'user', $2, $3, $4, NULL)`,
        [owner.user.id, gone.user.id, gone.user.email, JSON.stringify({ email: gone.user.email })],
      );
      const second = t.browser();
      await second
        .post(API.login)
        .send({ usernameOrEmail: gone.user.username, password: PASSWORD })
        .expect(200);
      return { gone, other, own, privateKey, theirs, leaf, parent, child, otherOnOwn, second };
    }

    const scores = async (threadId: string | number, replyId: number) => {
      const [paste] = await t.dataSource.query('SELECT vote_score FROM threads WHERE id = $1', [threadId]);
      const [row] = await t.dataSource.query('SELECT vote_score FROM replies WHERE id = $1', [replyId]);
      return { paste: paste.vote_score as number, reply: row.vote_score as number };
    };

    async function nothingLeftOf(userId: number, email: string): Promise<void> {
      for (const [table, column] of [
        ['sessions', 'user_id'],
        ['personal_access_tokens', 'user_id'],
        ['user_identities', 'user_id'],
        ['votes', 'user_id'],
        ['notifications', 'user_id'],
        ['private_messages', 'sender_id'],
        ['private_messages', 'recipient_id'],
        ['password_reset_tokens', 'user_id'],
        ['email_verification_tokens', 'user_id'],
        ['pending_uploads', 'user_id'],
        ['account_exports', 'user_id'],
        ['reputation_ledger', 'user_id'],
        ['users', 'id'],
      ]) {
        const [row] = await t.dataSource.query(
          `SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`,
          [userId],
        );
        expect({ table, column, n: row.n }).toEqual({ table, column, n: 0 });
      }
      expect(await whereIs(email)).toEqual([]);
      // The audit log keeps the deletion, by the account's id.
      const entries = await t.dataSource.query(
        "SELECT target_id FROM audit_log WHERE action = 'user.delete' AND target_id = $1",
        [userId],
      );
      expect(entries).toHaveLength(1);
    }

    it('keepContent=false: deletes their pastes and replies (a reply with others under it stays as a placeholder), and everything else', async () => {
      const s = await busyUser();
      await s.gone.browser.post(API.userExport).expect(202);
      await ready(s.gone.browser);
      expect(await scores(s.theirs, s.child)).toEqual({ paste: 1, reply: -1 });
      const [{ reply_count: otherReplies }] = await t.dataSource.query(
        'SELECT reply_count FROM users WHERE id = $1',
        [s.other.user.id],
      );

      const res = await s.gone.browser
        .delete(API.userAccount)
        .send({ password: PASSWORD, keepContent: false })
        .expect(204);
      expect(String(res.headers['set-cookie'])).toMatch(/termpaste\.sid=;/);
      await s.gone.browser.get(API.currentUser).expect(401);
      await s.second.get(API.currentUser).expect(401);

      expect(await scores(s.theirs, s.child)).toEqual({ paste: 0, reply: 0 });
      expect(await t.dataSource.query('SELECT id FROM threads WHERE id = $1', [s.own])).toEqual([]);
      expect(await t.dataSource.query('SELECT id FROM threads WHERE key = $1', [s.privateKey])).toEqual([]);
      expect(await t.dataSource.query('SELECT id FROM replies WHERE id = $1', [s.leaf])).toEqual([]);
      expect(
        await t.dataSource.query(
          'SELECT author_id, content, deleted_at IS NOT NULL AS deleted FROM replies WHERE id = $1',
          [s.parent],
        ),
      ).toEqual([{ author_id: null, content: '', deleted: true }]);
      expect(await t.dataSource.query('SELECT id FROM replies WHERE id = $1', [s.child])).toHaveLength(1);
      // The other member's reply on the deleted paste went with it: their count too.
      const [{ reply_count: after }] = await t.dataSource.query(
        'SELECT reply_count FROM users WHERE id = $1',
        [s.other.user.id],
      );
      expect(after).toBe(otherReplies - 1);
      const detail = (await s.other.browser.get(API.thread(s.theirs)).expect(200)).body;
      expect(JSON.stringify(detail)).not.toContain('gone leaf reply');
      expect(detail.forkCount).toBe(0);
      expect(JSON.stringify(detail)).not.toContain('gone parent reply');
      await nothingLeftOf(s.gone.user.id, s.gone.account.email);
      // Their avatar file is gone.
      await waitFor('the avatar removed', async () =>
        readFile(path.join(t.config.dataDir, 'uploads', `avatars/${s.gone.user.id}/${'a'.repeat(22)}`)).then(
          () => undefined,
          () => true,
        ),
      );
    });

    it('keepContent=true: their public pastes and replies stay without an author (Anonymous); private ones go', async () => {
      const s = await busyUser();
      await s.gone.browser
        .delete(API.userAccount)
        .send({ password: PASSWORD, keepContent: true })
        .expect(204);
      expect(await t.dataSource.query('SELECT author_id FROM threads WHERE id = $1', [s.own])).toEqual([
        { author_id: null },
      ]);
      expect(await t.dataSource.query('SELECT id FROM threads WHERE key = $1', [s.privateKey])).toEqual([]);
      expect(
        await t.dataSource.query(
          'SELECT author_id, content FROM replies WHERE id = ANY($1::int[]) ORDER BY id',
          [[s.leaf, s.parent]],
        ),
      ).toEqual([
        { author_id: null, content: 'gone leaf reply' },
        { author_id: null, content: 'gone parent reply' },
      ]);
      expect(await scores(s.theirs, s.child)).toEqual({ paste: 0, reply: 0 });
      const detail = (await s.other.browser.get(API.thread(s.own)).expect(200)).body;
      expect(detail.author ?? null).toBeNull();
      await nothingLeftOf(s.gone.user.id, s.gone.account.email);
    });

    it('a member without a password confirms by a mailed link (once, within the hour)', async () => {
      const erin = await registered(t);
      const own = await paste(erin.browser, { title: 'Erin paste' });
      await t.dataSource.query('UPDATE users SET password_hash = NULL WHERE id = $1', [erin.user.id]);
      const res = await erin.browser.delete(API.userAccount).send({ keepContent: false }).expect(202);
      expect(res.body).toEqual({ message: ACCOUNT_MESSAGES.deleteLinkSent });
      await erin.browser.get(API.currentUser).expect(200);
      const mail = await outboxMail(t, erin.user.email, 'Confirm the deletion of your Termpaste account');
      const token = /deleteToken=([A-Za-z0-9_-]+)/.exec(
        mail.replace(/=\r?\n/g, '').replace(/=3D/g, '='),
      )![1]!;
      await supertest(t.url)
        .post(API.userDeleteConfirm)
        .set('Origin', new URL(t.config.publicUrl).origin)
        .send({ token: 'not-the-token' })
        .expect(400, { statusCode: 400, message: ACCOUNT_MESSAGES.deleteLinkInvalid });
      // Past its hour: refused.
      await t.dataSource.query(
        "UPDATE account_deletion_links SET expires_at = now() - interval '1 second' WHERE user_id = $1",
        [erin.user.id],
      );
      await erin.browser.post(API.userDeleteConfirm).send({ token }).expect(400);
      await t.dataSource.query(
        "UPDATE account_deletion_links SET expires_at = now() + interval '1 hour' WHERE user_id = $1",
        [erin.user.id],
      );
      await erin.browser.post(API.userDeleteConfirm).send({ token }).expect(204);
      await erin.browser.get(API.currentUser).expect(401);
      expect(await t.dataSource.query('SELECT id FROM threads WHERE id = $1', [own])).toEqual([]);
      await erin.browser.post(API.userDeleteConfirm).send({ token }).expect(400);
      expect(await whereIs(erin.account.email)).toEqual([]);
    });

    it("the admin's delete offers the same choice: keepContent=true by default, false deletes their posts", async () => {
      const kept = await busyUser();
      await owner.browser.delete(API.adminUser(kept.gone.user.id)).expect(200, { message: 'User deleted' });
      expect(await t.dataSource.query('SELECT author_id FROM threads WHERE id = $1', [kept.own])).toEqual([
        { author_id: null },
      ]);
      await nothingLeftOf(kept.gone.user.id, kept.gone.account.email);

      const dropped = await busyUser();
      await owner.browser
        .delete(`${API.adminUser(dropped.gone.user.id)}?keepContent=maybe`)
        .expect(400, { statusCode: 400, message: 'keepContent must be true or false' });
      await owner.browser.delete(`${API.adminUser(dropped.gone.user.id)}?keepContent=false`).expect(200);
      expect(await t.dataSource.query('SELECT id FROM threads WHERE id = $1', [dropped.own])).toEqual([]);
      expect(await t.dataSource.query('SELECT id FROM replies WHERE id = $1', [dropped.leaf])).toEqual([]);
      await dropped.second.get(API.currentUser).expect(401);
      await nothingLeftOf(dropped.gone.user.id, dropped.gone.account.email);
    });
  });
});

const S3_ENV = {
  S3_BUCKET: 'termpaste-avatars',
  S3_REGION: 'eu-central-1',
  S3_FORCE_PATH_STYLE: 'true',
  S3_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
  S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};

describe('export and deletion with S3_BUCKET (against fake-s3)', () => {
  let s3: FakeS3;
  let t: TestApp;

  beforeAll(async () => {
    s3 = await startFakeS3({
      bucket: S3_ENV.S3_BUCKET,
      region: S3_ENV.S3_REGION,
      accessKeyId: S3_ENV.S3_ACCESS_KEY_ID,
      secretAccessKey: S3_ENV.S3_SECRET_ACCESS_KEY,
    });
    t = await createTestApp({ env: { ...S3_ENV, S3_ENDPOINT: s3.endpoint, PRODUCT_NAME: 'Termpaste' } });
    await registered(t);
  });

  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('stores the archive (and reads the avatar) in the bucket, serves it through the backend, and removes both with the account', async () => {
    const member = await registered(t);
    const avatar = `avatars/${member.user.id}/${'b'.repeat(22)}`;
    s3.objects.set(avatar, {
      body: PNG,
      contentType: 'image/png',
      etag: '"1"',
      lastModified: new Date(),
    });
    await t.dataSource.query('UPDATE users SET avatar_url = $2 WHERE id = $1', [
      member.user.id,
      `${s3.endpoint}/${S3_ENV.S3_BUCKET}/${avatar}`,
    ]);
    await member.browser.post(API.userExport).expect(202);
    const done = await waitFor('the export ready', async () => {
      const now = (await member.browser.get(API.userExport).expect(200)).body as ExportStatusBody;
      return now.status === 'ready' ? now : undefined;
    });
    const archiveKey = [...s3.objects.keys()].find((key) => key.startsWith(`exports/${member.user.id}/`))!;
    expect(archiveKey).toMatch(/^exports\/\d+\/[A-Za-z0-9_-]{22}\.zip$/);
    expect(s3.objects.get(archiveKey)!.contentType).toBe('application/zip');
    const link = new URL(done.url!);
    const res = await member.browser
      .get(`${link.pathname}${link.search}`)
      .buffer(true)
      .parse(binary)
      .expect(200);
    const files = await unzip(res.body as Buffer);
    expect(files.get('avatar.png')).toEqual(PNG);

    await member.browser.delete(API.userAccount).send({ password: PASSWORD, keepContent: true }).expect(204);
    await waitFor(
      'the archive and the avatar removed',
      () => !s3.objects.has(archiveKey) && !s3.objects.has(avatar),
    );
  });
});

describe('the tries at DELETE /api/user (it checks the password): limited as password changes are', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        RATE_LIMITS: 'on',
        RATE_LIMIT_CHANGE_PASSWORD_PER_HOUR: '2',
        RATE_LIMIT_REGISTER_PER_HOUR: '1000',
      },
    });
    await registered(t);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('answers 429 with its text and Retry-After past the hour’s tries', async () => {
    const member = await registered(t);
    const wrong = () =>
      member.browser.delete(API.userAccount).send({ password: 'not mine', keepContent: true });
    await wrong().expect(403);
    await wrong().expect(403);
    const refused = await wrong().expect(429);
    expect(refused.body.message).toMatch(
      /^Too many attempts to delete the account\. Try again in \d+ seconds?\.$/,
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await member.browser.get(API.currentUser).expect(200);
  });
});
