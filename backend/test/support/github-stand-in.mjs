// A stand-in for GitHub's OAuth web flow on a loopback port, with GitHub Enterprise's layout (GITHUB_URL
// set to it, the API under /api/v3): the authorize page, the token endpoint, `GET /api/v3/user` and
// `GET /api/v3/user/emails`, answering as github.com does (a bad code is a 200 with `error`). For the API
// tests (test/sso-github.spec.ts), the end-to-end tests and `npm run oidc:dev`. Plain JavaScript, types
// beside it (github-stand-in.d.mts).
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';

/** The accounts of a new stand-in. */
export const GITHUB_TEST_ACCOUNTS = [
  {
    id: 583231,
    login: 'octocat',
    name: 'The Octocat',
    publicEmail: null,
    emails: [
      { email: 'octocat@github.example', primary: true, verified: true },
      { email: 'octocat-old@github.example', primary: false, verified: false },
    ],
  },
  {
    id: 9919,
    login: 'hubot',
    name: 'Hubot',
    publicEmail: 'hubot-public@github.example',
    emails: [{ email: 'hubot@github.example', primary: true, verified: false }],
  },
];

/** How long a code and a token work. */
const CODE_TTL_MS = 10 * 60 * 1000;

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function send(res, status, type, body) {
  res.statusCode = status;
  res.setHeader('Content-Type', type);
  res.end(body);
}

const json = (res, status, body) =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  if ((req.headers['content-type'] ?? '').includes('json'))
    return new URLSearchParams(JSON.parse(text || '{}'));
  return new URLSearchParams(text);
}

/**
 * Starts the stand-in on `host` and `port` (0: free) for one OAuth app. Its authorize page has one link
 * per account (`&login={login}` authorizes at once). `env` holds the GITHUB_* Termpaste needs.
 */
export async function startGithubStandIn({
  host = '127.0.0.1',
  port = 0,
  clientId = 'termpaste-github',
  clientSecret = randomBytes(16).toString('hex'),
  accounts = GITHUB_TEST_ACCOUNTS,
} = {}) {
  const known = new Map(accounts.map((account) => [account.login, structuredClone(account)]));
  const codes = new Map();
  const tokens = new Map();

  function authorize(url, res) {
    const redirectUri = url.searchParams.get('redirect_uri');
    const state = url.searchParams.get('state');
    if (url.searchParams.get('client_id') !== clientId || !redirectUri) {
      return send(res, 404, 'text/plain; charset=utf-8', 'Unknown OAuth application');
    }
    const back = new URL(redirectUri);
    if (state !== null) back.searchParams.set('state', state);
    if (url.searchParams.get('cancel') !== null) {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The user has denied your application access.');
      res.writeHead(302, { Location: back.href });
      return res.end();
    }
    const login = url.searchParams.get('login');
    const account = login === null ? undefined : known.get(login);
    if (!account) {
      const link = (extra) => {
        const target = new URL(url.href);
        for (const [name, value] of Object.entries(extra)) target.searchParams.set(name, value);
        return escapeHtml(`${target.pathname}${target.search}`);
      };
      const choices = [...known.values()]
        .map(
          (each) =>
            `<li><a href="${link({ login: each.login })}">Authorize as ${escapeHtml(each.login)}</a></li>`,
        )
        .join('');
      return send(
        res,
        200,
        'text/html; charset=utf-8',
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>GitHub stand-in: authorize</title></head>
<body><h1>Authorize Termpaste</h1><ul>${choices}</ul><p><a href="${link({ cancel: '1' })}">Cancel</a></p></body></html>`,
      );
    }
    const code = randomBytes(10).toString('hex');
    codes.set(code, { login: account.login, redirectUri, expires: Date.now() + CODE_TTL_MS });
    back.searchParams.set('code', code);
    res.writeHead(302, { Location: back.href });
    res.end();
  }

  async function accessToken(req, res) {
    const form = await readBody(req);
    const answer = (body) =>
      (req.headers.accept ?? '').includes('json')
        ? json(res, 200, body)
        : send(res, 200, 'application/x-www-form-urlencoded', new URLSearchParams(body).toString());
    if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) {
      return answer({
        error: 'incorrect_client_credentials',
        error_description: 'The client_id and/or client_secret passed are incorrect.',
      });
    }
    const code = form.get('code') ?? '';
    const grant = codes.get(code);
    // Single use, as GitHub's: a code that worked once is refused afterwards.
    codes.delete(code);
    if (!grant || grant.expires < Date.now()) {
      return answer({
        error: 'bad_verification_code',
        error_description: 'The code passed is incorrect or expired.',
      });
    }
    if (form.get('redirect_uri') && form.get('redirect_uri') !== grant.redirectUri) {
      return answer({
        error: 'redirect_uri_mismatch',
        error_description: 'The redirect_uri MUST match the registered callback URL for this application.',
      });
    }
    const token = `gho_${randomBytes(18).toString('hex')}`;
    tokens.set(token, grant.login);
    answer({ access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
  }

  function api(req, res, path) {
    const header = req.headers.authorization ?? '';
    const login = tokens.get(header.replace(/^(token|bearer)\s+/i, ''));
    const account = login && known.get(login);
    if (!account) return json(res, 401, { message: 'Bad credentials' });
    if (path === '/user') {
      return json(res, 200, {
        login: account.login,
        id: account.id,
        node_id: `U_${account.id}`,
        name: account.name,
        email: account.publicEmail,
        html_url: `${server.url}/${account.login}`,
        avatar_url: `${server.url}/avatars/${account.id}`,
      });
    }
    return json(
      res,
      200,
      account.emails.map((email) => ({ ...email, visibility: email.primary ? 'private' : null })),
    );
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') return authorize(url, res);
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      return void accessToken(req, res).catch(() => json(res, 400, { error: 'bad_request' }));
    }
    if (req.method === 'GET' && (url.pathname === '/api/v3/user' || url.pathname === '/api/v3/user/emails')) {
      return api(req, res, url.pathname.slice('/api/v3'.length));
    }
    json(res, 404, { message: 'Not Found' });
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const url = `http://${host}:${server.address().port}`;
  server.url = url;

  return {
    url,
    clientId,
    clientSecret,
    env: { GITHUB_CLIENT_ID: clientId, GITHUB_CLIENT_SECRET: clientSecret, GITHUB_URL: url },
    /** Adds (or replaces) an account. */
    addAccount(account) {
      known.set(account.login, structuredClone(account));
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
