import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  ADMIN_MESSAGES,
  type AdminUser,
  adminUserSchema,
  API,
  bannedMessage,
  POST_MESSAGES,
  MODERATION_MESSAGES,
  SUSPENSION_REASON_MAX,
  silencedMessage,
} from '@termpaste/contracts';
import { OUTBOX_DIR } from '../src/infra/mail/mail.processor.js';
import { SuspensionLift } from '../src/modules/moderation/suspension-lift.js';
import { UsersService } from '../src/modules/users/users.service.js';
import { type Browser, PASSWORD, registered } from './support/accounts.js';
import { parseMessage } from './support/eml.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

/** A day passes in 5 s here (MODERATION_TIME_SCALE): a one-day suspension ends while the test waits. */
const TIME_SCALE = 17_280;
const DAY_MS = 86_400_000 / TIME_SCALE;

type Member = Awaited<ReturnType<typeof registered>>;

/** The newest mail to `to` whose subject starts with `subject`, from the outbox folder: its body. */
async function outboxMail(t: TestApp, to: string, subject: string): Promise<string> {
  const dir = path.join(t.config.dataDir, OUTBOX_DIR);
  return waitFor(`a mail "${subject}" to ${to}`, async () => {
    const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.eml'));
    for (const name of names.sort().reverse()) {
      const message = parseMessage(await readFile(path.join(dir, name), 'utf8'));
      if (message.headers.get('to')?.toLowerCase() !== to.toLowerCase()) continue;
      if (message.headers.get('subject')?.startsWith(subject)) return message.body.replace(/\r\n/g, '\n');
    }
    return undefined;
  });
}

const forbidden = (message: string) => ({ statusCode: 403, message });
const badRequest = (message: string) => ({ statusCode: 400, message });

