import {
  API,
  AUDIT_ACTIONS,
  AUDIT_PAGE_SIZE,
  type AuditAction,
  type AuditEntry,
  auditPageSchema,
  POST_MESSAGES,
} from '@termpaste/contracts';
import { runCli } from '../src/cli/admin-cli.js';
import { AuditService } from '../src/modules/audit/audit.service.js';
import { SessionsService } from '../src/modules/auth/sessions.service.js';
import { type Browser, registered } from './support/accounts.js';
import { createTestApp, TEST_SESSION_SECRET, type TestApp } from './support/test-app.js';

const UNKNOWN_ACTION = { statusCode: 400, message: `Unknown action: use one of ${AUDIT_ACTIONS.join(', ')}` };

interface Account {
  browser: Browser;
  user: { id: number; username: string; email: string };
}

describe('audit log', () => {
  let t: TestApp;
  let owner: Account;
  let admin: Account;
  let member: Account;
  let sequence = 0;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await registered(t);
    admin = await registered(t);
    await t.dataSource.query('UPDATE users SET is_admin = true WHERE id = $1', [admin.user.id]);
    member = await registered(t);
  });

  afterAll(async () => {
    await t?.close();
  });

  function unique(prefix: string): string {
    return `${prefix}_${Date.now().toString(36)}${(sequence++).toString(36)}`;
  }

  async function target(): Promise<{ id: number; username: string }> {
    const username = unique('tgt');
    const [row] = await t.dataSource.query(
      `INSERT INTO users (username, email, password_hash) VALUES ($1, $2, 'x') RETURNING id, username::text AS username`,
      [username, `${username}@example.com`],
    );
    return row as { id: number; username: string };
  }

  async function paste(title = unique('Paste')): Promise<{ id: number; title: string }> {
    const res = await member.browser.post(API.threads).send({ title, content: 'content' }).expect(201);
    return { id: (res.body as { id: number }).id, title };
  }

  async function page(query: Record<string, string> = {}, browser = admin.browser) {
    const res = await browser.get(API.adminAudit).query(query).expect(200);
    return auditPageSchema.parse(res.body);
  }

  async function latest(): Promise<AuditEntry | undefined> {
    return (await page()).entries[0];
  }

  async function count(): Promise<number> {
    const [{ n }] = await t.dataSource.query('SELECT count(*)::int AS n FROM audit_log');
    return n as number;
  }

  /** Runs `act`, and returns the one entry it wrote (failing if it wrote none or several). */
  async function entryOf(act: () => Promise<unknown>): Promise<AuditEntry> {
    const before = await count();
    await act();
    expect(await count()).toBe(before + 1);
    return (await latest())!;
  }

  function by(account: Account) {
    return { actorId: account.user.id, actorName: account.user.username };
  }

  it('a new database takes an entry of every AUDIT_ACTIONS action, and refuses any other', async () => {
    const runner = t.dataSource.createQueryRunner();
    const insert = (action: string) =>
      runner.query(
        `INSERT INTO audit_log (actor_name, action, target_type, target_id, target_label)
         VALUES ('cli', $1, 'user', 1, 'x')`,
        [action],
      );
    await runner.startTransaction();
    try {
      for (const action of AUDIT_ACTIONS) await insert(action);
      await expect(insert('user.teleport')).rejects.toThrow(/audit_log_action_check/);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });

  describe('an entry for each action, with actor, target, before and after', () => {
    it('thread pin/unpin, lock/unlock, feature/unfeature', async () => {
      const { id, title } = await paste();
      const flags = { isPinned: false, isLocked: false, isFeatured: false };
      const steps: Array<[string, AuditAction, keyof typeof flags]> = [
        [API.adminThreadPin(id), 'thread.pin', 'isPinned'],
        [API.adminThreadPin(id), 'thread.unpin', 'isPinned'],
        [API.adminThreadLock(id), 'thread.lock', 'isLocked'],
        [API.adminThreadLock(id), 'thread.unlock', 'isLocked'],
        [API.adminThreadFeatured(id), 'thread.feature', 'isFeatured'],
        [API.adminThreadFeatured(id), 'thread.unfeature', 'isFeatured'],
      ];
      for (const [path, action, flag] of steps) {
        const before = { ...flags };
        flags[flag] = !flags[flag];
        const entry = await entryOf(() => admin.browser.post(path).expect(200));
        expect(entry).toMatchObject({
          action,
          ...by(admin),
          targetType: 'thread',
          targetId: id,
          targetLabel: title,
          before,
          after: flags,
        });
        expect(Date.now() - Date.parse(entry.createdAt)).toBeLessThan(60_000);
      }
    });

    it('thread delete and reply delete', async () => {
      const { id, title } = await paste();
      const reply = await member.browser
        .post(API.threadReplies(id))
        .send({ content: 'A reply\n\nthat is  spread   out' })
        .expect(201);
      const replyEntry = await entryOf(() => owner.browser.delete(API.adminReply(reply.body.id)).expect(200));
      expect(replyEntry).toMatchObject({
        action: 'reply.delete',
        ...by(owner),
        targetType: 'reply',
        targetId: reply.body.id,
        targetLabel: 'A reply that is spread out',
        before: {
          threadId: id,
          threadTitle: title,
          authorId: member.user.id,
          authorName: member.user.username,
          content: 'A reply\n\nthat is  spread   out',
        },
        after: null,
      });
      const threadEntry = await entryOf(() => admin.browser.delete(API.adminThread(id)).expect(200));
      expect(threadEntry).toMatchObject({
        action: 'thread.delete',
        ...by(admin),
        targetType: 'thread',
        targetId: id,
        targetLabel: title,
        before: { title, authorId: member.user.id, authorName: member.user.username, replyCount: 0 },
        after: null,
      });
    });

    it('ban, unban, rename, avatar delete, grades, admin grant and revoke, user delete', async () => {
      const { id, username } = await target();
      const user = { targetType: 'user', targetId: id };

      expect(await entryOf(() => admin.browser.post(API.adminUserBan(id)).expect(200))).toMatchObject({
        action: 'user.ban',
        ...by(admin),
        ...user,
        targetLabel: username,
        before: { isBanned: false },
        after: { isBanned: true },
      });
      expect(await entryOf(() => admin.browser.post(API.adminUserUnban(id)).expect(200))).toMatchObject({
        action: 'user.unban',
        ...user,
        before: { isBanned: true },
        after: { isBanned: false },
      });
      const renamed = unique('renamed');
      expect(
        await entryOf(() =>
          admin.browser.put(API.adminUserUsername(id)).send({ username: renamed }).expect(200),
        ),
      ).toMatchObject({
        action: 'user.rename',
        ...user,
        targetLabel: username,
        before: { username },
        after: { username: renamed },
      });
      await t.dataSource.query(`UPDATE users SET avatar_url = 'https://x.example/a.png' WHERE id = $1`, [id]);
      expect(await entryOf(() => admin.browser.delete(API.adminUserAvatar(id)).expect(200))).toMatchObject({
        action: 'user.avatar_delete',
        ...user,
        targetLabel: renamed,
        before: { avatarUrl: 'https://x.example/a.png', profileImageUrl: null },
        after: { avatarUrl: null, profileImageUrl: null },
      });
      await t.dataSource.query(`UPDATE users SET active_premium_rank = 'Cyber Ghost' WHERE id = $1`, [id]);
      expect(
        await entryOf(() =>
          admin.browser
            .put(API.adminUserGrades(id))
            .send({ grades: ['Cyber Ghost', 'Elite Hacker'] })
            .expect(200),
        ),
      ).toMatchObject({
        action: 'user.grades',
        ...user,
        before: { ownedPremiumRanks: [], activePremiumRank: 'Cyber Ghost' },
        after: { ownedPremiumRanks: ['Elite Hacker', 'Cyber Ghost'], activePremiumRank: 'Cyber Ghost' },
      });
      expect(
        await entryOf(() => owner.browser.put(API.adminUserRole(id)).send({ isAdmin: true }).expect(200)),
      ).toMatchObject({
        action: 'user.admin_grant',
        ...by(owner),
        ...user,
        before: { isAdmin: false },
        after: { isAdmin: true },
      });
      expect(
        await entryOf(() => owner.browser.put(API.adminUserRole(id)).send({ isAdmin: false }).expect(200)),
      ).toMatchObject({ action: 'user.admin_revoke', before: { isAdmin: true }, after: { isAdmin: false } });
      expect(await entryOf(() => admin.browser.delete(API.adminUser(id)).expect(200))).toMatchObject({
        action: 'user.delete',
        ...by(admin),
        ...user,
        targetLabel: renamed,
        before: { username: renamed, isAdmin: false },
        after: { keepContent: true, by: 'admin' },
      });
      // The deleted member's history stays readable.
      expect((await page({ q: renamed })).entries.map((entry) => entry.action)).toEqual([
        'user.delete',
        'user.admin_revoke',
        'user.admin_grant',
        'user.grades',
        'user.avatar_delete',
      ]);
      // Labelled with the name the member had then.
      expect((await page({ q: username })).entries.map((entry) => entry.action)).toEqual([
        'user.rename',
        'user.unban',
        'user.ban',
      ]);
    });

    it('an action that changes nothing (ban twice, same grades, same role, same name) records nothing', async () => {
      const { id, username } = await target();
      await admin.browser.post(API.adminUserBan(id)).expect(200);
      await admin.browser
        .put(API.adminUserGrades(id))
        .send({ grades: ['Cyber Ghost'] })
        .expect(200);
      const before = await count();
      await admin.browser.post(API.adminUserBan(id)).expect(200);
      await admin.browser
        .put(API.adminUserGrades(id))
        .send({ grades: ['Cyber Ghost'] })
        .expect(200);
      await owner.browser.put(API.adminUserRole(id)).send({ isAdmin: false }).expect(200);
      await admin.browser.put(API.adminUserUsername(id)).send({ username }).expect(200);
      expect(await count()).toBe(before);
    });

    it("make-admin and revoke-admin on the command line are recorded with actor 'cli'", async () => {
      const { id, username } = await target();
      const env = { DATABASE_URL: t.database.url, SESSION_SECRET: TEST_SESSION_SECRET };
      const quiet = { env, out: () => undefined, err: () => undefined };
      expect(
        await entryOf(async () => expect(await runCli(['make-admin', username], quiet)).toBe(0)),
      ).toMatchObject({
        action: 'user.admin_grant',
        actorId: null,
        actorName: 'cli',
        targetType: 'user',
        targetId: id,
        targetLabel: username,
        before: { isAdmin: false },
        after: { isAdmin: true },
      });
      expect(
        await entryOf(async () => expect(await runCli(['revoke-admin', username], quiet)).toBe(0)),
      ).toMatchObject({ action: 'user.admin_revoke', actorName: 'cli' });
      // Nothing to do: nothing recorded.
      const before = await count();
      expect(await runCli(['revoke-admin', username], quiet)).toBe(0);
      expect(await count()).toBe(before);
    });

    it("keeps the actor's name once their account is deleted (actorId null)", async () => {
      const gone = await registered(t);
      await t.dataSource.query('UPDATE users SET is_admin = true WHERE id = $1', [gone.user.id]);
      const { id } = await paste();
      await gone.browser.post(API.adminThreadPin(id)).expect(200);
      await owner.browser.delete(API.adminUser(gone.user.id)).expect(200);
      const [entry] = (await page({ q: gone.user.username, action: 'thread.pin' })).entries;
      expect(entry).toMatchObject({ actorId: null, actorName: gone.user.username, targetId: id });
    });
  });

  describe('in the same transaction as the action', () => {
    it('a refused or failed action leaves no entry', async () => {
      const { id } = await target();
      const other = await target();
      const before = await count();
      // Refused: not an admin, the owner, only the owner, oneself, missing, invalid, taken.
      await member.browser.post(API.adminUserBan(id)).expect(403);
      await member.browser.post(API.adminThreadPin((await paste()).id)).expect(403);
      await admin.browser.post(API.adminUserBan(owner.user.id)).expect(403);
      await admin.browser.put(API.adminUserRole(id)).send({ isAdmin: true }).expect(403);
      await admin.browser.delete(API.adminUser(admin.user.id)).expect(403);
      await admin.browser.post(API.adminUserBan(999_999)).expect(404);
      await admin.browser.post(API.adminThreadPin(999_999)).expect(404);
      await admin.browser.delete(API.adminThread(999_999)).expect(404);
      await admin.browser.delete(API.adminReply(999_999)).expect(404);
      await admin.browser.delete(API.adminUserAvatar(id)).expect(400);
      await admin.browser.put(API.adminUserUsername(id)).send({ username: '' }).expect(400);
      await admin.browser.put(API.adminUserUsername(id)).send({ username: other.username }).expect(409);
      await admin.browser
        .put(API.adminUserGrades(id))
        .send({ grades: ['Nope'] })
        .expect(400);
      expect(await count()).toBe(before);
    });

    it('a ban whose session revocation fails is not applied, and not recorded', async () => {
      const { id } = await target();
      const sessions = t.app.get(SessionsService);
      const revoke = sessions.revokeUserSessions.bind(sessions);
      sessions.revokeUserSessions = () => Promise.reject(new Error('boom'));
      const before = await count();
      try {
        await admin.browser.post(API.adminUserBan(id)).expect(500);
      } finally {
        sessions.revokeUserSessions = revoke;
      }
      expect(await count()).toBe(before);
      const [row] = await t.dataSource.query('SELECT is_banned FROM users WHERE id = $1', [id]);
      expect(row.is_banned).toBe(false);
    });

    it('an action whose entry cannot be written is not applied', async () => {
      const audit = t.app.get(AuditService);
      const record = audit.record.bind(audit);
      audit.record = () => Promise.reject(new Error('audit log is down'));
      const { id } = await paste();
      const user = await target();
      try {
        await admin.browser.post(API.adminThreadPin(id)).expect(500);
        await admin.browser.delete(API.adminThread(id)).expect(500);
        await admin.browser.delete(API.adminUser(user.id)).expect(500);
        await admin.browser
          .put(API.adminUserUsername(user.id))
          .send({ username: unique('nope') })
          .expect(500);
      } finally {
        audit.record = record;
      }
      const detail = await t.browser().get(API.thread(id)).expect(200);
      expect(detail.body).toMatchObject({ isPinned: false });
      const [row] = await t.dataSource.query('SELECT username::text AS username FROM users WHERE id = $1', [
        user.id,
      ]);
      expect(row).toEqual({ username: user.username });
    });
  });

  describe('GET /api/admin/audit', () => {
    it('lists newest first, keyset-paged', async () => {
      const { id } = await paste();
      // Enough entries for more than two pages.
      for (let i = 0; i < AUDIT_PAGE_SIZE + 5; i++)
        await admin.browser.post(API.adminThreadLock(id)).expect(200);
      const seen: AuditEntry[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const next = await page(cursor ? { cursor } : {});
        expect(next.entries.length).toBeLessThanOrEqual(AUDIT_PAGE_SIZE);
        seen.push(...next.entries);
        cursor = next.nextCursor;
        pages++;
      } while (cursor);
      expect(pages).toBeGreaterThanOrEqual(2);
      expect(seen).toHaveLength(await count());
      expect(new Set(seen.map((entry) => entry.id)).size).toBe(seen.length);
      for (let i = 1; i < seen.length; i++) {
        const [prev, cur] = [seen[i - 1]!, seen[i]!];
        expect(Date.parse(cur.createdAt) <= Date.parse(prev.createdAt)).toBe(true);
        expect(cur.id).toBeLessThan(prev.id);
      }
    });

    it('filters by action and by a part of the actor name or target label, in any letter case', async () => {
      const title = unique('Findable_Title%');
      const { id } = await paste(title);
      await admin.browser.post(API.adminThreadFeatured(id)).expect(200);
      await owner.browser.post(API.adminThreadFeatured(id)).expect(200);

      const features = await page({ action: 'thread.feature' });
      expect(features.entries.length).toBeGreaterThan(0);
      expect(features.entries.every((entry) => entry.action === 'thread.feature')).toBe(true);

      const byTitle = await page({ q: title.toUpperCase() });
      expect(byTitle.entries.map((entry) => entry.action)).toEqual(['thread.unfeature', 'thread.feature']);
      expect((await page({ q: title, action: 'thread.unfeature' })).entries).toHaveLength(1);
      expect((await page({ q: title, action: 'user.ban' })).entries).toHaveLength(0);
      // Wildcards are literal.
      expect((await page({ q: title.replace('%', '_') })).entries).toHaveLength(0);

      const byActor = await page({ q: owner.user.username.toUpperCase() });
      expect(byActor.entries.length).toBeGreaterThan(0);
      for (const entry of byActor.entries) {
        expect(`${entry.actorName} ${entry.targetLabel}`.toLowerCase()).toContain(
          owner.user.username.toLowerCase(),
        );
      }
      // Paging keeps the filter.
      const locks = await page({ action: 'thread.lock' });
      if (locks.nextCursor) {
        const more = await page({ action: 'thread.lock', cursor: locks.nextCursor });
        expect(more.entries.every((entry) => entry.action === 'thread.lock')).toBe(true);
      }
    });

    it('refuses an unknown action, a long filter and a made-up cursor (400), never a 500', async () => {
      for (const action of ['nope', 'THREAD.PIN', 'thread.pin ', "thread.pin' OR 1=1"]) {
        await admin.browser.get(API.adminAudit).query({ action }).expect(400, UNKNOWN_ACTION);
      }
      await admin.browser
        .get(`${API.adminAudit}?action=thread.pin&action=thread.lock`)
        .expect(400, UNKNOWN_ACTION);
      await admin.browser.get(API.adminAudit).query({ action: '' }).expect(200);
      await admin.browser
        .get(API.adminAudit)
        .query({ q: 'x'.repeat(65) })
        .expect(400, { statusCode: 400, message: 'The filter must be at most 64 characters' });
      await admin.browser
        .get(API.adminAudit)
        .query({ cursor: 'garbage' })
        .expect(400, { statusCode: 400, message: 'Invalid cursor' });
      for (const q of ['\0', '%', '\\', '😀'])
        await admin.browser.get(API.adminAudit).query({ q }).expect(200);
    });

    it("is for admins: 403 'Admin privileges required' for a member, 401 signed out", async () => {
      await member.browser
        .get(API.adminAudit)
        .expect(403, { statusCode: 403, message: POST_MESSAGES.adminRequired });
      await t.browser().get(API.adminAudit).expect(401);
    });
  });
});
