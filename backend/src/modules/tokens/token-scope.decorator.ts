import { applyDecorators, SetMetadata } from '@nestjs/common';
import type { TokenScope as Scope } from '@termpaste/contracts';

/** Metadata key of TokenScope: the scope a personal access token needs on the route. */
export const TOKEN_SCOPE = 'termpaste:token-scope';
/** Metadata key of NoTokens: the route (or controller) refuses personal access tokens. */
export const NO_TOKENS = 'termpaste:no-tokens';
/** Metadata key of AnyToken: the route answers any valid token, whatever its scopes. */
export const ANY_TOKEN = 'termpaste:any-token';

/**
 * Opens a write route to personal access tokens (`Authorization: Bearer tp_…`) that hold `scope`:
 * `@TokenScope('pastes:write')` on POST /api/pastes and POST /api/threads. Without it, a token on a
 * POST, PUT, PATCH or DELETE is refused with 403 (TOKEN_MESSAGES.notForTokens). Reads (GET, HEAD) need no
 * marking: a token with `read` may call them unless the route or its controller is marked NoTokens.
 */
export const TokenScope = (scope: Scope): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(TOKEN_SCOPE, scope));

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
