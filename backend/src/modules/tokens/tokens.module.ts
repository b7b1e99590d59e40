import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { UsersModule } from '../users/users.module.js';
import { AccessTokensController } from './access-tokens.controller.js';
import { AccessTokensService } from './access-tokens.service.js';
import { BearerStrategy } from './bearer.strategy.js';
import { TokenGuard } from './token.guard.js';
import { TokensSweepModule } from './tokens-sweep.js';

/**
 * Personal access tokens (issue 15): a member's tokens (made, listed and revoked in settings, session
 * only) and `Authorization: Bearer tp_…` on any route, judged by TokenGuard (a global guard) through
 * passport's bearer strategy; revoked tokens are deleted by TokensSweeper. The rate limiter's storage comes from AuthModule's ThrottlerModule (global).
 */
@Module({
  // SessionGuard (token management is for a session only) reads the member through UsersService.
  imports: [UsersModule, TokensSweepModule],
  controllers: [AccessTokensController],
  providers: [AccessTokensService, BearerStrategy, { provide: APP_GUARD, useClass: TokenGuard }],
})
export class TokensModule {}
