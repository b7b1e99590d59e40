import {
  API,
  bannedMessage,
  type CurrentUser,
  type Identities,
  PAGES,
  SSO_ERROR_MESSAGES,
  SSO_MESSAGES,
  type TokenScope,
} from '@termpaste/contracts';
import supertest from 'supertest';
import { freePort } from '../src/infra/free-port.js';
import { AUTH_MESSAGES } from '../src/modules/auth/auth.messages.js';
import { SSO_ATTEMPT_MAX_AGE_MS } from '../src/modules/auth/sso/sso-attempt.js';
import { USERNAME_TAKEN } from '../src/modules/users/users.service.js';
import { type Browser, PASSWORD, registered, sessionCookie, verifyByMail } from './support/accounts.js';
import {
  type OidcTestAccount,
  type RunningOidcProvider,
  startOidcProvider,
} from './support/oidc-provider.mjs';
import {
  callbackIn,
  callbackUri,
  pathOf,
  type ProviderBrowser,
  providerBrowser,
  startAt,
  throughOidcProvider,
  throughOidcRoundTrip,
} from './support/sso.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const OWNER_EMAIL = 'boss@oidc.example';
const UNAUTHORIZED = { statusCode: 401, message: 'Unauthorized' };

/** A provider account of its own for one test (its password is `{login}-password`). */
function idpAccount(login: string, overrides: Partial<OidcTestAccount> = {}): OidcTestAccount {
  return {
    login,
    password: `${login}-password`,
    email: `${login}@oidc.example`,
    emailVerified: true,
    preferredUsername: login,
    name: login,
    ...overrides,
  };
}

/** How long a Set-Cookie keeps its cookie from now (express-session writes Expires). */
function lifetimeMs(cookie: string): number {
  return Date.parse(/Expires=([^;]+)/.exec(cookie)![1]!) - Date.now();
}

interface UserRow {
  id: number;
  username: string;
  password_hash: string | null;
  username_chosen: boolean;
  email_verified_at: Date | null;
  is_owner: boolean;
}

