import { Injectable } from '@nestjs/common';
import {
  API,
  MAIL_NOTICE_KINDS,
  MAIL_NOTICE_LABELS,
  type MailNoticeKind,
  type NotificationType,
  PAGES,
  type UnsubscribeScope,
} from '@termpaste/contracts';
import { MAIL_QUEUE, type MailMessage } from '../../infra/mail/mail.service.js';
import { unreadNoticesFrom } from '../notifications/notice-mail-sql.js';
import { replySourceShownSql } from '../pastes/mail-sql.js';
import { readablePasteJoin } from '../pastes/post-sql.js';
import { REF_COLUMNS, refOf, type RefRow } from '../pastes/visibility.js';
import { hiddenByBlockSql } from '../screening/people-sql.js';
import { mailableMemberJoin } from '../users/mail-sql.js';
import { mailHtml, type MailItem, type MailLink, mailText } from './mail-layout.js';
import { wantsMailSql } from './mail-settings.service.js';
import {
  MAILINGS_JOBS,
  NOTICE_MAIL_ITEMS_MAX,
  NOTICE_MAIL_LOOKBACK_MS,
  type NoticeMailJob,
  SWEEP_BATCH,
} from './mailings.jobs.js';
import { type DueMember, SweptMails } from './swept-mails.js';
import { signUnsubscribe } from './unsubscribe-tokens.js';

type NoticeItemRow = RefRow & {
  type: NotificationType;
  content: string;
  readableId: number | null;
  email: string;
  username: string;
};

/** Whether a notification's type has a mail preference. */
const isMailKind = (type: NotificationType): type is MailNoticeKind =>
  (MAIL_NOTICE_KINDS as readonly string[]).includes(type);

/**
 * The 'away' mail: what is wanted by mail and unread MAIL_AWAY_MINUTES, its member with no live socket,
 * goes as one mail of all unread since the last. Claimed by moving `notices_mailed_at` from the value
 * read (two workers never both claim); written when its job runs, without what is no longer readable.
 */
@Injectable()
export class NoticeMails extends SweptMails<NoticeMailJob> {
  protected readonly sweepJob = MAILINGS_JOBS.noticeSweep;

  /** Claims the members due a mail now and queues one each; returns how many. */
  async sweep(): Promise<number> {
    const due: DueMember[] = await this.dataSource.query(
      `SELECT n.user_id AS "userId", s.notices_mailed_at AS since
       FROM ${unreadNoticesFrom('n')}
       ${mailableMemberJoin('u', 'n.user_id')}
       LEFT JOIN mail_settings s ON s.user_id = n.user_id
       WHERE n.created_at <= now() - make_interval(secs => $1::double precision / 1000)
         AND n.created_at > now() - make_interval(secs => $3::double precision / 1000)
         AND n.created_at > COALESCE(s.notices_mailed_at, '-infinity') AND ${wantsMailSql('s', 'n.type')}
       GROUP BY n.user_id, s.notices_mailed_at
       LIMIT $2`,
      [this.config.mailings.awayMs, SWEEP_BATCH, NOTICE_MAIL_LOOKBACK_MS],
    );
    return this.queueAway(due, async (member) => {
      const until = await this.claim('notices_mailed_at', member);
      if (!until) return false;
      const job: NoticeMailJob = {
        userId: member.userId,
        since: member.since?.toISOString() ?? null,
        until: until.toISOString(),
      };
      await this.queue.add(MAIL_QUEUE, MAILINGS_JOBS.noticeMail, job, {
        jobId: `notice-mail-${member.userId}-${until.getTime()}`,
      });
      return true;
    });
  }

  /** The member's mail, from what is unread and still theirs to read now; null: nothing left to tell. */
  async write({ userId, since, until }: NoticeMailJob): Promise<MailMessage | null> {
    const rows: NoticeItemRow[] = await this.dataSource.query(
      `SELECT n.type, n.content, t.id AS "readableId", ${REF_COLUMNS('t')},
         u.email::text AS email, u.username::text AS username
       FROM ${unreadNoticesFrom('n')}
       ${mailableMemberJoin('u', 'n.user_id')}
       LEFT JOIN mail_settings s ON s.user_id = n.user_id
       ${readablePasteJoin('t', 'n.thread_id', 'n.user_id')}
       WHERE n.user_id = $1 AND n.created_at > COALESCE($2::timestamptz, '-infinity') AND n.created_at <= $3
         AND ${wantsMailSql('s', 'n.type')}
         AND (n.type = 'message' OR t.id IS NOT NULL)
         AND NOT ${hiddenByBlockSql('n.user_id', 'n.actor_id')}
         AND ${replySourceShownSql('n.source')}
       ORDER BY n.created_at, n.id
       LIMIT $4`,
      [userId, since, until, NOTICE_MAIL_ITEMS_MAX],
    );
    if (rows.length === 0) {
      this.logger.log(`No away mail for member ${userId}: nothing left to tell`);
      return null;
    }
    const base = this.config.publicUrl;
    const items: MailItem[] = rows.map((row) => ({
      text: row.content,
      url:
        row.type === 'message' || row.readableId === null
          ? `${base}${PAGES.messages}`
          : `${base}${PAGES.thread(refOf(row.readableId, row))}`,
      note: isMailKind(row.type) ? MAIL_NOTICE_LABELS[row.type].toLowerCase() : undefined,
    }));
    const kinds = [...new Set(rows.map((row) => row.type).filter(isMailKind))];
    const { email, username } = rows[0]!;
    const scope: UnsubscribeScope = kinds.length === 1 ? kinds[0]! : 'all';
    const key = await this.settings.unsubscribeKey(userId);
    const token = signUnsubscribe(key, userId, scope);
    const links: MailLink[] = [
      { label: 'All your notifications', url: `${base}${PAGES.notifications}` },
      { label: 'Choose which e-mails you get', url: `${base}${PAGES.settingsNotifications}` },
    ];
    if (kinds.length > 1) {
      for (const kind of kinds) {
        links.push({
          label: `Stop e-mails about: ${MAIL_NOTICE_LABELS[kind].toLowerCase()}`,
          url: unsubscribePageUrl(base, signUnsubscribe(key, userId, kind)),
        });
      }
      links.push({ label: 'Unsubscribe from every e-mail', url: unsubscribePageUrl(base, token) });
    } else {
      links.push({ label: 'Unsubscribe from these e-mails', url: unsubscribePageUrl(base, token) });
    }
    const product = this.config.productName;
    const count = rows.length;
    const body = {
      productName: product,
      command: 'tail ~/notifications',
      greeting: `Hello ${username},`,
      intro: `While you were away from ${product}, ${count === 1 ? 'this happened' : `${count} things happened`}:`,
      items,
      links,
    };
    return {
      to: email,
      subject: `${count} new notification${count === 1 ? '' : 's'} on ${product}`,
      text: mailText(body),
      html: mailHtml(body),
      headers: unsubscribeHeaders(unsubscribeUrl(base, token)),
    };
  }
}

/** The API's address for a token: where mail clients send the one-click POST (List-Unsubscribe). */
export function unsubscribeUrl(publicUrl: string, token: string): string {
  return `${publicUrl}${API.unsubscribe}?token=${token}`;
}

/** The page that shows what a token does and confirms it (the link a member clicks). */
export function unsubscribePageUrl(publicUrl: string, token: string): string {
  return `${publicUrl}${PAGES.unsubscribe}?token=${token}`;
}

/** RFC 8058: a one-click unsubscribe address mail clients POST `List-Unsubscribe=One-Click` to. */
export function unsubscribeHeaders(url: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}
