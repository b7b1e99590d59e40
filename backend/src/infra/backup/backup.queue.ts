/** The backups queue: the scheduled backup (BACKUP_CRON) is its one job. */
export const BACKUP_QUEUE = 'backups';

export const BACKUP_JOBS = {
  /** Writes an archive to BACKUP_DIR and deletes the oldest past BACKUP_KEEP. */
  run: 'backup',
} as const;

/** The id of the backups' schedule (a BullMQ job scheduler with Redis). */
export const BACKUP_SCHEDULE = 'backup-schedule';
