import {
  API,
  API_OPERATIONS,
  type CreatedAccessToken,
  operationTokenScope,
  TOKEN_MESSAGES,
  type TokenScope,
} from '@termpaste/contracts';
import supertest from 'supertest';
import { TokensRevocationPrivateRead17970000000400 } from '../src/infra/database/migrations/17970000000400-tokens-revocation-private-read.js';
import { accessTokenHash, generateToken } from '../src/modules/auth/tokens/access-tokens.service.js';
import { type Browser, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** The reads of what is the member's alone: a token needs `private:read` on each. */
const PRIVATE_READS = [
  API.messages,
  API.messagesSent,
  API.notifications,
  API.notificationsUnreadCount,
  API.chat,
  API.chatMessages,
  API.userReputation('{id}'),
  API.userMutes,
  API.userBlocks,
  API.flagsMine,
  API.userNotificationPreferences,
  API.threadWatch('{id}'),
  API.userFollow('{id}'),
  API.tagWatch('{name}'),
  API.bookmarks,
  API.userWatching,
];

describe('token scopes: read and private:read', () => {
  let t: TestApp;
  let alice: Awaited<ReturnType<typeof registered>>;
  let bob: Awaited<ReturnType<typeof registered>>;
  let pasteId: number;

  beforeAll(async () => {
    t = await createTestApp();
    await registered(t); // the owner
    alice = await registered(t);
    bob = await registered(t);
    // Something private to read: a message and its notification, a chat line, a reputation entry.
    await bob.browser
      .post(API.messages)
      .send({ recipientEmail: alice.account.username, subject: 'psst', content: 'a secret' })
      .expect(201);
    await bob.browser.post(API.chat).send({ message: 'members only' }).expect(201);
    const paste = await alice.browser
      .post(API.threads)
      .send({ title: 'mine', content: 'x', tags: ['scoped-tag'] })
      .expect(201);
    pasteId = (paste.body as { id: number }).id;
  });

  afterAll(async () => {
    await t?.close();
  });

  const made = new Map<string, string>();
  /** A token of the member with these scopes (one per set: a member may hold 20). */
  async function tokenOf(browser: Browser, scopes: TokenScope[]): Promise<string> {
    const key = `${browser === alice.browser ? 'alice' : 'other'}:${scopes.join(',')}`;
    const known = made.get(key);
    if (known) return known;
    const res = await browser.post(API.userTokens).send({ name: 'x', scopes }).expect(201);
    const { token } = res.body as CreatedAccessToken;
    made.set(key, token);
    return token;
  }

  const get = (path: string, token: string) =>
    supertest(t.url).get(path).set('Authorization', `Bearer ${token}`);
  // A paste's watch state needs a paste; a tag's, a tag some listed paste carries.
  const concrete = (path: string) =>
    (path === API.threadWatch('{id}') ? API.threadWatch(pasteId) : path)
      .replace('{id}', String(alice.user.id))
      .replace('{name}', 'scoped-tag');

  it('marks exactly the member-private reads private:read in the OpenAPI document', () => {
    const documented = API_OPERATIONS.filter(
      (op) => op.method === 'get' && operationTokenScope(op) === 'private:read',
    ).map((op) => op.path);
    expect([...documented].sort()).toEqual([...PRIVATE_READS].sort());
  });

  it.each(PRIVATE_READS)('a read-only token gets 403 on %s, a private:read one reads it', async (path) => {
    const read = await tokenOf(alice.browser, ['read']);
    await get(concrete(path), read).expect(403, {
      statusCode: 403,
      message: TOKEN_MESSAGES.missingScope('private:read'),
    });
    const write = await tokenOf(alice.browser, ['pastes:write']);
    await get(concrete(path), write).expect(403, {
      statusCode: 403,
      message: TOKEN_MESSAGES.missingScope('private:read'),
    });
    const privateRead = await tokenOf(alice.browser, ['private:read']);
    const res = await get(concrete(path), privateRead).expect(200);
    if (path === API.messages) expect(res.text).toContain('a secret');
    if (path === API.chat) expect(res.text).toContain('members only');
  });

  it('every other member read a token may make answers `read`, and not `private:read` alone', async () => {
    const reads = API_OPERATIONS.filter((op) => op.method === 'get' && operationTokenScope(op) === 'read');
    expect(reads.map((op) => op.path)).toContain(API.users);
    const read = await tokenOf(alice.browser, ['read']);
    const privateOnly = await tokenOf(alice.browser, ['private:read']);
    for (const op of reads) {
      await get(concrete(op.path), read).expect(200);
      await get(concrete(op.path), privateOnly).expect(403, {
        statusCode: 403,
        message: TOKEN_MESSAGES.missingScope('read'),
      });
    }
  });

  it('`read` reads public data and the member’s own pastes', async () => {
    const read = await tokenOf(alice.browser, ['read']);
    await get(API.thread(pasteId), read).expect(200);
    await get(API.threadRaw(pasteId), read).expect(200);
    await get(API.user(alice.user.id), read).expect(200);
    await get(API.threadsRecent, read).expect(200);
  });

  it('a private:read token opens no write', async () => {
    const privateRead = await tokenOf(alice.browser, ['private:read', 'read']);
    await supertest(t.url)
      .post(API.notificationsMarkAllRead)
      .set('Authorization', `Bearer ${privateRead}`)
      .expect(403, { statusCode: 403, message: TOKEN_MESSAGES.notForTokens });
  });

  it('GET /api/auth/user: the e-mail address only to a token with `read`', async () => {
    for (const scopes of [
      ['pastes:write'],
      ['private:read'],
      ['pastes:write', 'private:read'],
    ] as TokenScope[][]) {
      const res = await get(API.currentUser, await tokenOf(alice.browser, scopes)).expect(200);
      expect(res.body).toMatchObject({ id: alice.user.id, username: alice.account.username });
      expect(res.body).not.toHaveProperty('email');
      expect(res.text).not.toContain(alice.account.email);
    }
    const withRead = await get(API.currentUser, await tokenOf(alice.browser, ['read'])).expect(200);
    expect(withRead.body).toMatchObject({ email: alice.account.email });
    // The session sees it as ever.
    expect((await alice.browser.get(API.currentUser).expect(200)).body).toMatchObject({
      email: alice.account.email,
    });
  });

  it('the migration keeps tokens made before it: a `read` token still reads a paste, not the inbox', async () => {
    const runner = t.dataSource.createQueryRunner();
    const readToken = generateToken();
    const bothToken = generateToken();
    try {
      const migration = new TokensRevocationPrivateRead17970000000400();
      await migration.down(runner);
      // Rows as the old schema wrote them: no revocation columns, the old scopes only.
      await runner.query(
        `INSERT INTO personal_access_tokens (user_id, name, token_hash, scopes)
         VALUES ($1, 'old read', $2, ARRAY['read']), ($1, 'old both', $3, ARRAY['pastes:write', 'read'])`,
        [alice.user.id, accessTokenHash(readToken), accessTokenHash(bothToken)],
      );
      await expect(
        runner.query(
          `INSERT INTO personal_access_tokens (user_id, name, token_hash, scopes)
           VALUES ($1, 'too new', 'h', ARRAY['private:read'])`,
          [alice.user.id],
        ),
      ).rejects.toThrow(/personal_access_tokens_scopes_check/);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    for (const token of [readToken, bothToken]) {
      await get(API.thread(pasteId), token).expect(200);
      await get(API.messages, token).expect(403, {
        statusCode: 403,
        message: TOKEN_MESSAGES.missingScope('private:read'),
      });
    }
    const [row]: Array<{ revoked_at: Date | null }> = await t.dataSource.query(
      'SELECT revoked_at FROM personal_access_tokens WHERE token_hash = $1',
      [accessTokenHash(readToken)],
    );
    expect(row).toEqual({ revoked_at: null });
    // And the new scope is accepted by the constraint now.
    await alice.browser
      .post(API.userTokens)
      .send({ name: 'new', scopes: ['private:read'] })
      .expect(201);
  });
});
