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
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerOptions,
  type ThrottlerRequest,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import { FORUM_MESSAGES, MENTIONS_PER_POST_MAX } from '@termpaste/contracts';
import type { Request, Response } from 'express';
import type { AppConfig, RateLimitConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { WriterGuard } from '../../common/writer.guard.js';
import { RateLimitGuard } from '../auth/rate-limit.guard.js';
import { mentionedUsernames } from '../notifications/mentions.js';

/** The forum's writes limited per member (issue 13: reputation farming, floods, mention spam). */
export type WriteAction = 'paste' | 'reply' | 'vote';

const WRITE_ACTION_KEY = 'termpaste:write-action';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** The rule that counts the members a paste or reply @mentions, as many hits as it mentions. */
export const MENTIONS_RULE = 'mentions-per-member-per-hour';

function actionOf(context: ExecutionContext): WriteAction | undefined {
  return Reflect.getMetadata(WRITE_ACTION_KEY, context.getHandler()) as WriteAction | undefined;
}

/**
 * A write by a signed-in member who is not banned (WriterGuard: 401 / 403), then the limits of `action`
 * counted per member (WriteRateLimitGuard). In this order: a visitor is refused without being counted.
 */
export function WriteRateLimited(action: WriteAction): MethodDecorator {
  return applyDecorators(
    UseGuards(WriterGuard),
    SetMetadata(WRITE_ACTION_KEY, action),
    UseGuards(WriteRateLimitGuard),
  );
}

/** The members each request's `content` @mentions, read once by WriteRateLimitGuard before its rules. */
const mentionCounts = new WeakMap<object, number>();

/** The members a request's `content` @mentions, as the notifications will count them (at most 20). */
async function countMentions(req: Request): Promise<number> {
  const content: unknown = (req.body as Record<string, unknown> | undefined)?.['content'];
  return typeof content === 'string' ? (await mentionedUsernames(content, MENTIONS_PER_POST_MAX)).length : 0;
}

/** What countMentions found for this request (the rules read it synchronously). */
export function mentionsIn(req: Request): number {
  return mentionCounts.get(req) ?? 0;
}

function memberTracker(req: Record<string, unknown>): string {
  const user = (req as unknown as Request).currentUser;
  if (!user) throw new Error('the forum write limits need WriterGuard to run first (WriteRateLimited)');
  return `user:${user.id}`;
}

/** One counter per member and rule, whatever the route (the key ignores the handler). */
function memberRule(
  actions: readonly WriteAction[],
  name: string,
  ttl: number,
  limit: number,
  skip?: (req: Request) => boolean,
): ThrottlerOptions {
  return {
    name,
    ttl,
    limit,
    skipIf: (context) => {
      const action = actionOf(context);
      return !action || !actions.includes(action) || !!skip?.(context.switchToHttp().getRequest<Request>());
    },
    getTracker: memberTracker,
    generateKey: (_context, tracker, ruleName) => `${ruleName}:${tracker}`,
  };
}

/** Every per-member limit of pastes, replies and votes, and the mention budget of pastes and replies. */
export function writeLimitThrottlers(limits: RateLimitConfig): ThrottlerOptions[] {
  return [
    memberRule(['paste'], 'paste-per-member-per-minute', MINUTE_MS, limits.pastesPerMinute),
    memberRule(['paste'], 'paste-per-member-per-hour', HOUR_MS, limits.pastesPerHour),
    memberRule(['reply'], 'reply-per-member-per-minute', MINUTE_MS, limits.repliesPerMinute),
    memberRule(['reply'], 'reply-per-member-per-hour', HOUR_MS, limits.repliesPerHour),
    memberRule(['vote'], 'vote-per-member-per-minute', MINUTE_MS, limits.votesPerMinute),
    memberRule(['vote'], 'vote-per-member-per-hour', HOUR_MS, limits.votesPerHour),
    // A post that mentions nobody is not counted, nor held back once the budget is spent.
    memberRule(['paste', 'reply'], MENTIONS_RULE, HOUR_MS, limits.mentionsPerHour, (req) => !mentionsIn(req)),
  ];
}

/**
 * RateLimitGuard (the same store, RATE_LIMITS switch and Retry-After) over the forum's write limits:
 * 429 `You are posting too fast. …` (pastes, replies), `You are voting too fast. …`, or `You have
 * mentioned too many members. …` when a post's @mentions (each mentioned member one hit) pass the hourly
 * budget. Each rule is checked in turn, so a write the first rule refuses is not counted by the later ones.
 */
@Injectable()
export class WriteRateLimitGuard extends RateLimitGuard {
  private readonly limits: RateLimitConfig;

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    @InjectConfig() config: Pick<AppConfig, 'rateLimits'>,
  ) {
    super(options, storage, reflector, config);
    this.limits = config.rateLimits;
  }

  override async onModuleInit(): Promise<void> {
    await super.onModuleInit();
    this.throttlers = writeLimitThrottlers(this.limits);
  }

  /** Reads the post's @mentions first (off the event loop, markdown-text.ts), for the mention rule. */
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    mentionCounts.set(req, await countMentions(req));
    return super.canActivate(context);
  }

  /** The mention rule counts one hit per member mentioned; the others one per request. */
  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    if (request.throttler.name !== MENTIONS_RULE) return super.handleRequest(request);
    const { context, limit, ttl, blockDuration, throttler } = request;
    const req = context.switchToHttp().getRequest<Request>();
    const key = `${MENTIONS_RULE}:${memberTracker(req as unknown as Record<string, unknown>)}`;
    for (let i = mentionsIn(req); i > 0; i--) {
      const record = await this.storageService.increment(key, ttl, limit, blockDuration, throttler.name!);
      if (record.isBlocked) {
        await this.throwThrottlingException(context, { ...record, ttl, limit, key, tracker: key });
      }
    }
    return true;
  }

  protected override async throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const seconds = Math.max(1, detail.timeToBlockExpire);
    context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(seconds));
    const message = detail.key.startsWith(`${MENTIONS_RULE}:`)
      ? FORUM_MESSAGES.mentionsTooMany(seconds)
      : actionOf(context) === 'vote'
        ? FORUM_MESSAGES.voteTooFast(seconds)
        : FORUM_MESSAGES.postTooFast(seconds);
    throw new HttpException(message, HttpStatus.TOO_MANY_REQUESTS);
  }
}
