import { API } from '@termpaste/contracts';
import { UsersService } from '../src/modules/users/users.service.js';
import { registered } from './support/accounts.js';
import { parseMessage } from './support/eml.js';
import { type LoopbackSmtp, startSmtp } from './support/smtp.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

/** A day passes in 5 s here (MODERATION_TIME_SCALE): a one-day suspension ends while the test waits. */
const TIME_SCALE = 17_280;

type Member = Awaited<ReturnType<typeof registered>>;

interface Received {
  to: string[];
  subject: string;
  body: string;
}

describe('the mails that tell a member their ban or silence is over (SMTP on loopback)', () => {
  let t: TestApp;
  let smtp: LoopbackSmtp | undefined;
  let admin: Member;
  const received: Received[] = [];

  beforeAll(async () => {
    smtp = await startSmtp((raw, envelope) => {
      const message = parseMessage(raw);
      received.push({
        to: envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
        subject: message.headers.get('subject') ?? '',
        body: message.body.replace(/\r\n/g, '\n'),
      });
    });
    t = await createTestApp({
      env: { SMTP_URL: smtp.url, MODERATION_TIME_SCALE: String(TIME_SCALE) },
    });
    await registered(t); // the owner
    admin = await registered(t);
    await t.app.get(UsersService).setAdmin(admin.user.username, true);
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const mailsTo = (member: Member) =>
    received.filter((mail) => mail.to.includes(member.account.email.toLowerCase()));

  /** The mail to `member` with exactly `subject`, once the SMTP server has it. */
  const mailTo = (member: Member, subject: string) =>
    waitFor(`"${subject}" to ${member.account.email}`, () =>
      mailsTo(member).find((mail) => mail.subject === subject),
    );

  it('an unban by staff mails that the suspension was lifted, once', async () => {
    const member = await registered(t);
    await admin.browser.post(API.adminUserBan(member.user.id)).send({ days: 30, reason: 'Spam' }).expect(200);
    await mailTo(member, 'Your Termpaste account is suspended');
    await admin.browser.post(API.adminUserUnban(member.user.id)).expect(200);
    const mail = await mailTo(member, 'Your Termpaste account is no longer suspended');
    expect(mail.body).toContain(
      `The staff of Termpaste lifted the suspension of the account ${member.user.username}.`,
    );
    expect(mail.body).toContain(`You can sign in again: ${t.config.publicUrl}/login`);

    // Unbanning a member who is not banned changes nothing, and mails nothing.
    await admin.browser.post(API.adminUserUnban(member.user.id)).expect(200);
    await admin.browser.post(API.adminUserBan(member.user.id)).expect(200);
    await admin.browser.post(API.adminUserUnban(member.user.id)).expect(200);
    await waitFor(
      'two lift mails',
      () =>
        mailsTo(member).filter((mail) => mail.subject === 'Your Termpaste account is no longer suspended')
          .length === 2,
    );
    expect(mailsTo(member).map((mail) => mail.subject)).toEqual([
      'Your Termpaste account is suspended',
      'Your Termpaste account is no longer suspended',
      'Your Termpaste account is suspended',
      'Your Termpaste account is no longer suspended',
    ]);
  });

  it('an unsilence by staff mails that the silence was lifted', async () => {
    const member = await registered(t);
    await admin.browser
      .post(API.adminUserSilence(member.user.id))
      .send({ days: 30, reason: 'Cool off' })
      .expect(200);
    await mailTo(member, 'Your Termpaste account is silenced');
    await admin.browser.post(API.adminUserUnsilence(member.user.id)).expect(200);
    const mail = await mailTo(member, 'Your Termpaste account is no longer silenced');
    expect(mail.body).toContain(
      `The staff of Termpaste lifted the silence of the account ${member.user.username}.`,
    );
    expect(mail.body).toContain('You can post again');
    // Not silenced any more: a second unsilence mails nothing.
    await admin.browser.post(API.adminUserUnsilence(member.user.id)).expect(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mailsTo(member).map((mail) => mail.subject)).toEqual([
      'Your Termpaste account is silenced',
      'Your Termpaste account is no longer silenced',
    ]);
  });

  it('a ban and a silence that end by themselves mail that they ended', async () => {
    const banned = await registered(t);
    const silenced = await registered(t);
    await admin.browser.post(API.adminUserBan(banned.user.id)).send({ days: 1, reason: 'A day' }).expect(200);
    await admin.browser
      .post(API.adminUserSilence(silenced.user.id))
      .send({ days: 1, reason: 'A day' })
      .expect(200);
    const ended = await waitFor(
      'the ban ended mail',
      () => mailsTo(banned).find((mail) => mail.subject.includes('has ended')),
      20_000,
    );
    expect(ended.subject).toBe('The suspension of your Termpaste account has ended');
    expect(ended.body).toContain(
      `The suspension of the account ${banned.user.username} on Termpaste has ended.`,
    );
    expect(ended.body).toContain(`You can sign in again: ${t.config.publicUrl}/login`);
    const quiet = await waitFor(
      'the silence ended mail',
      () => mailsTo(silenced).find((mail) => mail.subject.includes('has ended')),
      20_000,
    );
    expect(quiet.subject).toBe('The silence of your Termpaste account has ended');
    expect(quiet.body).toContain(
      `The silence of the account ${silenced.user.username} on Termpaste has ended.`,
    );
  });
});
