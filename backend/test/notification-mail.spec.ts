import {
  API,
  MAIL_PREFERENCE_MESSAGES,
  NOTIFICATION_PREFERENCE_DEFAULTS,
  type NotificationPreferences,
  type NotificationType,
} from '@termpaste/contracts';
import supertest from 'supertest';
import { MAIL_QUEUE } from '../src/infra/mail/mail.service.js';
import { ONLINE_TOPIC, PresencePort } from '../src/infra/presence/presence.port.js';
import { QueuePort } from '../src/infra/queue/queue.port.js';
import { DigestMails } from '../src/modules/mailings/digest-mails.js';
import { MAILINGS_JOBS } from '../src/modules/mailings/mailings.jobs.js';
import { NoticeMails } from '../src/modules/mailings/notice-mails.js';
import { registeredUnverified } from './support/accounts.js';
import { type ParsedMessage, parseMessage } from './support/eml.js';
import { connect, type LiveUser, liveUser } from './support/live.js';
import { type LoopbackSmtp, startSmtp } from './support/smtp.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

interface Received {
  to: string;
  message: ParsedMessage;
  /** The text/plain and text/html parts, decoded. */
  text: string;
  html: string;
}

/** The parts of a multipart/alternative message (one level deep: what nodemailer sends for text + html). */
function partsOf(message: ParsedMessage, raw: string): { text: string; html: string } {
  const boundary = /boundary="?([^";]+)"?/.exec(message.headers.get('content-type') ?? '')?.[1];
  if (!boundary) return { text: message.body, html: '' };
  const parts = raw
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => parseMessage(part.replace(/^\r\n/, '')));
  const of = (type: string) =>
    parts.find((part) => part.headers.get('content-type')?.startsWith(type))?.body.replace(/\r\n/g, '\n') ??
    '';
  return { text: of('text/plain'), html: of('text/html') };
}

