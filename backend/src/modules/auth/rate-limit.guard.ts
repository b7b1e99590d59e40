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
  normalizeIp,
  ThrottlerGuard,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerOptions,
  type ThrottlerRequest,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import {
  POST_MESSAGES,
  MESSAGING_MESSAGES,
  OWNER_SETUP_MESSAGES,
  OWNER_SETUP_TRIES_PER_HOUR,
  SETTINGS_MESSAGES,
  ACCOUNT_MESSAGES,
  VERIFY_MESSAGES,
} from '@termpaste/contracts';
import type { Request, Response } from 'express';
import type { AppConfig, RateLimitConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { SessionGuard } from './guards/session.guard.js';
import { WriterGuard } from './guards/writer.guard.js';

export type RateLimitedAction =
  | 'login'
  | 'register'
  | 'forgot-password'
  | 'reset-password'
  | 'change-password'
  | 'delete-account'
  | 'chat'
  | 'message'
  | 'upload'
  | 'verify-email'
  | 'owner-claim'
  | 'search';

/** Actions counted per signed-in member (change-password: and per address too). */
type UserAction = Extract<
  RateLimitedAction,
  'change-password' | 'delete-account' | 'chat' | 'message' | 'upload' | 'verify-email' | 'owner-claim'
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
  'delete-account': ACCOUNT_MESSAGES.deleteTooMany,
  chat: MESSAGING_MESSAGES.chatTooFast,
  message: MESSAGING_MESSAGES.chatTooFast,
  upload: SETTINGS_MESSAGES.uploadTooMany,
  'verify-email': VERIFY_MESSAGES.resendTooMany,
  'owner-claim': OWNER_SETUP_MESSAGES.tooMany,
  search: POST_MESSAGES.searchTooFast,
};

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * The one rule that slows instead of refusing: sign-ins on one account from all addresses. Refusing
 * would let a stranger lock the member out; instead every attempt waits RATE_LIMIT_LOGIN_SLOWDOWN_MS for
 * the rest of the hour, so a guesser gets fewer tries and the member still signs in.
 */
const LOGIN_SLOWDOWN_RULE = 'login-per-account-per-hour';

export function tooManyAttempts(seconds: number): string {
  return `Too many attempts. Try again in ${seconds} seconds.`;
}

/**
 * Limits a route by the policy of `action` (see rateLimitThrottlers). The member actions count per
 * signed-in member: WriterGuard must run first, on the controller or through UserRateLimited.
 */
export function RateLimited(action: RateLimitedAction): MethodDecorator {
  return applyDecorators(SetMetadata(ACTION_KEY, action), UseGuards(RateLimitGuard));
}

/**
 * WriterGuard, then the limit of `action` per member: a visitor is refused uncounted, and counts go by the
 * loaded member.
 */
export function UserRateLimited(action: UserAction): MethodDecorator {
  return applyDecorators(UseGuards(WriterGuard), SetMetadata(ACTION_KEY, action), UseGuards(RateLimitGuard));
}

/**
 * SessionGuard, then the limits of `action` per member and address: a visitor is refused without being
 * counted.
 */
