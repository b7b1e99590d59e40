import { Module } from '@nestjs/common';
import { TrashPurger } from './trash-purge.js';

/** The trash purge, for the API (PastesModule) and the worker alike (the queue is global). */
@Module({ providers: [TrashPurger], exports: [TrashPurger] })
export class TrashPurgeModule {}
