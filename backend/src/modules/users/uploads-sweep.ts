import {
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { UPLOAD_URL_TTL_SECONDS } from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { StoragePort } from '../../infra/storage/storage.port.js';

/** What an upload form uploaded is deleted this long after the form was handed out (well past its expiry). */
export const UNCLAIMED_UPLOAD_GRACE_SECONDS = Math.max(60 * 60, 4 * UPLOAD_URL_TTL_SECONDS);
/** How often a process that runs jobs sweeps. */
export const UPLOADS_SWEEP_INTERVAL_MS = 10 * 60 * 1000;
/** Uploads deleted per transaction. */
const BATCH = 100;

/**
 * Deletes the pending objects of upload forms handed out (`pending_uploads`), once
 * UNCLAIMED_UPLOAD_GRACE_SECONDS old, claimed or not: a claimed upload was copied to an avatar key of its
 * own, and whatever the form uploaded after (it works until it expires) is nobody's. So a member cannot
 * fill the storage with files nobody uses. Runs in every process that runs jobs (a worker; an API
 * instance unless PROCESS_JOBS=off), every UPLOADS_SWEEP_INTERVAL_MS; several at once share the work
 * (rows are taken with SKIP LOCKED). A claim (`PUT /api/user/avatar`) holds the row's lock while it copies,
 * so an upload is either claimed or swept first, never both at once.
 */
@Injectable()
export class UploadsSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Uploads');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly storage: StoragePort,
    @InjectConfig() private readonly config: Pick<AppConfig, 'processJobs'>,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.processJobs) return;
    const run = () => {
      this.running ??= this.sweep()
        .catch((error: unknown) =>
          this.logger.warn(
            `Sweeping unclaimed uploads failed: ${error instanceof Error ? error.message : String(error)}`,
          ),
        )
        .finally(() => (this.running = undefined));
    };
    // Not at start: nothing is due that cannot wait one period, and starting stays one query lighter.
    this.timer = setInterval(run, UPLOADS_SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Deletes every unclaimed upload past the grace period; resolves with how many. */
  async sweep(): Promise<number> {
    let deleted = 0;
    for (;;) {
      const batch = await this.dataSource.transaction(async (manager) => {
        const rows: Array<{ key: string }> = await manager.query(
          `SELECT key FROM pending_uploads
            WHERE created_at < now() - make_interval(secs => $1)
            ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
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

/** The uploads sweep, for the API (AppModule) and the worker alike (the storage port is global). */
@Module({ providers: [UploadsSweeper], exports: [UploadsSweeper] })
export class UploadsSweepModule {}
