import { API, type CurrentUser, type RegisterBody } from '@termpaste/contracts';
import type { TestApp } from './test-app.js';

export const PASSWORD = 'correct horse battery staple';

let sequence = 0;

/** Registration details no other test uses. */
export function newAccount(overrides: Partial<RegisterBody> = {}): RegisterBody {
  const id = `${Date.now().toString(36)}${(sequence++).toString(36)}`;
  return { username: `user_${id}`, email: `user_${id}@example.com`, password: PASSWORD, ...overrides };
}

export type Browser = ReturnType<TestApp['browser']>;

/** Registers through the API in a new browser, which is then signed in. */
export async function registered(
  t: TestApp,
  overrides: Partial<RegisterBody> = {},
): Promise<{ browser: Browser; account: RegisterBody; user: CurrentUser }> {
  const browser = t.browser();
  const account = newAccount(overrides);
  const res = await browser.post(API.register).send(account);
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
  return { browser, account, user: res.body as CurrentUser };
}

/** Signs in in a new browser. */
export async function signedIn(t: TestApp, usernameOrEmail: string, password = PASSWORD): Promise<Browser> {
  const browser = t.browser();
  const res = await browser.post(API.login).send({ usernameOrEmail, password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return browser;
}

/** The value of a response's session cookie, if it set one. */
export function sessionCookie(res: { headers: Record<string, unknown> }): string | undefined {
  const cookies = (res.headers['set-cookie'] as string[] | undefined) ?? [];
  return cookies.find((cookie) => cookie.startsWith('termpaste.sid='));
}
