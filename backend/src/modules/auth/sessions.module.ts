import { Module } from '@nestjs/common';
import { SessionsService } from './sessions.service.js';

/**
 * Sign-in sessions (`sessions`, auth's table). Apart from AuthModule, which imports the users module,
 * so that the users module can end a member's sessions (a ban, a deletion) without a loop of imports.
 */
@Module({ providers: [SessionsService], exports: [SessionsService] })
export class SessionsModule {}
