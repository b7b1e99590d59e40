import { applyDecorators, SetMetadata } from '@nestjs/common';
import type { TokenScope as Scope } from '@termpaste/contracts';

/** Metadata key of TokenScope: the scope a personal access token needs on the route. */
export const TOKEN_SCOPE = 'termpaste:token-scope';
/** Metadata key of NoTokens: the route (or controller) refuses personal access tokens. */
export const NO_TOKENS = 'termpaste:no-tokens';

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
