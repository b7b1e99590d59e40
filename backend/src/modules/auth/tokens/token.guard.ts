import {
  type ExecutionContext,
  ForbiddenException,
  HttpException,
  HttpStatus,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants.js';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import { TOKEN_MESSAGES, type TokenScope } from '@termpaste/contracts';
import type { Request, Response } from 'express';
import { isBearerRequest } from '../guards/bearer.js';
import { SessionGuard } from '../guards/session.guard.js';
import { AdminGuard } from '../guards/writer.guard.js';
import type { AppConfig } from '../../../config/config.js';
import { InjectConfig } from '../../../config/config.module.js';
import type { TokenPrincipal } from './bearer.strategy.js';
import { ANY_TOKEN, NO_TOKENS, TOKEN_SCOPE } from './token-scope.decorator.js';

const READS = new Set(['GET', 'HEAD']);
const READ_SCOPES = new Set<TokenScope>(['read', 'private:read']);
const MINUTE_MS = 60_000;
export const TOKEN_RATE_RULE = 'token-requests-per-minute';

/** What the bearer strategy sees of a request: its headers only (never a body or query `access_token`). */
const HEADERS_ONLY = Symbol('headers-only request');

/**
 * Personal access tokens on every route (a global guard): no Bearer header passes untouched; else the
 * token is authenticated (401) and acts as its member within its scopes, judged by the route's marks,
 * never its path. Rate limited per token. The scope rules: docs/backend.md.
 */
@Injectable()
export class TokenGuard extends AuthGuard('bearer') {
  constructor(
    private readonly reflector: Reflector,
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    @InjectConfig() private readonly config: Pick<AppConfig, 'rateLimits'>,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request>();
    if (!isBearerRequest(req)) return true;
    await super.canActivate(context);
    this.judge(context, req);
    await this.count(context, req);
    return true;
  }

  override getAuthenticateOptions(): { session: false } {
    return { session: false };
  }

  /** The request as the strategy sees it: the same headers, no body or query to find a token in. */
  override getRequest(context: ExecutionContext): unknown {
    const req = context.switchToHttp().getRequest<Request>();
    const view = Object.create(req) as Request & { [HEADERS_ONLY]: true };
    Object.defineProperties(view, {
      body: { value: undefined, writable: true },
      query: { value: {}, writable: true },
      [HEADERS_ONLY]: { value: true },
    });
    return view;
  }

  /** The strategy's principal becomes the request's member and token; no principal: 401. */
  override handleRequest<TUser>(
    err: unknown,
    principal: TokenPrincipal | false | undefined,
    _info: unknown,
    context: ExecutionContext,
  ): TUser {
    if (err) throw err;
    // passport-http-bearer fails without an error when the header is not `Bearer <token>`.
    if (!principal) throw new UnauthorizedException(TOKEN_MESSAGES.malformed);
    const req = context.switchToHttp().getRequest<Request>();
    req.currentUser = principal.user;
    req.accessToken = principal.token;
    return principal.user as TUser;
  }

  /** The policy: what a token may call, with which scope (see the class). */
  private judge(context: ExecutionContext, req: Request): void {
    const targets = [context.getHandler(), context.getClass()];
    const guards = this.reflector.getAllAndMerge<unknown[]>(GUARDS_METADATA, targets);
    const closed =
      guards.includes(AdminGuard) || this.reflector.getAllAndOverride<boolean>(NO_TOKENS, targets) === true;
    if (closed) throw new ForbiddenException(TOKEN_MESSAGES.notForTokens);
    const read = READS.has(req.method);
    if (read && this.reflector.getAllAndOverride<boolean>(ANY_TOKEN, targets) === true) return;
    const marked = this.reflector.getAllAndOverride<TokenScope | undefined>(TOKEN_SCOPE, targets);
    // A read scope never opens a write, whatever marks the controller carries.
    const needed: TokenScope | undefined = read
      ? (marked ?? (guards.includes(SessionGuard) ? 'private:read' : 'read'))
      : marked && !READ_SCOPES.has(marked)
        ? marked
        : undefined;
    if (!needed) throw new ForbiddenException(TOKEN_MESSAGES.notForTokens);
    if (!req.accessToken!.scopes.includes(needed)) {
      throw new ForbiddenException(TOKEN_MESSAGES.missingScope(needed));
    }
  }

  /** One hit on the token's own budget (in the rate limits' store: Redis when set, shared by instances). */
  private async count(context: ExecutionContext, req: Request): Promise<void> {
    const { enabled, tokenRequestsPerMinute: limit } = this.config.rateLimits;
    if (!enabled) return;
    const key = `${TOKEN_RATE_RULE}:token:${req.accessToken!.id}`;
    const record = await this.storage.increment(key, MINUTE_MS, limit, MINUTE_MS, TOKEN_RATE_RULE);
    if (!record.isBlocked) return;
    const seconds = Math.max(1, record.timeToBlockExpire);
    context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(seconds));
    throw new HttpException(TOKEN_MESSAGES.tooFast(seconds), HttpStatus.TOO_MANY_REQUESTS);
  }
}
