import {
  type AccessToken,
  API,
  type CreatedAccessToken,
  REPUTATION_MESSAGES,
  TOKEN_EXPIRY_DAYS_MAX,
  TOKEN_MESSAGES,
  TOKEN_NAME_MAX,
  TOKEN_PATTERN,
  TOKENS_PER_USER_MAX,
  type TokenScope,
} from '@termpaste/contracts';
import supertest from 'supertest';
import { CROSS_SITE_REFUSED } from '../src/common/origins.js';
import { accessTokenHash, generateToken } from '../src/modules/auth/tokens/access-tokens.service.js';
import { type Browser, PASSWORD, registered, sessionCookie, signedIn } from './support/accounts.js';
import { connect, refusal } from './support/live.js';
import { resetToken } from './support/sign-out-sockets.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('personal access tokens', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof registered>>;
  let alice: Awaited<ReturnType<typeof registered>>;
  let bob: Awaited<ReturnType<typeof registered>>;

  beforeAll(async () => {
    t = await createTestApp();
    // The first account is the owner, an admin.
    owner = await registered(t);
    alice = await registered(t);
    bob = await registered(t);
  });

  afterAll(async () => {
    await t?.close();
  });

  async function makeToken(
    browser: Browser,
    body: { name?: string; scopes?: TokenScope[]; expiresInDays?: number | null } = {},
  ): Promise<CreatedAccessToken> {
    const res = await browser
      .post(API.userTokens)
      .send({ name: 'laptop', scopes: ['pastes:write', 'read'], ...body })
      .expect(201);
    return res.body as CreatedAccessToken;
  }

  /** A client with no cookies and no Origin: curl. */
  const curl = () => supertest(t.url);
  const bearer = (token: string) => `Bearer ${token}`;

  describe('made, listed and revoked in settings', () => {
    it('answers a new token once, in `token`, stored only as its SHA-256', async () => {
      const before = Date.now();
      const created = await makeToken(alice.browser, { name: '  ci runner ', scopes: ['read'] });
      expect(created).toEqual({
        id: expect.any(Number),
        name: 'ci runner',
        scopes: ['read'],
        createdAt: expect.any(String),
        lastUsedAt: null,
        expiresAt: expect.any(String),
        revokedAt: null,
        revokedReason: null,
        token: expect.stringMatching(TOKEN_PATTERN),
      });
      // 30 days by default.
      const expires = Date.parse(created.expiresAt!);
      expect(expires).toBeGreaterThanOrEqual(before + 30 * DAY_MS - 5_000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS + 5_000);

      const rows: Array<{ token_hash: string; user_id: number; scopes: string[] }> = await t.dataSource.query(
        'SELECT token_hash, user_id, scopes FROM personal_access_tokens WHERE id = $1',
        [created.id],
      );
      expect(rows).toEqual([
        { token_hash: accessTokenHash(created.token), user_id: alice.user.id, scopes: ['read'] },
      ]);
      expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
      const [{ found }]: Array<{ found: number }> = await t.dataSource.query(
        `SELECT count(*)::int AS found FROM personal_access_tokens t
         WHERE position($1 in t::text) > 0`,
        [created.token.slice(3)],
      );
      expect(found).toBe(0);
    });

    it('takes a year at most, or no expiry at all', async () => {
      const never = await makeToken(alice.browser, { expiresInDays: null });
      expect(never.expiresAt).toBeNull();
      const year = await makeToken(alice.browser, { expiresInDays: TOKEN_EXPIRY_DAYS_MAX });
      expect(Date.parse(year.expiresAt!)).toBeGreaterThan(Date.now() + 364 * DAY_MS);
    });

    it('lists the member’s own tokens, newest first, never a secret or hash', async () => {
      const first = await makeToken(bob.browser, { name: 'first' });
      const second = await makeToken(bob.browser, { name: 'second', scopes: ['pastes:write'] });
      const res = await bob.browser.get(API.userTokens).expect(200);
      const list = res.body as AccessToken[];
      expect(list.map((token) => token.id)).toEqual([second.id, first.id]);
      expect(list[0]).toEqual({
        id: second.id,
        name: 'second',
        scopes: ['pastes:write'],
        createdAt: second.createdAt,
        lastUsedAt: null,
        expiresAt: second.expiresAt,
        revokedAt: null,
        revokedReason: null,
      });
      expect(res.text).not.toContain(first.token);
      expect(res.text).not.toContain(accessTokenHash(first.token));
      // Alice's are not Bob's.
      const alices = (await alice.browser.get(API.userTokens).expect(200)).body as AccessToken[];
      expect(alices.some((token) => token.id === first.id)).toBe(false);
    });

    it('revokes a token: 204, listed as revoked by you, and refused on its next call', async () => {
      const token = await makeToken(bob.browser);
      await curl().get(API.currentUser).set('Authorization', bearer(token.token)).expect(200);
      const before = Date.now();
      await bob.browser.delete(API.userToken(token.id)).expect(204);
      const listed = await listedToken(bob.browser, token.id);
      expect(listed).toMatchObject({ revokedReason: 'by you', revokedAt: expect.any(String) });
      expect(Date.parse(listed!.revokedAt!)).toBeGreaterThanOrEqual(before - 5_000);
      // Revoked again: still its first revocation.
      await bob.browser.delete(API.userToken(token.id)).expect(204);
      expect(await listedToken(bob.browser, token.id)).toEqual(listed);
      await curl()
        .get(API.currentUser)
        .set('Authorization', bearer(token.token))
        .expect(401, { statusCode: 401, message: TOKEN_MESSAGES.invalid });
    });

    it('answers 404 for another member’s token (which keeps working), or for none', async () => {
      const bobs = await makeToken(bob.browser);
      const notFound = { statusCode: 404, message: TOKEN_MESSAGES.notFound };
      await alice.browser.delete(API.userToken(bobs.id)).expect(404, notFound);
      await curl().get(API.currentUser).set('Authorization', bearer(bobs.token)).expect(200);
      await alice.browser.delete(API.userToken(2_000_000_000)).expect(404, notFound);
      await alice.browser.delete(API.userToken('abc')).expect(404, notFound);
    });

    it('is for signed-in members only', async () => {
      const unauthorized = { statusCode: 401, message: 'Unauthorized' };
      await t.browser().get(API.userTokens).expect(401, unauthorized);
      await t
        .browser()
        .post(API.userTokens)
        .send({ name: 'x', scopes: ['read'] })
        .expect(401, unauthorized);
      await t.browser().delete(API.userToken(1)).expect(401, unauthorized);
    });

    it('keeps the CSRF check for a session', async () => {
      const cookie = await sessionOf(alice.browser);
      await curl()
        .post(API.userTokens)
        .set('Cookie', cookie)
        .send({ name: 'x', scopes: ['read'] })
        .expect(403, { statusCode: 403, message: CROSS_SITE_REFUSED });
    });

    it.each([
      ['no name', { scopes: ['read'] }, TOKEN_MESSAGES.nameRequired],
      ['a blank name', { name: '   ', scopes: ['read'] }, TOKEN_MESSAGES.nameRequired],
      [
        'a name too long',
        { name: 'x'.repeat(TOKEN_NAME_MAX + 1), scopes: ['read'] },
        TOKEN_MESSAGES.nameTooLong,
      ],
      ['no scopes', { name: 'x' }, TOKEN_MESSAGES.scopesRequired],
      ['an empty scope list', { name: 'x', scopes: [] }, TOKEN_MESSAGES.scopesRequired],
      ['an unknown scope', { name: 'x', scopes: ['admin'] }, TOKEN_MESSAGES.scopeUnknown],
      ['a repeated scope', { name: 'x', scopes: ['read', 'read'] }, TOKEN_MESSAGES.scopesRepeated],
      [
        'an expiry of 0 days',
        { name: 'x', scopes: ['read'], expiresInDays: 0 },
        TOKEN_MESSAGES.expiryInvalid,
      ],
      [
        'an expiry over a year',
        { name: 'x', scopes: ['read'], expiresInDays: 366 },
        TOKEN_MESSAGES.expiryInvalid,
      ],
      [
        'a fractional expiry',
        { name: 'x', scopes: ['read'], expiresInDays: 1.5 },
        TOKEN_MESSAGES.expiryInvalid,
      ],
      [
        'an expiry as text',
        { name: 'x', scopes: ['read'], expiresInDays: '30' },
        TOKEN_MESSAGES.expiryInvalid,
      ],
    ])('refuses %s with 400 and its message', async (_case, body, message) => {
      const before = await count(bob.user.id);
      const res = await bob.browser.post(API.userTokens).send(body).expect(400);
      // The validation pipe names the field first (`name: …`, `scopes.0: …`).
      expect(res.body).toEqual({ statusCode: 400, message: expect.stringMatching(/^[\w.]+: /) });
      expect((res.body as { message: string }).message.replace(/^[\w.]+: /, '')).toBe(message);
      expect(await count(bob.user.id)).toBe(before);
    });

    it(`allows ${TOKENS_PER_USER_MAX} live tokens a member, even asked for at once; expired ones do not count`, async () => {
      const carol = await registered(t);
      // An expired token does not count against the limit.
      const old = await makeToken(carol.browser, { name: 'old' });
      await t.dataSource.query(
        `UPDATE personal_access_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`,
        [old.id],
      );
      const answers = await Promise.all(
        Array.from({ length: TOKENS_PER_USER_MAX + 5 }, (_, i) =>
          carol.browser.post(API.userTokens).send({ name: `t${i}`, scopes: ['read'] }),
        ),
      );
      expect(answers.filter((res) => res.status === 201)).toHaveLength(TOKENS_PER_USER_MAX);
      for (const res of answers.filter((answer) => answer.status !== 201)) {
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ statusCode: 409, message: TOKEN_MESSAGES.tooMany });
      }
      expect(await count(carol.user.id)).toBe(TOKENS_PER_USER_MAX + 1);
      // Revoking one makes room for one.
      const [newest] = (await carol.browser.get(API.userTokens).expect(200)).body as AccessToken[];
      await carol.browser.delete(API.userToken(newest!.id)).expect(204);
      await makeToken(carol.browser);
      await carol.browser
        .post(API.userTokens)
        .send({ name: 'one more', scopes: ['read'] })
        .expect(409, { statusCode: 409, message: TOKEN_MESSAGES.tooMany });
    });
  });

  describe('on a request', () => {
    it('acts as its member, without Origin, cookie or Set-Cookie', async () => {
      const { token } = await makeToken(alice.browser);
      const res = await curl().get(API.currentUser).set('Authorization', bearer(token)).expect(200);
      expect((res.body as { id: number }).id).toBe(alice.user.id);
      expect(res.headers['set-cookie']).toBeUndefined();

      const paste = await curl()
        .post(API.threads)
        .set('Authorization', bearer(token))
        .send({ title: 'from the terminal', content: 'make: *** [all] Error 1' })
        .expect(201);
      expect(paste.headers['set-cookie']).toBeUndefined();
      const [row]: Array<{ author_id: number }> = await t.dataSource.query(
        'SELECT author_id FROM threads WHERE id = $1',
        [(paste.body as { id: number }).id],
      );
      expect(row!.author_id).toBe(alice.user.id);
    });

    it('is judged by the token alone: a session cookie beside it is ignored', async () => {
      const cookie = await sessionOf(bob.browser);
      // A bad token with a good session: refused.
      await curl()
        .get(API.currentUser)
        .set('Cookie', cookie)
        .set('Authorization', bearer(generateToken()))
        .expect(401, { statusCode: 401, message: TOKEN_MESSAGES.invalid });
      // Alice's token with Bob's session: Alice, and Bob's session is neither read nor renewed.
      const { token } = await makeToken(alice.browser);
      const res = await curl()
        .get(API.currentUser)
        .set('Cookie', cookie)
        .set('Authorization', bearer(token))
        .expect(200);
      expect((res.body as { id: number }).id).toBe(alice.user.id);
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('skips the origin check, which still holds for a cookie', async () => {
      const { token } = await makeToken(alice.browser);
      await curl()
        .post(API.threads)
        .set('Authorization', bearer(token))
        .set('Origin', 'https://evil.example')
        .send({ title: 'cross-site but a token', content: 'x' })
        .expect(201);
      const cookie = await sessionOf(alice.browser);
      await curl()
        .post(API.threads)
        .set('Cookie', cookie)
        .set('Origin', 'https://evil.example')
        .send({ title: 'cross-site with a cookie', content: 'x' })
        .expect(403, { statusCode: 403, message: CROSS_SITE_REFUSED });
      await curl()
        .post(API.threads)
        .set('Cookie', cookie)
        .send({ title: 'no origin with a cookie', content: 'x' })
        .expect(403, { statusCode: 403, message: CROSS_SITE_REFUSED });
    });

    it('records its last use, at most once a minute', async () => {
      const { id, token } = await makeToken(alice.browser);
      await curl().get(API.currentUser).set('Authorization', bearer(token)).expect(200);
      const used = await lastUsed(id);
      expect(used).not.toBeNull();
      await curl().get(API.currentUser).set('Authorization', bearer(token)).expect(200);
      expect(await lastUsed(id)).toEqual(used);
      // A minute later, the next request moves it.
      await t.dataSource.query(
        `UPDATE personal_access_tokens SET last_used_at = last_used_at - interval '61 seconds' WHERE id = $1`,
        [id],
      );
      const aged = await lastUsed(id);
      await curl().get(API.currentUser).set('Authorization', bearer(token)).expect(200);
      expect((await lastUsed(id))!.getTime()).toBeGreaterThan(aged!.getTime());
      const [listed] = ((await alice.browser.get(API.userTokens).expect(200)).body as AccessToken[]).filter(
        (listedToken) => listedToken.id === id,
      );
      expect(listed!.lastUsedAt).toBe((await lastUsed(id))!.toISOString());
    });
  });

  describe('refuses a bad token with 401', () => {
    it.each([
      ['an unknown token', () => bearer(generateToken()), TOKEN_MESSAGES.invalid],
      ['another prefix', () => bearer(`gh_${generateToken().slice(3)}`), TOKEN_MESSAGES.invalid],
      ['garbage', () => bearer('not-a-token'), TOKEN_MESSAGES.invalid],
      ['a token too short', () => bearer(generateToken().slice(0, -1)), TOKEN_MESSAGES.invalid],
      ['an empty bearer', () => 'Bearer ', TOKEN_MESSAGES.malformed],
      ['a bare Bearer', () => 'Bearer', TOKEN_MESSAGES.malformed],
      ['two words', () => `Bearer ${generateToken()} extra`, TOKEN_MESSAGES.malformed],
    ])('%s', async (_case, header, message) => {
      for (const path of [API.currentUser, API.threadsRecent]) {
        const res = await curl()
          .get(path)
          .set('Authorization', header())
          .expect(401, { statusCode: 401, message });
        expect(res.headers['set-cookie']).toBeUndefined();
      }
      await curl()
        .post(API.threads)
        .set('Authorization', header())
        .send({ title: 'x', content: 'y' })
        .expect(401, { statusCode: 401, message });
    });

    it('an expired token', async () => {
      const { id, token } = await makeToken(alice.browser, { expiresInDays: 1 });
      await curl().get(API.currentUser).set('Authorization', bearer(token)).expect(200);
      await t.dataSource.query(
        `UPDATE personal_access_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`,
        [id],
      );
      await curl()
        .get(API.currentUser)
        .set('Authorization', bearer(token))
        .expect(401, { statusCode: 401, message: TOKEN_MESSAGES.expired });
    });

    it('a banned member’s token, at once, and for good: the ban revoked it', async () => {
      const dave = await registered(t);
      const { id, token } = await makeToken(dave.browser);
      await curl().get(API.currentUser).set('Authorization', bearer(token)).expect(200);
      await owner.browser.post(API.adminUserBan(dave.user.id)).expect(200);
      await curl()
        .get(API.currentUser)
        .set('Authorization', bearer(token))
        .expect(401, { statusCode: 401, message: TOKEN_MESSAGES.banned });
      await curl()
        .post(API.threads)
        .set('Authorization', bearer(token))
        .send({ title: 'x', content: 'y' })
        .expect(401, { statusCode: 401, message: TOKEN_MESSAGES.banned });
      await owner.browser.post(API.adminUserUnban(dave.user.id)).expect(200);
      await curl()
        .get(API.currentUser)
        .set('Authorization', bearer(token))
        .expect(401, { statusCode: 401, message: TOKEN_MESSAGES.invalid });
      // The ban ended their sessions: signed in again, they see why the token stopped.
      const again = await signedIn(t, dave.account.username);
      expect(await listedToken(again, id)).toMatchObject({ revokedReason: 'ban' });
    });

    it('a deleted member’s token', async () => {
      const erin = await registered(t);
      const { token } = await makeToken(erin.browser);
      await owner.browser
        .delete(API.adminUser(erin.user.id))
        .expect((res) => expect(res.status).toBeLessThan(300));
      await curl()
        .get(API.currentUser)
        .set('Authorization', bearer(token))
        .expect(401, { statusCode: 401, message: TOKEN_MESSAGES.invalid });
    });
  });

  describe('acts only within its scopes', () => {
    const notForTokens = { statusCode: 403, message: TOKEN_MESSAGES.notForTokens };

    it('reads need `read`: a pastes:write-only token gets 403 on reads, but who am I', async () => {
      const { token } = await makeToken(alice.browser, { scopes: ['pastes:write'] });
      // Any valid token may ask whom it acts for (a client checks a token so).
      const me = await curl().get(API.currentUser).set('Authorization', bearer(token)).expect(200);
      expect((me.body as { id: number }).id).toBe(alice.user.id);
      for (const path of [API.threadsRecent, API.user(alice.user.id), API.users]) {
        await curl()
          .get(path)
          .set('Authorization', bearer(token))
          .expect(403, { statusCode: 403, message: TOKEN_MESSAGES.missingScope('read') });
      }
      await curl()
        .get(API.notifications)
        .set('Authorization', bearer(token))
        .expect(403, { statusCode: 403, message: TOKEN_MESSAGES.missingScope('private:read') });
      await curl()
        .post(API.threads)
        .set('Authorization', bearer(token))
        .send({ title: 'write only', content: 'x' })
        .expect(201);
    });

    it('writes need the route’s scope: a read token cannot paste', async () => {
      const { token } = await makeToken(alice.browser, { scopes: ['read'] });
      await curl().get(API.currentUser).set('Authorization', bearer(token)).expect(200);
      await curl().get(API.user(alice.user.id)).set('Authorization', bearer(token)).expect(200);
      await curl()
        .post(API.threads)
        .set('Authorization', bearer(token))
        .send({ title: 'read only', content: 'x' })
        .expect(403, { statusCode: 403, message: TOKEN_MESSAGES.missingScope('pastes:write') });
    });

    it('no write beyond pastes, whatever the scopes: replies, votes, profile, messages, chat', async () => {
      const { token } = await makeToken(alice.browser);
      const paste = await curl()
        .post(API.threads)
        .set('Authorization', bearer(token))
        .send({ title: 'a paste', content: 'x' })
        .expect(201);
      const id = (paste.body as { id: number }).id;
      const writes = [
        curl().post(API.threadReplies(id)).send({ content: 'a reply' }),
        curl().post(API.votes).send({ threadId: id, value: 1 }),
        curl().put(API.userProfile).send({ bio: 'pwned' }),
        curl().post(API.messages).send({ recipient: bob.account.username, subject: 's', content: 'c' }),
        curl().post(API.chat).send({ content: 'hi' }),
        curl().post(API.login).send({ usernameOrEmail: alice.account.username, password: PASSWORD }),
        curl()
          .post(API.register)
          .send({ username: 'tokenmade', email: 'tokenmade@example.com', password: PASSWORD }),
        // Signing out is a session's business too (a read, yet no token's).
        curl().get(API.logout),
      ];
      for (const write of writes) await write.set('Authorization', bearer(token)).expect(403, notForTokens);
    });

    it('never the admin API, even an admin’s token with every scope', async () => {
      const { token } = await makeToken(owner.browser);
      await curl().get(API.currentUser).set('Authorization', bearer(token)).expect(200);
      await curl().get(API.adminUsers).set('Authorization', bearer(token)).expect(403, notForTokens);
      await curl().get(API.adminAudit).set('Authorization', bearer(token)).expect(403, notForTokens);
      await curl()
        .post(API.adminUserBan(bob.user.id))
        .set('Authorization', bearer(token))
        .expect(403, notForTokens);
      const [row]: Array<{ is_banned: boolean }> = await t.dataSource.query(
        'SELECT is_banned FROM users WHERE id = $1',
        [bob.user.id],
      );
      expect(row!.is_banned).toBe(false);
    });

    it('never an admin’s powers outside the admin API: another member’s reputation ledger', async () => {
      const { token } = await makeToken(owner.browser, { scopes: ['read', 'private:read'] });
      // With the session, the admin reads anyone's ledger (they moderate reputation farming).
      await owner.browser.get(API.userReputation(bob.user.id)).expect(200);
      await curl()
        .get(API.userReputation(bob.user.id))
        .set('Authorization', bearer(token))
        .expect(403, { statusCode: 403, message: REPUTATION_MESSAGES.ledgerPrivate });
      // Their own, as any member's token.
      await curl().get(API.userReputation(owner.user.id)).set('Authorization', bearer(token)).expect(200);
    });

    it('never passwords, e-mail or token management', async () => {
      const { token } = await makeToken(alice.browser);
      const auth = bearer(token);
      await curl()
        .post(API.changePassword)
        .set('Authorization', auth)
        .send({ currentPassword: PASSWORD, newPassword: 'an entirely new password' })
        .expect(403, notForTokens);
      await curl().post(API.verifyEmailResend).set('Authorization', auth).expect(403, notForTokens);
      await curl().get(API.userTokens).set('Authorization', auth).expect(403, notForTokens);
      await curl()
        .post(API.userTokens)
        .set('Authorization', auth)
        .send({ name: 'child', scopes: ['read'] })
        .expect(403, notForTokens);
      const { id } = await makeToken(alice.browser);
      await curl().delete(API.userToken(id)).set('Authorization', auth).expect(403, notForTokens);
      await curl().get(API.currentUser).set('Authorization', auth).expect(200);
      // The password is unchanged: the session still signs in with it.
      await t
        .browser()
        .post(API.login)
        .send({ usernameOrEmail: alice.account.username, password: PASSWORD })
        .expect(200);
    });

    it('never the live socket: a bearer token alone opens nothing', async () => {
      const { token } = await makeToken(alice.browser);
      expect(await refusal(connect(t, { headers: { Authorization: bearer(token) } }))).toBe('401');
    });
  });

  async function listedToken(browser: Browser, id: number): Promise<AccessToken | undefined> {
    const list = (await browser.get(API.userTokens).expect(200)).body as AccessToken[];
    return list.find((token) => token.id === id);
  }

  async function count(userId: number): Promise<number> {
    const [{ n }]: Array<{ n: number }> = await t.dataSource.query(
      'SELECT count(*)::int AS n FROM personal_access_tokens WHERE user_id = $1',
      [userId],
    );
    return n;
  }

  async function lastUsed(id: number): Promise<Date | null> {
    const [row]: Array<{ last_used_at: Date | null }> = await t.dataSource.query(
      'SELECT last_used_at FROM personal_access_tokens WHERE id = $1',
      [id],
    );
    return row!.last_used_at;
  }

  /** A session cookie of the browser's member: signs in again, in a browser of its own. */
  async function sessionOf(browser: Browser): Promise<string> {
    const me = (await browser.get(API.currentUser).expect(200)).body as { username: string };
    const res = await t
      .browser()
      .post(API.login)
      .send({ usernameOrEmail: me.username, password: PASSWORD })
      .expect(200);
    return sessionCookie(res)!.split(';')[0]!;
  }
});

