import {
  API,
  POST_MESSAGES,
  LIMITS,
  type MessagesPage,
  type NotificationsPage,
  SETTINGS_MESSAGES,
  supportResultSchema,
} from '@termpaste/contracts';
import { SUPPORT_SUBJECT_PREFIX } from '../src/modules/support/support.controller.js';
import { type Browser, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const UNAUTHORIZED = { statusCode: 401, message: 'Unauthorized' };
const BANNED = { statusCode: 403, message: POST_MESSAGES.banned };

type Member = Awaited<ReturnType<typeof registered>>;

describe('POST /api/support', () => {
  let t: TestApp;
  let owner: Member;
  let admin: Member;
  let otherAdmin: Member;
  let bannedAdmin: Member;
  let member: Member;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await registered(t); // the first account is the owner
    admin = await registered(t);
    otherAdmin = await registered(t);
    bannedAdmin = await registered(t);
    member = await registered(t);
    await t.dataSource.query('UPDATE users SET is_admin = true WHERE id = ANY($1)', [
      [admin.user.id, otherAdmin.user.id, bannedAdmin.user.id],
    ]);
    await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [bannedAdmin.user.id]);
  });

  afterAll(async () => {
    await t.close();
  });

  async function inbox(browser: Browser): Promise<MessagesPage> {
    return (await browser.get(API.messages).expect(200)).body as MessagesPage;
  }

  async function send(browser: Browser, body: object): Promise<number> {
    const res = await browser.post(API.support).send(body).expect(201);
    return supportResultSchema.strict().parse(res.body).recipients;
  }

  it("sends the member's request to the owner and every admin not banned, each notified", async () => {
    const recipients = await send(member.browser, {
      subject: '  Cannot upload  ',
      content: ' My avatar fails. ',
    });
    expect(recipients).toBe(3);

    for (const staff of [owner, admin, otherAdmin]) {
      const [message] = (await inbox(staff.browser)).messages;
      expect(message).toMatchObject({
        subject: `${SUPPORT_SUBJECT_PREFIX}Cannot upload`,
        content: 'My avatar fails.',
        isRead: false,
        sender: { id: member.user.id, username: member.account.username },
        recipient: { id: staff.user.id },
      });
      // The notification comes through the queue, as for any private message.
      await waitFor(`a message notification for ${staff.account.username}`, async () => {
        const page = (await staff.browser.get(API.notifications).expect(200)).body as NotificationsPage;
        return page.notifications.some((n) => n.type === 'message');
      });
    }
    const [{ count }] = await t.dataSource.query(
      'SELECT count(*)::int AS count FROM private_messages WHERE recipient_id = $1',
      [bannedAdmin.user.id],
    );
    expect(count).toBe(0);
    // The sender's sent list shows each copy.
    const sent = (await member.browser.get(API.messagesSent).expect(200)).body as MessagesPage;
    expect(sent.messages.map((m) => m.recipient?.id).sort()).toEqual(
      [owner.user.id, admin.user.id, otherAdmin.user.id].sort(),
    );
  });

  it('never sends staff their own request', async () => {
    expect(await send(admin.browser, { subject: 'From an admin', content: 'Hi' })).toBe(2);
    const own = (await inbox(admin.browser)).messages.filter((m) => m.subject.endsWith('From an admin'));
    expect(own).toEqual([]);
  });

  it('cuts a long subject to the subject limit with its marker', async () => {
    await send(member.browser, { subject: 'x'.repeat(LIMITS.subjectMax), content: 'long' });
    const [message] = (await inbox(owner.browser)).messages;
    expect(message!.subject).toHaveLength(LIMITS.subjectMax);
    expect(message!.subject.startsWith(SUPPORT_SUBJECT_PREFIX)).toBe(true);
  });

  it.each([
    [{ subject: '', content: 'x' }, 'Subject is required'],
    [{ subject: '   ', content: 'x' }, 'Subject is required'],
    [{ subject: 'x', content: '\n\t' }, 'Message is required'],
    [{ subject: 'x'.repeat(LIMITS.subjectMax + 1), content: 'x' }, 'subject'],
    [{ content: 'x' }, 'subject'],
    [{ subject: 'x' }, 'content'],
  ])('400 for %j', async (body, message) => {
    const res = await member.browser.post(API.support).send(body).expect(400);
    expect(res.body).toEqual({ statusCode: 400, message: expect.stringContaining(message) });
  });

  it('needs a session (401) and an account not banned (403)', async () => {
    await t.browser().post(API.support).send({ subject: 's', content: 'c' }).expect(401, UNAUTHORIZED);
    await bannedAdmin.browser.post(API.support).send({ subject: 's', content: 'c' }).expect(403, BANNED);
  });

  it('never answered with a 500', () => {
    expect(t.logs.entries.filter((entry) => entry.level === 'error')).toEqual([]);
  });
});

describe('POST /api/support with nobody to read it', () => {
  let t: TestApp;

  beforeAll(async () => {
    // OWNER_EMAIL names an account not registered yet: there is no staff member at all.
    t = await createTestApp({ env: { OWNER_EMAIL: 'boss@example.com' } });
  });

  afterAll(async () => {
    await t.close();
  });

  it('409 No staff member can receive your message yet, and nothing is stored', async () => {
    const member = await registered(t);
    const res = await member.browser.post(API.support).send({ subject: 'hello?', content: 'anyone?' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ statusCode: 409, message: SETTINGS_MESSAGES.noStaff });
    const [{ count }]: Array<{ count: number }> = await t.dataSource.query(
      'SELECT count(*)::int AS count FROM private_messages',
    );
    expect(count).toBe(0);
  });

  it('the same for the only staff member writing to support', async () => {
    const boss = await registered(t, { email: 'boss@example.com' });
    await boss.browser.post(API.support).send({ subject: 's', content: 'c' }).expect(409);
  });
});
