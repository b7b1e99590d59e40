import { API, currentUserSchema, LIMITS } from '@termpaste/contracts';
import supertest from 'supertest';
import { newAccount, PASSWORD, registered, sessionCookie, signedIn } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const INVALID_CREDENTIALS = { statusCode: 401, message: 'Invalid username/email or password' };
const UNAUTHORIZED = { statusCode: 401, message: 'Unauthorized' };
const ONLY_LETTERS = 'username: Username may contain only letters, digits, _ and -';

describe('accounts and sessions', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { PRODUCT_NAME: 'Pastebin of Doom' } });
  });

  afterAll(async () => {
    await t.close();
  });

  describe('browser navigation to /api/login', () => {
    it('redirects to the login page', async () => {
      const res = await t.http.get(API.login).expect(302);
      expect(res.headers.location).toBe('/login');
    });
  });

  describe('GET /api/site', () => {
    it('tells anyone the product name, and that passwords sign in (no provider is set up)', async () => {
      await t.http.get(API.site).expect(200, {
        productName: 'Pastebin of Doom',
        requireVerifiedEmail: true,
        localLogin: true,
        signInProviders: [],
      });
    });
  });

  describe('GET /api/auth/user', () => {
    it('is a 401 for a visitor', async () => {
      await t.http.get(API.currentUser).expect(401, UNAUTHORIZED);
    });

    it('is a 401 for a made-up session cookie', async () => {
      await t.http
        .get(API.currentUser)
        .set('Cookie', 'termpaste.sid=s%3Anope.nope')
        .expect(401, UNAUTHORIZED);
    });
  });

  describe('POST /api/register', () => {
    it('creates the account and signs it in: 201 with the user, and the cookie works', async () => {
      const browser = t.browser();
      const account = newAccount({ username: 'Trinity_01', email: 'Trinity@Zion.example' });
      const res = await browser.post(API.register).send(account).expect(201);

      const user = currentUserSchema.strict().parse(res.body);
      expect(user).toMatchObject({
        username: 'Trinity_01',
        email: 'Trinity@Zion.example',
        firstName: null,
        reputation: 0,
        activePremiumRank: null,
        ownedPremiumRanks: [],
        threadCount: 0,
        replyCount: 0,
        isBanned: false,
      });
      expect(new Date(user.createdAt).toISOString()).toBe(user.createdAt);
      expect(res.text).not.toMatch(/argon2|password/i);

      const cookie = sessionCookie(res);
      expect(cookie).toMatch(/; Path=\/; Expires=.+; HttpOnly; SameSite=Lax$/);
      expect(cookie).not.toMatch(/Secure/);
      const current = await browser.get(API.currentUser).expect(200);
      expect(current.body).toEqual(user);
      expect(current.headers['cache-control']).toBe('no-store');
    });

    it('stores an argon2id hash, never the password', async () => {
      const { account } = await registered(t);
      const [row] = await t.dataSource.query('SELECT password_hash FROM users WHERE username = $1', [
        account.username,
      ]);
      expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(row.password_hash).not.toContain(account.password);
    });

    it('refuses a username taken in another letter case: 409 naming it', async () => {
      const { account } = await registered(t);
      const res = await t
        .browser()
        .post(API.register)
        .send(newAccount({ username: account.username.toUpperCase() }))
        .expect(409);
      expect(res.body).toEqual({ statusCode: 409, message: 'Username is already taken' });
    });

    it('refuses an e-mail registered in another letter case: 409 naming it', async () => {
      const { account } = await registered(t);
      const res = await t
        .browser()
        .post(API.register)
        .send(newAccount({ email: account.email.toUpperCase() }))
        .expect(409);
      expect(res.body).toEqual({ statusCode: 409, message: 'Email is already registered' });
    });

    it('answers a race for one username with a 409, not a 500', async () => {
      const username = newAccount().username;
      const statuses = await Promise.all(
        [0, 1, 2].map(
          async () => (await t.browser().post(API.register).send(newAccount({ username }))).status,
        ),
      );
      expect(statuses.sort()).toEqual([201, 409, 409]);
    });

    it.each([
      ['a short password', { password: 'short' }, 'password: Password must be at least 8 characters'],
      [
        'a password over 256 characters',
        { password: 'x'.repeat(LIMITS.passwordMax + 1) },
        `password: Password must be at most ${LIMITS.passwordMax} characters`,
      ],
      ['a 2-character username', { username: 'ab' }, 'username: Username must be at least 3 characters'],
      [
        'a 33-character username',
        { username: 'a'.repeat(33) },
        'username: Username must be at most 32 characters',
      ],
      ['a space in the username', { username: 'neo the one' }, ONLY_LETTERS],
      ['an @ in the username', { username: 'neo@zion' }, ONLY_LETTERS],
      ['an accented letter in the username', { username: 'néo' }, ONLY_LETTERS],
      ['an e-mail without @', { email: 'not-an-address' }, 'email: Enter a valid email address'],
    ])('refuses %s with a 400 saying why', async (_case, overrides, message) => {
      const res = await t.browser().post(API.register).send(newAccount(overrides)).expect(400);
      expect(res.body).toEqual({ statusCode: 400, message });
    });

    it('accepts a password of exactly 8 and of 256 characters', async () => {
      await registered(t, { password: '12345678' });
      await registered(t, { password: 'p'.repeat(LIMITS.passwordMax) });
    });

    it('names every missing field', async () => {
      const res = await t.browser().post(API.register).send({}).expect(400);
      expect(res.body.message).toBe(
        'username: Username is required; email: Email is required; password: Password is required',
      );
    });
  });

  describe('POST /api/login', () => {
    it('signs in by username or by e-mail, in any letter case: 200 with the user', async () => {
      const { account, user } = await registered(t);
      for (const usernameOrEmail of [account.username.toUpperCase(), account.email.toUpperCase()]) {
        const browser = t.browser();
        const res = await browser.post(API.login).send({ usernameOrEmail, password: PASSWORD }).expect(200);
        expect(res.body).toEqual(user);
        await browser.get(API.currentUser).expect(200);
      }
    });

    it('gives a new session id at sign-in', async () => {
      const { browser, account } = await registered(t);
      const before = sessionCookie(await browser.get(API.currentUser).expect(200));
      const after = sessionCookie(
        await browser
          .post(API.login)
          .send({ usernameOrEmail: account.username, password: PASSWORD })
          .expect(200),
      );
      expect(before).toBeDefined();
      expect(after?.split(';')[0]).not.toBe(before?.split(';')[0]);
      // The session from before sign-in is gone.
      await supertest(t.url).get(API.currentUser).set('Cookie', before!.split(';')[0]!).expect(401);
    });

    it('answers a wrong password and an unknown user alike: 401', async () => {
      const { account } = await registered(t);
      const browser = t.browser();
      await browser
        .post(API.login)
        .send({ usernameOrEmail: account.username, password: 'wrong password' })
        .expect(401, INVALID_CREDENTIALS);
      await browser
        .post(API.login)
        .send({ usernameOrEmail: 'nobody_here', password: 'wrong password' })
        .expect(401, INVALID_CREDENTIALS);
      await browser.get(API.currentUser).expect(401);
    });

    it('spends comparable time on an unknown user and on a wrong password', async () => {
      const { account } = await registered(t);
      const time = async (usernameOrEmail: string): Promise<number> => {
        const started = process.hrtime.bigint();
        await t.browser().post(API.login).send({ usernameOrEmail, password: 'wrong password' }).expect(401);
        return Number(process.hrtime.bigint() - started) / 1e6;
      };
      const median = async (usernameOrEmail: string): Promise<number> => {
        const times = [];
        for (let i = 0; i < 5; i++) times.push(await time(usernameOrEmail));
        return times.sort((a, b) => a - b)[2]!;
      };
      const known = await median(account.username);
      const unknown = await median('nobody_at_all');
      // Without the dummy verification an unknown user answers in a fraction of the hashing time.
      expect(unknown).toBeGreaterThan(known * 0.5);
    });

    it('names a missing field with a 400', async () => {
      const res = await t.browser().post(API.login).send({ usernameOrEmail: 'neo' }).expect(400);
      expect(res.body).toEqual({ statusCode: 400, message: 'password: Password is required' });
    });

    it('checks the credentials of the validated body: a name typed between spaces signs in', async () => {
      const { account, user } = await registered(t);
      const res = await t
        .browser()
        .post(API.login)
        .send({ usernameOrEmail: `  ${account.username} `, password: PASSWORD })
        .expect(200);
      expect(res.body).toEqual(user);
    });

    it('validates the body before the credentials are checked: 400, and no session', async () => {
      const res = await t
        .browser()
        .post(API.login)
        .send({ usernameOrEmail: '   ', password: PASSWORD })
        .expect(400);
      expect(res.body).toEqual({
        statusCode: 400,
        message: 'usernameOrEmail: Username or email is required',
      });
      expect(sessionCookie(res)).toBeUndefined();
    });
  });

  describe('the stored session (passport)', () => {
    /** The session id a response's cookie carries (`s:<sid>.<signature>`, URL-encoded). */
    function sid(res: { headers: Record<string, unknown> }): string {
      const value = decodeURIComponent(sessionCookie(res)!.split(';')[0]!.slice('termpaste.sid='.length));
      return value.slice(2, value.lastIndexOf('.'));
    }

    async function stored(id: string): Promise<{ user_id: number | null; data: Record<string, unknown> }> {
      const [row] = await t.dataSource.query('SELECT user_id, data FROM sessions WHERE sid = $1', [id]);
      return row;
    }

    it('holds the member passport signed in, by id, at registration and at sign-in', async () => {
      const browser = t.browser();
      const account = newAccount();
      const registration = await browser.post(API.register).send(account).expect(201);
      const atRegistration = await stored(sid(registration));
      expect(atRegistration.user_id).toBe(registration.body.id);
      expect(atRegistration.data).toEqual({
        cookie: expect.any(Object),
        passport: { user: registration.body.id },
      });

      const login = await t
        .browser()
        .post(API.login)
        .send({ usernameOrEmail: account.email, password: PASSWORD })
        .expect(200);
      const atSignIn = await stored(sid(login));
      expect(atSignIn.user_id).toBe(registration.body.id);
      expect(atSignIn.data).toEqual({ cookie: expect.any(Object), passport: { user: registration.body.id } });
    });

    it('keeps a session stored before passport did sign-in ({ userId }) signed in', async () => {
      const { browser, user } = await registered(t);
      const res = await browser.get(API.currentUser).expect(200);
      const cookie = sessionCookie(res)!.split(';')[0]!;
      await t.dataSource.query(
        `UPDATE sessions SET data = (data - 'passport') || jsonb_build_object('userId', user_id) WHERE sid = $1`,
        [sid(res)],
      );
      expect((await stored(sid(res))).data).toEqual({ cookie: expect.any(Object), userId: user.id });

      const again = await supertest(t.url).get(API.currentUser).set('Cookie', cookie).expect(200);
      expect(again.body).toEqual(user);
    });
  });

  describe('GET /api/logout', () => {
    /** What Chromium sends with a request, by what asked for it (Fetch Metadata). */
    const FETCH = {
      // The top bar's and sidebar's Logout: `window.location.href = '/api/logout'`.
      navigation: {
        'Sec-Fetch-Dest': 'document',
        'Sec-Fetch-Mode': 'navigate',
        'Sec-Fetch-Site': 'same-origin',
      },
      // Typed in the address bar, or a bookmark.
      addressBar: { 'Sec-Fetch-Dest': 'document', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Site': 'none' },
      // `![](/api/logout)` in a paste, reply, bio or message.
      image: { 'Sec-Fetch-Dest': 'image', 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Site': 'same-origin' },
      frame: { 'Sec-Fetch-Dest': 'iframe', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Site': 'same-origin' },
      fetch: { 'Sec-Fetch-Dest': 'empty', 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Site': 'same-origin' },
      // A link or an image on another site.
      crossSiteLink: {
        'Sec-Fetch-Dest': 'document',
        'Sec-Fetch-Mode': 'navigate',
        'Sec-Fetch-Site': 'cross-site',
      },
      sameSiteLink: {
        'Sec-Fetch-Dest': 'document',
        'Sec-Fetch-Mode': 'navigate',
        'Sec-Fetch-Site': 'same-site',
      },
      crossSiteImage: {
        'Sec-Fetch-Dest': 'image',
        'Sec-Fetch-Mode': 'no-cors',
        'Sec-Fetch-Site': 'cross-site',
      },
      // A client that sends none (an old browser, a script).
      none: {},
    } as const;

    it.each([['navigation'], ['addressBar']] as const)(
      'ends the session, clears the cookie and goes home: %s',
      async (how) => {
        const { browser } = await registered(t);
        const cookie = sessionCookie(await browser.get(API.currentUser).expect(200))!.split(';')[0]!;

        const res = await browser.get(API.logout).set(FETCH[how]).expect(302);
        expect(res.headers.location).toBe('/');
        expect(res.headers['cache-control']).toBe('no-store');
        expect(sessionCookie(res)).toMatch(/^termpaste\.sid=; Path=\/; Expires=Thu, 01 Jan 1970/);

        await browser.get(API.currentUser).expect(401, UNAUTHORIZED);
        // The old cookie, replayed, opens nothing: the session is gone from the database.
        await supertest(t.url).get(API.currentUser).set('Cookie', cookie).expect(401);
      },
    );

    it.each([
      ['image'],
      ['frame'],
      ['fetch'],
      ['crossSiteLink'],
      ['sameSiteLink'],
      ['crossSiteImage'],
      ['none'],
    ] as const)('goes home but keeps the session for anything else: %s', async (how) => {
      const { browser } = await registered(t);
      const cookie = sessionCookie(await browser.get(API.currentUser).expect(200))!.split(';')[0]!;

      const res = await browser.get(API.logout).set(FETCH[how]).expect(302);
      expect(res.headers.location).toBe('/');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(sessionCookie(res)).not.toMatch(/Expires=Thu, 01 Jan 1970/);

      await browser.get(API.currentUser).expect(200);
      await supertest(t.url).get(API.currentUser).set('Cookie', cookie).expect(200);
    });

    it('just goes home for a visitor', async () => {
      const res = await t.http.get(API.logout).set(FETCH.navigation).expect(302);
      expect(res.headers.location).toBe('/');
      await t.http.get(API.logout).expect(302);
    });
  });

  describe('POST /api/change-password', () => {
    it('is a 401 for a visitor', async () => {
      await t
        .browser()
        .post(API.changePassword)
        .send({ currentPassword: PASSWORD, newPassword: 'new password 1' })
        .expect(401, UNAUTHORIZED);
    });

    it('refuses a wrong current password', async () => {
      const { browser } = await registered(t);
      await browser
        .post(API.changePassword)
        .send({ currentPassword: 'not my password', newPassword: 'new password 1' })
        .expect(400, { statusCode: 400, message: 'Current password is incorrect' });
    });

    it('refuses a short new password', async () => {
      const { browser } = await registered(t);
      await browser
        .post(API.changePassword)
        .send({ currentPassword: PASSWORD, newPassword: 'short' })
        .expect(400, { statusCode: 400, message: 'newPassword: New password must be at least 8 characters' });
    });

    it('sets the new password and signs out every other session, keeping this one', async () => {
      const { browser, account } = await registered(t);
      const elsewhere = await signedIn(t, account.username);

      await browser
        .post(API.changePassword)
        .send({ currentPassword: PASSWORD, newPassword: 'brand new password' })
        .expect(200, { message: 'Your password has been updated' });

      await browser.get(API.currentUser).expect(200);
      await elsewhere.get(API.currentUser).expect(401);
      await t
        .browser()
        .post(API.login)
        .send({ usernameOrEmail: account.username, password: PASSWORD })
        .expect(401, INVALID_CREDENTIALS);
      await signedIn(t, account.username, 'brand new password');
    });
  });
});
