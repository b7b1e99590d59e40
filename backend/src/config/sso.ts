import { GITHUB_PROVIDER_ID, SSO_PROVIDER_ID } from '@termpaste/contracts';
import { z } from 'zod';
import { isLoopbackHost } from '../common/url-host.js';
import { ConfigError } from './config-error.js';
import type { EnvVars } from './env.js';
import { fail } from './values.js';

/** One OpenID Connect provider of OIDC_PROVIDERS. */
export interface OidcProviderConfig {
  /** In URLs (`/api/auth/sso/{id}`) and in `user_identities.provider`. */
  id: string;
  /** The button says "Continue with {name}". */
  name: string;
  /** Its issuer identifier, as discovery answers it (`/.well-known/openid-configuration` under it). */
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** GitHub's OAuth app (GITHUB_CLIENT_ID / GITHUB_CLIENT_SECRET), on GITHUB_URL. */
export interface GithubConfig {
  clientId: string;
  clientSecret: string;
  /** GITHUB_URL without a trailing slash: the sign-in pages and token endpoint are under it. */
  url: string;
  /** Its REST API: `https://api.github.com` for github.com, else `${url}/api/v3` (GitHub Enterprise). */
  apiUrl: string;
}

/** Single sign-on: the providers, and whether passwords still sign in. */
export interface SsoConfig {
  oidc: OidcProviderConfig[];
  github: GithubConfig | undefined;
  /** LOCAL_LOGIN (default on): off refuses password sign-in, registration and password resets (403). */
  localLogin: boolean;
}

export const GITHUB_URL_DEFAULT = 'https://github.com';

const ENTRY_FIELDS = ['id', 'name', 'issuer', 'clientId', 'clientSecret'] as const;
const SHAPE = `a JSON array of {${ENTRY_FIELDS.join(', ')}}`;

/**
 * Why `raw` cannot be a provider's address (an issuer, GITHUB_URL), or undefined when it can: an http(s)
 * URL, https unless on loopback (a test provider, a stand-in): the client secret goes there.
 */
export function providerUrlProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an http(s) URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http(s) URL';
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return 'must use https (http only on a loopback address, such as http://127.0.0.1:9000)';
  }
  return undefined;
}

/** OIDC_PROVIDERS's value (never echoed back: it holds client secrets). */
export const oidcProviders = z.string().transform((raw, ctx): OidcProviderConfig[] => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return fail(ctx, `must be ${SHAPE} (it is not valid JSON)`);
  }
  if (!Array.isArray(parsed)) return fail(ctx, `must be ${SHAPE}`);
  const providers: OidcProviderConfig[] = [];
  for (const [index, entry] of parsed.entries()) {
    const at = `entry ${index + 1}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      return fail(ctx, `${at} must be an object {${ENTRY_FIELDS.join(', ')}}`);
    }
    const unknown = Object.keys(entry).find((key) => !(ENTRY_FIELDS as readonly string[]).includes(key));
    if (unknown !== undefined) {
      return fail(ctx, `${at} has an unknown field "${unknown}" (the fields are ${ENTRY_FIELDS.join(', ')})`);
    }
    const fields = entry as Record<string, unknown>;
    for (const field of ENTRY_FIELDS) {
      const value = fields[field];
      if (typeof value !== 'string' || value.trim() === '') {
        return fail(ctx, `${at} needs ${field}, a non-empty string`);
      }
    }
    const provider = Object.fromEntries(
      ENTRY_FIELDS.map((field) => [field, (fields[field] as string).trim()]),
    ) as unknown as OidcProviderConfig;
    if (!SSO_PROVIDER_ID.test(provider.id)) {
      return fail(
        ctx,
        `${at}: id must be 1 to 32 lower-case letters, digits and dashes, not starting with a dash (got "${provider.id}")`,
      );
    }
    if (provider.id === GITHUB_PROVIDER_ID) {
      return fail(ctx, `${at}: id must not be "github" (GitHub is set up by GITHUB_CLIENT_ID)`);
    }
    if (providers.some((other) => other.id === provider.id)) {
      return fail(ctx, `${at}: id "${provider.id}" is used twice (each provider needs its own)`);
    }
    const problem = providerUrlProblem(provider.issuer);
    if (problem) return fail(ctx, `${at} (${provider.id}): issuer ${problem}`);
    providers.push({ ...provider, issuer: provider.issuer.replace(/\/+$/, '') });
  }
  return providers;
});

/** GITHUB_URL's value: an http(s) URL, https unless on loopback; without its trailing slash. */
export const githubUrl = z.string().transform((raw, ctx) => {
  const problem = providerUrlProblem(raw.trim());
  return problem ? fail(ctx, problem) : raw.trim().replace(/\/+$/, '');
});

/** Where GitHub's REST API is for the site at `url`: api.github.com, or GitHub Enterprise's `/api/v3`. */
export function githubApiUrl(url: string): string {
  return new URL(url).hostname === 'github.com' ? 'https://api.github.com' : `${url}/api/v3`;
}

/** OIDC_PROVIDERS, GITHUB_* and LOCAL_LOGIN, with the rules that tie them together. */
export function ssoConfig(vars: EnvVars): SsoConfig {
  const { GITHUB_CLIENT_ID: clientId, GITHUB_CLIENT_SECRET: clientSecret, GITHUB_URL: url } = vars;
  if ((clientId === undefined) !== (clientSecret === undefined)) {
    throw new ConfigError(
      'Invalid configuration: GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET must be set together ' +
        '(or neither, for no GitHub sign-in)',
    );
  }
  if (url !== undefined && clientId === undefined) {
    throw new ConfigError(
      'Invalid configuration: GITHUB_URL is set but GITHUB_CLIENT_ID is not ' +
        '(set GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET for GitHub sign-in, or unset GITHUB_URL)',
    );
  }
  const githubSite = url ?? GITHUB_URL_DEFAULT;
  const github =
    clientId !== undefined && clientSecret !== undefined
      ? { clientId, clientSecret, url: githubSite, apiUrl: githubApiUrl(githubSite) }
      : undefined;
  const oidc = vars.OIDC_PROVIDERS ?? [];
  const localLogin = vars.LOCAL_LOGIN !== 'off';
  if (!localLogin && oidc.length === 0 && github === undefined) {
    throw new ConfigError(
      'Invalid configuration: LOCAL_LOGIN is off but no sign-in provider is set up, so nobody could ' +
        'sign in (set OIDC_PROVIDERS or GITHUB_CLIENT_ID, or LOCAL_LOGIN=on)',
    );
  }
  return { oidc, github, localLogin };
}
