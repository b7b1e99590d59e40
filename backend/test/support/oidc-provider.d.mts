/** An account of the test provider: `login` / `password` on its sign-in page. */
export interface OidcTestAccount {
  login: string;
  password: string;
  email: string;
  emailVerified: boolean;
  preferredUsername: string;
  name: string;
}

export const OIDC_TEST_ACCOUNTS: readonly OidcTestAccount[];

export interface OidcProviderOptions {
  host?: string;
  port?: number;
  clientId?: string;
  clientSecret?: string;
  /** Termpaste's callbacks: `{PUBLIC_URL}/api/auth/sso/{id}/callback`. */
  redirectUris: string[];
  accounts?: readonly OidcTestAccount[];
}

export interface OidcProviderEntry {
  id: string;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export interface RunningOidcProvider {
  issuer: string;
  port: number;
  clientId: string;
  clientSecret: string;
  /** The OIDC_PROVIDERS entry of this provider. */
  entry(provider: { id: string; name: string }): OidcProviderEntry;
  addAccount(account: OidcTestAccount): void;
  close(): Promise<void>;
}

export function startOidcProvider(options: OidcProviderOptions): Promise<RunningOidcProvider>;
