/** An account of the GitHub stand-in. */
export interface GithubTestAccount {
  id: number;
  login: string;
  name: string;
  /** `GET /user`'s `email` (the public one), or null. */
  publicEmail: string | null;
  /** `GET /user/emails`. */
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
}

export const GITHUB_TEST_ACCOUNTS: readonly GithubTestAccount[];

export interface GithubStandInOptions {
  host?: string;
  port?: number;
  clientId?: string;
  clientSecret?: string;
  accounts?: readonly GithubTestAccount[];
}

export interface RunningGithubStandIn {
  url: string;
  clientId: string;
  clientSecret: string;
  /** GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET and GITHUB_URL for Termpaste. */
  env: { GITHUB_CLIENT_ID: string; GITHUB_CLIENT_SECRET: string; GITHUB_URL: string };
  addAccount(account: GithubTestAccount): void;
  close(): Promise<void>;
}

export function startGithubStandIn(options?: GithubStandInOptions): Promise<RunningGithubStandIn>;
