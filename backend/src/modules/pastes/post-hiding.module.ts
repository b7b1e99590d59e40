import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { PostHidingService } from './post-hiding.js';

/**
 * PostHidingService on its own, for what hides posts without the forum's routes: the worker's Akismet
 * check (PastesModule imports and exports it too).
 */
@Module({ imports: [UsersModule], providers: [PostHidingService], exports: [PostHidingService] })
export class PostHidingModule {}
