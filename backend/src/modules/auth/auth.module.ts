import { Logger, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { ThrottlerModule } from '@nestjs/throttler';
import type { AppConfig } from '../../config/config.js';
import { APP_CONFIG, InjectConfig } from '../../config/config.module.js';
import { SessionsModule } from './sessions.module.js';
import { SessionsService } from './sessions.service.js';
import { OwnerModule } from './owner.module.js';
import { UsersModule } from '../users/users.module.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { EmailVerificationService } from './email-verification.service.js';
import { LocalLoginGuard } from './local-login.guard.js';
import { LocalStrategy } from './local.strategy.js';
import { PasswordResetService } from './password-reset.service.js';
import { rateLimitThrottlers } from './rate-limit.guard.js';
import {
  createSessionMiddleware,
  SESSION_MIDDLEWARE,
  SESSION_READS_MIDDLEWARE,
} from './session.middleware.js';
import { SessionSerializer } from './session.serializer.js';
import { SiteController } from './site.controller.js';
import { TokensSweepModule } from './tokens-sweep.module.js';
import { AccessTokensController } from './tokens/access-tokens.controller.js';
import { AccessTokensService } from './tokens/access-tokens.service.js';
import { BearerStrategy } from './tokens/bearer.strategy.js';
import { TokenGuard } from './tokens/token.guard.js';
import { IdentitiesController } from './sso/identities.controller.js';
import { IdentitiesService } from './sso/identities.service.js';
import { SignInProviders } from './sso/sign-in-providers.js';
import { SsoController } from './sso/sso.controller.js';
import { SsoService } from './sso/sso.service.js';
import { VerificationController } from './verification.controller.js';

/**
 * Who is calling: sign-in and sessions, single sign-on, and personal access tokens (made, listed and
 * revoked in settings, session only; `Authorization: Bearer tp_…` on any route, judged by TokenGuard, a
 * global guard, through passport's bearer strategy; long-revoked tokens deleted by TokensSweeper).
 */
@Module({
  imports: [
    UsersModule,
    SessionsModule,
    OwnerModule,
    TokensSweepModule,
    // Sign-in (LocalAuthGuard) puts the member where the session guards do: `req.currentUser`.
    PassportModule.register({ property: 'currentUser' }),
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig) => ({
        throttlers: rateLimitThrottlers(config.rateLimits),
        // Unset: counted in this process's memory. ioredis is loaded with Redis only.
        storage:
          config.rateLimits.enabled && config.redisUrl
            ? new (await import('../../common/redis-throttler.storage.js')).RedisThrottlerStorage(
                config.redisUrl,
              )
            : undefined,
        // Our guard sends Retry-After itself; no X-RateLimit-* on every answer.
        setHeaders: false,
      }),
    }),
  ],
  controllers: [
    AuthController,
    SiteController,
    VerificationController,
    SsoController,
    IdentitiesController,
    AccessTokensController,
  ],
  providers: [
    AuthService,
    EmailVerificationService,
    PasswordResetService,
    LocalStrategy,
    LocalLoginGuard,
    SessionSerializer,
    // Single sign-on: OpenID Connect providers and GitHub, through passport.
    SignInProviders,
    IdentitiesService,
    SsoService,
    AccessTokensService,
    BearerStrategy,
    { provide: APP_GUARD, useClass: TokenGuard },
    {
      provide: SESSION_MIDDLEWARE,
      inject: [APP_CONFIG, SessionsService],
      useFactory: createSessionMiddleware,
    },
    {
      provide: SESSION_READS_MIDDLEWARE,
      inject: [APP_CONFIG, SessionsService],
      useFactory: (config: AppConfig, sessions: SessionsService) =>
        createSessionMiddleware(config, sessions, { cachedReads: true }),
    },
  ],
  exports: [SESSION_MIDDLEWARE, SESSION_READS_MIDDLEWARE],
})
export class AuthModule implements OnApplicationBootstrap {
  private readonly logger = new Logger('Auth');

  constructor(@InjectConfig() private readonly config: AppConfig) {}

  onApplicationBootstrap(): void {
    if (!this.config.rateLimits.enabled) {
      this.logger.warn(
        'Rate limits are OFF (RATE_LIMITS=off): sign-in, registration, password reset and chat messages go without limit',
      );
    } else {
      this.logger.log(
        `Rate limits: counted ${this.config.redisUrl ? 'in Redis (shared by every instance)' : 'in memory (per process)'}`,
      );
    }
  }
}
