import { createHash } from 'node:crypto';
import {
  API,
  type AuditPage,
  type CreatedAccessToken,
  POST_MESSAGES,
  MODERATION_MESSAGES,
  SPAM_MARK_HASH_PREFIX,
  SPAM_MARKS_PAGE_SIZE,
  type SpamMarksPage,
  spamMarksPageSchema,
  spamMarkSchema,
  TOKEN_MESSAGES,
} from '@termpaste/contracts';
import supertest from 'supertest';
import { UsersService } from '../src/modules/users/users.service.js';
import { registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

type Member = Awaited<ReturnType<typeof registered>>;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const NOT_FOUND = { statusCode: 404, message: MODERATION_MESSAGES.spamMarkNotFound };

describe('spam marks: staff see and forget what delete spammer remembered', () => {
  let t: TestApp;
  let admin: Member;
  let member: Member;
  let sequence = 0;

  beforeAll(async () => {
    t = await createTestApp();
    await registered(t); // the owner
    admin = await registered(t);
    await t.app.get(UsersService).setAdmin(admin.user.username, true);
    member = await registered(t);
  });

  afterAll(async () => {
    await t?.close();
  });

  const visitor = () => supertest(t.url);
  const spammerAt = (domain: string) =>
    registered(t, { email: `Bot${sequence++}.${Date.now().toString(36)}@${domain}` });

  async function page(cursor?: string): Promise<SpamMarksPage> {
    const res = await admin.browser
      .get(API.adminSpamMarks)
      .query(cursor ? { cursor } : {})
      .expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const parsed = spamMarksPageSchema.strict().parse(res.body);
    for (const mark of res.body.marks as unknown[]) spamMarkSchema.strict().parse(mark);
    return parsed;
  }

  /** A paste by a fresh member at `domain`: published (201) or held for review (202). */
  const pasteFrom = async (domain: string) =>
    (
      await (
        await spammerAt(domain)
      ).browser
        .post(API.threads)
        .send({ title: 'Hello there', content: 'A first paste of mine' })
    ).status;

  it('lists each mark newest first: the domain, a short prefix of the address hash, and the spammer', async () => {
    const spammer = await spammerAt('Junk-Mail.Example');
    await admin.browser.post(API.adminUserSpammer(spammer.user.id)).expect(200);
    const { marks, nextCursor } = await page();
    expect(nextCursor).toBeNull();
    const hash = sha256(spammer.account.email.toLowerCase());
    expect(marks.slice(0, 2)).toEqual([
      {
        id: expect.any(Number),
        kind: 'domain',
        value: 'junk-mail.example',
        createdAt: expect.any(String),
        spammer: spammer.account.username,
      },
      {
        id: expect.any(Number),
        kind: 'address',
        value: hash.slice(0, SPAM_MARK_HASH_PREFIX),
        createdAt: expect.any(String),
        spammer: spammer.account.username,
      },
    ]);
    // The whole hash never leaves the server.
    expect(JSON.stringify(marks)).not.toContain(hash);
  });

  it('says null for a mark whose spammer is not known (made before they were kept)', async () => {
    await t.dataSource.query("INSERT INTO spam_marks (kind, value) VALUES ('domain', 'old-spam.example')");
    const [first] = (await page()).marks;
    expect(first).toMatchObject({ kind: 'domain', value: 'old-spam.example', spammer: null });
  });

  it(`pages by ${SPAM_MARKS_PAGE_SIZE}, by keyset; a made-up cursor is a 400`, async () => {
    await t.dataSource.query(
      `INSERT INTO spam_marks (kind, value, spammer)
       SELECT 'domain', 'bulk-' || n || '.example', 'bulk' FROM generate_series(1, $1::int) n`,
      [SPAM_MARKS_PAGE_SIZE + 5],
    );
    const first = await page();
    expect(first.marks).toHaveLength(SPAM_MARKS_PAGE_SIZE);
    expect(first.nextCursor).not.toBeNull();
    const second = await page(first.nextCursor!);
    const ids = [...first.marks, ...second.marks].map((mark) => mark.id);
    expect(new Set(ids).size).toBe(ids.length);
    const [{ n }] = await t.dataSource.query('SELECT count(*)::int AS n FROM spam_marks');
    expect(ids).toHaveLength(n);
    await admin.browser
      .get(API.adminSpamMarks)
      .query({ cursor: 'made-up' })
      .expect(400, { statusCode: 400, message: 'Invalid cursor' });
    await t.dataSource.query("DELETE FROM spam_marks WHERE spammer = 'bulk'");
  });

  it('forgets a mark: 204, gone from the list and the spam signals, in the audit log; again 404', async () => {
    const spammer = await spammerAt('forget-me.example');
    await admin.browser.post(API.adminUserSpammer(spammer.user.id)).expect(200);
    // While the mark is there, a newcomer from the domain is held for review.
    expect(await pasteFrom('forget-me.example')).toBe(202);
    const mark = (await page()).marks.find((m) => m.value === 'forget-me.example')!;

    await admin.browser.delete(API.adminSpamMark(mark.id)).expect(204);
    expect((await page()).marks.map((m) => m.id)).not.toContain(mark.id);
    expect(await pasteFrom('forget-me.example')).toBe(201);

    const audit = (await admin.browser.get(API.adminAudit).query({ action: 'spam_mark.forget' }).expect(200))
      .body as AuditPage;
    expect(audit.entries[0]).toMatchObject({
      action: 'spam_mark.forget',
      actorId: admin.user.id,
      actorName: admin.user.username,
      targetType: 'spam_mark',
      targetId: mark.id,
      targetLabel: 'domain forget-me.example',
      before: { kind: 'domain', value: 'forget-me.example', spammer: spammer.account.username },
      after: null,
    });

    await admin.browser.delete(API.adminSpamMark(mark.id)).expect(404, NOT_FOUND);
  });

  it.each(['0', 'abc', '99999999999', '2147483647'])('is a 404 for mark id %s', async (id) => {
    await admin.browser.delete(API.adminSpamMark(id)).expect(404, NOT_FOUND);
  });

  it('refuses a visitor (401), a member (403) and a token, even an admin’s (403); nothing is forgotten', async () => {
    await t.dataSource.query("INSERT INTO spam_marks (kind, value) VALUES ('domain', 'kept.example')");
    const mark = (await page()).marks.find((m) => m.value === 'kept.example')!;
    await visitor().get(API.adminSpamMarks).expect(401);
    await visitor().delete(API.adminSpamMark(mark.id)).set('Origin', t.origin).expect(401);
    const denied = { statusCode: 403, message: POST_MESSAGES.adminRequired };
    await member.browser.get(API.adminSpamMarks).expect(403, denied);
    await member.browser.delete(API.adminSpamMark(mark.id)).expect(403, denied);
    const { token } = (
      await admin.browser
        .post(API.userTokens)
        .send({ name: 'marks', scopes: ['read', 'private:read', 'pastes:write'] })
        .expect(201)
    ).body as CreatedAccessToken;
    const tokenDenied = { statusCode: 403, message: TOKEN_MESSAGES.notForTokens };
    await visitor().get(API.adminSpamMarks).set('Authorization', `Bearer ${token}`).expect(403, tokenDenied);
    await visitor()
      .delete(API.adminSpamMark(mark.id))
      .set('Authorization', `Bearer ${token}`)
      .expect(403, tokenDenied);
    expect((await page()).marks.map((m) => m.id)).toContain(mark.id);
  });
});