export function SignedInRateLimited(
  action: Extract<UserAction, 'change-password' | 'delete-account' | 'verify-email' | 'owner-claim'>,
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

/** The client address as the throttler's default tracker counts it (IPv6 by /64). */
const clientAddress = (req: Request) => normalizeIp(req.ip ?? '', 64);

/**
 * What a rule counts by: the client address; the account the body names, from every address
 * (`account`); or that account from this one address (`account-address`), so a stranger's attempts
 * from elsewhere never use up the member's own.
 */
type CountedBy = 'address' | 'account' | 'account-address';

function rule(
  action: RateLimitedAction,
  by: CountedBy,
  ttl: number,
  limit: number,
  period: string = ttl === MINUTE_MS ? 'minute' : 'hour',
): ThrottlerOptions {
  return {
    name: `${action}-per-${by}-per-${period}`,
    ttl,
    limit,
    skipIf: (context) =>
      actionOf(context) !== action ||
      (by !== 'address' && accountOf(action, context.switchToHttp().getRequest<Request>()) === undefined),
    // Per address: the throttler's default tracker (the client address, IPv6 by /64).
    // Sign-in: one count per address for every route marked `login` (a password, a provider's callback).
    ...(action === 'login' ? { generateKey: sharedKey } : {}),
    ...(by === 'account'
      ? {
          getTracker: (req: Record<string, unknown>) =>
            `account:${accountOf(action, req as unknown as Request)}`,
        }
      : by === 'account-address'
        ? {
            getTracker: (req: Record<string, unknown>) =>
              `account:${accountOf(action, req as unknown as Request)}:from:${clientAddress(req as unknown as Request)}`,
          }
        : {}),
  };
}

/**
 * Per signed-in member, one counter for every route marked with `action` (the key ignores the handler, so
 * `POST /api/chat` and `POST /api/chat/messages` share one, as private messages and support requests do).
 */
function userRule(action: UserAction, name: string, ttl: number, limit: number): ThrottlerOptions {
  return {
    name,
    ttl,
    limit,
    skipIf: (context) => actionOf(context) !== action,
    getTracker: (req: Record<string, unknown>) => {
      const user = (req as unknown as Request).currentUser;
      if (!user) {
        throw new Error(
          `the ${action} limit needs a session guard to run first (UserRateLimited, SignedInRateLimited)`,
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
    // Slows, never refuses (LOGIN_SLOWDOWN_RULE): after the per-address rules, so an attempt they
    // refuse is not counted on the account.
    rule('login', 'account', HOUR_MS, limits.loginPerAccountPerHour),
    rule('register', 'address', HOUR_MS, limits.registerPerHour),
    rule('forgot-password', 'address', HOUR_MS, limits.forgotPasswordPerHour),
    rule('forgot-password', 'account-address', HOUR_MS, limits.forgotPasswordPerEmailPerHour),
    // One reset mail per interval per e-mail address, whoever asks (last: what an address's limits
    // refuse is not counted here): a stranger's requests delay the member's own by that interval at
    // most, and never block it for the hour.
    rule('forgot-password', 'account', limits.forgotPasswordEmailIntervalSeconds * 1000, 1, 'interval'),
    rule('reset-password', 'address', HOUR_MS, limits.resetPasswordPerHour),
    rule('change-password', 'address', HOUR_MS, limits.changePasswordPerHour),
    userRule('change-password', 'change-password-per-member-per-hour', HOUR_MS, limits.changePasswordPerHour),
    // Deleting the account asks for the password: as many tries as a password change.
    rule('delete-account', 'address', HOUR_MS, limits.changePasswordPerHour),
    userRule('delete-account', 'delete-account-per-member-per-hour', HOUR_MS, limits.changePasswordPerHour),
    rule('verify-email', 'address', HOUR_MS, limits.verifyEmailPerAddressPerHour),
    userRule('verify-email', 'verify-email-per-member-per-hour', HOUR_MS, limits.verifyEmailPerHour),
    rule('owner-claim', 'address', HOUR_MS, OWNER_SETUP_TRIES_PER_HOUR),
    userRule('owner-claim', 'owner-claim-per-member-per-hour', HOUR_MS, OWNER_SETUP_TRIES_PER_HOUR),
    userRule('chat', 'chat-per-member', limits.chatWindowSeconds * 1000, limits.chatMessages),
    userRule('message', 'message-per-member-per-minute', MINUTE_MS, limits.messagesPerMinute),
    userRule('message', 'message-per-member-per-hour', HOUR_MS, limits.messagesPerHour),
    userRule('upload', 'upload-per-member-per-hour', HOUR_MS, limits.uploadsPerHour),
  ];
}

/** Search's one rule, per client address, signed in or not (SearchRateLimitGuard). */
export function searchRateLimitThrottlers(limits: RateLimitConfig): ThrottlerOptions[] {
  return [rule('search', 'address', MINUTE_MS, limits.searchPerMinute)];
}

/**
 * @nestjs/throttler's guard with our answer: 429 `Too many attempts. Try again in N seconds.` (or the
 * route's own wording) and a plain Retry-After. RATE_LIMITS=off lets everything through.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    @InjectConfig() private readonly config: Pick<AppConfig, 'rateLimits' | 'moderation'>,
  ) {
    super(options, storage, reflector);
  }

  protected get rateLimits(): RateLimitConfig {
    return this.config.rateLimits;
  }

  /** A new member's limit of posts (the forum's write limits). */
  protected get moderation(): AppConfig['moderation'] {
    return this.config.moderation;
  }

  /**
   * The rules in the order rateLimitThrottlers lists them, not the throttler's shortest-window-first: a
   * request that one address's limit refuses is then not counted against a whole account or e-mail.
   */
  override async onModuleInit(): Promise<void> {
    await super.onModuleInit();
    this.throttlers = rateLimitThrottlers(this.config.rateLimits);
  }

  protected override async shouldSkip(): Promise<boolean> {
    return !this.config.rateLimits.enabled;
  }

  /** LOGIN_SLOWDOWN_RULE past its limit: the attempt waits, then goes on (no 429, no Retry-After). */
  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    if (request.throttler.name !== LOGIN_SLOWDOWN_RULE) return super.handleRequest(request);
    const { context, ttl, limit, blockDuration, throttler } = request;
    const { req } = this.getRequestResponse(context);
    const key = request.generateKey(context, await request.getTracker(req, context), throttler.name!);
    const { isBlocked } = await this.storageService.increment(
      key,
      ttl,
      limit,
      blockDuration,
      throttler.name!,
    );
    if (isBlocked)
      await new Promise((resolve) => setTimeout(resolve, this.config.rateLimits.loginSlowdownMs));
    return true;
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

/**
 * RateLimitGuard over search's rule alone (429 `You are searching too fast. …`): search is a hot read, so
 * one count in the limits' store, not every auth rule, and no database.
 */
@Injectable()
export class SearchRateLimitGuard extends RateLimitGuard {
  override async onModuleInit(): Promise<void> {
    await super.onModuleInit();
    this.throttlers = searchRateLimitThrottlers(this.rateLimits);
  }
}

/** Search, counted per client address (RATE_LIMIT_SEARCH_PER_MINUTE). */
export function SearchRateLimited(): MethodDecorator {
  return applyDecorators(SetMetadata(ACTION_KEY, 'search'), UseGuards(SearchRateLimitGuard));
}
