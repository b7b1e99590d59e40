import { createHash } from 'node:crypto';
import { ADMIN_MESSAGES, API, POST_MESSAGES, MODERATION_TEXTS } from '@termpaste/contracts';
import { UsersService } from '../src/modules/users/users.service.js';
import { registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

type Member = Awaited<ReturnType<typeof registered>>;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const forbidden = (message: string) => ({ statusCode: 403, message });

describe('delete spammer: the account, their posts and chat lines in one step, their address remembered', () => {
  let t: TestApp;
  let owner: Member;
  let admin: Member;
  let bystander: Member;
  let sequence = 0;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await registered(t);
    admin = await registered(t);
    await t.app.get(UsersService).setAdmin(admin.user.username, true);
    bystander = await registered(t);
  });

  afterAll(async () => {
    await t?.close();
  });

  /** A member at `domain` (with a name no other test uses). */
  const spammerAt = (domain: string) =>
    registered(t, { email: `Spam.Bot${sequence++}.${Date.now().toString(36)}@${domain}` });

  const marks = async () =>
    (await t.dataSource.query('SELECT kind, value FROM spam_marks ORDER BY id')) as Array<{
      kind: string;
      value: string;
    }>;

  const count = async (sql: string, params: unknown[]) =>
    ((await t.dataSource.query(sql, params)) as Array<{ n: number }>)[0]!.n;

  it('deletes their pastes, replies and chat messages, marks the address hash and the domain, and audits it', async () => {
    const spammer = await spammerAt('Cheap-Pills.Example');
    const b = spammer.browser;
    const theirs = (await b.post(API.threads).send({ title: 'Buy now', content: 'pills' }).expect(201)).body
      .id as number;
    const other = (
      await bystander.browser.post(API.threads).send({ title: 'Honest', content: 'code' }).expect(201)
    ).body.id as number;
    await b.post(API.threadReplies(other)).send({ content: 'cheap pills here' }).expect(201);
    await b.post(API.chatMessages).send({ content: 'visit my pills site' }).expect(201);
    await b.post(API.chatMessages).send({ content: 'and again' }).expect(201);
    await bystander.browser.post(API.chatMessages).send({ content: 'an honest line' }).expect(201);

    await admin.browser
      .post(API.adminUserSpammer(spammer.user.id))
      .expect(200, { message: MODERATION_TEXTS.spammerDeleted });

    expect(await count('SELECT count(*)::int AS n FROM users WHERE id = $1', [spammer.user.id])).toBe(0);
    await bystander.browser.get(API.thread(theirs)).expect(404);
    const detail = (await bystander.browser.get(API.thread(other)).expect(200)).body;
    expect(JSON.stringify(detail)).not.toContain('cheap pills here');
    expect(detail.replyCount).toBe(0);
    const chat = JSON.stringify((await bystander.browser.get(API.chatMessages).expect(200)).body);
    expect(chat).not.toContain('pills site');
    expect(chat).not.toContain('and again');
    expect(chat).toContain('an honest line');
    expect(
      await count(
        `SELECT count(*)::int AS n FROM chat_messages WHERE content IN ('visit my pills site', 'and again')`,
        [],
      ),
    ).toBe(0);

    const address = spammer.account.email.toLowerCase();
    expect(await marks()).toEqual(
      expect.arrayContaining([
        { kind: 'address', value: sha256(address) },
        { kind: 'domain', value: 'cheap-pills.example' },
      ]),
    );
    const entries = (await t.dataSource.query(
      `SELECT action, actor_id, target_label, before, after FROM audit_log
       WHERE target_type = 'user' AND target_id = $1 ORDER BY id`,
      [spammer.user.id],
    )) as Array<{ action: string; actor_id: number; target_label: string; before: unknown; after: unknown }>;
    expect(entries).toEqual([
      {
        action: 'user.spammer_delete',
        actor_id: admin.user.id,
        target_label: spammer.account.username,
        before: expect.objectContaining({ username: spammer.account.username, isBanned: false }),
        after: { keepContent: false, by: 'admin', markedDomain: 'cheap-pills.example', markedAddress: true },
      },
    ]);
    // The address itself is kept nowhere.
    const [{ found }] = await t.dataSource.query(
      `SELECT count(*)::int AS found FROM audit_log WHERE strpos(lower(before::text || after::text), $1) > 0`,
      [address],
    );
    expect(found).toBe(0);
    await admin.browser.post(API.adminUserSpammer(spammer.user.id)).expect(404);
  });

  it('remembers only the address of a member at a common mail provider, and a second spammer adds nothing twice', async () => {
    const before = await marks();
    const first = await spammerAt('gmail.com');
    await owner.browser.post(API.adminUserSpammer(first.user.id)).expect(200);
    const added = (await marks()).slice(before.length);
    expect(added).toEqual([{ kind: 'address', value: sha256(first.account.email.toLowerCase()) }]);

    const again = await spammerAt('cheap-pills.example');
    await owner.browser.post(API.adminUserSpammer(again.user.id)).expect(200);
    const domains = (await marks()).filter((mark) => mark.value === 'cheap-pills.example');
    expect(domains).toHaveLength(1);
  });

  it('follows the delete rules: members 403, an admin account by the owner only, nobody on themself, the owner protected', async () => {
    const target = await spammerAt('spam.example');
    await bystander.browser
      .post(API.adminUserSpammer(target.user.id))
      .expect(403, forbidden(POST_MESSAGES.adminRequired));
    await t.browser().post(API.adminUserSpammer(target.user.id)).expect(401);

    const peer = await spammerAt('peer.example');
    await t.app.get(UsersService).setAdmin(peer.account.username, true);
    await admin.browser
      .post(API.adminUserSpammer(peer.user.id))
      .expect(403, forbidden(ADMIN_MESSAGES.onlyOwnerDeletesAdmins));
    await admin.browser
      .post(API.adminUserSpammer(admin.user.id))
      .expect(403, forbidden(ADMIN_MESSAGES.cannotActOnSelf));
    await admin.browser
      .post(API.adminUserSpammer(owner.user.id))
      .expect(403, forbidden(ADMIN_MESSAGES.ownerProtected));
    await owner.browser
      .post(API.adminUserSpammer(owner.user.id))
      .expect(403, forbidden(ADMIN_MESSAGES.cannotActOnSelf));
    await admin.browser
      .post(API.adminUserSpammer(999999))
      .expect(404, { statusCode: 404, message: ADMIN_MESSAGES.userNotFound });
    expect(await marks()).not.toContainEqual({ kind: 'domain', value: 'spam.example' });
    expect(await marks()).not.toContainEqual({ kind: 'domain', value: 'peer.example' });

    await owner.browser.post(API.adminUserSpammer(peer.user.id)).expect(200);
    expect(await marks()).toContainEqual({ kind: 'domain', value: 'peer.example' });
  });
});
