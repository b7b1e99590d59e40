import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type QueueJob, QueueProcessor, QueuePort } from '../../../infra/queue/queue.port.js';
import { REVOKED_LISTED } from './access-tokens.service.js';
import {
  TOKENS_QUEUE,
  TOKENS_SWEEP_INTERVAL_MS,
  TOKENS_SWEEP_JOB,
  TOKENS_SWEEP_SCHEDULE,
} from './tokens.queue.js';

/**
 * Deletes tokens revoked more than REVOKED_TOKEN_LISTED_DAYS ago (no list shows them). A repeatable job,
 * once per interval across processes; a failed sweep is not retried, the next one catches up.
 */
@Injectable()
@QueueProcessor(TOKENS_QUEUE)
export class TokensSweeper implements QueueProcessor, OnModuleInit {
  private readonly logger = new Logger('AccessTokens');

  constructor(
    private readonly dataSource: DataSource,
    private readonly queue: QueuePort,
  ) {}

  onModuleInit(): void {
    this.queue.repeat({
      queue: TOKENS_QUEUE,
      id: TOKENS_SWEEP_SCHEDULE,
      name: TOKENS_SWEEP_JOB,
      data: {},
      everyMs: TOKENS_SWEEP_INTERVAL_MS,
      attempts: 1,
    });
  }

  async process(job: QueueJob): Promise<void> {
    if (job.name !== TOKENS_SWEEP_JOB) throw new Error(`Unknown tokens job "${job.name}"`);
    await this.sweep();
  }

  /** Deletes the tokens revoked past the listing period; resolves with how many. */
  async sweep(): Promise<number> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH gone AS (DELETE FROM personal_access_tokens WHERE revoked_at <= now() - ${REVOKED_LISTED} RETURNING id)
       SELECT id FROM gone`,
    );
    if (rows.length > 0) this.logger.log(`Deleted ${rows.length} long-revoked access token(s)`);
    return rows.length;
  }
}
