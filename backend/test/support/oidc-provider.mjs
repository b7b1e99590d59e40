// A real OpenID Connect provider (oidc-provider, the certified Node implementation) on a loopback port,
// with test accounts and its own sign-in page: for the API tests (test/sso*.spec.ts), the end-to-end test
// that signs in through that page in Chromium, and `npm run oidc:dev` (scripts/oidc-dev-provider.mjs), to
// try provider sign-in locally. Plain JavaScript, so a plain Node script can start it (types beside it,
// oidc-provider.d.mts).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

/** The accounts of a new provider: `login` / `password` on its sign-in page. */
export const OIDC_TEST_ACCOUNTS = [
  {
    login: 'ada',
    password: 'ada-password',
    email: 'ada@oidc.example',
    emailVerified: true,
    preferredUsername: 'ada',
    name: 'Ada Lovelace',
  },
  {
    login: 'grace',
    password: 'grace-password',
    email: 'grace@oidc.example',
    emailVerified: false,
    preferredUsername: 'grace.hopper',
    name: 'Grace Hopper',
  },
  {
    login: 'linus',
    password: 'linus-password',
    email: 'linus@oidc.example',
    emailVerified: true,
    preferredUsername: 'Linus Tørvalds!',
    name: 'Linus',
  },
];

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The sign-in page, in the look of a plain identity provider (labels and button names for Playwright). */
function loginPage(uid, { error, login = '' } = {}) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test identity provider: sign in</title></head>
<body>
  <h1>Test identity provider</h1>
  ${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
  <form method="post" action="/interaction/${uid}/login">
    <label>Login <input name="login" autocomplete="username" value="${escapeHtml(login)}" autofocus></label>
    <label>Password <input name="password" type="password" autocomplete="current-password"></label>
    <button type="submit">Sign in</button>
  </form>
  <p><a href="/interaction/${uid}/abort">Cancel</a></p>
</body></html>`;
}

/**
 * oidc-provider's storage, in this process's memory (its own in-memory adapter works the same but warns
 * that it is one): sessions, interactions, codes, tokens and grants, each with its expiry.
 */
function memoryAdapter() {
  const store = new Map();
  const alive = (key) => {
    const entry = store.get(key);
    if (entry && entry.expires !== undefined && entry.expires < Date.now()) store.delete(key);
    return store.get(key)?.payload;
  };
  return class MemoryAdapter {
    constructor(model) {
      this.model = model;
    }
    key(id) {
      return `${this.model}:${id}`;
    }
    async upsert(id, payload, expiresIn) {
      store.set(this.key(id), { payload, expires: expiresIn ? Date.now() + expiresIn * 1000 : undefined });
    }
    async find(id) {
      return alive(this.key(id));
    }
    async findByUid(uid) {
      for (const key of store.keys()) {
        if (key.startsWith(`${this.model}:`) && alive(key)?.uid === uid) return alive(key);
      }
      return undefined;
    }
    async findByUserCode(userCode) {
      for (const key of store.keys()) {
        if (key.startsWith(`${this.model}:`) && alive(key)?.userCode === userCode) return alive(key);
      }
      return undefined;
    }
    async consume(id) {
      const payload = alive(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId) {
      for (const [key, { payload }] of store) if (payload.grantId === grantId) store.delete(key);
    }
  };
}

async function readForm(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * Starts the provider on `host` and `port` (0: free) with one client (`clientId`, `clientSecret`,
 * `redirectUris`). Accounts sign in with login and password on its page; consent is given at once.
 */
export async function startOidcProvider({
  host = '127.0.0.1',
  port = 0,
  clientId = 'termpaste',
  clientSecret = randomBytes(16).toString('hex'),
  redirectUris,
  accounts = OIDC_TEST_ACCOUNTS,
} = {}) {
  if (!redirectUris?.length) throw new Error('startOidcProvider needs the redirectUris of its client');
  const known = new Map(accounts.map((account) => [account.login, { ...account }]));
  let provider;

  const server = createServer((req, res) => {
    const interaction = /^\/interaction\/([^/?]+)(\/login|\/abort)?(?:\?.*)?$/.exec(req.url ?? '');
    if (!interaction) return provider.callback()(req, res);
    interact(req, res, interaction[1], interaction[2]).catch((error) => {
      res.statusCode = 400;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end(`Interaction failed: ${error.message}`);
    });
  });

  async function interact(req, res, uid, action) {
    const details = await provider.interactionDetails(req, res);
    if (action === '/abort') {
      return provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'End-User aborted interaction' },
        { mergeWithLastSubmission: false },
      );
    }
    if (action === '/login' && req.method === 'POST') {
      const form = await readForm(req);
      const account = known.get(form.get('login') ?? '');
      if (!account || account.password !== form.get('password')) {
        res.statusCode = 200;
        res.setHeader('Content-Type', 'text/html; charset=utf-8');
        return res.end(loginPage(uid, { error: 'Wrong login or password', login: form.get('login') ?? '' }));
      }
      return provider.interactionFinished(
        req,
        res,
        { login: { accountId: account.login } },
        { mergeWithLastSubmission: false },
      );
    }
    if (details.prompt.name === 'login') {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      return res.end(loginPage(uid));
    }
    // Consent: granted at once, for whatever the client asked.
    const { prompt, params, session, grantId } = details;
    const grant = grantId
      ? await provider.Grant.find(grantId)
      : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
    if (prompt.details.missingOIDCScope) grant.addOIDCScope(prompt.details.missingOIDCScope.join(' '));
    if (prompt.details.missingOIDCClaims) grant.addOIDCClaims(prompt.details.missingOIDCClaims);
    return provider.interactionFinished(
      req,
      res,
      { consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: true },
    );
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address();
  const issuer = `http://${host}:${address.port}`;
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });

  provider = new Provider(issuer, {
    adapter: memoryAdapter(),
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [{ ...key, kid: 'test', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'preferred_username'],
    },
    features: { devInteractions: { enabled: false } },
    // Seconds; set, so the provider does not log that it uses its defaults.
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 3600,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, id) {
      const account = known.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        async claims() {
          return {
            sub: id,
            email: account.email,
            email_verified: account.emailVerified,
            preferred_username: account.preferredUsername,
            name: account.name,
          };
        },
      };
    },
  });

  return {
    issuer,
    port: address.port,
    clientId,
    clientSecret,
    /** The OIDC_PROVIDERS entry of this provider, under `id` and `name`. */
    entry: ({ id, name }) => ({ id, name, issuer, clientId, clientSecret }),
    /** Adds (or replaces) an account, e.g. one with a member's e-mail address. */
    addAccount(account) {
      known.set(account.login, { ...account });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
