import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { PAGES } from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { announcePagesChanged, EventsPort } from '../../infra/events/events.port.js';
import { MAIL_QUEUE, type MailMessage, SEND_MAIL_JOB } from '../../infra/mail/mail.service.js';
import { OutboxService } from '../../infra/outbox/outbox.service.js';
import { type QueueJob, QueueProcessor, QueuePort } from '../../infra/queue/queue.port.js';
import { type AuditActor, AuditService } from '../audit/audit.service.js';
import { UserAdminService } from '../users/user-admin.service.js';
import {
  LIFT_SUSPENSION_JOB,
  liftJobId,
  type LiftSuspensionJob,
  type SuspensionKind,
  SUSPENSIONS_QUEUE,
  SUSPENSIONS_SWEEP_INTERVAL_MS,
  SUSPENSIONS_SWEEP_JOB,
  SUSPENSIONS_SWEEP_SCHEDULE,
} from './suspensions.queue.js';

/** Who lifts a suspension that ended, in the audit log. */
export const SYSTEM_ACTOR: AuditActor = { id: null, username: 'system' };

/** Ended suspensions a sweep lifts per kind and run, at most (the next run takes the rest). */
const SWEEP_BATCH = 500;

/**
 * Lifts timed bans and silences when they end (reads already check ends against the clock): clears the
 * row, closes its history, audits and mails the member. A delayed job at each end, and a sweep for any it
 * missed; both leave alone a suspension given other terms since, or lifted by staff.
 */
@Injectable()
@QueueProcessor(SUSPENSIONS_QUEUE)
export class SuspensionLift implements QueueProcessor, OnModuleInit {
  private readonly logger = new Logger('Suspensions');

  constructor(
    private readonly dataSource: DataSource,
    private readonly queue: QueuePort,
    private readonly userAdmin: UserAdminService,
    private readonly audit: AuditService,
    private readonly events: EventsPort,
    private readonly outbox: OutboxService,
    @InjectConfig()
    private readonly config: Pick<AppConfig, 'productName' | 'publicUrl'>,
  ) {}

  onModuleInit(): void {
    this.queue.repeat({
      queue: SUSPENSIONS_QUEUE,
      id: SUSPENSIONS_SWEEP_SCHEDULE,
      name: SUSPENSIONS_SWEEP_JOB,
      data: {},
      everyMs: SUSPENSIONS_SWEEP_INTERVAL_MS,
      attempts: 1,
    });
  }

  /**
   * After the commit that gave a ban or silence its end: a delayed job then. A queue that cannot take it
   * is logged; the sweep lifts it all the same.
   */
  async schedule(kind: SuspensionKind, userId: number, until: Date | null): Promise<void> {
    if (until === null) return;
    const job: LiftSuspensionJob = { kind, userId, until: until.toISOString() };
    try {
      await this.queue.add<LiftSuspensionJob>(SUSPENSIONS_QUEUE, LIFT_SUSPENSION_JOB, job, {
        jobId: liftJobId(job),
        delayMs: Math.max(0, until.getTime() - Date.now()),
      });
    } catch (error) {
      this.logger.warn(
        `The end of member ${userId}'s ${kind} not queued (the sweep lifts it): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  async process(job: QueueJob): Promise<void> {
    if (job.name === LIFT_SUSPENSION_JOB) {
      const { kind, userId, until } = job.data as LiftSuspensionJob;
      await this.lift(kind, userId, new Date(until));
    } else if (job.name === SUSPENSIONS_SWEEP_JOB) {
      await this.sweep();
    } else {
      throw new Error(`Unknown suspensions job "${job.name}"`);
    }
  }

  /**
   * Lifts member `userId`'s `kind` once it has ended, if it is still the one ending at `until` (null:
   * whichever has ended, for the sweep); whether it did.
   */
  async lift(kind: SuspensionKind, userId: number, until: Date | null): Promise<boolean> {
    const lifted = await this.dataSource.transaction(async (manager) => {
      const ended =
        kind === 'ban'
          ? await this.userAdmin.liftEndedBan(manager, userId, until)
          : await this.userAdmin.liftEndedSilence(manager, userId, until);
      if (ended === null) return false;
      await manager.query(
        `UPDATE suspensions SET lifted_at = now()
         WHERE user_id = $1 AND kind = $2 AND lifted_at IS NULL AND ends_at IS NOT NULL AND ends_at <= now()`,
        [userId, kind],
      );
      const end = ended.until.toISOString();
      await this.audit.record(manager, SYSTEM_ACTOR, {
        action: kind === 'ban' ? 'user.unban' : 'user.unsilence',
        targetType: 'user',
        targetId: userId,
        targetLabel: ended.username,
        before: kind === 'ban' ? { isBanned: true, bannedUntil: end } : { silencedUntil: end },
        after: { ...(kind === 'ban' ? { isBanned: false } : { silencedUntil: null }), ended: true },
      });
      await this.outbox.add(manager, {
        queue: MAIL_QUEUE,
        name: SEND_MAIL_JOB,
        data: liftedMail(this.config, ended, kind, 'ended'),
      });
      return true;
    });
    if (lifted) {
      this.outbox.committed();
      await announcePagesChanged(this.events, { all: true }, this.logger);
    }
    return lifted;
  }

  /** Lifts every ban and silence that has ended; how many. */
  async sweep(): Promise<number> {
    let total = 0;
    for (const kind of ['ban', 'silence'] as const) {
      for (const userId of await this.userAdmin.endedSuspensions(kind, SWEEP_BATCH)) {
        if (await this.lift(kind, userId, null)) total += 1;
      }
    }
    if (total > 0) this.logger.log(`Lifted ${total} ended suspension(s)`);
    return total;
  }
}

/**
 * The mail that tells a member their ban or silence is over: ended by itself, or lifted early by staff
 * (an unban or unsilence of the admin screen).
 */
export function liftedMail(
  config: Pick<AppConfig, 'productName' | 'publicUrl'>,
  user: { username: string; email: string },
  kind: SuspensionKind,
  how: 'ended' | 'lifted',
): MailMessage {
  const product = config.productName;
  const what = kind === 'ban' ? 'suspension' : 'silence';
  return {
    to: user.email,
    subject:
      how === 'ended'
        ? `The ${what} of your ${product} account has ended`
        : `Your ${product} account is no longer ${kind === 'ban' ? 'suspended' : 'silenced'}`,
    text: [
      how === 'ended'
        ? `The ${what} of the account ${user.username} on ${product} has ended.`
        : `The staff of ${product} lifted the ${what} of the account ${user.username}.`,
      '',
      kind === 'ban'
        ? `You can sign in again: ${config.publicUrl}${PAGES.login}`
        : `You can post again: ${config.publicUrl}/`,
    ].join('\n'),
  };
}