describe('signing in with an OpenID Connect provider', () => {
  let t: TestApp;
  let idp: RunningOidcProvider;
  let downPort: number;
  let laterPort: number;
  let later: RunningOidcProvider | undefined;

  beforeAll(async () => {
    idp = await startOidcProvider({ redirectUris: [callbackUri('test')] });
    downPort = await freePort();
    laterPort = await freePort();
    t = await createTestApp({
      env: {
        OWNER_EMAIL,
        OIDC_PROVIDERS: JSON.stringify([
          idp.entry({ id: 'test', name: 'Test IdP' }),
          {
            id: 'down',
            name: 'Down IdP',
            issuer: `http://127.0.0.1:${downPort}`,
            clientId: 'x',
            clientSecret: 'y',
          },
          {
            id: 'later',
            name: 'Later IdP',
            issuer: `http://127.0.0.1:${laterPort}`,
            clientId: 'termpaste',
            clientSecret: 'later-secret',
          },
        ]),
      },
    });
  });

  afterAll(async () => {
    await t?.close();
    await idp?.close();
    await later?.close();
  });

  /** Signs in at the test provider as `login` (its own browsers unless given), through to the app's answer. */
  async function viaIdp(
    login: string,
    {
      browser = t.browser(),
      person = providerBrowser(idp.issuer),
      next,
      intent,
    }: { browser?: Browser; person?: ProviderBrowser; next?: string; intent?: 'login' | 'link' } = {},
  ) {
    const { location } = await startAt(browser, 'test', { next, intent });
    const back = await throughOidcProvider(person, location, { login, password: `${login}-password` });
    const landed = await callbackIn(browser, back);
    return { browser, person, landed, back };
  }

  async function userByEmail(email: string): Promise<UserRow | undefined> {
    const [row]: UserRow[] = await t.dataSource.query(
      `SELECT id, username::text AS username, password_hash, username_chosen, email_verified_at, is_owner
       FROM users WHERE email = $1`,
      [email],
    );
    return row;
  }

  async function identitiesOf(browser: Browser): Promise<Identities> {
    return (await browser.get(API.userIdentities).expect(200)).body as Identities;
  }

  async function me(browser: Browser): Promise<CurrentUser> {
    return (await browser.get(API.currentUser).expect(200)).body as CurrentUser;
  }

  describe('the providers on /api/site', () => {
    it('lists the providers whose discovery worked, with localLogin on', async () => {
      const res = await t.http.get(API.site).expect(200);
      expect(res.body).toEqual({
        productName: 'Termpaste',
        requireVerifiedEmail: true,
        localLogin: true,
        signInProviders: [{ id: 'test', name: 'Test IdP', kind: 'oidc' }],
      });
    });
  });

  describe('a provider whose discovery fails', () => {
    it('is hidden, with a warning in the log naming it and why', () => {
      const warning = t.logs.entries.find(
        (entry) => entry.level === 'warn' && entry.message.startsWith('Sign-in provider down (Down IdP)'),
      );
      expect(warning?.message).toContain(`discovery of http://127.0.0.1:${downPort} failed`);
      expect(warning?.message).toContain('ECONNREFUSED');
      expect(warning?.message).toContain('Its button is hidden until it works');
    });

    it('answers its start with a clear redirect, never a 500', async () => {
      expect((await startAt(t.browser(), 'down')).location).toBe('/login?sso_error=provider_unavailable');
      const { browser } = await registered(t);
      expect((await startAt(browser, 'down', { intent: 'link' })).location).toBe(
        '/settings/accounts?sso_error=provider_unavailable',
      );
    });

    it('is tried again in the background, and shows once it answers', async () => {
      const site = async () => (await t.http.get(API.site).expect(200)).body.signInProviders as unknown[];
      expect(await site()).not.toContainEqual(expect.objectContaining({ id: 'later' }));
      later = await startOidcProvider({
        port: laterPort,
        clientSecret: 'later-secret',
        redirectUris: [callbackUri('later')],
      });
      await waitFor('the later provider on /api/site', async () => (await site()).length === 2, 25_000);
      expect(await site()).toEqual([
        { id: 'test', name: 'Test IdP', kind: 'oidc' },
        { id: 'later', name: 'Later IdP', kind: 'oidc' },
      ]);
      const { location } = await startAt(t.browser(), 'later');
      expect(location.startsWith(`${later.issuer}/auth?`)).toBe(true);
      expect(t.logs.text()).toContain(`Sign-in provider later (Later IdP, ${later.issuer}) is ready`);
    }, 40_000);
  });

  describe('the start', () => {
    it('sends the browser to the provider with state, nonce and PKCE (S256), kept server-side', async () => {
      const browser = t.browser();
      const { res, location } = await startAt(browser, 'test');
      const url = new URL(location);
      expect(`${url.origin}${url.pathname}`).toBe(`${idp.issuer}/auth`);
      const params = Object.fromEntries(url.searchParams);
      expect(params).toMatchObject({
        client_id: idp.clientId,
        response_type: 'code',
        redirect_uri: callbackUri('test'),
        scope: 'openid email profile',
        code_challenge_method: 'S256',
      });
      expect(params['state']).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(params['nonce']).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(params['code_challenge']).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(res.headers['cache-control']).toBe('no-store');

      // The session cookie holds an id only, lives as long as the attempt, HttpOnly and SameSite=Lax.
      const cookie = sessionCookie(res)!;
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(lifetimeMs(cookie)).toBeGreaterThan(SSO_ATTEMPT_MAX_AGE_MS - 60_000);
      expect(lifetimeMs(cookie)).toBeLessThanOrEqual(SSO_ATTEMPT_MAX_AGE_MS);
      const [row]: Array<{
        data: Record<string, { state?: string; code_verifier?: string; nonce?: string }>;
      }> = await t.dataSource.query(
        'SELECT data FROM sessions WHERE user_id IS NULL ORDER BY expires_at DESC LIMIT 1',
      );
      expect(row?.data['ssoAttempt']).toMatchObject({ provider: 'test', intent: 'login', next: '/' });
      expect(row?.data['ssoAttempt']?.state).toBe(params['state']);
      expect(row?.data['oidc:test']).toMatchObject({ state: params['state'], nonce: params['nonce'] });
      expect(row?.data['oidc:test']?.code_verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it('refuses an unknown provider with a clear redirect', async () => {
      expect((await startAt(t.browser(), 'nope')).location).toBe('/login?sso_error=unknown_provider');
    });

    it('answers 400 to an intent it does not know', async () => {
      const res = await t.browser().get(API.ssoStart('test')).query({ intent: 'steal' }).expect(400);
      expect(res.body).toEqual({ statusCode: 400, message: SSO_MESSAGES.invalidIntent });
      const twice = await t
        .browser()
        .get(`${API.ssoStart('test')}?next=/a&next=/b`)
        .expect(400);
      expect(twice.body).toEqual({ statusCode: 400, message: SSO_MESSAGES.invalidNext });
    });
  });

  describe('a first sign-in', () => {
    it('makes the account from a verified provider account, signs it in, and goes to the welcome page', async () => {
      const { browser, landed } = await viaIdp('ada');
      expect(landed).toBe(PAGES.ssoWelcome);
      const user = await me(browser);
      expect(user).toMatchObject({
        username: 'ada',
        email: 'ada@oidc.example',
        emailVerified: true,
        isOwner: false,
        isAdmin: false,
      });
      const row = (await userByEmail('ada@oidc.example'))!;
      expect(row).toMatchObject({ id: user.id, password_hash: null, username_chosen: false });
      // Verified by the provider: no verification mail.
      expect(t.mail.to('ada@oidc.example')).toEqual([]);
      const identities = await identitiesOf(browser);
      expect(identities).toEqual({
        identities: [
          {
            id: expect.any(Number),
            provider: 'test',
            providerName: 'Test IdP',
            email: 'ada@oidc.example',
            linkedAt: expect.any(String),
            lastUsedAt: expect.any(String),
          },
        ],
        hasPassword: false,
        available: expect.not.arrayContaining([expect.objectContaining({ id: 'test' })]),
      });
    });

    it('counts an address the provider does not say is verified as unverified, and mails a link', async () => {
      const { browser, landed } = await viaIdp('grace');
      expect(landed).toBe(PAGES.ssoWelcome);
      // preferred_username "grace.hopper", made valid.
      expect(await me(browser)).toMatchObject({
        username: 'grace_hopper',
        email: 'grace@oidc.example',
        emailVerified: false,
      });
      expect(t.mail.to('grace@oidc.example').map((mail) => mail.jobId)).toEqual([
        expect.stringMatching(/^verify-email-/),
      ]);
    });

    it('proposes a valid username that nobody has', async () => {
      await registered(t, { username: 'Linus_Torvalds' });
      // preferred_username "Linus Tørvalds!": accents dropped, other characters made `_`, then numbered.
      const { browser } = await viaIdp('linus');
      expect((await me(browser)).username).toBe('Linus_Torvalds_2');
    });

    it('rotates the session id: the attempt’s session is gone once signed in', async () => {
      const browser = t.browser();
      const { res } = await startAt(browser, 'test');
      const before = /termpaste\.sid=([^;]+)/.exec(sessionCookie(res)!)![1]!;
      idp.addAccount(idpAccount('rota'));
      const back = await throughOidcProvider(providerBrowser(idp.issuer), res.headers.location as string, {
        login: 'rota',
        password: 'rota-password',
      });
      const answer = await browser.get(pathOf(back)).redirects(0).expect(302);
      const after = /termpaste\.sid=([^;]+)/.exec(sessionCookie(answer)!)![1]!;
      expect(after).not.toBe(before);
      // The rolling 30-day cookie of any sign-in, not the attempt's ten minutes.
      expect(lifetimeMs(sessionCookie(answer)!)).toBeGreaterThan(29 * 24 * 3600 * 1000);
      await supertest(t.url).get(API.currentUser).set('Cookie', `termpaste.sid=${before}`).expect(401);
      await supertest(t.url).get(API.currentUser).set('Cookie', `termpaste.sid=${after}`).expect(200);
    });

    it('gives an account without a password the wrong password’s 401 at password sign-in', async () => {
      idp.addAccount(idpAccount('nopass'));
      const { browser } = await viaIdp('nopass');
      for (const password of ['', 'anything at all', PASSWORD]) {
        const res = await t.browser().post(API.login).send({ usernameOrEmail: 'nopass', password });
        expect(res.status).toBe(password === '' ? 400 : 401);
        if (password !== '')
          expect(res.body).toEqual({ statusCode: 401, message: AUTH_MESSAGES.invalidCredentials });
      }
      const change = await browser
        .post(API.changePassword)
        .send({ currentPassword: 'whatever-it-was', newPassword: 'a brand new password' })
        .expect(400);
      expect(change.body.message).toBe(AUTH_MESSAGES.noPasswordYet);
    });

    it('makes the owner only of a verified OWNER_EMAIL: an unverified one becomes owner once verified', async () => {
      idp.addAccount(idpAccount('boss', { email: OWNER_EMAIL, emailVerified: false }));
      const { browser } = await viaIdp('boss');
      expect(await me(browser)).toMatchObject({ isOwner: false, emailVerified: false });
      await verifyByMail(t, OWNER_EMAIL);
      expect(await me(browser)).toMatchObject({ isOwner: true, isAdmin: true, emailVerified: true });
    });
  });

  describe('a second sign-in', () => {
    it('signs into the same account, at `next`, and records the use', async () => {
      idp.addAccount(idpAccount('again'));
      const first = await viaIdp('again');
      const id = (await me(first.browser)).id;
      const second = await viaIdp('again', { next: '/thread/42?tab=replies' });
      expect(second.landed).toBe('/thread/42?tab=replies');
      expect((await me(second.browser)).id).toBe(id);
      const [{ count }]: Array<{ count: string }> = await t.dataSource.query(
        "SELECT count(*) FROM users WHERE email = 'again@oidc.example'",
      );
      expect(count).toBe('1');
    });

    it.each(['//evil.example', 'https://evil.example', '/\\evil.example', 'javascript:alert(1)', '/a\nb'])(
      'lands on / for next=%j, never on another site',
      async (next) => {
        const { landed } = await viaIdp('ada', { next });
        expect(landed).toBe('/');
      },
    );

    it('refuses a banned member with the words of a password sign-in', async () => {
      const password = await registered(t);
      idp.addAccount(idpAccount('banme'));
      const { browser } = await viaIdp('banme');
      const banned = (await me(browser)).id;
      await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = ANY($1)', [
        [banned, password.user.id],
      ]);
      const { browser: again, landed } = await viaIdp('banme');
      expect(landed).toBe('/login?sso_error=banned');
      await again.get(API.currentUser).expect(401, UNAUTHORIZED);
      const refused = await t
        .browser()
        .post(API.login)
        .send({ usernameOrEmail: password.account.username, password: PASSWORD })
        .expect(403);
      expect(SSO_ERROR_MESSAGES.banned).toBe(refused.body.message);
      expect(SSO_ERROR_MESSAGES.banned).toBe(AUTH_MESSAGES.banned);
      // A ban for ever without a reason: the sign-in page reads the same words.
      await again.get(API.ssoRefusal).expect(200, { message: AUTH_MESSAGES.banned });
    });

    it('tells a member banned for a time when the ban ends and why, as a password sign-in does', async () => {
      const password = await registered(t);
      idp.addAccount(idpAccount('timedban'));
      const { browser } = await viaIdp('timedban');
      const banned = (await me(browser)).id;
      const until = new Date(Date.now() + 86_400_000);
      await t.dataSource.query(
        "UPDATE users SET is_banned = true, banned_until = $2, ban_reason = 'spam links' WHERE id = ANY($1)",
        [[banned, password.user.id], until],
      );
      const { browser: again, landed } = await viaIdp('timedban');
      expect(landed).toBe('/login?sso_error=banned');
      await again.get(API.currentUser).expect(401, UNAUTHORIZED);
      const refused = await t
        .browser()
        .post(API.login)
        .send({ usernameOrEmail: password.account.username, password: PASSWORD })
        .expect(403);
      expect(refused.body.message).toBe(bannedMessage(until, 'spam links'));
      const { body } = await again.get(API.ssoRefusal).expect(200);
      expect(body).toEqual({ message: refused.body.message });
      expect(body.message).toMatch(/^Your account is suspended until .* UTC\. Reason: spam links$/);
    });

    it('gives no words to a session without a refusal, nor after a new attempt', async () => {
      await t.browser().get(API.ssoRefusal).expect(200, { message: null });
      idp.addAccount(idpAccount('banagain'));
      const { browser } = await viaIdp('banagain');
      await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [(await me(browser)).id]);
      const { browser: again } = await viaIdp('banagain');
      await again.get(API.ssoRefusal).expect(200, { message: AUTH_MESSAGES.banned });
      await startAt(again, 'test', {});
      await again.get(API.ssoRefusal).expect(200, { message: null });
    });
  });

  describe('never linking silently', () => {
    it.each([
      ['verified', true, 'mallory@oidc.example'],
      ['unverified', false, 'MALLORY@oidc.example'],
    ])(
      'refuses a new %s provider account with a member’s e-mail: no account, nothing linked',
      async (_, verified, email) => {
        const member = await registered(t, { email: 'mallory@oidc.example' });
        const login = `mallory${verified ? 'v' : 'u'}`;
        idp.addAccount(idpAccount(login, { email, emailVerified: verified }));
        const { browser, landed } = await viaIdp(login);
        expect(landed).toBe('/login?sso_error=email_taken');
        await browser.get(API.currentUser).expect(401, UNAUTHORIZED);
        const rows: unknown[] = await t.dataSource.query(
          "SELECT id FROM users WHERE email = 'mallory@oidc.example'",
        );
        expect(rows).toEqual([{ id: member.user.id }]);
        expect(
          await t.dataSource.query('SELECT id FROM user_identities WHERE subject = $1', [login]),
        ).toEqual([]);
        // The member signs in with their password and links it themselves (see linking).
        await t.dataSource.query('DELETE FROM users WHERE id = $1', [member.user.id]);
      },
    );
  });

  describe('refusals', () => {
    it('refuses a provider that answers with an error (the person cancelled)', async () => {
      const browser = t.browser();
      const { location } = await startAt(browser, 'test');
      const back = await throughOidcProvider(providerBrowser(idp.issuer), location, { cancel: true });
      expect(new URL(back).searchParams.get('error')).toBe('access_denied');
      expect(await callbackIn(browser, back)).toBe('/login?sso_error=provider_error');
      await browser.get(API.currentUser).expect(401, UNAUTHORIZED);
    });

    it('refuses a provider account without an e-mail address: no account is made', async () => {
      idp.addAccount({ ...idpAccount('noemail'), email: undefined as unknown as string });
      const { browser, landed } = await viaIdp('noemail');
      expect(landed).toBe('/login?sso_error=email_required');
      await browser.get(API.currentUser).expect(401, UNAUTHORIZED);
      expect(await t.dataSource.query("SELECT id FROM user_identities WHERE subject = 'noemail'")).toEqual(
        [],
      );
    });

    it('refuses a forged, a missing and a reused state, and a callback without an attempt', async () => {
      idp.addAccount(idpAccount('stately'));
      const browser = t.browser();
      const { location } = await startAt(browser, 'test');
      const back = new URL(
        await throughOidcProvider(providerBrowser(idp.issuer), location, {
          login: 'stately',
          password: 'stately-password',
        }),
      );
      const forged = new URL(back);
      forged.searchParams.set('state', 'forged-state');
      expect(await callbackIn(browser, forged.href)).toBe('/login?sso_error=state_mismatch');
      // The attempt was used up by the forged callback: the right one is refused too.
      expect(await callbackIn(browser, back.href)).toBe('/login?sso_error=state_mismatch');
      await browser.get(API.currentUser).expect(401);

      const missing = new URL(back);
      missing.searchParams.delete('state');
      const other = t.browser();
      await startAt(other, 'test');
      expect(await callbackIn(other, missing.href)).toBe('/login?sso_error=state_mismatch');
      // A browser that started nothing (or whose cookie is gone).
      expect(await callbackIn(t.browser(), back.href)).toBe('/login?sso_error=state_mismatch');
      expect(await callbackIn(t.browser(), `${callbackUri('nope')}?code=x&state=y`)).toBe(
        '/login?sso_error=state_mismatch',
      );
      expect(await t.dataSource.query("SELECT id FROM users WHERE email = 'stately@oidc.example'")).toEqual(
        [],
      );
    });

    it('refuses a code used once already (the provider refuses it), and signs nobody in', async () => {
      idp.addAccount(idpAccount('replay'));
      const first = await viaIdp('replay');
      expect(first.landed).toBe(PAGES.ssoWelcome);
      // The same callback again in the same browser: its attempt is used up.
      expect(await callbackIn(first.browser, first.back)).toBe('/login?sso_error=state_mismatch');

      // The code again, with a fresh attempt's state (an attacker's own start).
      const attacker = t.browser();
      const { location } = await startAt(attacker, 'test');
      const replayed = new URL(first.back);
      replayed.searchParams.set('state', new URL(location).searchParams.get('state')!);
      expect(await callbackIn(attacker, replayed.href)).toBe('/login?sso_error=provider_error');
      await attacker.get(API.currentUser).expect(401, UNAUTHORIZED);
    });
  });

  describe('choosing the username (POST /api/auth/sso/username)', () => {
    let browser: Browser;

    beforeAll(async () => {
      idp.addAccount(idpAccount('chooser', { preferredUsername: 'chooser' }));
      ({ browser } = await viaIdp('chooser'));
    });

    it.each([
      ['ab', 'username: Username must be at least 3 characters'],
      ['x'.repeat(33), 'username: Username must be at most 32 characters'],
      ['no spaces', 'username: Username may contain only letters, digits, _ and -'],
      [undefined, 'username: Username is required'],
    ])('refuses %j with 400 and the registration’s message', async (username, message) => {
      const res = await browser.post(API.ssoUsername).send({ username }).expect(400);
      expect(res.body).toEqual({ statusCode: 400, message });
    });

    it('refuses a username another member has, in any letter case', async () => {
      for (const username of ['ada', 'ADA']) {
        const res = await browser.post(API.ssoUsername).send({ username }).expect(409);
        expect(res.body).toEqual({ statusCode: 409, message: USERNAME_TAKEN });
      }
    });

    it('changes it once, then answers 409', async () => {
      const res = await browser.post(API.ssoUsername).send({ username: '  Chooser_2 ' }).expect(200);
      expect(res.body).toMatchObject({ username: 'Chooser_2', email: 'chooser@oidc.example' });
      expect((await me(browser)).username).toBe('Chooser_2');
      const again = await browser.post(API.ssoUsername).send({ username: 'Chooser_3' }).expect(409);
      expect(again.body).toEqual({ statusCode: 409, message: SSO_MESSAGES.usernameAlreadyChosen });
      expect((await me(browser)).username).toBe('Chooser_2');
    });

    it('keeps the proposal when it is sent back', async () => {
      idp.addAccount(idpAccount('keeper'));
      const { browser: keeper } = await viaIdp('keeper');
      await keeper.post(API.ssoUsername).send({ username: 'keeper' }).expect(200);
      await keeper.post(API.ssoUsername).send({ username: 'keeper' }).expect(409);
    });

    it('is refused to a member who registered with a password, to visitors and to tokens', async () => {
      const member = await registered(t);
      const res = await member.browser.post(API.ssoUsername).send({ username: 'renamed_me' }).expect(409);
      expect(res.body.message).toBe(SSO_MESSAGES.usernameAlreadyChosen);
      await t.browser().post(API.ssoUsername).send({ username: 'renamed_me' }).expect(401);
      const token = await makeToken(member.browser, ['read', 'pastes:write']);
      await supertest(t.url)
        .post(API.ssoUsername)
        .set('Authorization', `Bearer ${token}`)
        .send({ username: 'renamed_me' })
        .expect(403);
    });
  });

  async function makeToken(browser: Browser, scopes: TokenScope[]): Promise<string> {
    const res = await browser.post(API.userTokens).send({ name: 'cli', scopes }).expect(201);
    return res.body.token as string;
  }

  describe('linking and unlinking', () => {
    it('links a provider account to a signed-in member, who then signs in with it', async () => {
      const member = await registered(t);
      idp.addAccount(idpAccount('linker'));
      const { landed } = await viaIdp('linker', { browser: member.browser, intent: 'link' });
      expect(landed).toBe('/settings/accounts?linked=test');
      const list = await identitiesOf(member.browser);
      expect(list.hasPassword).toBe(true);
      expect(list.identities).toEqual([
        expect.objectContaining({ provider: 'test', email: 'linker@oidc.example' }),
      ]);
      expect(list.available.map((provider) => provider.id)).not.toContain('test');
      // No account was made for the provider account.
      expect(await userByEmail('linker@oidc.example')).toBeUndefined();

      const { browser, landed: signedIn } = await viaIdp('linker');
      expect(signedIn).toBe('/');
      expect((await me(browser)).id).toBe(member.user.id);

      // Linking it again: already this member's at the start; another member's: identity_taken.
      expect((await startAt(member.browser, 'test', { intent: 'link' })).location).toBe(
        '/settings/accounts?sso_error=already_linked',
      );
      const other = await registered(t);
      const taken = await viaIdp('linker', { browser: other.browser, intent: 'link' });
      expect(taken.landed).toBe('/settings/accounts?sso_error=identity_taken');
      expect((await identitiesOf(other.browser)).identities).toEqual([]);
    });

    it('links only for a signed-in member', async () => {
      expect((await startAt(t.browser(), 'test', { intent: 'link' })).location).toBe(
        '/login?sso_error=sign_in_required',
      );
    });

    it('refuses a link the provider refused, back to the settings', async () => {
      const member = await registered(t);
      expect(
        await throughOidcRoundTrip(member.browser, idp.issuer, { cancel: true }, { intent: 'link' }),
      ).toBe('/settings/accounts?sso_error=provider_error');
    });

    it('unlinks, but never the last way to sign in', async () => {
      const member = await registered(t);
      idp.addAccount(idpAccount('unlinker'));
      await viaIdp('unlinker', { browser: member.browser, intent: 'link' });
      const [identity] = (await identitiesOf(member.browser)).identities;
      await member.browser.delete(API.userIdentity(identity!.id)).expect(204);
      expect((await identitiesOf(member.browser)).identities).toEqual([]);
      await member.browser.delete(API.userIdentity(identity!.id)).expect(404);

      // A password-less member's only identity.
      const { browser } = await viaIdp('ada');
      const [only] = (await identitiesOf(browser)).identities;
      const res = await browser.delete(API.userIdentity(only!.id)).expect(409);
      expect(res.body).toEqual({ statusCode: 409, message: SSO_MESSAGES.lastSignInMethod });
      expect((await identitiesOf(browser)).identities).toHaveLength(1);
    });

    it('answers 404 for another member’s identity, and leaves it', async () => {
      const { browser: ada } = await viaIdp('ada');
      const [adas] = (await identitiesOf(ada)).identities;
      const other = await registered(t);
      for (const id of [String(adas!.id), 'abc', '0', '99999999999']) {
        const res = await other.browser.delete(API.userIdentity(id)).expect(404);
        expect(res.body).toEqual({ statusCode: 404, message: SSO_MESSAGES.identityNotFound });
      }
      expect((await identitiesOf(ada)).identities).toEqual([adas]);
    });

    it('is session only: visitors get 401, personal access tokens 403', async () => {
      await t.browser().get(API.userIdentities).expect(401, UNAUTHORIZED);
      await t.browser().delete(API.userIdentity(1)).expect(401);
      const member = await registered(t);
      const token = await makeToken(member.browser, ['read']);
      const curl = () => supertest(t.url);
      await curl().get(API.userIdentities).set('Authorization', `Bearer ${token}`).expect(403);
      await curl().delete(API.userIdentity(1)).set('Authorization', `Bearer ${token}`).expect(403);
      await curl().get(API.ssoStart('test')).set('Authorization', `Bearer ${token}`).expect(403);
    });
  });
});