describe('suspensions: bans with a term and a reason, silences, and their end', () => {
  let t: TestApp;
  let owner: Member;
  let admin: Member;

  beforeAll(async () => {
    t = await createTestApp({ env: { MODERATION_TIME_SCALE: String(TIME_SCALE) } });
    owner = await registered(t);
    admin = await registered(t);
    await t.app.get(UsersService).setAdmin(admin.user.username, true);
  });

  afterAll(async () => {
    await t?.close();
  });

  const signIn = (member: Member) =>
    t.browser().post(API.login).send({ usernameOrEmail: member.account.username, password: PASSWORD });

  async function userRow(id: number) {
    const [row] = await t.dataSource.query(
      'SELECT is_banned, banned_until, ban_reason, silenced_until, silence_reason FROM users WHERE id = $1',
      [id],
    );
    return row as {
      is_banned: boolean;
      banned_until: Date | null;
      ban_reason: string | null;
      silenced_until: Date | null;
      silence_reason: string | null;
    };
  }

  async function history(id: number) {
    return (await t.dataSource.query(
      'SELECT kind, ends_at, reason, actor_id, lifted_at FROM suspensions WHERE user_id = $1 ORDER BY id',
      [id],
    )) as Array<{
      kind: string;
      ends_at: Date | null;
      reason: string | null;
      actor_id: number | null;
      lifted_at: Date | null;
    }>;
  }

  async function auditOf(id: number, action: string) {
    return (await t.dataSource.query(
      `SELECT actor_id, actor_name, before, after FROM audit_log
       WHERE target_type = 'user' AND target_id = $1 AND action = $2 ORDER BY id`,
      [id, action],
    )) as Array<{ actor_id: number | null; actor_name: string; before: unknown; after: unknown }>;
  }

  describe('a ban for a number of days, with a reason', () => {
    it('signs them out, mails them, refuses their sign-in with the end and reason, and ends by itself', async () => {
      const member = await registered(t);
      const before = Date.now();
      const res = await admin.browser
        .post(API.adminUserBan(member.user.id))
        .send({ days: 1, reason: '  Spam links in every reply ' })
        .expect(200);
      const user: AdminUser = adminUserSchema.strict().parse(res.body);
      expect(user).toMatchObject({ isBanned: true, banReason: 'Spam links in every reply' });
      const until = new Date(user.bannedUntil!);
      expect(until.getTime()).toBeGreaterThanOrEqual(before + DAY_MS);
      expect(until.getTime()).toBeLessThanOrEqual(Date.now() + DAY_MS);

      await member.browser.get(API.currentUser).expect(401);
      await signIn(member).expect(403, forbidden(bannedMessage(until, 'Spam links in every reply')));
      expect(bannedMessage(until, 'Spam links in every reply')).toMatch(
        /^Your account is suspended until \d{4}-\d\d-\d\d \d\d:\d\d UTC\. Reason: Spam links in every reply$/,
      );

      const mail = await outboxMail(t, member.account.email, 'Your Termpaste account is suspended');
      expect(mail).toContain(`suspended the account ${member.account.username} for 1 day, until`);
      expect(mail).toContain('Reason: Spam links in every reply');
      expect(mail).toContain('You cannot sign in until then');

      expect(await history(member.user.id)).toEqual([
        {
          kind: 'ban',
          ends_at: until,
          reason: 'Spam links in every reply',
          actor_id: admin.user.id,
          lifted_at: null,
        },
      ]);
      expect(await auditOf(member.user.id, 'user.ban')).toEqual([
        {
          actor_id: admin.user.id,
          actor_name: admin.user.username,
          before: { isBanned: false },
          after: { isBanned: true, bannedUntil: until.toISOString(), banReason: 'Spam links in every reply' },
        },
      ]);

      // The day passes: the job lifts it, as the system.
      await waitFor(
        'the ban lifted by its job',
        async () => !(await userRow(member.user.id)).is_banned,
        15_000,
      );
      expect(await userRow(member.user.id)).toMatchObject({ banned_until: null, ban_reason: null });
      expect((await history(member.user.id))[0]!.lifted_at).not.toBeNull();
      expect(await auditOf(member.user.id, 'user.unban')).toEqual([
        {
          actor_id: null,
          actor_name: 'system',
          before: { isBanned: true, bannedUntil: until.toISOString() },
          after: { isBanned: false, ended: true },
        },
      ]);
      await signIn(member).expect(200);
    });

    it('counts as lifted once its end has passed, before any job has run; the sweep then lifts it', async () => {
      const member = await registered(t);
      await t.dataSource.query(
        `UPDATE users SET is_banned = true, banned_until = now() - interval '1 minute', ban_reason = 'old'
         WHERE id = $1`,
        [member.user.id],
      );
      await member.browser.get(API.currentUser).expect(200);
      await member.browser.post(API.threads).send({ title: 'Back', content: 'again' }).expect(201);
      await signIn(member).expect(200);
      const page = await admin.browser
        .get(`${API.adminUsers}?q=${encodeURIComponent(member.account.username)}`)
        .expect(200);
      expect(page.body.users[0]).toMatchObject({ isBanned: false, bannedUntil: null, banReason: null });
      expect((await t.browser().get(API.user(member.user.id)).expect(200)).body.isBanned).toBe(false);

      await t.app.get(SuspensionLift).sweep();
      expect(await userRow(member.user.id)).toMatchObject({ is_banned: false, banned_until: null });
      expect(await auditOf(member.user.id, 'user.unban')).toHaveLength(1);
    });

    it('is not lifted by the job of terms it no longer has (banned for ever since)', async () => {
      const member = await registered(t);
      await admin.browser
        .post(API.adminUserBan(member.user.id))
        .send({ days: 1, reason: 'first' })
        .expect(200);
      const forever = await admin.browser
        .post(API.adminUserBan(member.user.id))
        .send({ reason: 'for good' })
        .expect(200);
      expect(forever.body).toMatchObject({ isBanned: true, bannedUntil: null, banReason: 'for good' });
      // The first term's row is closed by the new one.
      const rows = await history(member.user.id);
      expect(rows.map((row) => [row.reason, row.lifted_at !== null, row.ends_at])).toEqual([
        ['first', true, expect.any(Date)],
        ['for good', false, null],
      ]);
      await new Promise((resolve) => setTimeout(resolve, DAY_MS + 1500));
      await t.app.get(SuspensionLift).sweep();
      expect(await userRow(member.user.id)).toMatchObject({ is_banned: true, ban_reason: 'for good' });
      await signIn(member).expect(403, forbidden('Your account is suspended permanently. Reason: for good'));
      const mail = await outboxMail(t, member.account.email, 'Your Termpaste account is suspended');
      expect(mail).toContain(`${member.account.username} permanently.`);
      expect(mail).toContain('Reason: for good');
      expect(mail).toContain('You cannot sign in any more.');
    });
  });

  describe('a ban with the empty payload, as the spec has it', () => {
    it('is for ever, without a reason, and sign-in says what it always said', async () => {
      const member = await registered(t);
      const res = await admin.browser.post(API.adminUserBan(member.user.id)).expect(200);
      expect(res.body).toMatchObject({ isBanned: true, bannedUntil: null, banReason: null });
      await signIn(member).expect(403, forbidden('Your account has been banned'));
      await t.app.get(SuspensionLift).sweep();
      expect((await userRow(member.user.id)).is_banned).toBe(true);
      expect(await history(member.user.id)).toEqual([
        expect.objectContaining({ kind: 'ban', ends_at: null, reason: null, lifted_at: null }),
      ]);
      const mail = await outboxMail(t, member.account.email, 'Your Termpaste account is suspended');
      expect(mail).toContain(`${member.account.username} permanently.`);
      expect(mail).toContain('Reason: none given');

      // Banning again on the same terms changes nothing (no second entry); unbanning closes the row.
      await admin.browser.post(API.adminUserBan(member.user.id)).send({}).expect(200);
      expect(await auditOf(member.user.id, 'user.ban')).toHaveLength(1);
      await admin.browser.post(API.adminUserUnban(member.user.id)).expect(200);
      expect((await history(member.user.id))[0]!.lifted_at).not.toBeNull();
      await signIn(member).expect(200);
    });
  });

  describe('silence', () => {
    let silenced: Member;
    let other: Member;
    let paste: number;

    beforeAll(async () => {
      silenced = await registered(t);
      other = await registered(t);
      paste = (await other.browser.post(API.threads).send({ title: 'Open', content: 'x' }).expect(201)).body
        .id as number;
    });

    it('refuses every write with the end and reason, lets them read and write to support; unsilence restores', async () => {
      const res = await admin.browser
        .post(API.adminUserSilence(silenced.user.id))
        .send({ days: 30, reason: 'Cool off' })
        .expect(200);
      expect(res.body).toMatchObject({ isBanned: false, silenceReason: 'Cool off' });
      const until = new Date(res.body.silencedUntil as string);
      const refused = forbidden(silencedMessage(until, 'Cool off'));
      expect(refused.message).toMatch(
        /^Your account is silenced until .+ UTC: you can read and contact support, nothing else\. Reason: Cool off$/,
      );

      const b = silenced.browser;
      await b.post(API.threads).send({ title: 'Mine', content: 'y' }).expect(403, refused);
      await b.post(API.threadReplies(paste)).send({ content: 'a reply' }).expect(403, refused);
      await b.post(API.votes).send({ threadId: paste, value: 1 }).expect(403, refused);
      await b.post(API.chatMessages).send({ content: 'hello' }).expect(403, refused);
      await b
        .post(API.messages)
        .send({ recipientEmail: other.account.email, subject: 'Hi', content: 'psst' })
        .expect(403, refused);
      await b.put(API.userProfile).send({ firstName: 'New' }).expect(403, refused);

      // Reading, and support.
      await b.get(API.thread(paste)).expect(200);
      await b.get(API.threadsRecent).expect(200);
      await b.get(API.chatMessages).expect(200);
      await b.post(API.support).send({ subject: 'My silence', content: 'Why?' }).expect(201);
      const me = await b.get(API.currentUser).expect(200);
      expect(me.body).toMatchObject({ silencedUntil: until.toISOString(), silenceReason: 'Cool off' });
      // Signing in still works: silence is not a ban.
      await signIn(silenced).expect(200);

      const mail = await outboxMail(t, silenced.account.email, 'Your Termpaste account is silenced');
      expect(mail).toContain('silenced the account');
      expect(mail).toContain('for 30 days, until');
      expect(mail).toContain('Reason: Cool off');
      expect(mail).toContain('/support');
      expect(await auditOf(silenced.user.id, 'user.silence')).toEqual([
        {
          actor_id: admin.user.id,
          actor_name: admin.user.username,
          before: { silencedUntil: null },
          after: { silencedUntil: until.toISOString(), silenceReason: 'Cool off' },
        },
      ]);

      const lifted = await admin.browser.post(API.adminUserUnsilence(silenced.user.id)).expect(200);
      expect(lifted.body).toMatchObject({ silencedUntil: null, silenceReason: null });
      await b.post(API.threadReplies(paste)).send({ content: 'back' }).expect(201);
      expect((await b.get(API.currentUser).expect(200)).body.silencedUntil).toBeNull();
      expect(await auditOf(silenced.user.id, 'user.unsilence')).toEqual([
        expect.objectContaining({ actor_id: admin.user.id, after: { silencedUntil: null } }),
      ]);
      expect((await history(silenced.user.id)).map((row) => [row.kind, row.lifted_at !== null])).toEqual([
        ['silence', true],
      ]);
    });

    it('ends by itself: its job lifts it when the days have passed', async () => {
      const member = await registered(t);
      await admin.browser
        .post(API.adminUserSilence(member.user.id))
        .send({ days: 1, reason: 'A day off' })
        .expect(200);
      await waitFor(
        'the silence lifted by its job',
        async () => (await userRow(member.user.id)).silenced_until === null,
        15_000,
      );
      await member.browser.post(API.threadReplies(paste)).send({ content: 'free' }).expect(201);
      const entries = await t.dataSource.query(
        `SELECT action, actor_id, actor_name FROM audit_log WHERE target_type = 'user' AND target_id = $1 ORDER BY id`,
        [member.user.id],
      );
      expect(entries).toEqual([
        { action: 'user.silence', actor_id: admin.user.id, actor_name: admin.user.username },
        { action: 'user.unsilence', actor_id: null, actor_name: 'system' },
      ]);
    });
  });

  describe('validation', () => {
    it.each([
      [{ days: 0 }, `days: ${MODERATION_MESSAGES.daysInvalid}`],
      [{ days: -1 }, `days: ${MODERATION_MESSAGES.daysInvalid}`],
      [{ days: 1.5 }, `days: ${MODERATION_MESSAGES.daysInvalid}`],
      [{ days: '3' }, `days: ${MODERATION_MESSAGES.daysInvalid}`],
      [{ days: 3651 }, `days: ${MODERATION_MESSAGES.daysInvalid}`],
      [{ days: 3, reason: '' }, `reason: ${MODERATION_MESSAGES.reasonRequired}`],
      [{ reason: '   ' }, `reason: ${MODERATION_MESSAGES.reasonRequired}`],
      [{ reason: 'x'.repeat(SUSPENSION_REASON_MAX + 1) }, `reason: ${MODERATION_MESSAGES.reasonTooLong}`],
      [{ reason: 42 }, `reason: ${MODERATION_MESSAGES.reasonRequired}`],
    ])('ban %j: 400 %s', async (body, message) => {
      const member = await registered(t);
      await admin.browser.post(API.adminUserBan(member.user.id)).send(body).expect(400, badRequest(message));
      expect((await userRow(member.user.id)).is_banned).toBe(false);
    });

    it.each([
      [{}, `days: ${MODERATION_MESSAGES.silenceNeedsDays}; reason: ${MODERATION_MESSAGES.reasonRequired}`],
      [{ reason: 'no days' }, `days: ${MODERATION_MESSAGES.silenceNeedsDays}`],
      [{ days: 0, reason: 'r' }, `days: ${MODERATION_MESSAGES.daysInvalid}`],
      [{ days: 2.5, reason: 'r' }, `days: ${MODERATION_MESSAGES.daysInvalid}`],
      [{ days: 3651, reason: 'r' }, `days: ${MODERATION_MESSAGES.daysInvalid}`],
      [{ days: 2 }, `reason: ${MODERATION_MESSAGES.reasonRequired}`],
      [{ days: 2, reason: ' ' }, `reason: ${MODERATION_MESSAGES.reasonRequired}`],
      [
        { days: 2, reason: 'x'.repeat(SUSPENSION_REASON_MAX + 1) },
        `reason: ${MODERATION_MESSAGES.reasonTooLong}`,
      ],
    ])('silence %j: 400 %s', async (body, message) => {
      const member = await registered(t);
      await admin.browser
        .post(API.adminUserSilence(member.user.id))
        .send(body)
        .expect(400, badRequest(message));
      expect((await userRow(member.user.id)).silenced_until).toBeNull();
    });

    it("is 404 'User not found' for a member who does not exist", async () => {
      const notFound = { statusCode: 404, message: ADMIN_MESSAGES.userNotFound };
      await admin.browser.post(API.adminUserBan(999999)).send({ days: 1 }).expect(404, notFound);
      await admin.browser
        .post(API.adminUserSilence(999999))
        .send({ days: 1, reason: 'r' })
        .expect(404, notFound);
      await admin.browser.post(API.adminUserUnsilence('abc')).expect(404, notFound);
    });
  });

  describe('who may', () => {
    const silence = (browser: Browser, id: number) =>
      browser.post(API.adminUserSilence(id)).send({ days: 1, reason: 'r' });

    it('a member: 403 Admin privileges required; signed out: 401', async () => {
      const member = await registered(t);
      const target = await registered(t);
      const denied = forbidden(POST_MESSAGES.adminRequired);
      await member.browser.post(API.adminUserBan(target.user.id)).send({ days: 1 }).expect(403, denied);
      await silence(member.browser, target.user.id).expect(403, denied);
      await member.browser.post(API.adminUserUnsilence(target.user.id)).expect(403, denied);
      await t.browser().post(API.adminUserSilence(target.user.id)).send({ days: 1, reason: 'r' }).expect(401);
      expect(await userRow(target.user.id)).toMatchObject({ is_banned: false, silenced_until: null });
    });

    it("an admin on another admin's account: 403, the owner's alone; the owner may", async () => {
      const peer = await registered(t);
      await t.app.get(UsersService).setAdmin(peer.user.username, true);
      const peersByOwner = forbidden(ADMIN_MESSAGES.onlyOwnerActsOnAdmins);
      await admin.browser
        .post(API.adminUserBan(peer.user.id))
        .send({ days: 3, reason: 'r' })
        .expect(403, peersByOwner);
      await silence(admin.browser, peer.user.id).expect(403, peersByOwner);
      await admin.browser.post(API.adminUserUnsilence(peer.user.id)).expect(403, peersByOwner);
      await silence(owner.browser, peer.user.id).expect(200);
      await admin.browser.post(API.adminUserUnsilence(peer.user.id)).expect(403, peersByOwner);
      await owner.browser.post(API.adminUserUnsilence(peer.user.id)).expect(200);
      await owner.browser.post(API.adminUserBan(peer.user.id)).send({ days: 3, reason: 'r' }).expect(200);
    });

    it('the owner is protected, and nobody silences or bans themself', async () => {
      const protectedOwner = forbidden(ADMIN_MESSAGES.ownerProtected);
      await admin.browser
        .post(API.adminUserBan(owner.user.id))
        .send({ days: 1, reason: 'r' })
        .expect(403, protectedOwner);
      await silence(admin.browser, owner.user.id).expect(403, protectedOwner);
      await admin.browser.post(API.adminUserUnsilence(owner.user.id)).expect(403, protectedOwner);
      const self = forbidden(ADMIN_MESSAGES.cannotActOnSelf);
      await silence(admin.browser, admin.user.id).expect(403, self);
      await silence(owner.browser, owner.user.id).expect(403, self);
      await admin.browser.post(API.adminUserBan(admin.user.id)).send({ days: 1 }).expect(403, self);
      expect(await userRow(owner.user.id)).toMatchObject({ is_banned: false, silenced_until: null });
      expect(await history(owner.user.id)).toEqual([]);
    });
  });
});
