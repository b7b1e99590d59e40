import { API, type CurrentUser, type Identities, PAGES, SSO_MESSAGES } from '@termpaste/contracts';
import type { Browser } from './support/accounts.js';
import { type RunningGithubStandIn, startGithubStandIn } from './support/github-stand-in.mjs';
import { type RunningOidcProvider, startOidcProvider } from './support/oidc-provider.mjs';
import { callbackIn, callbackUri, startAt, throughGithub, throughOidcRoundTrip } from './support/sso.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** octocat's verified primary address on the stand-in. */
const OCTOCAT_EMAIL = 'octocat@github.example';

describe('signing in with GitHub (a stand-in of its three endpoints, as GitHub Enterprise)', () => {
  let t: TestApp;
  let github: RunningGithubStandIn;
  let idp: RunningOidcProvider;

  beforeAll(async () => {
    github = await startGithubStandIn();
    idp = await startOidcProvider({ redirectUris: [callbackUri('test')] });
    t = await createTestApp({
      env: {
        ...github.env,
        OWNER_EMAIL: OCTOCAT_EMAIL,
        OIDC_PROVIDERS: JSON.stringify([idp.entry({ id: 'test', name: 'Test IdP' })]),
      },
    });
  });

  afterAll(async () => {
    await t?.close();
    await github?.close();
    await idp?.close();
  });

  async function viaGithub(login: string, browser: Browser = t.browser(), intent?: 'login' | 'link') {
    const { location } = await startAt(browser, 'github', { intent });
    const back = await throughGithub(location, { login });
    return { browser, back, landed: await callbackIn(browser, back) };
  }

  async function me(browser: Browser): Promise<CurrentUser> {
    return (await browser.get(API.currentUser).expect(200)).body as CurrentUser;
  }

  it('is the last sign-in provider on /api/site', async () => {
    const res = await t.http.get(API.site).expect(200);
    expect(res.body.signInProviders).toEqual([
      { id: 'test', name: 'Test IdP', kind: 'oidc' },
      { id: 'github', name: 'GitHub', kind: 'github' },
    ]);
  });

  it("starts at GITHUB_URL's authorize page with the app's client id, the callback, the scopes and a state", async () => {
    const { location } = await startAt(t.browser(), 'github');
    const url = new URL(location);
    expect(`${url.origin}${url.pathname}`).toBe(`${github.url}/login/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: github.clientId,
      redirect_uri: callbackUri('github'),
      response_type: 'code',
      scope: 'read:user,user:email',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
  });

  it('makes the account at the first sign-in, with the verified primary address of /user/emails', async () => {
    const { browser, landed } = await viaGithub('octocat');
    expect(landed).toBe(PAGES.ssoWelcome);
    // A verified OWNER_EMAIL: the owner, as at a verification by mail.
    expect(await me(browser)).toMatchObject({
      username: 'octocat',
      email: OCTOCAT_EMAIL,
      emailVerified: true,
      isOwner: true,
      isAdmin: true,
    });
    const second = await viaGithub('octocat');
    expect(second.landed).toBe('/');
    expect((await me(second.browser)).id).toBe((await me(browser)).id);
  });

  it('counts a primary address GitHub has not verified as unverified (not the public one of /user)', async () => {
    const { browser } = await viaGithub('hubot');
    expect(await me(browser)).toMatchObject({
      username: 'hubot',
      email: 'hubot@github.example',
      emailVerified: false,
    });
  });

  it('refuses a cancel on GitHub, a forged state and a replayed code', async () => {
    const cancelled = t.browser();
    const { location } = await startAt(cancelled, 'github');
    const denied = await throughGithub(location, { cancel: true });
    expect(new URL(denied).searchParams.get('error')).toBe('access_denied');
    expect(await callbackIn(cancelled, denied)).toBe('/login?sso_error=provider_error');

    github.addAccount({
      id: 4242,
      login: 'forger',
      name: 'Forger',
      publicEmail: null,
      emails: [{ email: 'forger@github.example', primary: true, verified: true }],
    });
    const forgedBrowser = t.browser();
    const start = await startAt(forgedBrowser, 'github');
    const back = new URL(await throughGithub(start.location, { login: 'forger' }));
    const forged = new URL(back);
    forged.searchParams.set('state', 'forged');
    expect(await callbackIn(forgedBrowser, forged.href)).toBe('/login?sso_error=state_mismatch');

    // The code GitHub issued, used once by its browser, then again under an attacker's fresh state.
    const owner = t.browser();
    const ownStart = await startAt(owner, 'github');
    const ownBack = new URL(await throughGithub(ownStart.location, { login: 'forger' }));
    expect(await callbackIn(owner, ownBack.href)).toBe(PAGES.ssoWelcome);
    const attacker = t.browser();
    const attack = await startAt(attacker, 'github');
    ownBack.searchParams.set('state', new URL(attack.location).searchParams.get('state')!);
    expect(await callbackIn(attacker, ownBack.href)).toBe('/login?sso_error=provider_error');
    await attacker.get(API.currentUser).expect(401);
  });

  it('links to a password-less account, which can then unlink its first provider', async () => {
    // A member made by the OpenID Connect provider: no password, one identity.
    const browser = t.browser();
    expect(await throughOidcRoundTrip(browser, idp.issuer, { login: 'ada', password: 'ada-password' })).toBe(
      PAGES.ssoWelcome,
    );
    const list = async () => (await browser.get(API.userIdentities).expect(200)).body as Identities;
    expect((await list()).available).toEqual([{ id: 'github', name: 'GitHub', kind: 'github' }]);

    github.addAccount({
      id: 77,
      login: 'ada-gh',
      name: 'Ada on GitHub',
      publicEmail: null,
      emails: [{ email: 'ada-gh@github.example', primary: true, verified: true }],
    });
    const { landed } = await viaGithub('ada-gh', browser, 'link');
    expect(landed).toBe('/settings/accounts?linked=github');
    const linked = await list();
    expect(linked).toMatchObject({ hasPassword: false, available: [] });
    expect(
      linked.identities.map((identity) => [identity.provider, identity.providerName, identity.email]),
    ).toEqual([
      ['test', 'Test IdP', 'ada@oidc.example'],
      ['github', 'GitHub', 'ada-gh@github.example'],
    ]);

    // GitHub now signs into the same member.
    const again = await viaGithub('ada-gh');
    expect(again.landed).toBe('/');
    expect((await me(again.browser)).id).toBe((await me(browser)).id);

    // Two ways in: one may go, the last may not.
    const [oidc, gh] = linked.identities;
    await browser.delete(API.userIdentity(oidc!.id)).expect(204);
    const last = await browser.delete(API.userIdentity(gh!.id)).expect(409);
    expect(last.body.message).toBe(SSO_MESSAGES.lastSignInMethod);
  });
});
