import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-github2';
import type { GithubConfig } from '../../../config/config.js';
import { githubIdentity, type GithubProfile, type ProviderIdentity } from './provider-identity.js';

/** passport's name for GitHub's strategy (and the provider's id). */
export const GITHUB_STRATEGY = 'github';

/**
 * GitHub's OAuth app through passport-github2, on GITHUB_URL (github.com, Enterprise's `/api/v3`, or a
 * stand-in): the profile and the e-mail addresses with their `primary` and `verified` flags. The attempt's
 * `state` goes with the request; SsoController checks it at the callback.
 */
export class GithubStrategy extends PassportStrategy(Strategy, GITHUB_STRATEGY) {
  constructor(github: GithubConfig, callbackURL: string) {
    super({
      clientID: github.clientId,
      clientSecret: github.clientSecret,
      callbackURL,
      authorizationURL: `${github.url}/login/oauth/authorize`,
      tokenURL: `${github.url}/login/oauth/access_token`,
      userProfileURL: `${github.apiUrl}/user`,
      userEmailURL: `${github.apiUrl}/user/emails`,
      scope: ['read:user', 'user:email'],
      allRawEmails: true,
      userAgent: 'Termpaste',
    });
  }

  validate(
    _accessToken: string,
    _refreshToken: string | undefined,
    profile: GithubProfile,
  ): ProviderIdentity {
    return githubIdentity(profile);
  }
}
