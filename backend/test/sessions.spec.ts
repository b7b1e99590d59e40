import { jest } from '@jest/globals';
import { API, SIGNED_OUT_HEADER } from '@termpaste/contracts';
import supertest from 'supertest';
import { type Actor, AdminService } from '../src/modules/admin/admin.service.js';
import { AuditService } from '../src/modules/audit/audit.service.js';
import { SessionsService } from '../src/modules/auth/sessions.service.js';
import { UsersService } from '../src/modules/users/users.service.js';
import { PASSWORD, registered, sessionCookie, signedIn } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

describe('sessions', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t?.close();
  });

  function sessionRows(userId: number): Promise<Array<{ sid: string; expires_at: Date }>> {
    return t.dataSource.query('SELECT sid, expires_at FROM sessions WHERE user_id = $1', [userId]);
  }

  it('keeps a row per signed-in session, expiring in 30 days; a visitor gets no cookie and no row', async () => {
    const visitor = await t.http.get(API.site).expect(200);
    expect(sessionCookie(visitor)).toBeUndefined();

    const { user } = await registered(t);
    const rows = await sessionRows(user.id);
    expect(rows).toHaveLength(1);
    const days = (rows[0]!.expires_at.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  it("answers a visitor's current user 401, or 204 when asked with the signed-out header; a member's either way", async () => {
    await t.http.get(API.currentUser).expect(401);
    const empty = await t.http.get(API.currentUser).set(SIGNED_OUT_HEADER, '204').expect(204);
    expect(empty.text).toBe('');
    expect(empty.headers['cache-control']).toBe('no-store');
    // Any other value is no such request: the 401 stays what other clients rely on.
    await t.http.get(API.currentUser).set(SIGNED_OUT_HEADER, 'yes').expect(401);
    const { browser, user } = await registered(t);
    const res = await browser.get(API.currentUser).set(SIGNED_OUT_HEADER, '204').expect(200);
    expect(res.body).toMatchObject({ id: user.id });
  });

  it('rolls: each answer to a signed-in browser renews the cookie', async () => {
    const { browser } = await registered(t);
    const res = await browser.get(API.currentUser).expect(200);
    expect(sessionCookie(res)).toMatch(/Expires=/);
  });

  it('renews the stored expiry at most once an hour per session, and keeps the session alive', async () => {
    const { browser, user } = await registered(t);
    // As if the session had been idle for 29 days.
    await t.dataSource.query("UPDATE sessions SET expires_at = now() + interval '1 day' WHERE user_id = $1", [
      user.id,
    ]);
    const daysLeft = async () =>
      ((await sessionRows(user.id))[0]!.expires_at.getTime() - Date.now()) / 86_400_000;

    // Stored by this process at registration, less than an hour ago: the touch sends no query.
    await browser.get(API.currentUser).expect(200);
    expect(await daysLeft()).toBeLessThan(1.01);

    // An hour later, the touch writes: 30 days again from then.
    const realNow = Date.now;
    Date.now = () => realNow() + 61 * 60 * 1000;
    try {
      await browser.get(API.currentUser).expect(200);
    } finally {
      Date.now = realNow;
    }
    expect(await daysLeft()).toBeGreaterThan(29.9);
    await browser.get(API.currentUser).expect(200);
  });

  it('revokeUserSessions signs a user out everywhere', async () => {
    const { browser, account, user } = await registered(t);
    const other = await signedIn(t, account.username);
    expect(await t.app.get(SessionsService).revokeUserSessions(user.id)).toBe(2);
    await browser.get(API.currentUser).expect(401);
    await other.get(API.currentUser).expect(401);
    expect(await sessionRows(user.id)).toEqual([]);
  });

  it('drops an expired session, and prunes expired rows', async () => {
    const { browser, user } = await registered(t);
    await t.dataSource.query(
      "UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1",
      [user.id],
    );
    await browser.get(API.currentUser).expect(401);
    expect(await t.app.get(SessionsService).pruneExpired()).toBeGreaterThanOrEqual(1);
    expect(await sessionRows(user.id)).toEqual([]);
  });

  it('ends a session 90 days after its sign-in however active it is, and a new sign-in starts anew', async () => {
    const { browser, account, user } = await registered(t);
    const [{ age }] = await t.dataSource.query(
      'SELECT extract(epoch FROM now() - created_at) AS age FROM sessions WHERE user_id = $1',
      [user.id],
    );
    expect(Number(age)).toBeLessThan(60);
    // Signed in 89 days ago and active since (its expiry renewed): still signed in.
    await t.dataSource.query(
      `UPDATE sessions SET created_at = now() - interval '89 days', expires_at = now() + interval '30 days'
       WHERE user_id = $1`,
      [user.id],
    );
    await browser.get(API.currentUser).expect(200);
    // 90 days and a minute: ended, though its rolling expiry is a month away.
    await t.dataSource.query(
      `UPDATE sessions SET created_at = now() - interval '90 days 1 minute' WHERE user_id = $1`,
      [user.id],
    );
    await browser.get(API.currentUser).expect(401);
    expect(await t.app.get(SessionsService).pruneExpired()).toBeGreaterThanOrEqual(1);
    expect(await sessionRows(user.id)).toEqual([]);
    // Signing in again is a new session, with a lifetime of its own.
    const again = await signedIn(t, account.username);
    await again.get(API.currentUser).expect(200);
  });

  it('reads the member with the session, as findById loads them; none for a session that names nobody', async () => {
    const { user } = await registered(t);
    await t.dataSource.query("UPDATE users SET bio = 'reads', reputation = 7 WHERE id = $1", [user.id]);
    const [{ sid }] = await sessionRows(user.id);
    const sessions = t.app.get(SessionsService);
    const found = await sessions.get(sid!);
    expect(found?.data).toMatchObject({ passport: { user: user.id } });
    expect(found?.user).toEqual(await t.app.get(UsersService).findById(user.id));
    expect(found?.user).toMatchObject({ bio: 'reads', reputation: 7 });

    await sessions.set('no-member-sid', { cookie: {} }, null, new Date(Date.now() + 60_000));
    expect(await sessions.get('no-member-sid')).toEqual({ data: { cookie: {} }, user: null });
    expect(await sessions.get('no-such-sid')).toBeUndefined();
  });

  it('a signed-in request reads its member once, with its session, and a change to them counts at once', async () => {
    const { browser, user } = await registered(t);
    const findById = jest.spyOn(t.app.get(UsersService), 'findById');
    try {
      expect((await browser.get(API.currentUser).expect(200)).body).toMatchObject({ id: user.id });
      await t.dataSource.query("UPDATE users SET first_name = 'Now' WHERE id = $1", [user.id]);
      expect((await browser.get(API.currentUser).expect(200)).body).toMatchObject({ firstName: 'Now' });
      expect(findById).not.toHaveBeenCalled();
    } finally {
      findById.mockRestore();
    }
  });

  it("a deleted account's sessions go with it", async () => {
    const { browser, user } = await registered(t);
    await t.dataSource.query('DELETE FROM users WHERE id = $1', [user.id]);
    expect(await sessionRows(user.id)).toEqual([]);
    await browser.get(API.currentUser).expect(401);
  });

  describe('a banned user', () => {
    /** An admin to ban and unban with (the admin panel's AdminService), registered before their target. */
    async function anAdmin(): Promise<Actor> {
      const { user } = await registered(t);
      const { user: admin } = await t.app.get(UsersService).setAdmin(user.username, true);
      return admin!;
    }

    it('is signed out at once and cannot sign in: 403', async () => {
      const admin = await anAdmin();
      const { browser, account, user } = await registered(t);
      await t.app.get(AdminService).ban(admin, user.id);

      await browser.get(API.currentUser).expect(401, { statusCode: 401, message: 'Unauthorized' });
      expect(await sessionRows(user.id)).toEqual([]);
      await t
        .browser()
        .post(API.login)
        .send({ usernameOrEmail: account.username, password: PASSWORD })
        .expect(403, { statusCode: 403, message: 'Your account has been banned' });
      // A wrong password tells nothing about the ban.
      await t
        .browser()
        .post(API.login)
        .send({ usernameOrEmail: account.username, password: 'wrong password' })
        .expect(401);
    });

    it('counts as signed out even with a session that escaped revocation', async () => {
      const { browser, user } = await registered(t);
      await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [user.id]);
      await browser.get(API.currentUser).expect(401);
    });

    it('can sign in again once unbanned', async () => {
      const admin = await anAdmin();
      const { account, user } = await registered(t);
      const members = t.app.get(AdminService);
      await members.ban(admin, user.id);
      await members.unban(admin, user.id);
      await signedIn(t, account.username);
    });

    it('ban is all or nothing: a failing revocation leaves the user unbanned', async () => {
      const admin = await anAdmin();
      const { browser, user } = await registered(t);
      const sessions = t.app.get(SessionsService);
      const revoke = sessions.revokeUserSessions;
      sessions.revokeUserSessions = () => Promise.reject(new Error('boom'));
      try {
        await expect(t.app.get(AdminService).ban(admin, user.id)).rejects.toThrow('boom');
      } finally {
        sessions.revokeUserSessions = revoke;
      }
      const [row] = await t.dataSource.query('SELECT is_banned FROM users WHERE id = $1', [user.id]);
      expect(row.is_banned).toBe(false);
      await browser.get(API.currentUser).expect(200);
    });

    it('ban is all or nothing: a failing audit row, after the ban and the revocation, undoes both', async () => {
      const admin = await anAdmin();
      const { browser, user } = await registered(t);
      const audit = t.app.get(AuditService);
      const record = audit.record;
      audit.record = () => Promise.reject(new Error('audit down'));
      try {
        await expect(t.app.get(AdminService).ban(admin, user.id)).rejects.toThrow('audit down');
      } finally {
        audit.record = record;
      }
      const [row] = await t.dataSource.query('SELECT is_banned FROM users WHERE id = $1', [user.id]);
      expect(row.is_banned).toBe(false);
      await browser.get(API.currentUser).expect(200);
    });
  });

  it('survives a restart of the backend (same database, new process state)', async () => {
    const first = await createTestApp();
    let second: TestApp | undefined;
    try {
      const { account, user } = await registered(first);
      const browser = await signedIn(first, account.username);
      const cookie = sessionCookie(await browser.get(API.currentUser).expect(200))!.split(';')[0]!;
      await first.app.close();

      second = await createTestApp({ database: first.database });
      const res = await supertest(second.url).get(API.currentUser).set('Cookie', cookie).expect(200);
      expect(res.body.id).toBe(user.id);
    } finally {
      await second?.close();
      await first.close().catch(() => undefined);
      await first.database.drop();
    }
  });
});
