import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { assertValidJobId } from '../queue/queue.port.js';
import { traceparent } from '../tracing/tracing.js';
import { crashPoint } from './crash-point.js';
import type { OutboxJob } from './outbox.js';
import { OutboxRelay } from './outbox.relay.js';

/**
 * For writers: `add` writes a job inside their transaction (or `outboxInsertSql` inside their statement);
 * `committed` wakes the relay after the commit, so the job goes out now, not at the next poll.
 */
@Injectable()
export class OutboxService {
  constructor(private readonly relay: OutboxRelay) {}

  /**
   * Writes `job` to the outbox in the transaction of `manager`: it reaches the queue once that commits,
   * and never if it rolls back. Call `committed()` after the commit.
   */
  async add(manager: EntityManager, job: OutboxJob): Promise<void> {
    assertValidJobId(job.jobId);
    await manager.query(
      'INSERT INTO outbox (queue, name, data, job_id, traceparent) VALUES ($1, $2, $3, $4, $5)',
      [job.queue, job.name, JSON.stringify(job.data ?? null), job.jobId ?? null, traceparent()],
    );
  }

  /**
   * Drops the jobs still waiting here that carry `email` anywhere in their data (mail to an account being
   * deleted, in its transaction): once it commits, the address is stored nowhere.
   */
  async forgetAddress(manager: EntityManager, email: string): Promise<void> {
    await manager.query('DELETE FROM outbox WHERE strpos(lower(data::text), lower($1)) > 0', [email]);
  }

  /**
   * Wakes the relay after a commit that added rows (in the background); if never called, the poll sends them
   * anyway.
   */
  committed(): void {
    crashPoint('committed');
    this.relay.wake();
  }
}
