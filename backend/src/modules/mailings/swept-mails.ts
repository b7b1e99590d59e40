import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { MailJobRunner, type MailMessage } from '../../infra/mail/mail.service.js';
import { ONLINE_TOPIC, PresencePort } from '../../infra/presence/presence.port.js';
import { QueuePort } from '../../infra/queue/queue.port.js';
import { MailSettings } from './mail-settings.service.js';
import { newUnsubscribeKey } from './unsubscribe-tokens.js';

/** A member a sweep found due a mail, and the mark it read (null: never mailed). */
export interface DueMember {
  userId: number;
  since: Date | null;
}

/** The column of mail_settings where a mailing marks when it last claimed a member. */
type ClaimMark = 'notices_mailed_at' | 'digest_mailed_at';

/**
 * A mailing of the mail queue that a repeatable sweep claims member by member (the away mails, the
 * digests): its sweep job runs `sweep`, any other of its jobs is one member's mail, written by `write`.
 */
@Injectable()
export abstract class SweptMails<Job> extends MailJobRunner {
  /** The name of the sweep's job; the mailing's other job is its mail. */
  protected abstract readonly sweepJob: string;
  protected readonly logger = new Logger(this.constructor.name);

  constructor(
    protected readonly dataSource: DataSource,
    protected readonly queue: QueuePort,
    protected readonly presence: PresencePort,
    protected readonly settings: MailSettings,
    @InjectConfig() protected readonly config: AppConfig,
  ) {
    super();
  }

  /** Claims the members due a mail now and queues one each; returns how many. */
  abstract sweep(): Promise<number>;

  /** One member's mail from its job; null when there is nothing to send. */
  abstract write(job: Job): Promise<MailMessage | null>;

  async run(name: string, data: unknown): Promise<MailMessage | null> {
    if (name === this.sweepJob) {
      await this.sweep();
      return null;
    }
    return this.write(data as Job);
  }

  /**
   * Hands each member with no live socket anywhere to `queueOne` (one online is told by the bell, and
   * mailed once they leave); returns how many it queued.
   */
  protected async queueAway<Member extends DueMember>(
    due: Member[],
    queueOne: (member: Member) => Promise<boolean>,
  ): Promise<number> {
    if (due.length === 0) return 0;
    const online = await this.presence.present(
      ONLINE_TOPIC,
      due.map((member) => String(member.userId)),
    );
    let queued = 0;
    for (const [i, member] of due.entries()) {
      if (!online[i] && (await queueOne(member))) queued++;
    }
    return queued;
  }

  /**
   * Moves the member's mark from what the sweep read to now (milliseconds, so it reads back exactly), so
   * two workers never both claim them: null when another sweep moved it first.
   */
  protected async claim(mark: ClaimMark, { userId, since }: DueMember): Promise<Date | null> {
    const [row]: Array<{ at: Date }> = await this.dataSource.query(
      `INSERT INTO mail_settings (user_id, unsubscribe_key, ${mark})
       VALUES ($1, $2, date_trunc('milliseconds', now()))
       ON CONFLICT (user_id) DO UPDATE SET ${mark} = EXCLUDED.${mark}
       WHERE mail_settings.${mark} IS NOT DISTINCT FROM $3
       RETURNING ${mark} AS at`,
      [userId, newUnsubscribeKey(), since],
    );
    return row?.at ?? null;
  }
}
