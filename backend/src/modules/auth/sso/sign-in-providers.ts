import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { API, GITHUB_PROVIDER_ID, type SignInProvider } from '@termpaste/contracts';
import * as oidc from 'openid-client';
import passport from 'passport';
import type { AppConfig, OidcProviderConfig } from '../../../config/config.js';
import { InjectConfig } from '../../../config/config.module.js';
import { isLoopbackHost } from '../../../common/url-host.js';
import { GITHUB_STRATEGY, GithubStrategy } from './github.strategy.js';
import { OidcStrategy, oidcStrategyName } from './oidc.strategy.js';

/** Seconds an OpenID Connect provider has to answer (discovery, tokens, UserInfo). */
const PROVIDER_TIMEOUT_SECONDS = 10;
/** How long the start-up waits for the issuers' discovery before it goes on without the slow ones. */
const STARTUP_WAIT_MS = 3_000;
/** The first retry of a failed discovery; each next one waits twice as long, up to the last. */
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 60_000;

/** Where a configured provider stands: ready to sign in with, or (an issuer not discovered yet) not. */
export type ProviderState =
  | { status: 'ready'; provider: SignInProvider; strategy: string }
  | { status: 'unavailable'; provider: SignInProvider }
  | { status: 'unknown' };

interface OidcEntry {
  config: OidcProviderConfig;
  strategy?: OidcStrategy;
  retry?: NodeJS.Timeout;
  retryMs: number;
}

/** An error and its causes, for a log line: `something went wrong: fetch failed: connect ECONNREFUSED …`. */
export function reason(error: unknown): string {
  const parts: string[] = [];
  // Duck-typed: fetch's errors come from another realm than this code's Error under jest.
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    const { message, cause } =
      typeof current === 'object' ? (current as { message?: unknown; cause?: unknown }) : {};
    const text = typeof message === 'string' ? message : String(current);
    if (text && !parts.includes(text)) parts.push(text);
    current = cause;
  }
  return parts.join(': ');
}

/**
 * The configured sign-in providers and their strategies. Discovery is tried at start-up (STARTUP_WAIT_MS);
 * a provider that fails is logged, hidden, answers provider_unavailable and is retried in the background
 * (1 s, 2 s … a minute apart): a provider that is down never stops the forum.
 */
