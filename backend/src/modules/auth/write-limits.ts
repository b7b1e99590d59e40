import {
  applyDecorators,
  type CanActivate,
  type ExecutionContext,
  HttpException,
  HttpStatus,
  Injectable,
  SetMetadata,
  type Type,
  UseGuards,
} from '@nestjs/common';
import { type ThrottlerLimitDetail, type ThrottlerOptions, type ThrottlerRequest } from '@nestjs/throttler';
import {
  POST_MESSAGES,
  MENTIONS_PER_POST_MAX,
  MODERATION_MESSAGES,
  SETTINGS_MESSAGES,
} from '@termpaste/contracts';
import type { Request, Response } from 'express';
import type { ModerationConfig, RateLimitConfig } from '../../config/config.js';
import { WriterGuard } from './guards/writer.guard.js';
import { RateLimitGuard } from './rate-limit.guard.js';
import { mentionedUsernames } from './mentions.js';

/**
 * The writes limited per member (against reputation farming, floods, mention spam): pastes, replies,
 * votes, and edits and profile saves (each edit keeps a version; each profile save drops cached pages).
 */
export type WriteAction = 'paste' | 'reply' | 'vote' | 'edit' | 'profile';

const WRITE_ACTION_KEY = 'termpaste:write-action';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** The rule that counts a new member's pastes and replies together (MODERATION_NEW_MEMBER_POSTS). */
export const NEW_USER_RULE = 'new-member-posts-per-hour';

/** The rule that counts the members a paste or reply @mentions, as many hits as it mentions. */
export const MENTIONS_RULE = 'mentions-per-member-per-hour';

function actionOf(context: ExecutionContext): WriteAction | undefined {
  return Reflect.getMetadata(WRITE_ACTION_KEY, context.getHandler()) as WriteAction | undefined;
}

/**
 * A member's write, in this order so a visitor is refused without being counted: WriterGuard (401/403),
 * the action's limits, `readBody` (a paste route's body, read only once it may write), then for a paste
 * or reply the mention budget.
 */
export function WriteRateLimited(action: WriteAction, readBody?: Type<CanActivate>): MethodDecorator {
  const mentions = action === 'paste' || action === 'reply' ? [MentionLimitGuard] : [];
  return applyDecorators(
    UseGuards(WriterGuard),
    SetMetadata(WRITE_ACTION_KEY, action),
    UseGuards(WriteRateLimitGuard, ...(readBody ? [readBody] : []), ...mentions),
  );
}

/** The members each request's `content` @mentions, read once by MentionLimitGuard before its rule. */
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

function userTracker(req: Record<string, unknown>): string {
  const user = (req as unknown as Request).currentUser;
  if (!user) throw new Error('the forum write limits need WriterGuard to run first (WriteRateLimited)');
  return `user:${user.id}`;
}

/** One counter per member and rule, whatever the route (the key ignores the handler). */
function userRule(
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
    getTracker: userTracker,
    generateKey: (_context, tracker, ruleName) => `${ruleName}:${tracker}`,
  };
}

/**
 * One counter per client address (the throttler's tracker, IPv6 by /64) and rule, whatever the route: a
 * member's several accounts share it.
 */
function addressRule(
  actions: readonly WriteAction[],
  name: string,
  ttl: number,
  limit: number,
): ThrottlerOptions {
  return {
    name,
    ttl,
    limit,
    skipIf: (context) => {
      const action = actionOf(context);
      return !action || !actions.includes(action);
    },
    generateKey: (_context, tracker, ruleName) => `${ruleName}:${tracker}`,
  };
}

/** The mention budget of pastes and replies: as many hits as a post mentions members. */
function mentionRule(limits: RateLimitConfig): ThrottlerOptions {
  // A post that mentions nobody is not counted, nor held back once the budget is spent.
  return userRule(
    ['paste', 'reply'],
    MENTIONS_RULE,
    HOUR_MS,
    limits.mentionsPerHour,
    (req) => !mentionsIn(req),
  );
}

/**
 * A new member's pastes and replies together (staff and members with MODERATION_NEW_MEMBER_POSTS
 * accepted posts are not counted): the member's counters as the guard loaded them.
 */
