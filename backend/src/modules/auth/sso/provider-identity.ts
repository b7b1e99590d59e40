/** Who a provider says signed in: what a sign-in, an account or a link is made of. */
export interface ProviderIdentity {
  /** The configured provider's id (`keycloak`, `github`). */
  provider: string;
  /** The provider's stable id of the person: OIDC `sub`, GitHub's numeric user id. */
  subject: string;
  /** The e-mail address the provider gave, if any. */
  email: string | null;
  /** Whether the provider vouches for that address (OIDC `email_verified: true`, GitHub's verified primary). */
  emailVerified: boolean;
  /** Names to propose a username from, best first (preferred_username or GitHub login, then others). */
  usernameHints: string[];
}

type Claims = Record<string, unknown>;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/**
 * An OpenID Connect identity from the ID token's claims and the UserInfo answer (which wins where both
 * say something: it is where providers put the scope's claims). The address counts as verified only
 * when the provider says `email_verified: true` (or the string "true", as some send it).
 */
export function oidcIdentity(provider: string, idToken: Claims, userInfo: Claims = {}): ProviderIdentity {
  const claims: Claims = { ...idToken, ...userInfo };
  const email = text(claims['email']) ?? null;
  const verified = claims['email_verified'];
  return {
    provider,
    subject: String(idToken['sub']),
    email,
    emailVerified: email !== null && (verified === true || verified === 'true'),
    usernameHints: [claims['preferred_username'], claims['nickname'], email, claims['name']]
      .map(text)
      .filter((hint): hint is string => hint !== undefined),
  };
}

/** One address of GitHub's `GET /user/emails`. */
export interface GithubEmail {
  value: string;
  primary?: boolean;
  verified?: boolean;
}

/** What passport-github2 makes of `GET /user` (and, with `allRawEmails`, `GET /user/emails`). */
export interface GithubProfile {
  id: string;
  username?: string;
  displayName?: string | null;
  emails?: GithubEmail[];
}

/**
 * A GitHub identity: the primary address of `/user/emails`, verified only when GitHub says so; without
 * that list (the scope refused), the public `email` of `/user`, unverified.
 */
export function githubIdentity(profile: GithubProfile): ProviderIdentity {
  const primary = profile.emails?.find((email) => email.primary) ?? profile.emails?.[0];
  const email = text(primary?.value) ?? null;
  return {
    provider: 'github',
    subject: String(profile.id),
    email,
    emailVerified: email !== null && primary?.verified === true && primary.primary === true,
    usernameHints: [profile.username, email, profile.displayName ?? undefined]
      .map(text)
      .filter((hint): hint is string => hint !== undefined),
  };
}
