import { Module } from '@nestjs/common';
import { ExportsService } from './exports.service.js';
import { ExportsProcessor } from './exports.processor.js';

/** The exports and their jobs, for the API (AccountModule) and the worker alike (queue and outbox are global). */
@Module({ providers: [ExportsService, ExportsProcessor], exports: [ExportsService] })
export class ExportsModule {}
