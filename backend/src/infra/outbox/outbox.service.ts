import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { assertValidJobId } from '../queue/queue.port.js';
import { crashPoint } from './crash-point.js';
import type { OutboxJob } from './outbox.js';
import { OutboxRelay } from './outbox.relay.js';

/**
 * What writers use: `add` writes a job to the outbox inside their transaction (or `outboxInsertSql` inside
 * their one statement), and `committed` wakes the relay once that committed, so the job goes out at once
 * rather than at the relay's next poll.
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
    await manager.query('INSERT INTO outbox (queue, name, data, job_id) VALUES ($1, $2, $3, $4)', [
      job.queue,
      job.name,
      JSON.stringify(job.data ?? null),
      job.jobId ?? null,
    ]);
  }

  /**
   * Drops the jobs still waiting here that carry `email` anywhere in their data (mail to an account being
   * deleted, in its transaction): once it commits, the address is stored nowhere.
   */
  async forgetAddress(manager: EntityManager, email: string): Promise<void> {
    await manager.query('DELETE FROM outbox WHERE strpos(lower(data::text), lower($1)) > 0', [email]);
  }

  /**
   * After the commit of a write that added outbox rows: wakes the relay now (in the background: the caller
   * does not wait for the queue). Should it not be called, or the process die first, the relay's poll or
   * the next start sends the rows anyway.
   */
  committed(): void {
    crashPoint('committed');
    this.relay.wake();
  }
}
