// A member as a browser is one: a session cookie, our own Origin on every request, JSON in and out. A
// request that gets no answer at all (the API is down) resolves to status 0 instead of throwing.
import { randomBytes } from 'node:crypto';
import { mailText } from './smtp.mjs';
import { waitFor } from './wait.mjs';

export const PASSWORD = 'reliability password 0123';

export class User {
  constructor(url, { username, email }) {
    this.url = url;
    this.username = username;
    this.email = email;
    this.cookie = undefined;
    this.id = undefined;
  }

  /** `{ status, body, headers }`; status 0 when the request failed (connection refused, reset, timeout). */
  async request(method, path, body, { timeoutMs = 15_000, headers = {} } = {}) {
    const init = {
      method,
      headers: {
        Origin: this.url,
        ...(this.cookie ? { Cookie: this.cookie } : {}),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    };
    let res;
    try {
      res = await fetch(this.url + path, init);
    } catch (error) {
      return { status: 0, body: undefined, error: error.cause?.code ?? error.name, headers: new Headers() };
    }
    const set = res.headers.getSetCookie().find((c) => c.startsWith('termpaste.sid='));
    if (set) this.cookie = set.split(';')[0];
    const text = await res.text().catch(() => '');
    let parsed = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  get(path, options) {
    return this.request('GET', path, undefined, options);
  }

  post(path, body, options) {
    return this.request('POST', path, body, options);
  }
}

/**
 * Registers a new member and verifies their address with the link the app mailed (read from the outbox
 * folder, or from `readMails()`), as a person would.
 */
export async function registerUser(url, readMails, tag, { email } = {}) {
  const suffix = `${tag}_${randomBytes(4).toString('hex')}`;
  const member = new User(url, { username: `m_${suffix}`, email: email ?? `m_${suffix}@reliability.test` });
  const res = await member.post('/api/register', {
    username: member.username,
    email: member.email,
    password: PASSWORD,
  });
  if (res.status !== 201)
    throw new Error(`register ${member.username}: ${res.status} ${JSON.stringify(res.body)}`);
  member.id = res.body.id;
  if (res.body.emailVerified === false) {
    const token = await waitFor(
      `the verification mail to ${member.email}`,
      () => {
        const mail = readMails()
          .map(mailText)
          .find((text) => text.includes(member.email) && text.includes('/verify-email?token='));
        return mail && /\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail)?.[1];
      },
      30_000,
      100,
    );
    const verified = await member.post('/api/verify-email', { token });
    if (verified.status !== 200)
      throw new Error(`verify ${member.email}: ${verified.status} ${JSON.stringify(verified.body)}`);
  }
  return member;
}

/** `count` members, registered `parallel` at a time (argon2 hashing is the cost). */
export async function registerUsers(url, readMails, count, { parallel = 8, tag = 'r' } = {}) {
  const members = [];
  for (let i = 0; i < count; i += parallel) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(parallel, count - i) }, () => registerUser(url, readMails, tag)),
    );
    members.push(...batch);
  }
  return members;
}
