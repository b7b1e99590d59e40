import { Global, Module } from '@nestjs/common';
import {
  ADMIN_MESSAGES,
  ADMIN_USERS_PAGE_SIZE,
  type AdminUser,
  adminUserSchema,
  adminUsersPageSchema,
  API,
  POST_MESSAGES,
  LIVE_EVENT,
  recentPastesPageSchema,
  pasteDetailSchema,
} from '@termpaste/contracts';
import { StoragePort } from '../src/infra/storage/storage.port.js';
import { CLOSE_SIGNED_OUT } from '../src/modules/live/live.gateway.js';
import { type Browser, PASSWORD, registered, signedIn } from './support/accounts.js';
import { connect, type LiveClient, type LiveUser, liveUser, settle } from './support/live.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const UNAUTHORIZED = { statusCode: 401, message: 'Unauthorized' };
const ADMIN_REQUIRED = { statusCode: 403, message: POST_MESSAGES.adminRequired };
const NOT_FOUND = { statusCode: 404, message: ADMIN_MESSAGES.userNotFound };

/** Our stored objects, as the fake storage adapter knows them: `<STORED><key>`. */
const STORED = 'http://storage.test/objects/';

/** A storage port that records which objects were removed (the real adapters are tested elsewhere). */
class FakeStorage {
  readonly removed: string[] = [];
  fail = false;

  keyOfPublicUrl(url: string): string | null {
    return url.startsWith(STORED) ? url.slice(STORED.length) : null;
  }

  async delete(key: string): Promise<void> {
    if (this.fail) throw new Error('storage is down');
    this.removed.push(key);
  }
}

function fakeStorageModule(storage: FakeStorage) {
  @Global()
  @Module({ providers: [{ provide: StoragePort, useValue: storage }], exports: [StoragePort] })
  class FakeStorageModule {}
  return FakeStorageModule;
}

type Action = 'ban' | 'unban' | 'rename' | 'avatar' | 'delete' | 'grades' | 'role';
type Role = 'member' | 'admin' | 'owner';
type Target = 'member' | 'admin' | 'owner' | 'self';

const ACTIONS: Action[] = ['ban', 'unban', 'rename', 'avatar', 'delete', 'grades', 'role'];

/**
 * What the permission table answers (contracts' adminActionRefusal has the same cells): 200 or the 403's
 * message.
 */
const TABLE: Record<'admin' | 'owner', Record<Action, Partial<Record<Target, 200 | string>>>> = {
  admin: {
    ban: {
      member: 200,
      admin: ADMIN_MESSAGES.onlyOwnerActsOnAdmins,
      owner: ADMIN_MESSAGES.ownerProtected,
      self: ADMIN_MESSAGES.cannotActOnSelf,
    },
    unban: {
      member: 200,
      admin: ADMIN_MESSAGES.onlyOwnerActsOnAdmins,
      owner: ADMIN_MESSAGES.ownerProtected,
      self: 200,
    },
    rename: {
      member: 200,
      admin: ADMIN_MESSAGES.onlyOwnerActsOnAdmins,
      owner: ADMIN_MESSAGES.ownerProtected,
      self: 200,
    },
    avatar: {
      member: 200,
      admin: ADMIN_MESSAGES.onlyOwnerActsOnAdmins,
      owner: ADMIN_MESSAGES.ownerProtected,
      self: 200,
    },
    delete: {
      member: 200,
      admin: ADMIN_MESSAGES.onlyOwnerDeletesAdmins,
      owner: ADMIN_MESSAGES.ownerProtected,
      self: ADMIN_MESSAGES.cannotActOnSelf,
    },
    grades: {
      member: 200,
      admin: ADMIN_MESSAGES.onlyOwnerActsOnAdmins,
      owner: ADMIN_MESSAGES.ownerProtected,
      self: 200,
    },
    role: {
      member: ADMIN_MESSAGES.onlyOwnerChangesAdmins,
      admin: ADMIN_MESSAGES.onlyOwnerChangesAdmins,
      owner: ADMIN_MESSAGES.ownerProtected,
      self: ADMIN_MESSAGES.onlyOwnerChangesAdmins,
    },
  },
  // The owner's own row is the "owner" target and "self" at once: protected, its VIP grades included.
  owner: {
    ban: { member: 200, admin: 200, self: ADMIN_MESSAGES.cannotActOnSelf },
    unban: { member: 200, admin: 200, self: ADMIN_MESSAGES.ownerProtected },
    rename: { member: 200, admin: 200, self: ADMIN_MESSAGES.ownerProtected },
    avatar: { member: 200, admin: 200, self: ADMIN_MESSAGES.ownerProtected },
    delete: { member: 200, admin: 200, self: ADMIN_MESSAGES.cannotActOnSelf },
    grades: { member: 200, admin: 200, self: ADMIN_MESSAGES.ownerProtected },
    role: { member: 200, admin: 200, self: ADMIN_MESSAGES.ownerProtected },
  },
};