@Injectable()
export class SignInProviders implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('SignIn');
  private readonly oidc: OidcEntry[];
  private github: GithubStrategy | undefined;
  private closed = false;

  constructor(@InjectConfig() private readonly config: Pick<AppConfig, 'sso' | 'publicUrl'>) {
    this.oidc = config.sso.oidc.map((entry) => ({ config: entry, retryMs: RETRY_FIRST_MS }));
  }

  async onApplicationBootstrap(): Promise<void> {
    const { github } = this.config.sso;
    if (github) {
      this.github = new GithubStrategy(github, this.callbackUrl(GITHUB_PROVIDER_ID));
      this.logger.log(`Sign-in provider github (GitHub at ${github.url}) is ready`);
    }
    // Start-up waits a moment for the issuers (their buttons are there from the first page), no longer:
    // a slow one is still being discovered, and shows once it answers.
    let waited: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(this.oidc.map((entry) => this.discover(entry))),
      new Promise<void>((resolve) => (waited = setTimeout(resolve, STARTUP_WAIT_MS))),
    ]);
    clearTimeout(waited);
  }

  onModuleDestroy(): void {
    this.closed = true;
    for (const entry of this.oidc) {
      clearTimeout(entry.retry);
      this.forget(oidcStrategyName(entry.config.id), entry.strategy);
    }
    this.forget(GITHUB_STRATEGY, this.github);
  }

  /** The providers people may sign in with now, in configuration order, GitHub last (GET /api/site). */
  visible(): SignInProvider[] {
    return [
      ...this.oidc.filter((entry) => entry.strategy).map((entry) => this.describe(entry.config)),
      ...(this.github ? [this.githubProvider()] : []),
    ];
  }

  /** A configured provider (ready or not) by id, for its name on linked identities. */
  configured(id: string): SignInProvider | undefined {
    const state = this.state(id);
    return state.status === 'unknown' ? undefined : state.provider;
  }

  state(id: string): ProviderState {
    if (id === GITHUB_PROVIDER_ID) {
      return this.github
        ? { status: 'ready', provider: this.githubProvider(), strategy: GITHUB_STRATEGY }
        : { status: 'unknown' };
    }
    const entry = this.oidc.find((candidate) => candidate.config.id === id);
    if (!entry) return { status: 'unknown' };
    const provider = this.describe(entry.config);
    return entry.strategy
      ? { status: 'ready', provider, strategy: oidcStrategyName(entry.config.id) }
      : { status: 'unavailable', provider };
  }

  /** The address the provider sends the browser back to (registered with it as the redirect URI). */
  callbackUrl(id: string): string {
    return `${this.config.publicUrl}${API.ssoCallback(id)}`;
  }

  private describe({ id, name }: OidcProviderConfig): SignInProvider {
    return { id, name, kind: 'oidc' };
  }

  private githubProvider(): SignInProvider {
    return { id: GITHUB_PROVIDER_ID, name: 'GitHub', kind: 'github' };
  }

  private async discover(entry: OidcEntry): Promise<void> {
    const { id, name, issuer } = entry.config;
    try {
      const configuration = await this.discovery(entry.config);
      if (this.closed) return;
      entry.strategy = new OidcStrategy(entry.config, configuration, this.callbackUrl(id));
      this.logger.log(`Sign-in provider ${id} (${name}, ${issuer}) is ready`);
    } catch (error) {
      if (this.closed) return;
      this.logger.warn(
        `Sign-in provider ${id} (${name}): discovery of ${issuer} failed: ${reason(error)}. Its button is ` +
          `hidden until it works; trying again in ${entry.retryMs / 1000} s`,
      );
      entry.retry = setTimeout(() => void this.discover(entry), entry.retryMs);
      entry.retry.unref();
      entry.retryMs = Math.min(entry.retryMs * 2, RETRY_MAX_MS);
    }
  }

  /**
   * The issuer's metadata and this client. Plain http only for a loopback issuer (a test provider): the
   * configuration refuses any other. The client authenticates with its secret by HTTP Basic (the
   * standard's default) unless the provider lists only client_secret_post.
   */
  private async discovery({
    issuer,
    clientId,
    clientSecret,
  }: OidcProviderConfig): Promise<oidc.Configuration> {
    const url = new URL(issuer);
    const insecure = url.protocol === 'http:' && isLoopbackHost(url.hostname);
    const found = await oidc.discovery(url, clientId, clientSecret, undefined, {
      execute: insecure ? [oidc.allowInsecureRequests] : [],
      timeout: PROVIDER_TIMEOUT_SECONDS,
    });
    const metadata = found.serverMetadata();
    const methods = metadata.token_endpoint_auth_methods_supported;
    const basic =
      !methods || methods.includes('client_secret_basic') || !methods.includes('client_secret_post');
    const configuration = new oidc.Configuration(
      metadata,
      clientId,
      clientSecret,
      basic ? oidc.ClientSecretBasic(clientSecret) : oidc.ClientSecretPost(clientSecret),
    );
    configuration.timeout = PROVIDER_TIMEOUT_SECONDS;
    if (insecure) oidc.allowInsecureRequests(configuration);
    return configuration;
  }

  /** Takes our strategy out of passport's registry (a later app in the process may have replaced it). */
  private forget(name: string, strategy: object | undefined): void {
    const registry = passport as unknown as { _strategies: Record<string, unknown> };
    if (strategy && registry._strategies[name] === strategy) passport.unuse(name);
  }
}
