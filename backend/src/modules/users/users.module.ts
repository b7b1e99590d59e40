import { Module } from '@nestjs/common';
import { SessionsService } from './sessions.service.js';
import { UsersService } from './users.service.js';

/**
 * Accounts and their sessions. A module whose routes use SessionGuard imports this one (the guard loads
 * the signed-in user through UsersService).
 */
@Module({ providers: [UsersService, SessionsService], exports: [UsersService, SessionsService] })
export class UsersModule {}
