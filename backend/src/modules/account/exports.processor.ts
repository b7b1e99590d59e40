import { Injectable, type OnModuleInit } from '@nestjs/common';
import { type QueueJob, QueueProcessor, QueuePort } from '../../infra/queue/queue.port.js';
import {
  ACCOUNT_QUEUE,
  EXPORT_BUILD_JOB,
  type ExportBuildJob,
  EXPORTS_SWEEP_INTERVAL_MS,
  EXPORTS_SWEEP_JOB,
  EXPORTS_SWEEP_SCHEDULE,
} from './account.queue.js';
import { ExportsService } from './exports.service.js';

/**
 * The account queue's jobs: building a data export (from the outbox), and the repeatable sweep of
 * archives past their 24 hours (a failed sweep is not retried; the next one takes what it left).
 */
@Injectable()
@QueueProcessor(ACCOUNT_QUEUE)
export class ExportsProcessor implements QueueProcessor, OnModuleInit {
  constructor(
    private readonly exports: ExportsService,
    private readonly queue: QueuePort,
  ) {}

  onModuleInit(): void {
    this.queue.repeat({
      queue: ACCOUNT_QUEUE,
      id: EXPORTS_SWEEP_SCHEDULE,
      name: EXPORTS_SWEEP_JOB,
      data: {},
      everyMs: EXPORTS_SWEEP_INTERVAL_MS,
      attempts: 1,
    });
  }

  async process(job: QueueJob): Promise<void> {
    if (job.name === EXPORT_BUILD_JOB) return this.exports.build((job.data as ExportBuildJob).exportId);
    if (job.name === EXPORTS_SWEEP_JOB) {
      await this.exports.sweep();
      return;
    }
    throw new Error(`Unknown account job "${job.name}"`);
  }
}
