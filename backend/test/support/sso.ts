import { API, type SsoIntent } from '@termpaste/contracts';
import supertest from 'supertest';
import type { Browser } from './accounts.js';

/** Where the test apps send providers' browsers back (PUBLIC_URL unset, PORT unset: localhost:3000). */
export const TEST_PUBLIC_URL = 'http://localhost:3000';

/** The redirect URI of provider `id` as the test apps register it. */
export const callbackUri = (id: string) => `${TEST_PUBLIC_URL}${API.ssoCallback(id)}`;

/** An absolute URL's path and query: what a test sends to the app it stands for. */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** A person's browser at a provider: its own cookies there (its session, once signed in). */
export type ProviderBrowser = ReturnType<typeof supertest.agent>;

export const providerBrowser = (url: string): ProviderBrowser => supertest.agent(url);

export interface StartOptions {
  intent?: SsoIntent;
  next?: string;
}

/** `GET /api/auth/sso/{provider}` in `browser`: where it sends the browser (the provider, or a refusal). */
export async function startAt(browser: Browser, provider: string, { intent, next }: StartOptions = {}) {
  const res = await browser
    .get(API.ssoStart(provider))
    .query({ ...(intent ? { intent } : {}), ...(next !== undefined ? { next } : {}) })
    .redirects(0);
  if (res.status !== 302) throw new Error(`the start answered ${res.status} ${res.text}`);
  return { res, location: res.headers.location as string };
}

export interface ProviderSignIn {
  login?: string;
  password?: string;
  /** Cancel on the provider's sign-in page instead (the provider answers access_denied). */
  cancel?: boolean;
}

/**
 * Goes through the test provider's sign-in (or Cancel) and consent pages from `authorizeUrl` as `person`,
 * and returns where the provider sends the browser back: the app's callback, not followed.
 */
export async function throughOidcProvider(
  person: ProviderBrowser,
  authorizeUrl: string,
  { login, password, cancel = false }: ProviderSignIn,
): Promise<string> {
  let location = authorizeUrl;
  const issuer = new URL(authorizeUrl).origin;
  for (let hop = 0; hop < 12; hop++) {
    const url = new URL(location, issuer);
    if (url.origin !== issuer) return url.href;
    let res = await person.get(`${url.pathname}${url.search}`).redirects(0);
    const form = /action="\/interaction\/([^/"]+)\/login"/.exec(res.text ?? '');
    if (res.status === 200 && form) {
      res = cancel
        ? await person.get(`/interaction/${form[1]}/abort`).redirects(0)
        : await person
            .post(`/interaction/${form[1]}/login`)
            .type('form')
            .send({ login, password })
            .redirects(0);
    }
    if (![302, 303].includes(res.status)) {
      throw new Error(`the provider answered ${res.status} at ${url.pathname}: ${res.text?.slice(0, 300)}`);
    }
    location = res.headers.location as string;
  }
  throw new Error('the provider redirected too many times');
}

/**
 * Goes through the GitHub stand-in's authorize page from `authorizeUrl` as its account `login` (or
 * cancels). Returns the URL it sends the browser back to, not followed.
 */
export async function throughGithub(
  authorizeUrl: string,
  { login, cancel = false }: { login?: string; cancel?: boolean },
): Promise<string> {
  const url = new URL(authorizeUrl);
  if (cancel) url.searchParams.set('cancel', '1');
  else url.searchParams.set('login', login!);
  const res = await supertest(url.origin).get(`${url.pathname}${url.search}`).redirects(0);
  if (res.status !== 302) throw new Error(`the GitHub stand-in answered ${res.status} ${res.text}`);
  return res.headers.location as string;
}

/** The provider's callback in `browser` (the app's agent): where the app sends the browser then. */
export async function callbackIn(browser: Browser, callbackUrl: string): Promise<string> {
  const res = await browser.get(pathOf(callbackUrl)).redirects(0);
  if (res.status !== 302) throw new Error(`the callback answered ${res.status} ${res.text}`);
  return res.headers.location as string;
}

/**
 * A whole round trip through the OpenID Connect test provider (its id in the test app: `test`): starts
 * in `browser`, signs in there as `person` (or cancels), and comes back; returns where the app then sends
 * the browser.
 */
export async function throughOidcRoundTrip(
  browser: Browser,
  issuer: string,
  person: ProviderSignIn,
  start: StartOptions = {},
): Promise<string> {
  const { location } = await startAt(browser, 'test', start);
  return callbackIn(browser, await throughOidcProvider(providerBrowser(issuer), location, person));
}
