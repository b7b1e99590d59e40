import { setTimeout as sleep } from 'node:timers/promises';
import { API, LIVE_EVENT } from '@termpaste/contracts';
import supertest from 'supertest';
import { EventsPort } from '../src/infra/events/events.port.js';
import { SessionCache } from '../src/modules/auth/session-cache.js';
import { type Browser, PASSWORD, registered, sessionCookie } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** SESSION_CACHE_MS as production has it: the bound within which a change made by SQL counts. */
const BOUND_MS = 1000;

/**
 * A signed-in read takes its session and member from memory for at most SESSION_CACHE_MS: a change made
 * by SQL counts within it, one made through the API at once (on every instance), and a member's own write
 * shows in their next read.
 */
describe('session cache', () => {
  let t: TestApp;
  let owner: Browser;

  beforeAll(async () => {
    t = await createTestApp({ env: { SESSION_CACHE_MS: String(BOUND_MS) } });
    // The database's first account: its owner, who may ban and make admins.
    owner = (await registered(t)).browser;
  });

  afterAll(async () => {
    await t?.close();
  });

  /** A member signed in anew, reading with their session cookie alone (no fresh-read cookie of a write). */
  async function member() {
    const { account, user } = await registered(t);
    const res = await supertest(t.url)
      .post(API.login)
      .set('Origin', t.origin)
      .send({ usernameOrEmail: account.username, password: PASSWORD })
      .expect(200);
    const cookie = sessionCookie(res)!.split(';')[0]!;
    const read = () => supertest(t.url).get(API.currentUser).set('Cookie', cookie);
    return { user, cookie, read };
  }

  /** Reads once (the session kept), runs `change`, and returns when the kept copy may still be served. */
  async function readThenChange(read: () => supertest.Test, change: () => Promise<unknown>) {
    const kept = performance.now();
    await read().expect(200);
    await change();
    return { stillKept: () => performance.now() - kept < BOUND_MS - 100 };
  }

  it('refuses a session deleted by SQL within the bound (served from memory until then)', async () => {
    const { read, cookie } = await member();
    const { stillKept } = await readThenChange(read, () =>
      t.dataSource.query('DELETE FROM sessions WHERE sid = $1', [sidOf(cookie)]),
    );
    const soon = await read();
    // The read came from memory: the deleted row was not asked for (unless the machine stalled).
    if (stillKept()) expect(soon.status).toBe(200);
    await sleep(BOUND_MS + 50);
    await read().expect(401);
  });

  it('refuses a member banned by SQL within the bound, and takes a role change by SQL within it', async () => {
    const { read, user } = await member();
    await t.dataSource.query('UPDATE users SET is_admin = true WHERE id = $1', [user.id]);
    await sleep(BOUND_MS + 50);
    expect((await read().expect(200)).body.isAdmin).toBe(true);
    await readThenChange(read, () =>
      t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [user.id]),
    );
    await sleep(BOUND_MS + 50);
    await read().expect(401);
  });

  it('refuses a member banned through the API at once, and takes a role change at once', async () => {
    const banned = await member();
    await banned.read().expect(200);
    await owner.post(API.adminUserBan(banned.user.id)).send({}).expect(200);
    await banned.read().expect(401);

    const promoted = await member();
    expect((await promoted.read().expect(200)).body.isAdmin).toBe(false);
    await owner.put(API.adminUserRole(promoted.user.id)).send({ isAdmin: true }).expect(200);
    expect((await promoted.read().expect(200)).body.isAdmin).toBe(true);
  });

  it('refuses a signed-out session at once', async () => {
    const { read, cookie } = await member();
    await read().expect(200);
    await supertest(t.url)
      .get(API.logout)
      .set('Cookie', cookie)
      .set({ 'Sec-Fetch-Dest': 'document', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Site': 'same-origin' })
      .expect(302);
    await read().expect(401);
  });

  it("drops a member's kept sessions when another instance tells of a change or a live sign-out", async () => {
    const events = t.app.get(EventsPort);
    for (const tell of [
      (id: number) => events.broadcast({ type: 'sessions_changed', members: [id] }),
      (id: number) => events.publish({ to: 'user', userId: id, event: { type: LIVE_EVENT.signedOut } }),
    ]) {
      const { read, user } = await member();
      await read().expect(200);
      await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [user.id]);
      await tell(user.id);
      await read().expect(401);
    }
  });

  it("shows a member's own change in their next read (the fresh-read cookie of their write)", async () => {
    const { browser } = await registered(t);
    await browser.get(API.currentUser).expect(200);
    await browser.put(API.userProfile).send({ firstName: 'Fresh', lastName: 'Reader', bio: '' }).expect(200);
    expect((await browser.get(API.currentUser).expect(200)).body.firstName).toBe('Fresh');
  });
});

/** The session id a `termpaste.sid=s%3A<sid>.<signature>` cookie carries. */
function sidOf(cookie: string): string {
  return /^termpaste\.sid=s%3A([^.]+)\./.exec(cookie)![1]!;
}

describe('SessionCache', () => {
  const row = (member: number) => ({ member });
  const memberOf = (r: { member: number }) => r.member;

  it('keeps at most its bound of sessions (least recently used go first)', async () => {
    const cache = new SessionCache(60_000, memberOf, 3);
    for (let i = 0; i < 10; i++) await cache.get(`sid${i}`, async () => row(i));
    expect(cache.size).toBe(3);
    let loads = 0;
    await cache.get('sid9', async () => (loads++, row(9)));
    await cache.get('sid0', async () => (loads++, row(0)));
    expect(loads).toBe(1);
  });

  it('reads again once its lifetime is over, once for requests that ask together; keeps no miss', async () => {
    const cache = new SessionCache(50, memberOf);
    let loads = 0;
    const load = async () => (loads++, row(1));
    await Promise.all([cache.get('a', load), cache.get('a', load), cache.get('a', load)]);
    await cache.get('a', load);
    expect(loads).toBe(1);
    await sleep(80);
    await cache.get('a', load);
    expect(loads).toBe(2);
    await cache.get('gone', async () => undefined);
    expect(cache.size).toBe(1);
  });

  it('keeps no read that a drop overtook, and drops by session or by member', async () => {
    const cache = new SessionCache(60_000, memberOf);
    let release!: () => void;
    const slow = cache.get('a', () => new Promise((resolve) => (release = () => resolve(row(1)))));
    cache.dropMembers([1]);
    release();
    await slow;
    expect(cache.size).toBe(0);
    await cache.get('a', async () => row(1));
    await cache.get('b', async () => row(2));
    cache.dropMembers([1]);
    expect(cache.size).toBe(1);
    cache.dropSession('b');
    expect(cache.size).toBe(0);
  });

  it('with a lifetime of 0 keeps nothing', async () => {
    const cache = new SessionCache(0, memberOf);
    let loads = 0;
    await cache.get('a', async () => (loads++, row(1)));
    await cache.get('a', async () => (loads++, row(1)));
    expect([loads, cache.size]).toEqual([2, 0]);
  });
});
