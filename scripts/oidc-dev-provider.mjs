// `npm run oidc:dev`: a test OpenID Connect provider and a GitHub stand-in on loopback, to try "Continue
// with …" on a local `npm start` (docs/accounts.md, "Signing in with a provider"). Prints the variables to start
// Termpaste with; Ctrl-C stops both. The same helpers as the API tests (backend/test/support/).
//
//   npm run oidc:dev -- [--port 9090] [--github-port 9091] [--public-url http://localhost:3000] [--no-github]
import { parseArgs } from 'node:util';
import { GITHUB_TEST_ACCOUNTS, startGithubStandIn } from '../backend/test/support/github-stand-in.mjs';
import { OIDC_TEST_ACCOUNTS, startOidcProvider } from '../backend/test/support/oidc-provider.mjs';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '9090' },
    'github-port': { type: 'string', default: '9091' },
    'public-url': { type: 'string', default: process.env.PUBLIC_URL ?? 'http://localhost:3000' },
    'no-github': { type: 'boolean', default: false },
  },
});

const publicUrl = values['public-url'].replace(/\/+$/, '');
const id = 'dev';
// Fixed, so the printed variables stay the same from one run to the next (a local trial only).
const oidc = await startOidcProvider({
  port: Number(values.port),
  clientId: 'termpaste-dev',
  clientSecret: 'termpaste-dev-client-secret',
  redirectUris: [`${publicUrl}/api/auth/sso/${id}/callback`],
});
const github = values['no-github']
  ? undefined
  : await startGithubStandIn({
      port: Number(values['github-port']),
      clientId: 'termpaste-dev-github',
      clientSecret: 'termpaste-dev-github-secret',
    });

const quote = (value) => `'${value.replaceAll("'", "'\\''")}'`;
const env = {
  OIDC_PROVIDERS: JSON.stringify([oidc.entry({ id, name: 'Test IdP' })]),
  ...(github?.env ?? {}),
};

const accounts = OIDC_TEST_ACCOUNTS.map((account) => `${account.login} / ${account.password}`).join(', ');
console.log(`Test OpenID Connect provider: ${oidc.issuer} (sign in as ${accounts})`);
if (github) {
  const logins = GITHUB_TEST_ACCOUNTS.map((account) => account.login).join(' or ');
  console.log(`GitHub stand-in: ${github.url} (its authorize page signs in as ${logins})`);
}
console.log(`\nFor Termpaste at ${publicUrl} (--public-url), the variables:\n`);
for (const [name, value] of Object.entries(env)) console.log(`${name}=${quote(value)}`);
console.log(
  `\nStart it in another terminal:\n\n  ${Object.entries(env)
    .map(([name, value]) => `${name}=${quote(value)}`)
    .join(' ')} npm start\n\nCtrl-C stops the provider${github ? ' and the stand-in' : ''}.`,
);

const stop = async () => {
  await Promise.all([oidc.close(), github?.close()]);
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
