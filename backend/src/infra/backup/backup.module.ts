import { Module } from '@nestjs/common';
import { ScheduledBackups } from './scheduled-backups.js';

/**
 * The scheduled backups, for the API (AppModule) and the worker alike (the queue and the config are
 * global): the API registers the schedule too, and runs it only when it runs jobs.
 */
@Module({ providers: [ScheduledBackups], exports: [ScheduledBackups] })
export class BackupModule {}
