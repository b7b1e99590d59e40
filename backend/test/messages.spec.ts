import {
  API,
  POST_MESSAGES,
  LIVE_EVENT,
  MESSAGE_CONTENT_MAX,
  MESSAGES_PAGE_SIZE,
  MESSAGING_MESSAGES,
  type MessagesPage,
  messagesPageSchema,
  type PrivateMessage,
  privateMessageSchema,
  publicAuthorSchema,
  type SendMessageBody,
} from '@termpaste/contracts';
import { EventsPort, type LiveEnvelope } from '../src/infra/events/events.port.js';
import { type Browser, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const UNAUTHORIZED = { statusCode: 401, message: 'Unauthorized' };
const USER_NOT_FOUND = { statusCode: 404, message: MESSAGING_MESSAGES.userNotFound };
const MESSAGE_NOT_FOUND = { statusCode: 404, message: MESSAGING_MESSAGES.messageNotFound };
const INVALID_CURSOR = { statusCode: 400, message: 'Invalid cursor' };

/** A message as the API sends it, checked against the contract with no key beyond it. */
function parseMessage(body: unknown): PrivateMessage {
  const message = privateMessageSchema.strict().parse(body);
  for (const person of [message.sender, message.recipient]) {
    if (person) publicAuthorSchema.strict().parse(person);
  }
  return message;
}

function parsePage(body: unknown): MessagesPage {
  const page = messagesPageSchema.strict().parse(body);
  for (const message of (body as { messages: unknown[] }).messages) parseMessage(message);
  return page;
}

type Member = Awaited<ReturnType<typeof registered>>;

describe('private messages', () => {
  let t: TestApp;
  let alice: Member;
  let bob: Member;
  let carol: Member;

  beforeAll(async () => {
    t = await createTestApp();
    await registered(t); // the first account is the owner: keep the others plain members
    alice = await registered(t);
    bob = await registered(t);
    carol = await registered(t);
  });

  afterAll(async () => {
    await t.close();
  });

  const message = (overrides: Partial<SendMessageBody> = {}): SendMessageBody => ({
    recipientEmail: bob.account.username,
    subject: 'Hello',
    content: 'How are you?',
    ...overrides,
  });

  async function send(from: Browser, body: Partial<SendMessageBody>): Promise<PrivateMessage> {
    const res = await from.post(API.messages).send(body).expect(201);
    return parseMessage(res.body);
  }

  async function inbox(browser: Browser, cursor?: string): Promise<MessagesPage> {
    const res = await browser
      .get(API.messages)
      .query(cursor ? { cursor } : {})
      .expect(200);
    return parsePage(res.body);
  }

  async function sent(browser: Browser, cursor?: string): Promise<MessagesPage> {
    const res = await browser
      .get(API.messagesSent)
      .query(cursor ? { cursor } : {})
      .expect(200);
    return parsePage(res.body);
  }

  describe('signed out', () => {
    it.each([
      ['GET', API.messages],
      ['GET', API.messagesSent],
      ['POST', API.messages],
      ['PATCH', API.messageRead(1)],
      ['PATCH', API.messageRead('abc')],
    ])('%s %s is a 401', async (method, path) => {
      const browser = t.browser();
      const req =
        method === 'GET'
          ? browser.get(path)
          : method === 'POST'
            ? browser.post(path).send(message())
            : browser.patch(path);
      await req.expect(401, UNAUTHORIZED);
    });

    it('is a 401 for invalid input too (sign-in is checked first)', async () => {
      await t.browser().post(API.messages).send({}).expect(401, UNAUTHORIZED);
    });
  });

  describe('POST /api/messages', () => {
    it('sends to a username: 201 with the message, sender and recipient as public authors', async () => {
      const sentMessage = await send(
        alice.browser,
        message({ subject: '  Padded subject  ', content: '  code\n' }),
      );
      expect(sentMessage).toMatchObject({
        subject: 'Padded subject',
        content: '  code\n',
        isRead: false,
        sender: { id: alice.user.id, username: alice.account.username },
        recipient: { id: bob.user.id, username: bob.account.username },
        recipientAddress: null,
      });
      expect(Date.parse(sentMessage.createdAt)).not.toBeNaN();
      expect((await inbox(bob.browser)).messages[0]).toEqual(sentMessage);
    });

    it('never sends e-mail addresses back, but the one the sender typed to the sender', async () => {
      const res = await alice.browser.post(API.messages).send(message()).expect(201);
      expect(res.text).not.toContain('@example.com');
      expect(res.text).not.toContain('email');
      await alice.browser
        .post(API.messages)
        .send(message({ recipientEmail: bob.account.email }))
        .expect(201);
      const listed = await bob.browser.get(API.messages).expect(200);
      expect(listed.text).not.toContain('@example.com');
    });

    it.each([
      ['the username', (m: Member) => m.account.username],
      ['the username in another letter case', (m: Member) => m.account.username.toUpperCase()],
      ['the username with spaces around', (m: Member) => `  ${m.account.username}  `],
    ])('finds the recipient by %s', async (_label, recipient) => {
      const sentMessage = await send(alice.browser, message({ recipientEmail: recipient(carol) }));
      expect(sentMessage.recipient).toMatchObject({ id: carol.user.id });
    });

    it.each([
      ['an unknown username', 'nobody_here'],
      ['something that is neither', 'not a name!'],
    ])('is a 404 for %s', async (_label, recipientEmail) => {
      await alice.browser.post(API.messages).send(message({ recipientEmail })).expect(404, USER_NOT_FOUND);
    });

    it.each([
      ['by e-mail address', (m: Member) => m.account.email],
      ['by username', (m: Member) => m.account.username.toUpperCase()],
    ])('refuses a message to yourself %s', async (_label, recipient) => {
      await alice.browser
        .post(API.messages)
        .send(message({ recipientEmail: recipient(alice) }))
        .expect(400, { statusCode: 400, message: MESSAGING_MESSAGES.messageToSelf });
    });

    it.each([
      [
        'no recipient',
        { recipientEmail: undefined },
        `recipientEmail: ${MESSAGING_MESSAGES.recipientRequired}`,
      ],
      [
        'a blank recipient',
        { recipientEmail: '  ' },
        `recipientEmail: ${MESSAGING_MESSAGES.recipientRequired}`,
      ],
      [
        'a recipient that is no string',
        { recipientEmail: 42 },
        `recipientEmail: ${MESSAGING_MESSAGES.recipientRequired}`,
      ],
      ['no subject', { subject: undefined }, `subject: ${MESSAGING_MESSAGES.subjectRequired}`],
      ['a blank subject', { subject: ' \n ' }, `subject: ${MESSAGING_MESSAGES.subjectRequired}`],
      ['a subject of NUL only', { subject: '\0\0' }, `subject: ${MESSAGING_MESSAGES.subjectRequired}`],
      [
        '201 characters of subject',
        { subject: 's'.repeat(201) },
        `subject: ${MESSAGING_MESSAGES.subjectTooLong}`,
      ],
      ['no content', { content: undefined }, `content: ${MESSAGING_MESSAGES.contentRequired}`],
      ['blank content', { content: '   \n\t' }, `content: ${MESSAGING_MESSAGES.contentRequired}`],
      ['content that is no string', { content: ['x'] }, `content: ${MESSAGING_MESSAGES.contentRequired}`],
      [
        `${MESSAGE_CONTENT_MAX + 1} characters of content`,
        { content: 'c'.repeat(MESSAGE_CONTENT_MAX + 1) },
        `content: ${MESSAGING_MESSAGES.contentTooLong}`,
      ],
    ])('refuses %s with a 400 naming the field', async (_label, overrides, expected) => {
      const res = await alice.browser
        .post(API.messages)
        .send({ ...message(), ...overrides })
        .expect(400);
      expect(res.body).toEqual({ statusCode: 400, message: expected });
    });

    it('names every missing field at once', async () => {
      const res = await alice.browser.post(API.messages).send({}).expect(400);
      expect(res.body.message).toBe(
        [
          `recipientEmail: ${MESSAGING_MESSAGES.recipientRequired}`,
          `subject: ${MESSAGING_MESSAGES.subjectRequired}`,
          `content: ${MESSAGING_MESSAGES.contentRequired}`,
        ].join('; '),
      );
    });

    it.each([
      ['an array', '[]'],
      ['malformed JSON', '{"subject":'],
      ['a JSON string', '"hello"'],
    ])('answers %s with a 400, never a 500', async (_label, raw) => {
      const res = await alice.browser.post(API.messages).set('Content-Type', 'application/json').send(raw);
      expect(res.status).toBe(400);
    });

    it('accepts 200 characters of subject and the longest content', async () => {
      const sentMessage = await send(
        alice.browser,
        message({ subject: 's'.repeat(200), content: 'c'.repeat(MESSAGE_CONTENT_MAX) }),
      );
      expect(sentMessage.subject).toHaveLength(200);
      expect(sentMessage.content).toHaveLength(MESSAGE_CONTENT_MAX);
    });

    it('drops NUL characters before storing', async () => {
      const sentMessage = await send(
        alice.browser,
        message({ recipientEmail: `${bob.account.username}\0`, subject: 'Nu\0ll', content: 'a\0b' }),
      );
      expect(sentMessage).toMatchObject({ subject: 'Null', content: 'ab', recipient: { id: bob.user.id } });
    });

    it('keeps Unicode and markup as written', async () => {
      const content = '<script>alert(1)</script> ü 🐘 \u202e';
      const sentMessage = await send(alice.browser, message({ subject: '日本語 🐘', content }));
      expect(sentMessage).toMatchObject({ subject: '日本語 🐘', content });
    });

    it('is a 403 for a banned member', async () => {
      const banned = await registered(t);
      await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [banned.user.id]);
      await banned.browser
        .post(API.messages)
        .send(message())
        .expect(403, { statusCode: 403, message: POST_MESSAGES.banned });
      const [row] = await t.dataSource.query(
        'SELECT count(*)::int AS n FROM private_messages WHERE sender_id = $1',
        [banned.user.id],
      );
      expect(row.n).toBe(0);
    });

    it('may be sent to a banned member', async () => {
      const banned = await registered(t);
      await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [banned.user.id]);
      await send(alice.browser, message({ recipientEmail: banned.account.username }));
      const got = await send(alice.browser, message({ recipientEmail: banned.account.email }));
      const [row] = await t.dataSource.query('SELECT recipient_id FROM private_messages WHERE id = $1', [
        got.id,
      ]);
      expect(row.recipient_id).toBe(banned.user.id);
    });

    it('publishes the message live to its recipient only', async () => {
      const seen: LiveEnvelope[] = [];
      const unsubscribe = t.app.get(EventsPort).subscribe((envelope) => seen.push(envelope));
      try {
        const sentMessage = await send(alice.browser, message({ subject: 'Live one' }));
        const live = await waitFor('the live event', () =>
          seen.find(
            (e) => e.event.type === LIVE_EVENT.privateMessage && e.event.message.id === sentMessage.id,
          ),
        );
        expect(live).toEqual({
          to: 'user',
          userId: bob.user.id,
          event: { type: LIVE_EVENT.privateMessage, message: sentMessage },
        });
        expect(
          seen.filter(
            (e) => e.event.type === LIVE_EVENT.privateMessage && e.to === 'user' && e.userId !== bob.user.id,
          ),
        ).toEqual([]);
      } finally {
        unsubscribe();
      }
    });
  });

  describe('POST /api/messages to an e-mail address', () => {
    /** Every message with this id in the member's inbox, as listed. */
    const inInbox = async (member: Member, id: number) =>
      (await inbox(member.browser)).messages.filter((m) => m.id === id);

    it("answers alike for a member's address and one nobody has: 201, the address as typed, no member", async () => {
      const typed = `  ${bob.account.email.toUpperCase()}  `;
      const nobody = `Nobody.${Date.now()}@Example.com`;
      const toBob = await alice.browser.post(API.messages).send(message({ recipientEmail: typed }));
      const toNobody = await alice.browser.post(API.messages).send(message({ recipientEmail: nobody }));
      for (const res of [toBob, toNobody]) {
        expect(res.status).toBe(201);
        expect(res.text).not.toContain(bob.account.username);
      }
      const [a, b] = [parseMessage(toBob.body), parseMessage(toNobody.body)];
      expect(a).toEqual({ ...b, id: a.id, createdAt: a.createdAt, recipientAddress: typed.trim() });
      expect(b).toMatchObject({ recipient: null, recipientAddress: nobody });
      expect(Object.keys(toBob.body).sort()).toEqual(Object.keys(toNobody.body).sort());

      // The sender's sent list shows both the same way: the address as typed, nobody named.
      const listed = (await sent(alice.browser)).messages.filter((m) => m.id === a.id || m.id === b.id);
      expect(listed).toEqual([b, a]);
    });

    it('reaches the member, who sees themselves and not the address; one nobody has reaches nobody', async () => {
      const typed = carol.account.email.toUpperCase();
      const m = await send(alice.browser, message({ recipientEmail: typed, subject: 'by address' }));
      expect(await inInbox(carol, m.id)).toEqual([
        { ...m, recipient: expect.objectContaining({ id: carol.user.id }), recipientAddress: null },
      ]);
      const lost = await send(alice.browser, message({ recipientEmail: 'nobody.here@example.com' }));
      const [row] = await t.dataSource.query(
        'SELECT recipient_id, recipient_address FROM private_messages WHERE id = $1',
        [lost.id],
      );
      expect(row).toEqual({ recipient_id: null, recipient_address: 'nobody.here@example.com' });
      for (const member of [alice, bob, carol]) expect(await inInbox(member, lost.id)).toEqual([]);
    });

    it("pushes it live to the member alone, without the address; the sender's views never name them", async () => {
      const seen: LiveEnvelope[] = [];
      const unsubscribe = t.app.get(EventsPort).subscribe((envelope) => seen.push(envelope));
      try {
        const m = await send(alice.browser, message({ recipientEmail: bob.account.email, subject: 'Live' }));
        const live = await waitFor('the live event', () =>
          seen.find((e) => e.event.type === LIVE_EVENT.privateMessage && e.event.message.id === m.id),
        );
        expect(live).toMatchObject({
          to: 'user',
          userId: bob.user.id,
          event: { message: { id: m.id, recipient: { id: bob.user.id }, recipientAddress: null } },
        });
        // Nothing goes to the sender: no event, no notification naming the member.
        expect(seen.filter((e) => e.to === 'user' && e.userId === alice.user.id)).toEqual([]);
        const notes = await alice.browser.get(API.notifications).expect(200);
        expect(notes.text).not.toContain(bob.account.username);
      } finally {
        unsubscribe();
      }
    });
  });

  describe('GET /api/messages and /api/messages/sent', () => {
    it('lists only the member’s own messages: the inbox what they got, the sent list what they sent', async () => {
      const dave = await registered(t);
      const erin = await registered(t);
      const toErin = await send(
        dave.browser,
        message({ recipientEmail: erin.account.username, subject: 'to erin' }),
      );
      const toDave = await send(
        erin.browser,
        message({ recipientEmail: dave.account.username, subject: 'to dave' }),
      );
      await send(alice.browser, message({ recipientEmail: carol.account.username, subject: 'not theirs' }));

      expect((await inbox(erin.browser)).messages).toEqual([toErin]);
      expect((await sent(erin.browser)).messages).toEqual([toDave]);
      expect((await inbox(dave.browser)).messages).toEqual([toDave]);
      expect((await sent(dave.browser)).messages).toEqual([toErin]);
      const empty = await registered(t);
      expect(await inbox(empty.browser)).toEqual({ messages: [], nextCursor: null });
      expect(await sent(empty.browser)).toEqual({ messages: [], nextCursor: null });
    });

    it(`pages newest first, ${MESSAGES_PAGE_SIZE} at a time, with an opaque cursor`, async () => {
      const frank = await registered(t);
      const gina = await registered(t);
      const total = MESSAGES_PAGE_SIZE + 5;
      const sentIds: number[] = [];
      for (let i = 0; i < total; i++) {
        const m = await send(
          frank.browser,
          message({ recipientEmail: gina.account.username, subject: `#${i}` }),
        );
        sentIds.push(m.id);
      }
      const newestFirst = [...sentIds].reverse();

      const first = await inbox(gina.browser);
      expect(first.messages).toHaveLength(MESSAGES_PAGE_SIZE);
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = await inbox(gina.browser, first.nextCursor!);
      expect(second.nextCursor).toBeNull();
      expect([...first.messages, ...second.messages].map((m) => m.id)).toEqual(newestFirst);
      expect(first.messages[0]!.subject).toBe(`#${total - 1}`);

      const sentFirst = await sent(frank.browser);
      const sentSecond = await sent(frank.browser, sentFirst.nextCursor!);
      expect([...sentFirst.messages, ...sentSecond.messages].map((m) => m.id)).toEqual(newestFirst);
      expect(sentSecond.nextCursor).toBeNull();
    });

    it('keeps messages sent in the same microsecond apart (ties broken by id)', async () => {
      const hank = await registered(t);
      const ivy = await registered(t);
      const inserted: Array<{ id: number }> = await t.dataSource.query(
        `INSERT INTO private_messages (sender_id, recipient_id, subject, content, created_at)
         SELECT $1, $2, 'tie ' || n, 'x', '2030-01-01T00:00:00Z' FROM generate_series(1, $3::int) n
         RETURNING id`,
        [hank.user.id, ivy.user.id, MESSAGES_PAGE_SIZE * 2 + 1],
      );
      const ids: number[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await inbox(ivy.browser, cursor);
        ids.push(...page.messages.map((m) => m.id));
        cursor = page.nextCursor ?? undefined;
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(ids).toEqual(inserted.map((r) => r.id).sort((a, b) => b - a));
    });

    it.each([
      ['garbage', 'not-a-cursor'],
      ['an id beyond integers', Buffer.from('1700000000000000:99999999999').toString('base64url')],
      ['a cursor with letters', Buffer.from('abc:1').toString('base64url')],
      ['NUL', '\0'],
    ])('is a 400 for a bad cursor: %s', async (_label, cursor) => {
      await alice.browser.get(API.messages).query({ cursor }).expect(400, INVALID_CURSOR);
      await alice.browser.get(API.messagesSent).query({ cursor }).expect(400, INVALID_CURSOR);
    });

    it('shows a deleted sender as null', async () => {
      const gone = await registered(t);
      const m = await send(
        gone.browser,
        message({ recipientEmail: carol.account.username, subject: 'from a ghost' }),
      );
      await t.dataSource.query('DELETE FROM users WHERE id = $1', [gone.user.id]);
      const listed = (await inbox(carol.browser)).messages.find((x) => x.id === m.id);
      expect(listed).toMatchObject({
        sender: null,
        recipient: { id: carol.user.id },
        subject: 'from a ghost',
      });
    });
  });

  describe('PATCH /api/messages/:id/read', () => {
    it('marks the message read for its recipient, idempotently', async () => {
      const m = await send(alice.browser, message({ subject: 'read me' }));
      const first = await bob.browser.patch(API.messageRead(m.id)).expect(200);
      expect(parseMessage(first.body)).toEqual({ ...m, isRead: true });
      const again = await bob.browser.patch(API.messageRead(m.id)).expect(200);
      expect(parseMessage(again.body)).toEqual({ ...m, isRead: true });
      expect((await inbox(bob.browser)).messages.find((x) => x.id === m.id)?.isRead).toBe(true);
    });

    it('is a 404 for its sender and for anyone else, leaving it unread', async () => {
      const m = await send(alice.browser, message({ subject: 'not yours' }));
      await alice.browser.patch(API.messageRead(m.id)).expect(404, MESSAGE_NOT_FOUND);
      await carol.browser.patch(API.messageRead(m.id)).expect(404, MESSAGE_NOT_FOUND);
      expect((await inbox(bob.browser)).messages.find((x) => x.id === m.id)?.isRead).toBe(false);
    });

    it.each(['999999', 'abc', '0', '-1', '99999999999', '1.5', '%00'])('is a 404 for id %s', async (id) => {
      await bob.browser.patch(API.messageRead(id)).expect(404, MESSAGE_NOT_FOUND);
    });
  });
});
