import { Injectable } from '@nestjs/common';
import { type AdminUser, PAGES } from '@termpaste/contracts';
import type { EntityManager } from 'typeorm';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { MAIL_QUEUE, type MailMessage, SEND_MAIL_JOB } from '../../infra/mail/mail.service.js';
import { OutboxService } from '../../infra/outbox/outbox.service.js';
import { type Actor, AdminService } from '../admin/admin.service.js';
import type { User } from '../users/entities/user.entity.js';
import { markSpammer } from '../screening/spam-marks.js';
import { liftedMail, SuspensionLift } from './suspension-lift.js';
import type { SuspensionKind } from './suspensions.queue.js';

/** How long and why: `days` undefined is for ever (a ban only). */
export interface SuspensionTerm {
  days?: number;
  reason?: string;
}

const DAY_MS = 86_400_000;

/**
 * Bans with a duration and a reason, and silences, from the admin screen and the review queue: mailed,
 * shown at sign-in or on writing, lifted by a job. AdminService runs each in its transaction under the
 * owner-only rule; this adds the history row and the mail. Also delete spammer, which marks the address.
 */
@Injectable()
export class SuspensionsService {
  constructor(
    private readonly admin: AdminService,
    private readonly outbox: OutboxService,
    private readonly lift: SuspensionLift,
    @InjectConfig()
    private readonly config: Pick<AppConfig, 'moderation' | 'productName' | 'publicUrl'>,
  ) {}

  /** When a suspension of `days` given now ends (MODERATION_TIME_SCALE makes days pass faster). */
  endOf(days: number, now = Date.now()): Date {
    return new Date(now + Math.round((days * DAY_MS) / this.config.moderation.timeScale));
  }

  /** Bans member `userId` for `term.days` (for ever without) with `term.reason`. */
  async ban(actor: Actor, userId: number, term: SuspensionTerm = {}): Promise<AdminUser> {
    const until = term.days === undefined ? null : this.endOf(term.days);
    const reason = term.reason?.trim() || null;
    const user = await this.admin.ban(actor, userId, { until, reason }, (manager, target) =>
      this.given(manager, actor, target, { kind: 'ban', days: term.days ?? null, until, reason }),
    );
    this.outbox.committed();
    await this.lift.schedule('ban', userId, until);
    return user;
  }

  /** Lifts member `userId`'s ban (closing its history row) and mails them that it is lifted. */
  async unban(actor: Actor, userId: number): Promise<AdminUser> {
    const user = await this.admin.unban(actor, userId, (manager, target) =>
      this.liftedEarly(manager, target, 'ban'),
    );
    this.outbox.committed();
    return user;
  }

  /** Silences member `userId` for `term.days` with `term.reason` (the routes require both). */
  async silence(actor: Actor, userId: number, term: Required<SuspensionTerm>): Promise<AdminUser> {
    const until = this.endOf(term.days);
    const reason = term.reason?.trim() || null;
    const user = await this.admin.silence(actor, userId, { until, reason }, (manager, target) =>
      this.given(manager, actor, target, { kind: 'silence', days: term.days, until, reason }),
    );
    this.outbox.committed();
    await this.lift.schedule('silence', userId, until);
    return user;
  }

  /** Lifts member `userId`'s silence (closing its history row) and mails them that it is lifted. */
  async unsilence(actor: Actor, userId: number): Promise<AdminUser> {
    const user = await this.admin.unsilence(actor, userId, (manager, target) =>
      this.liftedEarly(manager, target, 'silence'),
    );
    this.outbox.committed();
    return user;
  }

  /**
   * Deletes a spammer: the account, their pastes, replies and chat lines, in one transaction, and
   * remembers their address (its hash) and its domain (unless a common mail provider's) in spam_marks
   * for the spam signals.
   */
  deleteSpammer(actor: Actor, userId: number): Promise<void> {
    return this.admin.deleteSpammer(actor, userId, async (manager, target) => {
      const domain = await markSpammer(manager, target);
      return { markedDomain: domain, markedAddress: true };
    });
  }

  /** In the action's transaction: the history row (closing the one it replaces) and the member's mail. */
  private async given(
    manager: EntityManager,
    actor: Actor,
    target: User,
    given: { kind: SuspensionKind; days: number | null; until: Date | null; reason: string | null },
  ): Promise<void> {
    await this.lifted(manager, target, given.kind);
    await manager.query(
      'INSERT INTO suspensions (user_id, kind, ends_at, reason, actor_id) VALUES ($1, $2, $3, $4, $5)',
      [target.id, given.kind, given.until, given.reason, actor.id],
    );
    await this.outbox.add(manager, {
      queue: MAIL_QUEUE,
      name: SEND_MAIL_JOB,
      data: suspensionMail(this.config, target, given),
    });
  }

  /** Staff lift a ban or silence in force: its history row closed and the member's mail, in one transaction. */
  private async liftedEarly(manager: EntityManager, target: User, kind: SuspensionKind): Promise<void> {
    await this.lifted(manager, target, kind);
    await this.outbox.add(manager, {
      queue: MAIL_QUEUE,
      name: SEND_MAIL_JOB,
      data: liftedMail(this.config, target, kind, 'lifted'),
    });
  }

  /** Closes the member's open history row of `kind`, if any. */
  private async lifted(manager: EntityManager, target: User, kind: SuspensionKind): Promise<void> {
    await manager.query(
      'UPDATE suspensions SET lifted_at = now() WHERE user_id = $1 AND kind = $2 AND lifted_at IS NULL',
      [target.id, kind],
    );
  }
}

const plural = (count: number, one: string) => `${count} ${count === 1 ? one : `${one}s`}`;
const utc = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The mail that tells a member of their ban or silence: how long, until when, and why. */
export function suspensionMail(
  config: Pick<AppConfig, 'productName' | 'publicUrl'>,
  user: { username: string; email: string },
  {
    kind,
    days,
    until,
    reason,
  }: { kind: SuspensionKind; days: number | null; until: Date | null; reason: string | null },
): MailMessage {
  const product = config.productName;
  const term =
    until === null || days === null ? 'permanently' : `for ${plural(days, 'day')}, until ${utc(until)}`;
  const what = kind === 'ban' ? 'suspended' : 'silenced';
  return {
    to: user.email,
    subject: `Your ${product} account is ${what}`,
    text: [
      `The staff of ${product} ${what} the account ${user.username} ${term}.`,
      `Reason: ${reason ?? 'none given'}`,
      '',
      kind === 'ban'
        ? until === null
          ? 'You cannot sign in any more.'
          : 'You cannot sign in until then; the account is restored by itself when it ends.'
        : 'Until then you can sign in, read, and write to the staff through the support page ' +
          `(${config.publicUrl}${PAGES.support}), nothing else. It ends by itself.`,
    ].join('\n'),
  };
}
