import { Injectable } from '@nestjs/common';
import { type DigestFrequency, PAGES } from '@termpaste/contracts';
import { MAIL_QUEUE, type MailMessage } from '../../infra/mail/mail.service.js';
import { sessionUsedSinceSql } from '../auth/session-activity-sql.js';
import { type DigestPaste, topPastesSql } from '../pastes/mail-sql.js';
import { mailableMemberJoin, mailableMembersFrom } from '../users/mail-sql.js';
import { mailHtml, type MailLink, mailText } from './mail-layout.js';
import { DIGEST_PASTES, type DigestMailJob, MAILINGS_JOBS, SWEEP_BATCH } from './mailings.jobs.js';
import { unsubscribeHeaders, unsubscribePageUrl, unsubscribeUrl } from './notice-mails.js';
import { type DueMember, SweptMails } from './swept-mails.js';

/** A digest's period. */
const PERIOD_MS: Record<Exclude<DigestFrequency, 'never'>, number> = {
  daily: 86_400_000,
  weekly: 7 * 86_400_000,
};

interface DueDigest extends DueMember {
  frequency: Exclude<DigestFrequency, 'never'>;
}

/**
 * The digest: members away for MAIL_DIGEST_AWAY_DAYS (no session used since, no live socket) get, daily
 * or weekly as they chose, the period's top listed pastes by votes and replies. Claimed as the away mails
 * are (`digest_mailed_at` moved from the value read), written when the job runs.
 */
@Injectable()
export class DigestMails extends SweptMails<DigestMailJob> {
  protected readonly sweepJob = MAILINGS_JOBS.digestSweep;

  /** Claims the members due a digest now and queues one each; returns how many. */
  async sweep(): Promise<number> {
    const due: DueDigest[] = await this.dataSource.query(
      `SELECT u.id AS "userId", s.digest_mailed_at AS since, COALESCE(s.digest, 'weekly') AS frequency
       FROM ${mailableMembersFrom('u')}
       LEFT JOIN mail_settings s ON s.user_id = u.id
       WHERE COALESCE(s.digest, 'weekly') <> 'never'
         AND COALESCE(s.digest_mailed_at, u.created_at) <= now() - CASE COALESCE(s.digest, 'weekly')
           WHEN 'daily' THEN interval '1 day' ELSE interval '7 days' END
         AND u.created_at <= now() - make_interval(secs => $1::double precision / 1000)
         AND NOT ${sessionUsedSinceSql('u.id', 'now() - make_interval(secs => $1::double precision / 1000)')}
       LIMIT $2`,
      [this.config.mailings.digestAwayMs, SWEEP_BATCH],
    );
    return this.queueAway(due, async (member) => {
      const at = await this.claim('digest_mailed_at', member);
      if (!at) return false;
      const periodStart = at.getTime() - PERIOD_MS[member.frequency];
      const since = new Date(Math.max(periodStart, member.since?.getTime() ?? periodStart));
      const job: DigestMailJob = { userId: member.userId, since: since.toISOString() };
      await this.queue.add(MAIL_QUEUE, MAILINGS_JOBS.digestMail, job, {
        jobId: `digest-mail-${member.userId}-${at.getTime()}`,
      });
      return true;
    });
  }

  /** The member's digest; null when nothing was posted in the period (or they may no longer be mailed). */
  async write({ userId, since }: DigestMailJob): Promise<MailMessage | null> {
    const [member]: Array<{ email: string; username: string }> = await this.dataSource.query(
      `SELECT u.email::text AS email, u.username::text AS username
       FROM (SELECT $1::integer AS id) m ${mailableMemberJoin('u', 'm.id')}`,
      [userId],
    );
    const preferences = member && (await this.settings.preferences(userId));
    if (!member || !preferences || preferences.digest === 'never') return null;
    const pastes: DigestPaste[] = await this.dataSource.query(topPastesSql('$1', '$2', '$3'), [
      since,
      userId,
      DIGEST_PASTES,
    ]);
    if (pastes.length === 0) {
      this.logger.log(`No digest for member ${userId}: no listed paste since ${since}`);
      return null;
    }
    const base = this.config.publicUrl;
    const product = this.config.productName;
    const token = await this.settings.unsubscribeToken(userId, 'digest');
    const links: MailLink[] = [
      { label: `Open ${product}`, url: `${base}${PAGES.home}` },
      { label: 'Choose which e-mails you get', url: `${base}${PAGES.settingsNotifications}` },
      { label: 'Unsubscribe from the digest', url: unsubscribePageUrl(base, token) },
    ];
    const period = preferences.digest === 'daily' ? 'day' : 'week';
    const body = {
      productName: product,
      command: `top --${period}`,
      greeting: `Hello ${member.username},`,
      intro: `The top pastes of the ${period} on ${product}, while you were away:`,
      items: pastes.map((paste) => ({
        text: paste.title,
        url: `${base}${PAGES.thread(paste.id)}`,
        note: [
          `${paste.voteScore} vote${Math.abs(paste.voteScore) === 1 ? '' : 's'}`,
          `${paste.replyCount} repl${paste.replyCount === 1 ? 'y' : 'ies'}`,
          paste.language ?? 'markdown',
          ...(paste.author ? [`by ${paste.author}`] : []),
        ].join(' · '),
      })),
      links,
    };
    return {
      to: member.email,
      subject: `Your ${preferences.digest} digest: the top pastes on ${product}`,
      text: mailText(body),
      html: mailHtml(body),
      headers: unsubscribeHeaders(unsubscribeUrl(base, token)),
    };
  }
}
