import { API, type CurrentUser } from '@termpaste/contracts';
import { newAccount, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

function roles(user: CurrentUser): { isOwner: boolean; isAdmin: boolean } {
  return { isOwner: user.isOwner, isAdmin: user.isAdmin };
}

describe('the owner', () => {
  describe('without OWNER_EMAIL: the first account ever registered', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp();
    });

    afterAll(async () => {
      await t.close();
    });

    it('says the rule in the start-up log', () => {
      expect(t.logs.text()).toContain(
        'Owner: the first account to register becomes owner and admin (set OWNER_EMAIL to choose it)',
      );
    });

    it('makes the first account owner and admin, and no later one', async () => {
      const first = await registered(t);
      const second = await registered(t);
      expect(roles(first.user)).toEqual({ isOwner: true, isAdmin: true });
      expect(roles(second.user)).toEqual({ isOwner: false, isAdmin: false });
      expect(roles((await first.browser.get(API.currentUser).expect(200)).body)).toEqual({
        isOwner: true,
        isAdmin: true,
      });
    });

    it('names the owner in the log of the next start', async () => {
      const next = await createTestApp({ database: t.database });
      try {
        const [owner] = await t.dataSource.query('SELECT username FROM users WHERE is_owner');
        expect(next.logs.text()).toContain(`Owner: ${owner.username}`);
      } finally {
        await next.close();
      }
    });

    it('allows one owner at most in the database itself', async () => {
      await expect(t.dataSource.query('UPDATE users SET is_owner = true, is_admin = true')).rejects.toThrow(
        /users_single_owner/,
      );
    });
  });

  it('is one of several concurrent first registrations, never two', async () => {
    const t = await createTestApp();
    try {
      const results = await Promise.all(
        Array.from({ length: 6 }, () => t.browser().post(API.register).send(newAccount())),
      );
      expect(results.map((res) => res.status)).toEqual(Array(6).fill(201));
      expect(results.filter((res) => res.body.isOwner)).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  describe('with OWNER_EMAIL', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp({ env: { OWNER_EMAIL: 'The.Boss@Example.com' } });
    });

    afterAll(async () => {
      await t.close();
    });

    it('says the rule in the start-up log', () => {
      expect(t.logs.text()).toContain(
        'Owner: the account that registers with OWNER_EMAIL (the.boss@example.com) becomes owner and admin',
      );
    });

    it('makes the account with that address owner and admin, in any letter case, even if not first', async () => {
      const first = await registered(t);
      expect(roles(first.user)).toEqual({ isOwner: false, isAdmin: false });
      const boss = await registered(t, { email: 'the.boss@EXAMPLE.COM' });
      expect(roles(boss.user)).toEqual({ isOwner: true, isAdmin: true });
    });
  });

  it('stays with an owner made earlier when OWNER_EMAIL is set later', async () => {
    const before = await createTestApp();
    const { user: firstOwner } = await registered(before);
    await before.app.close();
    const after = await createTestApp({
      database: before.database,
      env: { OWNER_EMAIL: 'late@example.com' },
    });
    try {
      const late = await registered(after, { email: 'late@example.com' });
      expect(roles(late.user)).toEqual({ isOwner: false, isAdmin: false });
      expect(after.logs.text()).toContain(`Owner: ${firstOwner.username}`);
    } finally {
      await after.close();
      await before.close().catch(() => undefined);
      await before.database.drop();
    }
  });
});
