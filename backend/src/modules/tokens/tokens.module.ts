import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { UsersModule } from '../users/users.module.js';
import { AccessTokensController } from './access-tokens.controller.js';
import { AccessTokensService } from './access-tokens.service.js';
import { BearerStrategy } from './bearer.strategy.js';
import { TokenGuard } from './token.guard.js';
import { TokensSweepModule } from './tokens-sweep.js';

/**
 * Personal access tokens: managed in settings (session only), accepted on any route by TokenGuard through
 * passport's bearer strategy, swept by TokensSweeper. The limiter's storage is AuthModule's (global).
 */
@Module({
  // SessionGuard (token management is for a session only) reads the member through UsersService.
  imports: [UsersModule, TokensSweepModule],
  controllers: [AccessTokensController],
  providers: [AccessTokensService, BearerStrategy, { provide: APP_GUARD, useClass: TokenGuard }],
})
export class TokensModule {}