describe('notification mails and digests (SMTP on loopback)', () => {
  let t: TestApp;
  let smtp: LoopbackSmtp | undefined;
  let author: LiveUser;
  const received: Received[] = [];

  beforeAll(async () => {
    smtp = await startSmtp((raw, envelope) => {
      const message = parseMessage(raw);
      received.push({ to: envelope.rcptTo[0]!.address.toLowerCase(), message, ...partsOf(message, raw) });
    });
    // The sweeps' own schedule far off: each test runs them when it wants.
    t = await createTestApp({ env: { SMTP_URL: smtp.url, MAIL_SWEEP_SECONDS: '3600' } });
    author = await liveUser(t);
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const mailsTo = (member: LiveUser) =>
    received.filter((mail) => mail.to === member.user.email.toLowerCase());
  const mailTo = (member: LiveUser, count = 1) =>
    waitFor(`mail #${count} to ${member.user.username}`, () => mailsTo(member)[count - 1]);

  let titles = 0;
  /** A paste by `by` (public unless said), its number. */
  async function paste(by: LiveUser, fields: { visibility?: string; title?: string } = {}): Promise<number> {
    const title = fields.title ?? `Mail paste ${++titles} ${Date.now()}`;
    await by.browser
      .post(API.threads)
      .send({ title, content: `content of ${title}`, visibility: fields.visibility ?? 'public' })
      .expect(201);
    const [row]: Array<{ id: number }> = await t.dataSource.query('SELECT id FROM threads WHERE title = $1', [
      title,
    ]);
    return row!.id;
  }

  let sources = 0;
  /** A notification row, as the fan-out (or the watch engineer's) would write it, `minutesAgo` old. */
  async function notice(
    member: LiveUser,
    fields: {
      type: NotificationType;
      threadId: number | null;
      content: string;
      minutesAgo?: number;
      source?: string;
      actor?: LiveUser;
      read?: boolean;
    },
  ): Promise<void> {
    await t.dataSource.query(
      `INSERT INTO notifications (user_id, type, content, thread_id, actor_id, source, is_read, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now() - make_interval(mins => $8))`,
      [
        member.user.id,
        fields.type,
        fields.content,
        fields.threadId,
        (fields.actor ?? author).user.id,
        fields.source ?? `test:${++sources}`,
        fields.read ?? false,
        fields.minutesAgo ?? 11,
      ],
    );
  }

  const notices = () => t.app.get(NoticeMails);
  /** The away mails' sweep as the queue runs it (a job of the mail queue); resolves once it ran. */
  async function sweepJob(): Promise<void> {
    const jobId = `test-sweep-${++sources}`;
    const queue = t.app.get(QueuePort);
    await queue.add(MAIL_QUEUE, MAILINGS_JOBS.noticeSweep, {}, { jobId });
    await queue.settled(MAIL_QUEUE, jobId);
  }

  const preferences = (member: LiveUser, body: Partial<NotificationPreferences>) =>
    member.browser.put(API.userNotificationPreferences).send(body).expect(200);

  const tokenOf = (mail: Received) =>
    /<([^>]+\/api\/unsubscribe\?token=([^>]+))>/.exec(mail.message.headers.get('list-unsubscribe') ?? '');

  it('registers the sweeps as repeatable jobs of the mail queue', () => {
    const jobs = t.app.get(QueuePort).repeatableJobs.filter((job) => job.queue === MAIL_QUEUE);
    expect(jobs.map((job) => [job.name, job.everyMs])).toEqual([
      [MAILINGS_JOBS.noticeSweep, 3_600_000],
      [MAILINGS_JOBS.digestSweep, 15 * 60_000],
    ]);
  });

  describe('preferences', () => {
    it('start at the defaults and change one at a time; bad values are a 400 with the reason', async () => {
      const member = await liveUser(t);
      const got = await member.browser.get(API.userNotificationPreferences).expect(200);
      expect(got.body).toEqual(NOTIFICATION_PREFERENCE_DEFAULTS);
      expect(NOTIFICATION_PREFERENCE_DEFAULTS).toEqual({
        reply: 'email',
        mention: 'email',
        message: 'email',
        watch: 'site',
        tag: 'site',
        follow: 'site',
        digest: 'weekly',
      });
      const saved = await preferences(member, { follow: 'email', digest: 'daily' });
      expect(saved.body).toEqual({ ...NOTIFICATION_PREFERENCE_DEFAULTS, follow: 'email', digest: 'daily' });
      await preferences(member, { reply: 'site' });
      expect((await member.browser.get(API.userNotificationPreferences).expect(200)).body).toEqual({
        ...NOTIFICATION_PREFERENCE_DEFAULTS,
        follow: 'email',
        digest: 'daily',
        reply: 'site',
      });

      const bad = await member.browser
        .put(API.userNotificationPreferences)
        .send({ reply: 'sms' })
        .expect(400);
      expect(bad.body.message).toBe(`reply: ${MAIL_PREFERENCE_MESSAGES.channelInvalid}`);
      const badDigest = await member.browser
        .put(API.userNotificationPreferences)
        .send({ digest: 'monthly' })
        .expect(400);
      expect(badDigest.body.message).toBe(`digest: ${MAIL_PREFERENCE_MESSAGES.digestInvalid}`);

      await supertest(t.url).get(API.userNotificationPreferences).expect(401);
      await t.browser().put(API.userNotificationPreferences).send({ reply: 'site' }).expect(401);
    });
  });

  describe('the away mail', () => {
    it('gathers every unread notification into one mail, each linking to its paste or the messages', async () => {
      const member = await liveUser(t);
      const first = await paste(author);
      const second = await paste(author);
      await notice(member, {
        type: 'reply',
        threadId: first,
        content: 'alice replied to your paste "one"',
        minutesAgo: 15,
      });
      await notice(member, {
        type: 'mention',
        threadId: second,
        content: 'alice mentioned you in "two"',
        minutesAgo: 12,
      });
      // Younger than MAIL_AWAY_MINUTES, but unread when the mail goes: it goes with the others.
      await notice(member, {
        type: 'message',
        threadId: null,
        content: 'alice sent you a message',
        minutesAgo: 1,
      });

      await sweepJob();
      const mail = await mailTo(member);
      expect(mail.message.headers.get('subject')).toBe('3 new notifications on Termpaste');
      expect(mail.message.headers.get('content-type')).toMatch(/^multipart\/alternative/);
      expect(mail.text).toContain(`Hello ${member.user.username},`);
      expect(mail.text).toContain(
        `* alice replied to your paste "one" (replies to you)\n  ${t.config.publicUrl}/thread/${first}\n`,
      );
      expect(mail.text).toContain(
        `* alice mentioned you in "two" (mentions of you)\n  ${t.config.publicUrl}/thread/${second}\n`,
      );
      expect(mail.text).toContain(
        `* alice sent you a message (private messages)\n  ${t.config.publicUrl}/messages\n`,
      );
      expect(mail.text).toContain(
        `Choose which e-mails you get: ${t.config.publicUrl}/settings/notifications`,
      );
      expect(mail.text).toMatch(/Unsubscribe from every e-mail: http:\/\/\S+\/unsubscribe\?token=\S+/);
      expect(mail.html).toContain('alice replied to your paste &quot;one&quot;');
      // RFC 8058: the one-click address and its POST.
      expect(tokenOf(mail)?.[1]).toMatch(/^http:\/\/localhost:\d+\/api\/unsubscribe\?token=\d+\.all\./);
      expect(mail.message.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');

      // Nothing new: nothing more. A new notification waits for its own window.
      expect(await notices().sweep()).toBe(0);
      await notice(member, { type: 'reply', threadId: first, content: 'later', minutesAgo: 0 });
      expect(await notices().sweep()).toBe(0);
    });

    it('is claimed once when two sweeps run at the same time (two workers)', async () => {
      const member = await liveUser(t);
      await notice(member, { type: 'reply', threadId: await paste(author), content: 'raced' });
      const counts = await Promise.all([notices().sweep(), notices().sweep(), notices().sweep()]);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
      await mailTo(member);
    });

    it('waits MAIL_AWAY_MINUTES, skips read notifications and kinds kept in the site', async () => {
      const member = await liveUser(t);
      const id = await paste(author);
      await notice(member, { type: 'reply', threadId: id, content: 'too fresh', minutesAgo: 5 });
      await notice(member, { type: 'mention', threadId: id, content: 'already read', read: true });
      // Watched pastes and followed members: in the site only by default.
      await notice(member, { type: 'watch', threadId: id, content: 'watched reply' });
      await notice(member, { type: 'follow', threadId: id, content: 'followed paste' });
      await notice(member, { type: 'moderation', threadId: id, content: 'staff note' });
      expect(await notices().sweep()).toBe(0);

      await preferences(member, { reply: 'site', follow: 'email' });
      await notice(member, { type: 'reply', threadId: id, content: 'a reply kept in the site' });
      expect(await notices().sweep()).toBe(1);
      const mail = await mailTo(member);
      expect(mail.message.headers.get('subject')).toBe('1 new notification on Termpaste');
      expect(mail.text).toContain('* followed paste (new pastes of members you follow)');
      for (const absent of ['too fresh', 'already read', 'watched reply', 'staff note', 'kept in the site']) {
        expect(mail.text).not.toContain(absent);
      }
      expect(tokenOf(mail)?.[2]).toMatch(/^\d+\.follow\./);
    });

    it('is not sent while the member has a live socket open, and is once they leave', async () => {
      const member = await liveUser(t);
      const socket = await connect(t, { cookie: member.cookie });
      await notice(member, { type: 'reply', threadId: await paste(author), content: 'while online' });
      const online = () => t.app.get(PresencePort).present(ONLINE_TOPIC, [String(member.user.id)]);
      await waitFor('the member online', async () => (await online())[0]);
      expect(await notices().sweep()).toBe(0);
      expect(mailsTo(member)).toHaveLength(0);
      await socket.close();
      await waitFor('the member away and mailed', async () => (await notices().sweep()) === 1);
      expect((await mailTo(member)).text).toContain('while online');
    });

    it('leaves out what the member may no longer read, and sends nothing when nothing is left', async () => {
      const member = await liveUser(t);
      const blocked = await liveUser(t);
      const deleted = await paste(author);
      const hidden = await paste(author);
      const privateOne = await paste(author, { visibility: 'private' });
      const fine = await paste(author);
      const withReply = await paste(author);
      await t.dataSource.query('UPDATE threads SET deleted_at = now() WHERE id = $1', [deleted]);
      await t.dataSource.query('UPDATE threads SET hidden_at = now() WHERE id = $1', [hidden]);
      const reply = await author.browser
        .post(API.threadReplies(withReply))
        .send({ content: 'a reply, deleted' });
      expect(reply.status).toBe(201);
      await t.dataSource.query('UPDATE replies SET deleted_at = now() WHERE id = $1', [reply.body.id]);
      await member.browser
        .put(API.userBlock(blocked.user.id))
        .expect((res) => expect(res.status).toBeLessThan(300));

      const gone = async (target: LiveUser) => {
        await notice(target, { type: 'reply', threadId: deleted, content: 'about a deleted paste' });
        await notice(target, { type: 'reply', threadId: hidden, content: 'about a hidden paste' });
        await notice(target, { type: 'mention', threadId: privateOne, content: 'about a private paste' });
        await notice(target, {
          type: 'reply',
          threadId: withReply,
          content: 'about a deleted reply',
          source: `reply:${reply.body.id}`,
        });
        await notice(target, {
          type: 'reply',
          threadId: fine,
          content: 'from a blocked member',
          actor: blocked,
        });
      };
      await gone(member);
      await notice(member, { type: 'reply', threadId: fine, content: 'still readable' });
      // Another member with nothing readable left.
      const other = await liveUser(t);
      await other.browser
        .put(API.userBlock(blocked.user.id))
        .expect((res) => expect(res.status).toBeLessThan(300));
      await gone(other);

      await sweepJob();
      const mail = await mailTo(member);
      expect(mail.message.headers.get('subject')).toBe('1 new notification on Termpaste');
      expect(mail.text).toContain('still readable');
      expect(mail.text).not.toMatch(/deleted|hidden|private|blocked/);

      // The other's mail job ran and wrote nothing.
      const until = (
        await t.dataSource.query('SELECT notices_mailed_at FROM mail_settings WHERE user_id = $1', [
          other.user.id,
        ])
      )[0].notices_mailed_at as Date;
      await t.app.get(QueuePort).settled(MAIL_QUEUE, `notice-mail-${other.user.id}-${until.getTime()}`);
      await waitFor('the log line', () => t.logs.text().includes(`No away mail for member ${other.user.id}`));
      expect(mailsTo(other)).toHaveLength(0);
    });

    it('goes to no unverified address and no banned member', async () => {
      const unverified = await registeredUnverified(t);
      const banned = await liveUser(t);
      await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [banned.user.id]);
      const id = await paste(author);
      await t.dataSource.query(
        `INSERT INTO notifications (user_id, type, content, thread_id, source, created_at)
         VALUES ($1, 'reply', 'x', $3, 'test:u', now() - interval '1 hour'),
                ($2, 'reply', 'x', $3, 'test:b', now() - interval '1 hour')`,
        [unverified.user.id, banned.user.id, id],
      );
      expect(await notices().sweep()).toBe(0);
    });
  });

  describe('unsubscribing', () => {
    it('GET says what the link does, POST (one-click, no sign-in, any origin) turns it off', async () => {
      const member = await liveUser(t);
      await notice(member, { type: 'reply', threadId: await paste(author), content: 'to unsubscribe from' });
      await sweepJob();
      const mail = await mailTo(member);
      const [, url, token] = tokenOf(mail)!;
      expect(token).toMatch(/^\d+\.reply\./);
      const path = new URL(url!).pathname + new URL(url!).search;
      expect(mail.text).toContain(
        `Unsubscribe from these e-mails: ${t.config.publicUrl}/unsubscribe?token=${token}`,
      );

      const visitor = supertest(t.url);
      const described = await visitor.get(path).expect(200);
      expect(described.body).toEqual({
        username: member.user.username,
        scope: 'reply',
        what: 'e-mails about: replies to you',
        unsubscribed: false,
      });
      // What a mail client sends (RFC 8058): a form body, no cookie, no Origin of ours.
      const done = await visitor
        .post(path)
        .set('Origin', 'https://mail.example.net')
        .type('form')
        .send('List-Unsubscribe=One-Click')
        .expect(200);
      expect(done.body).toMatchObject({ scope: 'reply', unsubscribed: true });
      const after = await member.browser.get(API.userNotificationPreferences).expect(200);
      expect(after.body).toEqual({ ...NOTIFICATION_PREFERENCE_DEFAULTS, reply: 'site' });
      expect((await visitor.get(path).expect(200)).body.unsubscribed).toBe(true);
    });

    it('an "all" token turns off every mail and the digest', async () => {
      const member = await liveUser(t);
      const id = await paste(author);
      await notice(member, { type: 'reply', threadId: id, content: 'one' });
      await notice(member, { type: 'mention', threadId: id, content: 'two' });
      await sweepJob();
      const [, url] = tokenOf(await mailTo(member))!;
      await supertest(t.url)
        .post(new URL(url!).pathname + new URL(url!).search)
        .expect(200);
      const after = await member.browser.get(API.userNotificationPreferences).expect(200);
      expect(after.body).toEqual({
        reply: 'site',
        mention: 'site',
        message: 'site',
        watch: 'site',
        tag: 'site',
        follow: 'site',
        digest: 'never',
      });
    });

    it('refuses a forged, altered or missing token with a 400 and its reason', async () => {
      const member = await liveUser(t);
      await notice(member, { type: 'reply', threadId: await paste(author), content: 'forge me' });
      await sweepJob();
      const [, , token] = tokenOf(await mailTo(member))!;
      const [id, , mac] = token!.split('.');
      const visitor = supertest(t.url);
      const forged = [
        `${id}.all.${mac}`, // another scope, the same mac
        `${author.user.id}.reply.${mac}`, // another member
        `${id}.reply.${'A'.repeat(43)}`,
        `${id}.reply`,
        'nonsense',
      ];
      for (const bad of forged) {
        for (const method of ['get', 'post'] as const) {
          const res = await visitor[method](`${API.unsubscribe}?token=${encodeURIComponent(bad)}`).expect(
            400,
          );
          expect(res.body.message).toBe(MAIL_PREFERENCE_MESSAGES.tokenInvalid);
        }
      }
      const missing = await visitor.post(API.unsubscribe).expect(400);
      expect(missing.body.message).toBe(MAIL_PREFERENCE_MESSAGES.tokenMissing);
      expect((await member.browser.get(API.userNotificationPreferences).expect(200)).body.reply).toBe(
        'email',
      );
    });
  });

  describe('the digest', () => {
    /** Makes `member` a month old and last seen `daysAgo` days ago. */
    async function away(member: LiveUser, daysAgo: number): Promise<void> {
      await t.dataSource.query("UPDATE users SET created_at = now() - interval '30 days' WHERE id = $1", [
        member.user.id,
      ]);
      await t.dataSource.query(
        "UPDATE sessions SET expires_at = now() + interval '30 days' - make_interval(days => $2) WHERE user_id = $1",
        [member.user.id, daysAgo],
      );
    }

    async function digestJob(): Promise<void> {
      const jobId = `test-digest-${++sources}`;
      const queue = t.app.get(QueuePort);
      await queue.add(MAIL_QUEUE, MAILINGS_JOBS.digestSweep, {}, { jobId });
      await queue.settled(MAIL_QUEUE, jobId);
    }

    it('sends members away for a week the top listed pastes, in HTML and plain text', async () => {
      const reader = await liveUser(t);
      const visitedYesterday = await liveUser(t);
      const neverDigest = await liveUser(t);
      const blocked = await liveUser(t);
      await away(reader, 8);
      await away(visitedYesterday, 1);
      await away(neverDigest, 8);
      await preferences(neverDigest, { digest: 'never' });
      await reader.browser
        .put(API.userBlock(blocked.user.id))
        .expect((res) => expect(res.status).toBeLessThan(300));

      const top = await paste(author, { title: 'Top <b>paste</b> of the week' });
      const second = await paste(author, { title: 'Second paste of the week' });
      const unlisted = await paste(author, { title: 'An unlisted paste', visibility: 'unlisted' });
      const byBlocked = await paste(blocked, { title: 'A paste by a blocked member' });
      await t.dataSource.query('UPDATE threads SET vote_score = 40, reply_count = 9 WHERE id = $1', [top]);
      await t.dataSource.query('UPDATE threads SET vote_score = 20, reply_count = 3 WHERE id = $1', [second]);
      await t.dataSource.query('UPDATE threads SET vote_score = 90 WHERE id = ANY($1)', [
        [unlisted, byBlocked],
      ]);

      await digestJob();
      const mail = await mailTo(reader);
      expect(mail.message.headers.get('subject')).toBe('Your weekly digest: the top pastes on Termpaste');
      expect(mail.message.headers.get('list-unsubscribe')).toMatch(
        /^<http:\/\/\S+\/api\/unsubscribe\?token=\d+\.digest\.\S+>$/,
      );
      expect(mail.message.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');

      expect(mail.text).toContain(
        `* Top <b>paste</b> of the week (40 votes · 9 replies · markdown · by ${author.user.username})\n  ${t.config.publicUrl}/thread/${top}`,
      );
      expect(mail.text.indexOf('Top <b>paste</b>')).toBeLessThan(
        mail.text.indexOf('Second paste of the week'),
      );
      expect(mail.text).not.toContain('unlisted');
      expect(mail.text).not.toContain('blocked member');
      expect(mail.text).toMatch(
        /Unsubscribe from the digest: http:\/\/\S+\/unsubscribe\?token=\d+\.digest\./,
      );
      expect(mail.text).toContain(
        `Choose which e-mails you get: ${t.config.publicUrl}/settings/notifications`,
      );

      // The terminal look: inline styles, dark, monospace; the title escaped.
      expect(mail.html).toContain('background:#0a0e0a');
      expect(mail.html).toContain('font-family:ui-monospace');
      expect(mail.html).toContain('termpaste:~$ top --week');
      expect(mail.html).toContain('Top &lt;b&gt;paste&lt;/b&gt; of the week');
      expect(mail.html).not.toContain('<style');

      expect(mailsTo(visitedYesterday)).toHaveLength(0);
      expect(mailsTo(neverDigest)).toHaveLength(0);
      // Once a week: not again now.
      expect(await t.app.get(DigestMails).sweep()).toBe(0);
    });
  });
});
