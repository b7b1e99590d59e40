import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  Optional,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { settlesWithin } from '../../common/settles-within.js';
import { Metrics } from '../metrics/metrics.js';
import { QueuePort } from '../queue/queue.port.js';
import { inSpan, outsideTraces, traceparent } from '../tracing/tracing.js';
import { crashPoint } from './crash-point.js';
import { jobIdOf, OUTBOX_ROW_SELECT, type OutboxRow } from './outbox.js';
import { OUTBOX_OPTIONS, type OutboxOptions } from './outbox.options.js';

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Moves outbox rows to the queue, woken after commits and every `pollMs`; a crash re-adds rows under the
 * same jobIds, so each job goes out at least once. docs/backend.md.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Outbox');
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  /** The pass running now, if any. */
  private pass: Promise<void> | undefined;
  /** Woken while a pass ran: another follows it. */
  private again = false;
  /** Whether the last pass failed (a streak of failures is logged once). */
  private failing = false;
  /** Durable queue: the adds of a pass that gave up waiting for them, awaited before the next pass. */
  private stalled: Promise<unknown> | undefined;
  /** In-process queue: ids of the rows handed over and not yet deleted (the next passes skip them). */
  private readonly inFlight = new Set<string>();
  /** In-process queue: the rows whose job has run, to delete at the next pass. */
  private readonly ran = new Set<string>();
  /** In-process queue: handed-over jobs not settled yet. */
  private readonly unsettled = new Set<Promise<void>>();
  /** In-process queue: rows whose job the queue refused, skipped until the next poll. */
  private readonly refused = new Set<string>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly queue: QueuePort,
    @Inject(OUTBOX_OPTIONS) private readonly options: OutboxOptions,
    @Optional() metrics?: Metrics,
  ) {
    metrics?.onScrape('termpaste_outbox_backlog', async () => [[{}, await this.backlog()]]);
  }

  /** Rows not relayed yet (with the in-process queue: whose job has not run yet), read at a scrape. */
  async backlog(): Promise<number> {
    const [row]: Array<{ backlog: number }> = await this.dataSource.query(
      'SELECT count(*)::int AS backlog FROM outbox',
    );
    return row?.backlog ?? 0;
  }

  /** A first pass at once (rows a crash left), then one every `pollMs`. */
  onApplicationBootstrap(): void {
    this.stopped = false;
    clearInterval(this.timer);
    this.timer = setInterval(() => {
      this.refused.clear();
      this.wake();
    }, this.options.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Runs a pass now, or right after the one running. Never throws. */
  wake(): void {
    if (this.stopped) return;
    if (this.pass) {
      this.again = true;
      return;
    }
    // Outside the trace of the request whose commit woke it: a pass sends the rows of many.
    this.pass = outsideTraces(() => this.passes()).finally(() => (this.pass = undefined));
  }

  /** Resolves once no pass runs (tests: whatever was committed before has been handed to the queue). */
  async idle(): Promise<void> {
    while (this.pass) await this.pass;
  }

  /**
   * Stops polling, lets the running pass finish, and (in-process) deletes the rows of the jobs that run
   * to their end meanwhile; the others stay for the next start.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await settlesWithin(this.idle(), this.options.addWaitMs);
    if (this.queue.durable) return;
    await settlesWithin(Promise.all(this.unsettled), this.options.shutdownWaitMs);
    if (this.ran.size === 0) return;
    try {
      await this.inProcessPass(false);
    } catch (error) {
      this.logger.warn(`${this.ran.size} finished job(s) left in the outbox: ${reasonOf(error)}`);
    }
  }

  private async passes(): Promise<void> {
    do {
      this.again = false;
      let more: boolean;
      try {
        more = this.queue.durable ? await this.durablePass() : await this.inProcessPass(true);
      } catch (error) {
        if (!this.failing) {
          this.logger.error(
            `Jobs could not be queued; they stay in the outbox, retried every ${this.options.pollMs} ms: ` +
              reasonOf(error),
          );
        }
        this.failing = true;
        return;
      }
      if (this.failing) this.logger.log('Jobs are queued again');
      this.failing = false;
      if (more) this.again = true;
    } while (this.again && !this.stopped);
  }

  /**
   * Locks a batch, adds its jobs, deletes the rows of those the queue took, commits. Returns whether
   * more rows may wait (a full batch).
   */
  private async durablePass(): Promise<boolean> {
    if (this.stalled) {
      // The queue has not answered a former pass yet (Redis down): its adds are still buffered, and
      // will go out when it is back; no new batch until then.
      await this.stalled;
      this.stalled = undefined;
    }
    const { more, failed } = await this.dataSource.transaction(async (manager) => {
      const rows: OutboxRow[] = await manager.query(
        `SELECT ${OUTBOX_ROW_SELECT} FROM outbox o ORDER BY o.id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [this.options.batchSize],
      );
      if (rows.length === 0) return { more: false, failed: undefined };
      const results = Promise.allSettled(rows.map((row) => this.enqueue(row, jobIdOf(row))));
      if (!(await settlesWithin(results, this.options.addWaitMs))) {
        this.stalled = results;
        throw new Error(`the queue did not take ${rows.length} job(s) within ${this.options.addWaitMs} ms`);
      }
      const outcomes = await results;
      const taken = rows.filter((_, i) => outcomes[i]!.status === 'fulfilled');
      crashPoint('relayed');
      if (taken.length > 0) {
        await manager.query('DELETE FROM outbox WHERE id = ANY ($1::bigint[])', [taken.map((r) => r.id)]);
      }
      const rejected = outcomes.find((outcome) => outcome.status === 'rejected');
      return { more: rows.length === this.options.batchSize, failed: rejected };
    });
    // Reported once committed: the rows the queue took are gone, the others stay for the next pass.
    if (failed) throw failed.reason;
    return more;
  }

  /**
   * Deletes the rows whose job ran, and (when `fetch`) reads rows not handed over yet, in one statement,
   * and hands those to the queue. Returns whether more rows may wait.
   */
  private async inProcessPass(fetch: boolean): Promise<boolean> {
    const ran = [...this.ran];
    const room = fetch ? this.options.inFlightMax - (this.inFlight.size - ran.length) : 0;
    if (ran.length === 0 && room <= 0) return false;
    const skip = [...this.inFlight, ...this.refused];
    const rows: OutboxRow[] = await this.dataSource.query(
      `WITH gone AS (DELETE FROM outbox WHERE id = ANY ($1::bigint[]))
       SELECT ${OUTBOX_ROW_SELECT} FROM outbox o WHERE o.id <> ALL ($2::bigint[]) ORDER BY o.id LIMIT $3`,
      [ran, skip, Math.max(room, 0)],
    );
    for (const id of ran) {
      this.ran.delete(id);
      this.inFlight.delete(id);
    }
    let failure: { reason: unknown } | undefined;
    for (const row of rows) {
      try {
        await this.handOver(row);
      } catch (error) {
        this.refused.add(row.id);
        failure ??= { reason: error };
      }
    }
    if (failure) throw failure.reason;
    return room > 0 && rows.length === room;
  }

  /**
   * Adds a row's job. A row written inside a trace is sent in a span of that trace, which the job
   * continues (the row's own traceparent goes on where this process does not trace).
   */
  private enqueue(row: OutboxRow, jobId: string): Promise<void> {
    if (row.traceparent === null) return this.queue.add(row.queue, row.name, row.data, { jobId });
    const attributes = {
      'messaging.system': this.queue.durable ? 'bullmq' : 'in-process',
      'messaging.operation.type': 'send',
      'messaging.destination.name': row.queue,
      'messaging.message.id': jobId,
      'termpaste.job.name': row.name,
    };
    return inSpan(
      `outbox relay ${row.queue}`,
      { kind: 'producer', parent: row.traceparent, attributes },
      () =>
        this.queue.add(row.queue, row.name, row.data, {
          jobId,
          traceparent: traceparent() ?? row.traceparent,
        }),
    );
  }

  /** In-process: queues a row's job and, once it has run, marks the row for deletion. */
  private async handOver(row: OutboxRow): Promise<void> {
    const jobId = jobIdOf(row);
    await this.enqueue(row, jobId);
    this.inFlight.add(row.id);
    const settled = this.queue.settled(row.queue, jobId).then((ran) => {
      this.unsettled.delete(settled);
      // Not run (dropped at shutdown): the row stays for the next start.
      if (!ran) return;
      crashPoint('relayed');
      this.ran.add(row.id);
      this.wake();
    });
    this.unsettled.add(settled);
  }
}
