import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type AccessToken,
  API,
  type CreatedAccessToken,
  REVOKED_TOKEN_LISTED_DAYS,
  TOKEN_MESSAGES,
  TOKENS_PER_USER_MAX,
  type TokenScope,
} from '@termpaste/contracts';
import supertest from 'supertest';
import { OUTBOX_DIR } from '../src/infra/mail/mail.processor.js';
import { IdentitiesService } from '../src/modules/auth/sso/identities.service.js';
import { TokensSweeper } from '../src/modules/auth/tokens/tokens-sweep.js';
import { UsersService } from '../src/modules/users/users.service.js';
import {
  type Browser,
  PASSWORD,
  registered,
  registeredUnverified,
  verifyByMail,
} from './support/accounts.js';
import { parseMessage } from './support/eml.js';
import { resetToken } from './support/sign-out-sockets.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

async function makeToken(
  browser: Browser,
  scopes: TokenScope[] = ['pastes:write', 'read', 'private:read'],
): Promise<CreatedAccessToken> {
  const res = await browser
    .post(API.userTokens)
    .send({ name: 'laptop', scopes, expiresInDays: null })
    .expect(201);
  return res.body as CreatedAccessToken;
}

async function listed(browser: Browser): Promise<AccessToken[]> {
  return (await browser.get(API.userTokens).expect(200)).body as AccessToken[];
}

/** The newest mail to `to` with `subject` that the mail queue wrote to the outbox, as text. */
async function outboxMail(t: TestApp, to: string, subject: string): Promise<string> {
  const dir = path.join(t.config.dataDir, OUTBOX_DIR);
  return waitFor(`a mail "${subject}" to ${to}`, async () => {
    const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.eml'));
    for (const name of names.sort().reverse()) {
      const message = parseMessage(await readFile(path.join(dir, name), 'utf8'));
      if (message.headers.get('to')?.toLowerCase() !== to.toLowerCase()) continue;
      if (message.headers.get('subject') === subject) return message.body;
    }
    return undefined;
  });
}

