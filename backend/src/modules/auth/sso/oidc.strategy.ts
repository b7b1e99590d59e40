import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import * as oidc from 'openid-client';
import { Strategy, type AuthenticateOptions } from 'openid-client/passport';
import type { OidcProviderConfig } from '../../../config/config.js';
import { attemptOf } from './sso-attempt.js';
import { oidcIdentity, type ProviderIdentity } from './provider-identity.js';

/** passport's name for an OpenID Connect provider's strategy. */
export const oidcStrategyName = (providerId: string) => `oidc:${providerId}`;

/** What the sign-in asks of the provider: who, their e-mail address, their preferred username. */
const SCOPE = 'openid email profile';

/**
 * An OpenID Connect provider of OIDC_PROVIDERS through openid-client's strategy: code flow with PKCE S256
 * (verifier and nonce in the session under `oidc:{id}`), the attempt's `state` and a fresh `nonce`, both
 * checked at the callback. Built once the provider's discovery worked (SignInProviders).
 */
export class OidcStrategy extends PassportStrategy(Strategy) {
  constructor(
    private readonly provider: OidcProviderConfig,
    private readonly configuration: oidc.Configuration,
    callbackURL: string,
  ) {
    super({
      config: configuration,
      name: oidcStrategyName(provider.id),
      sessionKey: oidcStrategyName(provider.id),
      callbackURL,
      scope: SCOPE,
    });
  }

  override authorizationRequestParams<TOptions extends AuthenticateOptions>(
    req: Request,
    options: TOptions,
  ): URLSearchParams {
    const params = new URLSearchParams(super.authorizationRequestParams(req, options));
    const attempt = attemptOf(req);
    if (!attempt) throw new Error('an OpenID Connect sign-in starts with an attempt in the session');
    params.set('state', attempt.state);
    params.set('nonce', oidc.randomNonce());
    return params;
  }

  /** The ID token's claims (checked by the strategy), completed by the UserInfo endpoint when there is one. */
  async validate(
    tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers,
  ): Promise<ProviderIdentity> {
    const claims = tokens.claims();
    if (!claims) throw new Error(`${this.provider.id} answered without an ID token`);
    const userInfo = this.configuration.serverMetadata().userinfo_endpoint
      ? await oidc.fetchUserInfo(this.configuration, tokens.access_token, claims.sub)
      : {};
    return oidcIdentity(this.provider.id, claims, userInfo);
  }
}