describe('personal access tokens on two instances', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp({ database: a.database });
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a token revoked on one stops at once on the other', async () => {
    const member = await registered(a);
    const created = (
      await member.browser
        .post(API.userTokens)
        .send({ name: 'x', scopes: ['read'] })
        .expect(201)
    ).body as CreatedAccessToken;
    const auth = `Bearer ${created.token}`;
    await supertest(b.url).get(API.currentUser).set('Authorization', auth).expect(200);
    await member.browser.delete(API.userToken(created.id)).expect(204);
    await supertest(b.url)
      .get(API.currentUser)
      .set('Authorization', auth)
      .expect(401, { statusCode: 401, message: TOKEN_MESSAGES.invalid });
    await supertest(a.url)
      .get(API.currentUser)
      .set('Authorization', auth)
      .expect(401, { statusCode: 401, message: TOKEN_MESSAGES.invalid });
  });

  it('a token minted before a password reset on one is refused at once on the other', async () => {
    const member = await registered(a);
    const created = (
      await member.browser
        .post(API.userTokens)
        .send({ name: 'x', scopes: ['read'] })
        .expect(201)
    ).body as CreatedAccessToken;
    const auth = `Bearer ${created.token}`;
    await supertest(b.url).get(API.currentUser).set('Authorization', auth).expect(200);
    await a
      .browser()
      .post(API.resetPassword)
      .send({ token: await resetToken(a, member.user.id), newPassword: 'a reset password' })
      .expect(200);
    await supertest(b.url)
      .get(API.currentUser)
      .set('Authorization', auth)
      .expect(401, { statusCode: 401, message: TOKEN_MESSAGES.invalid });
  });
});

