import { applyDecorators, SetMetadata } from '@nestjs/common';
import type { TokenScope as Scope } from '@termpaste/contracts';

/** Metadata key of TokenScope: the scope a personal access token needs on the route. */
export const TOKEN_SCOPE = 'termpaste:token-scope';
/** Metadata key of NoTokens: the route (or controller) refuses personal access tokens. */
export const NO_TOKENS = 'termpaste:no-tokens';
/** Metadata key of AnyToken: the route answers any valid token, whatever its scopes. */
export const ANY_TOKEN = 'termpaste:any-token';

/**
 * Opens a route to tokens holding `scope` (`@TokenScope('pastes:write')`); unmarked writes refuse tokens
 * (403). On a read it names the scope needed: `read` (public data, own pastes) or `private:read`; unmarked
 * open reads take `read`. NoTokens takes none.
 */
export const TokenScope = (scope: Scope): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(TOKEN_SCOPE, scope));

/**
 * A read of what is the member's alone (private messages, notifications, the chat, their reputation
 * ledger): a token needs `private:read`, `read` is not enough (403 TOKEN_MESSAGES.missingScope).
 */
export const PrivateRead = (): MethodDecorator & ClassDecorator => TokenScope('private:read');

/**
 * Closes a route, or every route of a controller, to personal access tokens, reads included: the admin
 * API, token management, and account routes (password, e-mail). A token on it gets 403.
 */
export const NoTokens = (): MethodDecorator & ClassDecorator => applyDecorators(SetMetadata(NO_TOKENS, true));

/**
 * Opens a read to every valid token, whatever its scopes: `GET /api/auth/user` (who the token acts for),
 * so a client can check a token that may only paste.
 */
export const AnyToken = (): MethodDecorator => applyDecorators(SetMetadata(ANY_TOKEN, true));
