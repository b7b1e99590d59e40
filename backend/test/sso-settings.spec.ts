import net from 'node:net';
import { API, PAGES, SSO_MESSAGES } from '@termpaste/contracts';
import { PASSWORD, registered } from './support/accounts.js';
import { type RunningOidcProvider, startOidcProvider } from './support/oidc-provider.mjs';
import {
  callbackIn,
  callbackUri,
  providerBrowser,
  startAt,
  throughOidcProvider,
  throughOidcRoundTrip,
} from './support/sso.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** One app at a time in this file: passport's strategies are one registry per process. */
describe('single sign-on settings', () => {
  let idp: RunningOidcProvider;

  beforeAll(async () => {
    idp = await startOidcProvider({ redirectUris: [callbackUri('test')] });
  });

  afterAll(async () => {
    await idp?.close();
  });

  const providers = () => JSON.stringify([idp.entry({ id: 'test', name: 'Test IdP' })]);

  describe('LOCAL_LOGIN=off', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp({
        env: { OIDC_PROVIDERS: providers(), LOCAL_LOGIN: 'off', RATE_LIMITS: 'on' },
      });
    });

    afterAll(async () => {
      await t?.close();
    });

    const OFF = { statusCode: 403, message: SSO_MESSAGES.localLoginOff };

    it('says so on /api/site, with the providers', async () => {
      await t.http.get(API.site).expect(200, {
        productName: 'Termpaste',
        requireVerifiedEmail: true,
        localLogin: false,
        signInProviders: [{ id: 'test', name: 'Test IdP', kind: 'oidc' }],
      });
    });

    it.each([
      [API.login, { usernameOrEmail: 'someone', password: PASSWORD }],
      [API.register, { username: 'someone', email: 'someone@example.com', password: PASSWORD }],
      [API.forgotPassword, { email: 'someone@example.com' }],
      [API.resetPassword, { token: 'abc', newPassword: PASSWORD }],
    ])('refuses POST %s with 403, before reading the body or counting a limit', async (path, body) => {
      await t.browser().post(path).send(body).expect(403, OFF);
      await t.browser().post(path).send({}).expect(403, OFF);
      // RATE_LIMITS is on: none of these (well past every limit) counted.
      for (let i = 0; i < 8; i++) await t.browser().post(path).send(body).expect(403, OFF);
    });

    it('still signs in with the provider', async () => {
      const browser = t.browser();
      expect(
        await throughOidcRoundTrip(browser, idp.issuer, { login: 'ada', password: 'ada-password' }),
      ).toBe(PAGES.ssoWelcome);
      await browser.get(API.currentUser).expect(200);
    });
  });

  describe('an issuer that never answers', () => {
    let t: TestApp | undefined;
    let silent: net.Server;
    const held = new Set<net.Socket>();

    beforeAll(async () => {
      // Accepts connections and answers nothing: a provider behind a black hole.
      silent = net.createServer((socket) => held.add(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    });

    afterAll(async () => {
      await t?.close();
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });

    it('does not hold the start-up for long: the forum starts without its button', async () => {
      const { port } = silent.address() as net.AddressInfo;
      const began = Date.now();
      t = await createTestApp({
        env: {
          OIDC_PROVIDERS: JSON.stringify([
            {
              id: 'silent',
              name: 'Silent IdP',
              issuer: `http://127.0.0.1:${port}`,
              clientId: 'x',
              clientSecret: 'y',
            },
          ]),
        },
      });
      // It waits 3 s for discovery, not the 10 s of the provider's timeout.
      expect(Date.now() - began).toBeLessThan(9_000);
      await t.http
        .get(API.site)
        .expect(200)
        .expect((res) => expect(res.body.signInProviders).toEqual([]));
      expect((await startAt(t.browser(), 'silent')).location).toBe('/login?sso_error=provider_unavailable');
    });
  });

  describe('the sign-in limits', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp({
        env: { OIDC_PROVIDERS: providers(), RATE_LIMITS: 'on', RATE_LIMIT_LOGIN_PER_MINUTE: '3' },
      });
    });

    afterAll(async () => {
      await t?.close();
    });

    it('count a provider callback as a sign-in attempt, with POST /api/login, per address', async () => {
      const member = await registered(t);
      const wrong = { usernameOrEmail: 'nobody-at-all', password: 'wrong password' };
      await t.browser().post(API.login).send(wrong).expect(401);
      await t
        .browser()
        .post(API.login)
        .send({ ...wrong, usernameOrEmail: 'nobody-else' })
        .expect(401);
      const forged = `${callbackUri('test')}?code=made-up&state=made-up`;
      expect(await callbackIn(t.browser(), forged)).toBe('/login?sso_error=state_mismatch');

      // The fourth attempt from this address, whichever the route.
      const limited = await t
        .browser()
        .get(API.ssoCallback('test'))
        .query({ code: 'x', state: 'y' })
        .redirects(0);
      expect(limited.status).toBe(302);
      expect(limited.headers.location).toBe('/login?sso_error=rate_limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      await t.browser().post(API.login).send({ usernameOrEmail: 'nobody-third', password: 'x' }).expect(429);

      // A link's callback goes back to the settings.
      const { location } = await startAt(member.browser, 'test', { intent: 'link' });
      expect(new URL(location).origin).toBe(idp.issuer);
      const back = await throughOidcProvider(providerBrowser(idp.issuer), location, {
        login: 'grace',
        password: 'grace-password',
      });
      expect(await callbackIn(member.browser, back)).toBe('/settings/accounts?sso_error=rate_limited');
    });
  });
});