interface Account {
  browser: Browser;
  user: { id: number; username: string; email: string };
}

describe('admin panel API', () => {
  let t: TestApp;
  const storage = new FakeStorage();
  let owner: Account;
  let admin: Account;
  let member: Account;
  let sequence = 0;

  beforeAll(async () => {
    t = await createTestApp({ imports: [fakeStorageModule(storage)] });
    owner = await registered(t); // the first account: owner and admin
    admin = await registered(t);
    await makeAdmin(admin.user.id);
    member = await registered(t);
  });

  afterAll(async () => {
    await t?.close();
  });

  function unique(prefix = 'tgt'): string {
    return `${prefix}_${Date.now().toString(36)}${(sequence++).toString(36)}`;
  }

  async function makeAdmin(id: number): Promise<void> {
    await t.dataSource.query('UPDATE users SET is_admin = true WHERE id = $1', [id]);
  }

  /** An account straight in the database (a target needs no session). */
  async function account(options: { admin?: boolean; email?: string; username?: string } = {}) {
    const username = options.username ?? unique();
    const [row] = await t.dataSource.query(
      `INSERT INTO users (username, email, password_hash, is_admin) VALUES ($1, $2, 'x', $3)
       RETURNING id, username::text AS username, email::text AS email`,
      [username, options.email ?? `${username}@example.com`, options.admin ?? false],
    );
    return row as { id: number; username: string; email: string };
  }

  async function row(id: number) {
    const [found] = await t.dataSource.query(
      `SELECT username::text AS username, is_banned, is_admin, avatar_url, profile_image_url,
         owned_premium_ranks, active_premium_rank FROM users WHERE id = $1`,
      [id],
    );
    return found as
      | {
          username: string;
          is_banned: boolean;
          is_admin: boolean;
          avatar_url: string | null;
          profile_image_url: string | null;
          owned_premium_ranks: string[];
          active_premium_rank: string | null;
        }
      | undefined;
  }

  async function auditCount(): Promise<number> {
    const [{ n }] = await t.dataSource.query('SELECT count(*)::int AS n FROM audit_log');
    return n as number;
  }

  function call(
    browser: Browser,
    action: Action,
    id: number | string,
    newName = unique('renamed'),
    isAdmin = true,
  ) {
    switch (action) {
      case 'ban':
        return browser.post(API.adminUserBan(id));
      case 'unban':
        return browser.post(API.adminUserUnban(id));
      case 'rename':
        return browser.put(API.adminUserUsername(id)).send({ username: newName });
      case 'avatar':
        return browser.delete(API.adminUserAvatar(id));
      case 'delete':
        return browser.delete(API.adminUser(id));
      case 'grades':
        return browser.put(API.adminUserGrades(id)).send({ grades: ['Cyber Ghost'] });
      case 'role':
        return browser.put(API.adminUserRole(id)).send({ isAdmin });
    }
  }

  describe('access', () => {
    const everyCall = (browser: Browser, id: number) => [
      browser.get(API.adminUsers),
      browser.get(API.adminAudit),
      ...ACTIONS.map((action) => call(browser, action, id)),
    ];

    it('is 401 signed out, on every route', async () => {
      const target = await account();
      for (const res of await Promise.all(everyCall(t.browser(), target.id))) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual(UNAUTHORIZED);
      }
    });

    it("is 403 'Admin privileges required' for a member, on every route and against every target", async () => {
      const targets = [
        (await account()).id,
        (await account({ admin: true })).id,
        owner.user.id,
        member.user.id,
      ];
      const before = await auditCount();
      for (const id of targets) {
        for (const res of await Promise.all(everyCall(member.browser, id))) {
          expect(res.status).toBe(403);
          expect(res.body).toEqual(ADMIN_REQUIRED);
        }
      }
      expect(await auditCount()).toBe(before);
      expect((await row(member.user.id))?.is_banned).toBe(false);
    });

    it('is 401 for a banned admin', async () => {
      const banned = await registered(t);
      await makeAdmin(banned.user.id);
      await banned.browser.get(API.adminUsers).expect(200);
      await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [banned.user.id]);
      await banned.browser.get(API.adminUsers).expect(401, UNAUTHORIZED);
    });

    it("is 404 'User not found' for a missing user or an id that names none, on every user route", async () => {
      for (const id of ['999999', '0', 'abc', '-1', '1.5', '99999999999', '%20']) {
        for (const action of ACTIONS) {
          const res = await call(owner.browser, action, id);
          expect({ action, id, status: res.status, body: res.body }).toEqual({
            action,
            id,
            status: 404,
            body: NOT_FOUND,
          });
        }
      }
    });
  });

  describe('the permission table, every cell', () => {
    const cells: Array<[Role, Action, Target, 200 | string]> = [];
    for (const action of ACTIONS) {
      for (const target of ['member', 'admin', 'owner', 'self'] as const) {
        cells.push(['member', action, target, POST_MESSAGES.adminRequired]);
      }
      for (const actor of ['admin', 'owner'] as const) {
        for (const [target, outcome] of Object.entries(TABLE[actor][action])) {
          cells.push([actor, action, target as Target, outcome]);
        }
      }
    }

    it.each(cells)('%s → %s → %s target: %s', async (role, action, target, outcome) => {
      const actor = { member, admin, owner }[role];
      const targetId =
        target === 'self'
          ? actor.user.id
          : target === 'owner'
            ? owner.user.id
            : (await account({ admin: target === 'admin' })).id;
      // What the action needs to have something to do.
      if (action === 'unban' && target !== 'self' && target !== 'owner') {
        await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [targetId]);
      }
      if (action === 'avatar') {
        await t.dataSource.query('UPDATE users SET avatar_url = $2 WHERE id = $1', [
          targetId,
          `${STORED}avatars/${targetId}/a`,
        ]);
      }
      const before = await row(targetId);
      const entries = await auditCount();
      const newName = unique('renamed');

      const res = await call(actor.browser, action, targetId, newName, !before?.is_admin);

      const after = await row(targetId);
      if (outcome !== 200) {
        expect({ status: res.status, body: res.body }).toEqual({
          status: 403,
          body: { statusCode: 403, message: outcome },
        });
        expect(after).toEqual(before);
        expect(await auditCount()).toBe(entries);
        return;
      }
      expect(res.status).toBe(200);
      // Unbanning oneself (never banned while acting) changes nothing, so records nothing.
      expect(await auditCount()).toBe(entries + (action === 'unban' && target === 'self' ? 0 : 1));
      const changed = {
        ban: { ...before, is_banned: true },
        unban: { ...before, is_banned: false },
        rename: { ...before, username: newName },
        avatar: { ...before, avatar_url: null, profile_image_url: null },
        delete: undefined,
        grades: { ...before, owned_premium_ranks: ['Cyber Ghost'] },
        role: { ...before, is_admin: !before?.is_admin },
      }[action];
      expect(after).toEqual(changed);
      if (action === 'delete') expect(res.body).toEqual({ message: 'User deleted' });
      else expect(adminUserSchema.parse(res.body).id).toBe(targetId);
    });
  });

  describe('GET /api/admin/users', () => {
    async function page(query: Record<string, string> = {}) {
      const res = await admin.browser.get(API.adminUsers).query(query).expect(200);
      return adminUsersPageSchema.parse(res.body);
    }

    async function all(query: Record<string, string> = {}): Promise<AdminUser[]> {
      const users: AdminUser[] = [];
      let cursor: string | null = null;
      do {
        const next = await page(cursor ? { ...query, cursor } : query);
        expect(next.users.length).toBeLessThanOrEqual(ADMIN_USERS_PAGE_SIZE);
        users.push(...next.users);
        cursor = next.nextCursor;
      } while (cursor);
      return users;
    }

    it('lists every member newest first, keyset-paged, with e-mail, roles and status', async () => {
      // Enough members for a few pages, all created at the same instant (the id breaks the tie).
      await t.dataSource.query(
        `INSERT INTO users (username, email, password_hash)
         SELECT 'bulk_' || n || '_' || $1, 'bulk_' || n || '_' || $1 || '@example.com', 'x'
         FROM generate_series(1, $2::int) n`,
        [unique('b'), ADMIN_USERS_PAGE_SIZE * 2 + 3],
      );
      const users = await all();
      const [{ n }] = await t.dataSource.query('SELECT count(*)::int AS n FROM users');
      expect(users).toHaveLength(n);
      expect(new Set(users.map((u) => u.id)).size).toBe(n);
      const order = users.map((u) => [Date.parse(u.createdAt), u.id] as const);
      for (let i = 1; i < order.length; i++) {
        const [time, id] = order[i]!;
        const [prevTime, prevId] = order[i - 1]!;
        expect(time < prevTime || (time === prevTime && id < prevId)).toBe(true);
      }
      const ownerRow = users.find((u) => u.id === owner.user.id);
      expect(ownerRow).toMatchObject({
        email: owner.user.email,
        isOwner: true,
        isAdmin: true,
        isBanned: false,
      });
      expect(users.find((u) => u.id === admin.user.id)).toMatchObject({ isAdmin: true, isOwner: false });
      expect(users.find((u) => u.id === member.user.id)).toMatchObject({
        username: member.user.username,
        email: member.user.email,
        isAdmin: false,
        isOwner: false,
        ownedPremiumRanks: [],
      });
      expect(JSON.stringify(users)).not.toContain('password');
    });

    it('filters by a part of the username or the e-mail, in any letter case, wildcards taken literally', async () => {
      const tag = unique('flt').toLowerCase();
      const byName = await account({ username: `Zed${tag}`, email: `someone_${tag}@example.com` });
      const byMail = await account({ username: unique('other'), email: `ZED${tag}@Mail.example.com` });
      const underscore = await account({ username: `a_b${tag}` });
      const lookalike = await account({ username: `axb${tag}` });
      const percent = await account({ email: `p%c${tag}@example.com` });

      const ids = async (q: string) => (await all({ q })).map((u) => u.id).sort((a, b) => a - b);
      expect(await ids(`zed${tag}`)).toEqual([byName.id, byMail.id].sort((a, b) => a - b));
      expect(await ids(`MAIL.EXAMPLE.COM`)).toContain(byMail.id);
      expect(await ids(`  zed${tag}  `)).toHaveLength(2);
      expect(await ids(`a_b${tag}`)).toEqual([underscore.id]);
      expect(await ids(`_b${tag}`)).toEqual([underscore.id]);
      expect(await ids(`x`)).toContain(lookalike.id);
      expect(await ids(`%c${tag}`)).toEqual([percent.id]);
      expect(await ids(`p%`)).toEqual([percent.id]);
      expect(await ids(`\\${tag}`)).toEqual([]);
      expect(await ids(`nobody-has-this-${tag}`)).toEqual([]);
      // An empty filter lists everyone.
      expect((await page({ q: '' })).users.length).toBe(ADMIN_USERS_PAGE_SIZE);
    });

    it('refuses a filter over 64 characters and a made-up cursor (400), and takes odd input without a 500', async () => {
      await admin.browser
        .get(API.adminUsers)
        .query({ q: 'x'.repeat(65) })
        .expect(400, { statusCode: 400, message: 'The filter must be at most 64 characters' });
      await admin.browser
        .get(API.adminUsers)
        .query({ q: 'x'.repeat(64) })
        .expect(200);
      for (const cursor of [
        'nonsense',
        Buffer.from('abc:1').toString('base64url'),
        Buffer.from('1:99999999999').toString('base64url'),
      ]) {
        await admin.browser
          .get(API.adminUsers)
          .query({ cursor })
          .expect(400, { statusCode: 400, message: 'Invalid cursor' });
      }
      for (const q of ['\0', 'a\0b', '😀', "'; DROP TABLE users; --", '%', '\\']) {
        await admin.browser.get(API.adminUsers).query({ q }).expect(200);
      }
      await admin.browser.get(`${API.adminUsers}?q=a&q=b`).expect(200);
    });

    it('is the only place e-mail addresses show: profiles, the directory and pastes keep them out', async () => {
      const id = (await member.browser.post(API.threads).send({ title: 'Mine', content: 'x' }).expect(201))
        .body.id;
      await member.browser.post(API.threadReplies(id)).send({ content: 'me again' }).expect(201);
      const email = member.user.email;
      expect(JSON.stringify((await page({ q: member.user.username })).users)).toContain(email);
      for (const path of [
        API.user(member.user.id),
        `${API.users}?q=${member.user.username}`,
        API.thread(id),
        API.threadsRecent,
        `${API.search}?q=Mine`,
      ]) {
        const res = await admin.browser.get(path).expect(200);
        expect(res.text).not.toContain(email);
      }
    });
  });

  describe('PUT /api/admin/users/{id}/username', () => {
    const rename = (id: number, body: unknown) =>
      admin.browser.put(API.adminUserUsername(id)).send(body as object);

    it("takes registration's rules: blank is 'Username cannot be empty', others their rule's message", async () => {
      const target = await account();
      const empty = { statusCode: 400, message: ADMIN_MESSAGES.usernameEmpty };
      for (const body of [{ username: '' }, { username: '   ' }, {}, { username: null }, { username: 42 }]) {
        await rename(target.id, body).expect(400, empty);
      }
      await admin.browser
        .put(API.adminUserUsername(target.id))
        .set('Content-Type', 'application/json')
        .send('"just a string"')
        .expect(400);
      const rules: Array<[string, string]> = [
        ['ab', 'Username must be at least 3 characters'],
        ['a'.repeat(33), 'Username must be at most 32 characters'],
        ['bad name!', 'Username may contain only letters, digits, _ and -'],
        ['has@sign', 'Username may contain only letters, digits, _ and -'],
        ['nul\0name', 'Username may contain only letters, digits, _ and -'],
      ];
      for (const [username, message] of rules) {
        await rename(target.id, { username }).expect(400, { statusCode: 400, message });
      }
      expect((await row(target.id))?.username).toBe(target.username);
    });

    it('is 409 when another account has the name in any letter case; a case change of its own is fine', async () => {
      const target = await account();
      const other = await account();
      await rename(target.id, { username: other.username.toUpperCase() }).expect(409, {
        statusCode: 409,
        message: 'Username is already taken',
      });
      const upper = target.username.toUpperCase();
      expect((await rename(target.id, { username: upper }).expect(200)).body).toMatchObject({
        id: target.id,
        username: upper,
      });
      const trimmed = unique('trim');
      await rename(target.id, { username: `  ${trimmed}  ` }).expect(200);
      expect((await row(target.id))?.username).toBe(trimmed);
    });

    it('is 409 too when a registration takes the name after the check, before the rename is written', async () => {
      const target = await account();
      const name = unique('raced');
      const before = await auditCount();
      // A registration of `name`, not yet committed: the rename's check cannot see it, its UPDATE waits on it.
      const registration = t.dataSource.createQueryRunner();
      await registration.connect();
      try {
        await registration.startTransaction();
        await registration.query(`INSERT INTO users (username, email, password_hash) VALUES ($1, $2, 'x')`, [
          name,
          `${name}@example.com`,
        ]);
        const renaming = rename(target.id, { username: name }).then((res) => res);
        await waitFor('the rename to wait on the registration', async () => {
          const waiting: unknown[] = await t.dataSource.query(
            `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()
               AND query LIKE 'UPDATE users SET username%'`,
          );
          return waiting.length > 0;
        });
        await registration.commitTransaction();
        const res = await renaming;
        expect({ status: res.status, body: res.body }).toEqual({
          status: 409,
          body: { statusCode: 409, message: 'Username is already taken' },
        });
      } finally {
        if (registration.isTransactionActive) await registration.rollbackTransaction();
        await registration.release();
      }
      expect((await row(target.id))?.username).toBe(target.username);
      expect(await auditCount()).toBe(before);
    });

    it('the renamed member signs in with the new name and keeps their session', async () => {
      const renamed = await registered(t);
      const name = unique('newname');
      await rename(renamed.user.id, { username: name }).expect(200);
      expect((await renamed.browser.get(API.currentUser).expect(200)).body.username).toBe(name);
      await signedIn(t, name, PASSWORD);
    });
  });

  describe('ban and unban', () => {
    const open: LiveClient[] = [];

    afterEach(async () => {
      await Promise.all(open.splice(0).map((client) => client.close()));
    });

    async function socket(who: LiveUser): Promise<LiveClient> {
      const client = await connect(t, { cookie: who.cookie });
      open.push(client);
      await client.roundTrip();
      return client;
    }

    it('bans: sessions revoked (the next request is 401), sockets sent signed_out then closed 4001', async () => {
      const banned = await liveUser(t);
      const bystander = await liveUser(t);
      const tabs = [await socket(banned), await socket(banned)];
      const other = await socket(bystander);

      const res = await admin.browser.post(API.adminUserBan(banned.user.id)).expect(200);
      expect(adminUserSchema.parse(res.body)).toMatchObject({ id: banned.user.id, isBanned: true });

      for (const tab of tabs) {
        expect(await tab.closed).toBe(CLOSE_SIGNED_OUT);
        expect(tab.frames.at(-1)).toEqual({ type: LIVE_EVENT.signedOut });
      }
      await banned.browser.get(API.currentUser).expect(401, UNAUTHORIZED);
      await banned.browser.post(API.threads).send({ title: 'x', content: 'y' }).expect(401);
      const [{ n }] = await t.dataSource.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [
        banned.user.id,
      ]);
      expect(n).toBe(0);

      // Nobody else is touched.
      await other.roundTrip();
      await settle();
      expect(other.closeCode).toBeUndefined();
      expect(other.events(LIVE_EVENT.signedOut)).toEqual([]);
      await bystander.browser.get(API.currentUser).expect(200);

      // A banned member cannot sign in again (nor open a socket) until unbanned.
      await t
        .browser()
        .post(API.login)
        .send({ usernameOrEmail: banned.user.username, password: PASSWORD })
        .expect(403);
      const unbanned = await admin.browser.post(API.adminUserUnban(banned.user.id)).expect(200);
      expect(unbanned.body).toMatchObject({ id: banned.user.id, isBanned: false });
      await signedIn(t, banned.user.username);
    });

    it('banning twice or unbanning a member who is not banned is fine (200) and records nothing more', async () => {
      const target = await account();
      await admin.browser.post(API.adminUserBan(target.id)).expect(200);
      const entries = await auditCount();
      await admin.browser.post(API.adminUserBan(target.id)).expect(200);
      await admin.browser.post(API.adminUserUnban(target.id)).expect(200);
      await admin.browser.post(API.adminUserUnban(target.id)).expect(200);
      expect(await auditCount()).toBe(entries + 1);
    });

    it('a banned admin loses the admin panel at once', async () => {
      const other = await registered(t);
      await makeAdmin(other.user.id);
      await other.browser.get(API.adminUsers).expect(200);
      await owner.browser.post(API.adminUserBan(other.user.id)).expect(200);
      await other.browser.get(API.adminUsers).expect(401);
    });
  });

  describe('DELETE /api/admin/users/{id}', () => {
    it('keeps their pastes, replies and chat lines as Anonymous, deletes their messages; counters stay right; they are signed out', async () => {
      const doomed = await liveUser(t);
      const client = await connect(t, { cookie: doomed.cookie });
      await client.roundTrip();
      const author = await registered(t);

      // Their paste with a reply and a vote by someone else, their reply and votes on another's paste.
      const theirs = (
        await doomed.browser.post(API.threads).send({ title: 'Doomed paste', content: 'c' }).expect(201)
      ).body.id as number;
      await author.browser.post(API.threadReplies(theirs)).send({ content: 'answer' }).expect(201);
      await author.browser.post(API.votes).send({ threadId: theirs, value: 1 }).expect(200);
      const other = (
        await author.browser.post(API.threads).send({ title: 'Other paste', content: 'c' }).expect(201)
      ).body.id as number;
      const replyId = (
        await doomed.browser.post(API.threadReplies(other)).send({ content: 'doomed reply' }).expect(201)
      ).body.id as number;
      const authorsReply = (
        await author.browser.post(API.threadReplies(other)).send({ content: 'x' }).expect(201)
      ).body.id as number;
      await doomed.browser.post(API.votes).send({ threadId: other, value: 1 }).expect(200);
      await doomed.browser.post(API.votes).send({ replyId: authorsReply, value: -1 }).expect(200);
      await author.browser.post(API.votes).send({ threadId: other, value: 1 }).expect(200);
      await doomed.browser.post(API.chatMessages).send({ content: 'last words' }).expect(201);
      await doomed.browser
        .post(API.messages)
        .send({ recipientEmail: author.user.email, subject: 'Hi', content: 'from the doomed' })
        .expect(201);
      await t.dataSource.query('UPDATE users SET avatar_url = $2 WHERE id = $1', [
        doomed.user.id,
        `${STORED}avatars/${doomed.user.id}/gone`,
      ]);
      const [stats] = await t.dataSource.query(
        'SELECT sum(thread_count)::int AS thread_count FROM forum_stats',
      );

      await admin.browser.delete(API.adminUser(doomed.user.id)).expect(200, { message: 'User deleted' });

      expect(await client.closed).toBe(CLOSE_SIGNED_OUT);
      expect(client.frames.at(-1)).toEqual({ type: LIVE_EVENT.signedOut });
      await doomed.browser.get(API.currentUser).expect(401);
      expect(await row(doomed.user.id)).toBeUndefined();
      await admin.browser.get(API.user(doomed.user.id)).expect(404);
      await admin.browser.delete(API.adminUser(doomed.user.id)).expect(404, NOT_FOUND);
      await waitFor('the stored avatar removed', () =>
        storage.removed.includes(`avatars/${doomed.user.id}/gone`),
      );

      const mine = pasteDetailSchema.parse((await author.browser.get(API.thread(theirs)).expect(200)).body);
      expect(mine).toMatchObject({ title: 'Doomed paste', author: null, voteScore: 1, replyCount: 1 });
      const detail = pasteDetailSchema.parse((await author.browser.get(API.thread(other)).expect(200)).body);
      // Their +1 is taken back; the author's stays. Their -1 on the author's reply too.
      expect(detail.voteScore).toBe(1);
      expect(detail.replies.find((r) => r.id === replyId)).toMatchObject({
        author: null,
        content: 'doomed reply',
      });
      expect(detail.replies.find((r) => r.id === authorsReply)?.voteScore).toBe(0);
      const [{ sum }] = await t.dataSource.query(
        `SELECT (SELECT coalesce(sum(vote_score), 0) FROM threads) + (SELECT coalesce(sum(vote_score), 0) FROM replies)
           - (SELECT coalesce(sum(value), 0) FROM votes) AS sum`,
      );
      expect(Number(sum)).toBe(0);

      const home = recentPastesPageSchema.parse((await t.browser().get(API.threadsRecent).expect(200)).body);
      expect(home.total).toBe(stats.thread_count);
      expect(home.threads.find((card) => card.id === theirs)?.author).toBeNull();
      await author.browser.get(API.chatMessages).expect(200);
      // Messages sent and received go with the account (the e-mail address is kept nowhere).
      const inbox = await author.browser.get(API.messages).expect(200);
      expect(JSON.stringify(inbox.body)).not.toContain('from the doomed');
      await author.browser.get(`${API.search}?q=Doomed`).expect(200);
      await author.browser.get(API.users).expect(200);
      // The other member's counters are untouched.
      const [authorRow] = await t.dataSource.query(
        'SELECT thread_count, reply_count FROM users WHERE id = $1',
        [author.user.id],
      );
      expect(authorRow).toEqual({ thread_count: 1, reply_count: 2 });
    });

    it('an admin account is deleted by the owner only', async () => {
      const target = await account({ admin: true });
      await admin.browser
        .delete(API.adminUser(target.id))
        .expect(403, { statusCode: 403, message: ADMIN_MESSAGES.onlyOwnerDeletesAdmins });
      await owner.browser.delete(API.adminUser(target.id)).expect(200);
      expect(await row(target.id)).toBeUndefined();
    });

    it('an avatar that is not one of our stored objects has nothing to remove; a failing removal does not fail the call', async () => {
      const external = await account();
      await t.dataSource.query('UPDATE users SET profile_image_url = $2 WHERE id = $1', [
        external.id,
        'https://elsewhere.example/me.png',
      ]);
      const removed = storage.removed.length;
      await admin.browser.delete(API.adminUser(external.id)).expect(200);
      expect(storage.removed.length).toBe(removed);

      const stored = await account();
      await t.dataSource.query('UPDATE users SET avatar_url = $2 WHERE id = $1', [
        stored.id,
        `${STORED}x/${stored.id}`,
      ]);
      storage.fail = true;
      try {
        await admin.browser.delete(API.adminUser(stored.id)).expect(200);
      } finally {
        storage.fail = false;
      }
      expect(await row(stored.id)).toBeUndefined();
    });
  });

  describe('DELETE /api/admin/users/{id}/avatar', () => {
    it('is 400 when the member has none', async () => {
      const target = await account();
      await admin.browser
        .delete(API.adminUserAvatar(target.id))
        .expect(400, { statusCode: 400, message: ADMIN_MESSAGES.noAvatar });
    });

    it('clears avatarUrl and profileImageUrl and removes our stored object once committed', async () => {
      const target = await account();
      const key = `avatars/${target.id}/current`;
      await t.dataSource.query('UPDATE users SET avatar_url = $2, profile_image_url = $3 WHERE id = $1', [
        target.id,
        `${STORED}${key}`,
        'https://elsewhere.example/old.png',
      ]);
      const res = await admin.browser.delete(API.adminUserAvatar(target.id)).expect(200);
      expect(res.body).toMatchObject({ id: target.id, avatarUrl: null, profileImageUrl: null });
      expect(storage.removed).toContain(key);
      expect(await row(target.id)).toMatchObject({ avatar_url: null, profile_image_url: null });
      await admin.browser.delete(API.adminUserAvatar(target.id)).expect(400);
    });

    it('works with only a profile image', async () => {
      const target = await account();
      await t.dataSource.query('UPDATE users SET profile_image_url = $2 WHERE id = $1', [
        target.id,
        'https://elsewhere.example/p.png',
      ]);
      await admin.browser.delete(API.adminUserAvatar(target.id)).expect(200);
    });
  });

  describe('PUT /api/admin/users/{id}/grades', () => {
    it('sets the owned VIP grades (catalogue order, once each); an active grade no longer owned is cleared', async () => {
      const target = await registered(t);
      const id = target.user.id;
      const res = await admin.browser
        .put(API.adminUserGrades(id))
        .send({ grades: ['Digital Phantom', 'Elite Hacker', 'Digital Phantom'] })
        .expect(200);
      expect(res.body.ownedPremiumRanks).toEqual(['Elite Hacker', 'Digital Phantom']);
      await t.dataSource.query(`UPDATE users SET active_premium_rank = 'Digital Phantom' WHERE id = $1`, [
        id,
      ]);
      expect((await target.browser.get(API.user(id)).expect(200)).body.activePremiumRank).toBe(
        'Digital Phantom',
      );

      await admin.browser
        .put(API.adminUserGrades(id))
        .send({ grades: ['Elite Hacker'] })
        .expect(200);
      expect(await row(id)).toMatchObject({
        owned_premium_ranks: ['Elite Hacker'],
        active_premium_rank: null,
      });

      await t.dataSource.query(`UPDATE users SET active_premium_rank = 'Elite Hacker' WHERE id = $1`, [id]);
      await admin.browser
        .put(API.adminUserGrades(id))
        .send({ grades: ['Elite Hacker', 'Cyber Ghost'] })
        .expect(200);
      expect(await row(id)).toMatchObject({ active_premium_rank: 'Elite Hacker' });
      await admin.browser.put(API.adminUserGrades(id)).send({ grades: [] }).expect(200);
      expect(await row(id)).toMatchObject({ owned_premium_ranks: [], active_premium_rank: null });
    });

    it('refuses anything but a list of known grades (400)', async () => {
      const target = await account();
      for (const body of [
        {},
        { grades: 'Cyber Ghost' },
        { grades: ['cyber ghost'] },
        { grades: ['Nope'] },
        { grades: [null] },
        { grades: ['Elite Hacker', 'Cyber Ghost', 'Script Kiddie', 'Digital Phantom', 'Cyber Ghost'] },
      ]) {
        const res = await admin.browser.put(API.adminUserGrades(target.id)).send(body);
        expect(res.status).toBe(400);
        expect(typeof res.body.message).toBe('string');
      }
    });
  });

  describe('PUT /api/admin/users/{id}/admin', () => {
    it('the owner grants and revokes admin; it takes effect at once', async () => {
      const target = await registered(t);
      await target.browser.get(API.adminUsers).expect(403, ADMIN_REQUIRED);
      const granted = await owner.browser
        .put(API.adminUserRole(target.user.id))
        .send({ isAdmin: true })
        .expect(200);
      expect(granted.body).toMatchObject({ id: target.user.id, isAdmin: true });
      await target.browser.get(API.adminUsers).expect(200);
      await owner.browser.put(API.adminUserRole(target.user.id)).send({ isAdmin: false }).expect(200);
      await target.browser.get(API.adminUsers).expect(403, ADMIN_REQUIRED);
    });

    it('refuses a body without a boolean isAdmin (400)', async () => {
      const target = await account();
      for (const body of [{}, { isAdmin: 'true' }, { isAdmin: 1 }, { isAdmin: null }]) {
        await owner.browser.put(API.adminUserRole(target.id)).send(body).expect(400);
      }
    });
  });

  it('answers malformed requests with 4xx, never a 500', async () => {
    const target = await account();
    const bodies = ['{', 'null', '[]', '"x"', '{"username":{"$gt":""}}', 'a'.repeat(200_000)];
    for (const path of [
      API.adminUserUsername(target.id),
      API.adminUserGrades(target.id),
      API.adminUserRole(target.id),
    ]) {
      for (const body of bodies) {
        const res = await owner.browser.put(path).set('Content-Type', 'application/json').send(body);
        expect({ path, body: body.slice(0, 20), status: res.status < 500 }).toEqual({
          path,
          body: body.slice(0, 20),
          status: true,
        });
      }
    }
    for (const action of ACTIONS) {
      const res = await call(owner.browser, action, `${target.id}%00`);
      expect(res.status).toBe(404);
    }
    expect(t.logs.entries.filter((entry) => entry.level === 'error')).toEqual([]);
  });
});
