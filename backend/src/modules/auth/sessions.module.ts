import { Module } from '@nestjs/common';
import { SessionsService } from './sessions.service.js';

/**
 * Sign-in sessions (`sessions`, auth's table), apart from AuthModule so that a module that ends a user's
 * sessions (a ban, a deletion) takes only them, not sign-in's controllers and guards.
 */
@Module({ providers: [SessionsService], exports: [SessionsService] })
export class SessionsModule {}
