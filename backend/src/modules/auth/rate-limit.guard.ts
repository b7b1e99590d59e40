import {
  applyDecorators,
  type ExecutionContext,
  HttpException,
  HttpStatus,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import {
  MESSAGING_MESSAGES,
  OWNER_SETUP_MESSAGES,
  OWNER_SETUP_TRIES_PER_HOUR,
  SETTINGS_MESSAGES,
  VERIFY_MESSAGES,
} from '@termpaste/contracts';
import type { Request, Response } from 'express';
import type { AppConfig, RateLimitConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { SessionGuard } from '../../common/session.guard.js';
import { WriterGuard } from '../../common/writer.guard.js';

export type RateLimitedAction =
  | 'login'
  | 'register'
  | 'forgot-password'
  | 'reset-password'
  | 'change-password'
  | 'chat'
  | 'message'
  | 'upload'
  | 'verify-email'
  | 'owner-claim';

/** Actions counted per signed-in member (change-password: and per address too). */
type MemberAction = Extract<
  RateLimitedAction,
  'change-password' | 'chat' | 'message' | 'upload' | 'verify-email' | 'owner-claim'
>;

const ACTION_KEY = 'termpaste:rate-limited-action';

/** The body field naming the account an action is about, for the per-account limits. */
const ACCOUNT_FIELD: Partial<Record<RateLimitedAction, string>> = {
  login: 'usernameOrEmail',
  'forgot-password': 'email',
};

/** The 429 texts of the member actions; the others say `Too many attempts…`. */
const TOO_FAST: Partial<Record<RateLimitedAction, (seconds: number) => string>> = {
  'change-password': SETTINGS_MESSAGES.passwordChangeTooMany,
  chat: MESSAGING_MESSAGES.chatTooFast,
  message: MESSAGING_MESSAGES.chatTooFast,
  upload: SETTINGS_MESSAGES.uploadTooMany,
  'verify-email': VERIFY_MESSAGES.resendTooMany,
  'owner-claim': OWNER_SETUP_MESSAGES.tooMany,
};

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

export function tooManyAttempts(seconds: number): string {
  return `Too many attempts. Try again in ${seconds} seconds.`;
}

/**
 * Limits a route by the policy of `action` (see rateLimitThrottlers). The member actions count per
 * signed-in member: WriterGuard must run first, on the controller or through MemberRateLimited.
 */
export function RateLimited(action: RateLimitedAction): MethodDecorator {
  return applyDecorators(SetMetadata(ACTION_KEY, action), UseGuards(RateLimitGuard));
}

/**
 * A write by a signed-in member who is not banned (WriterGuard: 401 / 403), then the limit of `action`
 * counted per member. In this order: the limit counts by the member the writer guard loaded, and a
 * visitor is refused without being counted.
 */
export function MemberRateLimited(action: MemberAction): MethodDecorator {
  return applyDecorators(UseGuards(WriterGuard), SetMetadata(ACTION_KEY, action), UseGuards(RateLimitGuard));
}

/**
 * A signed-in member's action (SessionGuard: 401 for a visitor or a banned account), then the limits of
 * `action`, counted per member and per address. In this order: a visitor is refused without being
 * counted, and the per-member count goes by the member the session guard loaded.
 */
export function SignedInRateLimited(
  action: Extract<MemberAction, 'change-password' | 'verify-email' | 'owner-claim'>,
): MethodDecorator {
  return applyDecorators(UseGuards(SessionGuard), SetMetadata(ACTION_KEY, action), UseGuards(RateLimitGuard));
}

function actionOf(context: ExecutionContext): RateLimitedAction | undefined {
  return Reflect.getMetadata(ACTION_KEY, context.getHandler()) as RateLimitedAction | undefined;
}

/** The account a request names (lower-cased), or undefined when its body names none. */
function accountOf(action: RateLimitedAction, req: Request): string | undefined {
  const field = ACCOUNT_FIELD[action];
  const value: unknown = field ? (req.body as Record<string, unknown> | undefined)?.[field] : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  return value.trim().toLowerCase();
}

/** A counter per rule and tracker, whichever route counts (the default key also names the handler). */
const sharedKey = (_context: ExecutionContext, tracker: string, ruleName: string) => `${ruleName}:${tracker}`;

function rule(
  action: RateLimitedAction,
  by: 'address' | 'account',
  ttl: number,
  limit: number,
): ThrottlerOptions {
  return {
    name: `${action}-per-${by}-per-${ttl === MINUTE_MS ? 'minute' : 'hour'}`,
    ttl,
    limit,
    skipIf: (context) =>
      actionOf(context) !== action ||
      (by === 'account' && accountOf(action, context.switchToHttp().getRequest<Request>()) === undefined),
    // Per address: the throttler's default tracker (the client address, IPv6 by /64).
    // Sign-in: one count per address for every route marked `login` (a password, a provider's callback).
    ...(action === 'login' ? { generateKey: sharedKey } : {}),
    ...(by === 'account'
      ? {
          getTracker: (req: Record<string, unknown>) =>
            `account:${accountOf(action, req as unknown as Request)}`,
        }
      : {}),
  };
}

/**
 * Per signed-in member, one counter for every route marked with `action` (the key ignores the handler, so
 * `POST /api/chat` and `POST /api/chat/messages` share one, as private messages and support requests do).
 */
function memberRule(action: MemberAction, name: string, ttl: number, limit: number): ThrottlerOptions {
  return {
    name,
    ttl,
    limit,
    skipIf: (context) => actionOf(context) !== action,
    getTracker: (req: Record<string, unknown>) => {
      const user = (req as unknown as Request).currentUser;
      if (!user) {
        throw new Error(
          `the ${action} limit needs a session guard to run first (MemberRateLimited, SignedInRateLimited)`,
        );
      }
      return `user:${user.id}`;
    },
    generateKey: (_context, tracker, ruleName) => `${ruleName}:${tracker}`,
  };
}

/** Every limit, each applying only to the routes marked with its action. */
export function rateLimitThrottlers(limits: RateLimitConfig): ThrottlerOptions[] {
  return [
    rule('login', 'address', MINUTE_MS, limits.loginPerMinute),
    rule('login', 'address', HOUR_MS, limits.loginPerHour),
    rule('login', 'account', MINUTE_MS, limits.loginPerMinute),
    rule('register', 'address', HOUR_MS, limits.registerPerHour),
    rule('forgot-password', 'address', HOUR_MS, limits.forgotPasswordPerHour),
    rule('forgot-password', 'account', HOUR_MS, limits.forgotPasswordPerEmailPerHour),
    rule('reset-password', 'address', HOUR_MS, limits.resetPasswordPerHour),
    rule('change-password', 'address', HOUR_MS, limits.changePasswordPerHour),
    memberRule(
      'change-password',
      'change-password-per-member-per-hour',
      HOUR_MS,
      limits.changePasswordPerHour,
    ),
    rule('verify-email', 'address', HOUR_MS, limits.verifyEmailPerAddressPerHour),
    memberRule('verify-email', 'verify-email-per-member-per-hour', HOUR_MS, limits.verifyEmailPerHour),
    rule('owner-claim', 'address', HOUR_MS, OWNER_SETUP_TRIES_PER_HOUR),
    memberRule('owner-claim', 'owner-claim-per-member-per-hour', HOUR_MS, OWNER_SETUP_TRIES_PER_HOUR),
    memberRule('chat', 'chat-per-member', limits.chatWindowSeconds * 1000, limits.chatMessages),
    memberRule('message', 'message-per-member-per-minute', MINUTE_MS, limits.messagesPerMinute),
    memberRule('message', 'message-per-member-per-hour', HOUR_MS, limits.messagesPerHour),
    memberRule('upload', 'upload-per-member-per-hour', HOUR_MS, limits.uploadsPerHour),
  ];
}

/**
 * @nestjs/throttler's guard with our answer to a limit: 429 `Too many attempts. Try again in N
 * seconds.` (chat and private messages: `You are sending messages too fast. …`; uploads: `Too many
 * uploads. …`; password changes: `Too many password changes. …`) and a plain Retry-After header.
 * RATE_LIMITS=off lets everything through.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    @InjectConfig() private readonly config: Pick<AppConfig, 'rateLimits'>,
  ) {
    super(options, storage, reflector);
  }

  protected override async shouldSkip(): Promise<boolean> {
    return !this.config.rateLimits.enabled;
  }

  protected override async throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const seconds = Math.max(1, detail.timeToBlockExpire);
    context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(seconds));
    // Not ThrottlerException: under jest the throttler has its own copy of Nest's HttpException (see
    // test/support/require-esm-transform.cjs), which the error filter would not recognise.
    const action = actionOf(context);
    const message = (action && TOO_FAST[action]?.(seconds)) ?? tooManyAttempts(seconds);
    throw new HttpException(message, HttpStatus.TOO_MANY_REQUESTS);
  }
}