describe('personal access tokens and account recovery', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof registered>>;

  beforeAll(async () => {
    t = await createTestApp({ env: { PRODUCT_NAME: 'Termpaste' } });
    owner = await registered(t);
  });

  afterAll(async () => {
    await t?.close();
  });

  const curl = () => supertest(t.url);
  const asToken = (token: string) => curl().get(API.currentUser).set('Authorization', `Bearer ${token}`);

  it('makes no token for an unverified e-mail address: 403 with its message, until it is verified', async () => {
    const { browser, account, user } = await registeredUnverified(t);
    await browser
      .post(API.userTokens)
      .send({ name: 'squatter', scopes: ['read'], expiresInDays: null })
      .expect(403, { statusCode: 403, message: TOKEN_MESSAGES.unverified });
    const [{ n }]: Array<{ n: number }> = await t.dataSource.query(
      'SELECT count(*)::int AS n FROM personal_access_tokens WHERE user_id = $1',
      [user.id],
    );
    expect(n).toBe(0);
    await verifyByMail(t, account.email);
    await makeToken(browser);
  });

  it('a password reset revokes every token (listed as `password reset`) and says how many in its mail', async () => {
    const member = await registered(t);
    const tokens = [await makeToken(member.browser), await makeToken(member.browser, ['read'])];
    // One revoked before keeps its own reason and is not counted again.
    const earlier = await makeToken(member.browser);
    await member.browser.delete(API.userToken(earlier.id)).expect(204);
    for (const { token } of tokens) await asToken(token).expect(200);

    await t
      .browser()
      .post(API.resetPassword)
      .send({ token: await resetToken(t, member.user.id), newPassword: 'a reset password' })
      .expect(200);

    for (const { token } of [...tokens, earlier]) {
      await asToken(token).expect(401, { statusCode: 401, message: TOKEN_MESSAGES.invalid });
    }
    const browser = t.browser();
    await browser
      .post(API.login)
      .send({ usernameOrEmail: member.account.username, password: 'a reset password' })
      .expect(200);
    const list = await listed(browser);
    expect(
      list
        .filter((token) => token.revokedReason === 'password reset')
        .map((token) => token.id)
        .sort(),
    ).toEqual(tokens.map((token) => token.id).sort());
    expect(list.find((token) => token.id === earlier.id)?.revokedReason).toBe('by you');

    const mail = await outboxMail(t, member.account.email, 'Your Termpaste password was reset');
    expect(mail).toContain(`The password of the Termpaste account ${member.account.username} was reset.`);
    expect(mail).toContain('2 access tokens were revoked.');
  });

  it('a password change revokes every token (`password change`) and mails it', async () => {
    const member = await registered(t);
    const { token, id } = await makeToken(member.browser, ['read']);
    await asToken(token).expect(200);
    await member.browser
      .post(API.changePassword)
      .send({ currentPassword: PASSWORD, newPassword: 'a changed password' })
      .expect(200);
    await asToken(token).expect(401, { statusCode: 401, message: TOKEN_MESSAGES.invalid });
    expect((await listed(member.browser)).find((listedToken) => listedToken.id === id)).toMatchObject({
      revokedReason: 'password change',
    });
    const mail = await outboxMail(t, member.account.email, 'Your Termpaste password was changed');
    expect(mail).toContain('1 access token was revoked.');
    expect(mail).toContain('Every other session was signed out.');
  });

  it('a reset unlinks the provider identities linked while the address was unverified, not the others', async () => {
    const { account, user } = await registeredUnverified(t);
    const identities = t.app.get(IdentitiesService);
    const identity = (provider: string) => ({
      provider,
      subject: `${provider}-${user.id}`,
      email: account.email,
      emailVerified: false,
      usernameHints: [],
    });
    // Linked by whoever registered the address first...
    const member = async () => (await t.app.get(UsersService).findById(user.id))!;
    expect(await identities.link(await member(), identity('squatter-idp'))).toBeUndefined();
    await verifyByMail(t, account.email);
    // ...and by the owner, once the address is theirs.
    expect(await identities.link(await member(), identity('owner-idp'))).toBeUndefined();
    await t
      .browser()
      .post(API.resetPassword)
      .send({ token: await resetToken(t, user.id), newPassword: 'a reset password' })
      .expect(200);
    expect((await identities.list(user.id)).map((row) => row.provider)).toEqual(['owner-idp']);
    const mail = await outboxMail(t, account.email, 'Your Termpaste password was reset');
    expect(mail).toContain('0 access tokens were revoked.');
    expect(mail).toContain('1 sign-in provider account was unlinked');
  });

  it(`lists a revoked token for ${REVOKED_TOKEN_LISTED_DAYS} days; the sweep deletes it after`, async () => {
    const member = await registered(t);
    const kept = await makeToken(member.browser);
    const old = await makeToken(member.browser);
    const live = await makeToken(member.browser);
    await member.browser.delete(API.userToken(kept.id)).expect(204);
    await member.browser.delete(API.userToken(old.id)).expect(204);
    await t.dataSource.query(
      `UPDATE personal_access_tokens SET revoked_at = now() - make_interval(days => $2, secs => 1) WHERE id = $1`,
      [old.id, REVOKED_TOKEN_LISTED_DAYS],
    );
    await t.dataSource.query(
      `UPDATE personal_access_tokens SET revoked_at = now() - make_interval(days => $2) + interval '1 minute'
       WHERE id = $1`,
      [kept.id, REVOKED_TOKEN_LISTED_DAYS],
    );
    expect((await listed(member.browser)).map((token) => token.id)).toEqual([live.id, kept.id]);

    expect(await t.app.get(TokensSweeper).sweep()).toBeGreaterThanOrEqual(1);
    const rows: Array<{ id: number }> = await t.dataSource.query(
      'SELECT id FROM personal_access_tokens WHERE user_id = $1 ORDER BY id',
      [member.user.id],
    );
    expect(rows.map((row) => row.id)).toEqual([kept.id, live.id]);
  });

  it('does not count revoked tokens against the limit', async () => {
    const member = await registered(t);
    for (let i = 0; i < TOKENS_PER_USER_MAX; i++) await makeToken(member.browser, ['read']);
    await member.browser
      .post(API.userTokens)
      .send({ name: 'one more', scopes: ['read'] })
      .expect(409, { statusCode: 409, message: TOKEN_MESSAGES.tooMany });
    const [first] = await listed(member.browser);
    await member.browser.delete(API.userToken(first!.id)).expect(204);
    await makeToken(member.browser, ['read']);
    expect(await listed(member.browser)).toHaveLength(TOKENS_PER_USER_MAX + 1);
  });

  it('keeps the owner’s own token working when someone else is banned', async () => {
    const { token } = await makeToken(owner.browser, ['read']);
    const member = await registered(t);
    await owner.browser.post(API.adminUserBan(member.user.id)).expect(200);
    await asToken(token).expect(200);
  });
});
