import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { EXPIRES_IN, type ExpiresIn, PASTE_LIVE_EVENT } from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { announcePagesChanged, EventsPort } from '../../infra/events/events.port.js';
import { type QueueJob, QueueProcessor, QueuePort } from '../../infra/queue/queue.port.js';
import {
  EXPIRE_PASTE_JOB,
  expireJobId,
  type ExpirePasteJob,
  EXPIRY_QUEUE,
  EXPIRY_SWEEP_INTERVAL_MS,
  EXPIRY_SWEEP_JOB,
  EXPIRY_SWEEP_SCHEDULE,
} from './expiry.queue.js';
import { PasteRemoval, type RemovedPaste } from './paste-removal.js';
import { takeLock } from '../../infra/database/lock-order.js';

/** Expired pastes a sweep removes per transaction. */
const SWEEP_BATCH = 100;
/** An expired paste, in SQL over `t`. */
const EXPIRED = 't.expires_at IS NOT NULL AND t.expires_at <= now()';

/**
 * Expiring pastes. Every read checks `expires_at` (visibility.ts), so an expired paste is 404 at once;
 * removal is a delayed job at expiry plus a repeatable sweep for what a job missed. Both idempotent.
 * EXPIRY_TIME_SCALE shortens every choice for tests and demos.
 */
@Injectable()
@QueueProcessor(EXPIRY_QUEUE)
export class PasteExpiry implements QueueProcessor, OnModuleInit {
  private readonly logger = new Logger('Expiry');

  constructor(
    private readonly dataSource: DataSource,
    private readonly queue: QueuePort,
    private readonly removal: PasteRemoval,
    private readonly events: EventsPort,
    @InjectConfig() private readonly config: Pick<AppConfig, 'expiryTimeScale'>,
  ) {}

  onModuleInit(): void {
    this.queue.repeat({
      queue: EXPIRY_QUEUE,
      id: EXPIRY_SWEEP_SCHEDULE,
      name: EXPIRY_SWEEP_JOB,
      data: {},
      everyMs: EXPIRY_SWEEP_INTERVAL_MS,
      attempts: 1,
    });
  }

  /** When a paste given `expiresIn` now expires (null: never, or no choice made). */
  expiresAt(expiresIn: ExpiresIn | undefined, now = Date.now()): Date | null {
    const seconds = expiresIn === undefined ? null : EXPIRES_IN[expiresIn];
    return seconds === null ? null : new Date(now + (seconds * 1000) / this.config.expiryTimeScale);
  }

  /**
   * After the commit that set a paste's expiry: its removal, a delayed job at `expiresAt`. A queue that
   * cannot take it is logged; the sweep removes the paste all the same.
   */
  async schedule(pasteId: number, expiresAt: Date | null): Promise<void> {
    if (expiresAt === null) return;
    try {
      await this.queue.add<ExpirePasteJob>(
        EXPIRY_QUEUE,
        EXPIRE_PASTE_JOB,
        { pasteId },
        { jobId: expireJobId(pasteId, expiresAt), delayMs: Math.max(0, expiresAt.getTime() - Date.now()) },
      );
    } catch (error) {
      this.logger.warn(
        `Paste ${pasteId}'s expiry not queued (the sweep removes it): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  async process(job: QueueJob): Promise<void> {
    if (job.name === EXPIRE_PASTE_JOB) {
      await this.expire((job.data as ExpirePasteJob).pasteId);
    } else if (job.name === EXPIRY_SWEEP_JOB) {
      await this.sweep();
    } else {
      throw new Error(`Unknown expiry job "${job.name}"`);
    }
  }

  /** Removes the paste `pasteId` if it has expired; whether it did. */
  async expire(pasteId: number): Promise<boolean> {
    const removed = await this.dataSource.transaction((manager) =>
      this.removal.remove(manager, pasteId, EXPIRED),
    );
    if (removed) await this.removed([removed]);
    return removed !== null;
  }

  /** Removes every expired paste, a batch per transaction; how many. */
  async sweep(): Promise<number> {
    let total = 0;
    for (;;) {
      const removed = await this.dataSource.transaction(async (manager) => {
        const rows: Array<{ id: number }> = await manager.query(
          `SELECT t.id FROM threads t WHERE ${EXPIRED} AND t.deleted_at IS NULL
           ORDER BY t.id LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED`,
        );
        takeLock(
          manager,
          'paste',
          rows.map((row) => row.id),
        );
        const gone: RemovedPaste[] = [];
        for (const { id } of rows) {
          const one = await this.removal.remove(manager, id, EXPIRED);
          if (one) gone.push(one);
        }
        return { gone, full: rows.length === SWEEP_BATCH };
      });
      total += removed.gone.length;
      await this.removed(removed.gone);
      if (!removed.full) break;
    }
    if (total > 0) this.logger.log(`Removed ${total} expired paste(s)`);
    return total;
  }

  /** Every instance drops the removed pastes' pages, and their readers hear they are gone. */
  private async removed(pastes: readonly RemovedPaste[]): Promise<void> {
    for (const paste of pastes) {
      await announcePagesChanged(
        this.events,
        {
          ...(paste.listed ? { lists: true as const } : {}),
          threads: [paste.id],
          ...(paste.authorId !== null ? { profiles: [paste.authorId] } : {}),
        },
        this.logger,
        { type: PASTE_LIVE_EVENT.pasteDeleted, threadId: paste.id },
      );
    }
  }
}