describe('personal access tokens under rate limits', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        RATE_LIMITS: 'on',
        RATE_LIMIT_TOKEN_REQUESTS_PER_MINUTE: '3',
        RATE_LIMIT_PASTES_PER_MINUTE: '2',
      },
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('counts per token, and the member’s limits count their tokens’ pastes', async () => {
    const member = await registered(t);
    const make = async () =>
      (
        (
          await member.browser
            .post(API.userTokens)
            .send({ name: 'x', scopes: ['read', 'pastes:write'] })
            .expect(201)
        ).body as CreatedAccessToken
      ).token;
    const first = await make();
    const second = await make();
    const get = (token: string) =>
      supertest(t.url).get(API.currentUser).set('Authorization', `Bearer ${token}`);
    for (let i = 0; i < 3; i++) await get(first).expect(200);
    const refused = await get(first).expect(429);
    expect(refused.body.message).toMatch(
      /^Too many requests with this access token\. Try again in \d+ seconds?\.$/,
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another token of the same member has its own count.
    await get(second).expect(200);

    // Pastes: 2 a minute per member, the session and each token together.
    const third = await make();
    await member.browser.post(API.threads).send({ title: 'by the browser', content: 'x' }).expect(201);
    await supertest(t.url)
      .post(API.threads)
      .set('Authorization', `Bearer ${third}`)
      .send({ title: 'by a token', content: 'x' })
      .expect(201);
    const tooFast = await supertest(t.url)
      .post(API.threads)
      .set('Authorization', `Bearer ${third}`)
      .send({ title: 'one too many', content: 'x' })
      .expect(429);
    expect(tooFast.body.message).toMatch(/too fast/);
  });
});
