import {
  applyDecorators,
  type ExecutionContext,
  HttpException,
  HttpStatus,
  Injectable,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import { MODERATION_MESSAGES } from '@termpaste/contracts';
import type { Request, Response } from 'express';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { WriterGuard } from '../auth/guards/writer.guard.js';
import { RateLimitGuard } from '../auth/rate-limit.guard.js';

const HOUR_MS = 60 * 60_000;

/** Flags per member per hour (RATE_LIMIT_FLAGS_PER_HOUR): one counter per member, whatever the route. */
export function flagThrottlers(flagsPerHour: number): ThrottlerOptions[] {
  return [
    {
      name: 'flag-per-member-per-hour',
      ttl: HOUR_MS,
      limit: flagsPerHour,
      getTracker: (req: Record<string, unknown>) => {
        const user = (req as unknown as Request).currentUser;
        if (!user) throw new Error('the flag limit needs WriterGuard to run first (FlagRateLimited)');
        return `user:${user.id}`;
      },
      generateKey: (_context, tracker, ruleName) => `${ruleName}:${tracker}`,
    },
  ];
}

/**
 * RateLimitGuard (the same store, RATE_LIMITS switch and Retry-After) over the flag limit: 429
 * MODERATION_MESSAGES.flagsRateLimited.
 */
@Injectable()
export class FlagRateLimitGuard extends RateLimitGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    @InjectConfig() private readonly appConfig: Pick<AppConfig, 'rateLimits' | 'moderation'>,
  ) {
    super(options, storage, reflector, appConfig);
  }

  override async onModuleInit(): Promise<void> {
    await super.onModuleInit();
    this.throttlers = flagThrottlers(this.appConfig.moderation.flagsPerHour);
  }

  protected override async throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const seconds = Math.max(1, detail.timeToBlockExpire);
    context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(seconds));
    throw new HttpException(MODERATION_MESSAGES.flagsRateLimited, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/**
 * A flag: a signed-in member who may write (WriterGuard: 401, 403 banned or unverified), then the
 * per-member flag limit. In this order: a visitor is refused without being counted.
 */
export function FlagRateLimited(): MethodDecorator {
  return applyDecorators(UseGuards(WriterGuard), UseGuards(FlagRateLimitGuard));
}