function newUserRule(moderation: ModerationConfig): ThrottlerOptions {
  return userRule(['paste', 'reply'], NEW_USER_RULE, HOUR_MS, moderation.newUserPostsPerHour, (req) => {
    const user = req.currentUser;
    return !user || user.isAdmin || user.threadCount + user.replyCount >= moderation.newUserPosts;
  });
}

/**
 * Every per-member limit of pastes, replies, votes, edits and profile saves (edits and saves per address
 * too), and with `moderation` a new member's posts an hour.
 */
export function writeLimitThrottlers(
  limits: RateLimitConfig,
  moderation?: ModerationConfig,
): ThrottlerOptions[] {
  return [
    userRule(['paste'], 'paste-per-member-per-minute', MINUTE_MS, limits.pastesPerMinute),
    userRule(['paste'], 'paste-per-member-per-hour', HOUR_MS, limits.pastesPerHour),
    userRule(['reply'], 'reply-per-member-per-minute', MINUTE_MS, limits.repliesPerMinute),
    userRule(['reply'], 'reply-per-member-per-hour', HOUR_MS, limits.repliesPerHour),
    userRule(['vote'], 'vote-per-member-per-minute', MINUTE_MS, limits.votesPerMinute),
    userRule(['vote'], 'vote-per-member-per-hour', HOUR_MS, limits.votesPerHour),
    userRule(['edit'], 'edit-per-member-per-hour', HOUR_MS, limits.editsPerHour),
    addressRule(['edit'], 'edit-per-address-per-hour', HOUR_MS, limits.editsPerAddressPerHour),
    userRule(['profile'], 'profile-per-member-per-hour', HOUR_MS, limits.profileSavesPerHour),
    addressRule(['profile'], 'profile-per-address-per-hour', HOUR_MS, limits.profileSavesPerAddressPerHour),
    ...(moderation ? [newUserRule(moderation)] : []),
  ];
}

/** The 429 text of a write limit, by the route's action (a new member's own limit says so). */
function tooFast(context: ExecutionContext, seconds: number, rule: string): string {
  if (rule.startsWith(`${NEW_USER_RULE}:`)) return MODERATION_MESSAGES.newUserTooFast(seconds);
  switch (actionOf(context)) {
    case 'vote':
      return POST_MESSAGES.voteTooFast(seconds);
    case 'edit':
      return POST_MESSAGES.editTooFast(seconds);
    case 'profile':
      return SETTINGS_MESSAGES.profileSaveTooMany(seconds);
    default:
      return POST_MESSAGES.postTooFast(seconds);
  }
}

/** 429 with Retry-After and `message`, as RateLimitGuard answers. */
function refuse(
  context: ExecutionContext,
  detail: ThrottlerLimitDetail,
  message: (seconds: number) => string,
): never {
  const seconds = Math.max(1, detail.timeToBlockExpire);
  context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(seconds));
  throw new HttpException(message(seconds), HttpStatus.TOO_MANY_REQUESTS);
}

/**
 * RateLimitGuard over the write limits: 429 `You are posting too fast. …` (or the action's wording). Rules
 * are checked in turn, so a write the first refuses is not counted by later ones. It reads no body.
 */
@Injectable()
export class WriteRateLimitGuard extends RateLimitGuard {
  override async onModuleInit(): Promise<void> {
    await super.onModuleInit();
    this.throttlers = writeLimitThrottlers(this.rateLimits, this.moderation);
  }

  protected override async throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    refuse(context, detail, (seconds) => tooFast(context, seconds, detail.key));
  }
}

/**
 * The mention budget, after the body is read: 429 `You have mentioned too many members. …` when a post's
 * @mentions (each mentioned member one hit) pass the hourly budget.
 */
@Injectable()
export class MentionLimitGuard extends RateLimitGuard {
  override async onModuleInit(): Promise<void> {
    await super.onModuleInit();
    this.throttlers = [mentionRule(this.rateLimits)];
  }

  /** Reads the post's @mentions first (off the event loop, markdown-text.ts), for the mention rule. */
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    mentionCounts.set(req, await countMentions(req));
    return super.canActivate(context);
  }

  /** One hit per member mentioned. */
  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, blockDuration, throttler } = request;
    const req = context.switchToHttp().getRequest<Request>();
    const key = `${MENTIONS_RULE}:${userTracker(req as unknown as Record<string, unknown>)}`;
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
    refuse(context, detail, POST_MESSAGES.mentionsTooMany);
  }
}
