import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { UPLOAD_URL_TTL_SECONDS } from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import { type QueueJob, QueueProcessor, QueuePort } from '../../infra/queue/queue.port.js';
import { StoragePort } from '../../infra/storage/storage.port.js';
import {
  UPLOADS_JOBS,
  UPLOADS_QUEUE,
  UPLOADS_SWEEP_INTERVAL_MS,
  UPLOADS_SWEEP_SCHEDULE,
} from './uploads.queue.js';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { PendingUpload } from './entities/pending-upload.entity.js';

/** What an upload form uploaded is deleted this long after the form was handed out (well past its expiry). */
export const UNCLAIMED_UPLOAD_GRACE_SECONDS = Math.max(60 * 60, 4 * UPLOAD_URL_TTL_SECONDS);
/** Uploads deleted per transaction. */
const BATCH = 100;

/**
 * Deletes the pending objects of handed-out forms once UNCLAIMED_UPLOAD_GRACE_SECONDS old, claimed or
 * not, so nobody fills the storage. Overlapping sweeps share work (SKIP LOCKED); a claim holds the row's
 * lock while copying, so an upload is claimed or swept, never both. docs/backend.md.
 */
@Injectable()
@QueueProcessor(UPLOADS_QUEUE)
export class UploadsSweeper implements QueueProcessor, OnModuleInit {
  private readonly logger = new Logger('Uploads');

  constructor(
    private readonly dataSource: DataSource,
    private readonly storage: StoragePort,
    private readonly queue: QueuePort,
  ) {}

  onModuleInit(): void {
    this.queue.repeat({
      queue: UPLOADS_QUEUE,
      id: UPLOADS_SWEEP_SCHEDULE,
      name: UPLOADS_JOBS.sweep,
      data: {},
      everyMs: UPLOADS_SWEEP_INTERVAL_MS,
      attempts: 1,
    });
  }

  async process(job: QueueJob): Promise<void> {
    if (job.name !== UPLOADS_JOBS.sweep) throw new Error(`Unknown uploads job "${job.name}"`);
    await this.sweep();
  }

  /** Deletes every unclaimed upload past the grace period; resolves with how many. */
  async sweep(): Promise<number> {
    let deleted = 0;
    for (;;) {
      const batch = await this.dataSource.transaction(async (manager) => {
        const rows: Array<Row<PendingUpload, 'key'>> = await manager.query(
          `SELECT ${selectColumns(PendingUpload, 'p', ['key'])} FROM pending_uploads p
            WHERE p.created_at < now() - make_interval(secs => $1)
            ORDER BY p.created_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
          [UNCLAIMED_UPLOAD_GRACE_SECONDS, BATCH],
        );
        const gone: string[] = [];
        for (const { key } of rows) {
          try {
            await this.storage.delete(key);
            gone.push(key);
          } catch (error) {
            // Kept: the next sweep tries again.
            this.logger.warn(
              `Unclaimed upload ${key} not deleted: ${error instanceof Error ? error.message : String(error)}`,
            );
          }
        }
        if (gone.length > 0) await manager.query('DELETE FROM pending_uploads WHERE key = ANY($1)', [gone]);
        return { found: rows.length, gone: gone.length };
      });
      deleted += batch.gone;
      if (batch.found < BATCH || batch.gone === 0) break;
    }
    if (deleted > 0) this.logger.log(`Deleted ${deleted} unclaimed upload(s)`);
    return deleted;
  }
}
