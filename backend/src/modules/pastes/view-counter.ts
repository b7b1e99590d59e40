import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Subject } from 'rxjs';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';

/**
 * Distinct pastes whose views wait for a flush, at most: past it (the database has been down a long time)
 * views of pastes not yet waiting are dropped, so memory stays bounded.
 */
export const VIEW_COUNTER_MAX_PASTES = 100_000;

const MAX_INT = 2_147_483_647;

/**
 * Paste views, counted in memory and stored in batches every VIEW_FLUSH_SECONDS and on shutdown: reads
 * write no row, a crash loses seconds of views. `pending(id)` is added to the stored count. A failed
 * batch is kept for the next one, bounded by VIEW_COUNTER_MAX_PASTES.
 */
@Injectable()
export class ViewCounter implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Views');
  /** Views counted since the last flush started, by paste. */
  private counted = new Map<number, number>();
  /** Views the running flush is writing: still pending until it commits. */
  private writing = new Map<number, number>();
  private queue: Promise<void> = Promise.resolve();
  /** Moves when a write of views starts and when it ends (see `consistentRead`). */
  private epoch = 0;
  private timer: NodeJS.Timeout | undefined;
  private droppedSinceWarning = 0;

  /** The ids of the pastes whose view counts a flush just stored (a cache of them is stale). */
  readonly flushed$ = new Subject<number[]>();

  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig() private readonly config: Pick<AppConfig, 'viewFlushMs'>,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.flush().catch(() => undefined); // logged by flush
    }, this.config.viewFlushMs);
    this.timer.unref();
  }

  /** After the HTTP server closed (no view can come any more), before the database closes. */
  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush().catch(() => undefined);
    this.flushed$.complete();
  }

  /** Counts one view of an existing paste. */
  count(threadId: number): void {
    const current = this.counted.get(threadId);
    if (current === undefined && this.counted.size + this.writing.size >= VIEW_COUNTER_MAX_PASTES) {
      this.droppedSinceWarning++;
      return;
    }
    this.counted.set(threadId, Math.min((current ?? 0) + 1, MAX_INT));
  }

  /** Views of the paste this process counted and has not stored yet. */
  pending(threadId: number): number {
    return (this.counted.get(threadId) ?? 0) + (this.writing.get(threadId) ?? 0);
  }

  /**
   * Stores every view counted so far (after any flush already running). Rejects when the database
   * refuses; the views are then kept for the next flush.
   */
  flush(): Promise<void> {
    const run = this.queue.then(() => this.write());
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Runs `read` (a query of `threads.view_count`) so that what it read and `pending()` agree: a flush that
   * commits while the read runs may or may not be in what it read, so then the read runs again once the
   * flush is over. Rare (a read must overlap a flush), and never more than twice again.
   */
  async consistentRead<T>(read: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const epoch = this.epoch;
      const result = await read();
      if ((this.epoch === epoch && this.writing.size === 0) || attempt === 2) return result;
      await this.queue;
    }
  }

  private async write(): Promise<void> {
    if (this.droppedSinceWarning > 0) {
      this.logger.warn(
        `${this.droppedSinceWarning} views not counted: views of ${VIEW_COUNTER_MAX_PASTES} pastes were already waiting to be stored`,
      );
      this.droppedSinceWarning = 0;
    }
    if (this.counted.size === 0) return;
    this.writing = this.counted;
    this.counted = new Map();
    this.epoch++;
    // In id order: two instances flushing at once lock the rows in the same order.
    const ids = [...this.writing.keys()].sort((a, b) => a - b);
    const views = ids.map((id) => this.writing.get(id)!);
    let stored: number[];
    try {
      const [rows] = (await this.dataSource.query(
        `UPDATE threads t SET view_count = LEAST(t.view_count::bigint + v.n, ${MAX_INT})::integer
         FROM unnest($1::int[], $2::int[]) AS v(id, n) WHERE t.id = v.id RETURNING t.id`,
        [ids, views],
      )) as [Array<{ id: number }>, number];
      stored = rows.map((row) => row.id);
    } catch (error) {
      for (const [id, n] of this.writing) {
        this.counted.set(id, Math.min((this.counted.get(id) ?? 0) + n, MAX_INT));
      }
      this.logger.warn(
        `Storing the views of ${this.writing.size} pastes failed, kept for the next try: ${error instanceof Error ? error.message : String(error)}`,
      );
      throw error;
    } finally {
      this.writing = new Map();
      this.epoch++;
    }
    if (stored.length > 0) this.flushed$.next(stored);
  }
}
