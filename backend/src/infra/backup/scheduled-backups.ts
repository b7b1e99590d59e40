import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { type QueueJob, QueueProcessor, QueuePort } from '../queue/queue.port.js';
import { backupFileName, createBackup, manifestRows, pruneArchives, uploadsDirOf } from './backup.js';
import { BACKUP_JOBS, BACKUP_QUEUE, BACKUP_SCHEDULE } from './backup.queue.js';

/**
 * Backups on BACKUP_CRON's schedule, a repeatable job of the queue (once per time however many processes
 * run jobs): an archive in BACKUP_DIR or BACKUP_S3_BUCKET, then the oldest past BACKUP_KEEP deleted.
 */
@Injectable()
@QueueProcessor(BACKUP_QUEUE)
export class ScheduledBackups implements QueueProcessor, OnModuleInit {
  private readonly logger = new Logger('Backups');

  constructor(
    private readonly dataSource: DataSource,
    private readonly queue: QueuePort,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const { cron } = this.config.backup;
    if (cron === undefined) return;
    this.queue.repeat({
      queue: BACKUP_QUEUE,
      id: BACKUP_SCHEDULE,
      name: BACKUP_JOBS.run,
      data: {},
      pattern: cron,
      attempts: 3,
      backoffMs: 60_000,
    });
  }

  async process(job: QueueJob): Promise<void> {
    if (job.name !== BACKUP_JOBS.run) throw new Error(`Unknown backups job "${job.name}"`);
    await this.run();
  }

  /**
   * Writes one archive and prunes: in BACKUP_DIR, or uploaded to BACKUP_S3_BUCKET (written to BACKUP_DIR
   * first, deleted once uploaded). Resolves with where it went and the archives deleted.
   */
  async run(at: Date = new Date()): Promise<{ file: string; deleted: string[] }> {
    const { dir, keep, s3 } = this.config.backup;
    const file = path.join(dir, backupFileName(at));
    const started = Date.now();
    const manifest = await createBackup({
      dataSource: this.dataSource,
      uploadsDir: uploadsDirOf(this.config),
      file,
    });
    const rows = manifestRows(manifest);
    let where = file;
    let deleted: string[];
    if (s3) {
      // Loaded only when a bucket is configured, as for the avatars.
      const { S3Backups } = await import('./s3-backups.js');
      const bucket = new S3Backups(s3);
      try {
        where = `s3://${s3.bucket}/${await bucket.upload(file)}`;
        await rm(file, { force: true });
        deleted = await bucket.prune(keep);
      } finally {
        bucket.destroy();
      }
    } else {
      deleted = await pruneArchives(dir, keep);
    }
    this.logger.log(
      `Backup written to ${where} (${rows} rows, ${manifest.files.length} upload files) in ${Date.now() - started} ms`,
    );
    if (deleted.length > 0) this.logger.log(`Deleted ${deleted.length} older backups (BACKUP_KEEP=${keep})`);
    return { file: where, deleted };
  }
}
