import { Module } from '@nestjs/common';
import { UploadsSweeper } from './uploads-sweep.js';

/**
 * The uploads sweep, for the API (AppModule) and the worker alike (the storage port and the queue are
 * global): the API registers the schedule too, and runs it only when it runs jobs.
 */
@Module({ providers: [UploadsSweeper], exports: [UploadsSweeper] })
export class UploadsSweepModule {}
