// `npm start` with single sign-on set up, for the e2e run: starts the test OpenID Connect provider
// (oidc-provider, with its own sign-in page) and the GitHub stand-in on free loopback ports, puts
// OIDC_PROVIDERS, GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET and GITHUB_URL in the environment, then runs
// scripts/start.mjs in this very process. The providers are up before the backend discovers the issuer at
// start-up, and they end with the process: the backend exits on SIGINT/SIGTERM (Playwright's webServer
// stop), taking them along.
//
//   PUBLIC_URL=http://127.0.0.1:3000 node e2e/support/sso-start.mjs
//
// Their callbacks are `${PUBLIC_URL}/api/auth/sso/{id}/callback`. The accounts are the helpers' own
// (README, "Signing in with a provider"): ada, grace, linus on the provider's page; octocat, hubot on
// the stand-in's.
import { startGithubStandIn } from '../../backend/test/support/github-stand-in.mjs';
import { startOidcProvider } from '../../backend/test/support/oidc-provider.mjs';

const publicUrl = process.env.PUBLIC_URL?.replace(/\/+$/, '');
if (!publicUrl) {
  console.error('sso-start.mjs: set PUBLIC_URL (the address the browser uses; the callbacks go there)');
  process.exit(2);
}

/** The OIDC_PROVIDERS entry's id and name: the button reads "Continue with Test IdP". */
const E2E_OIDC = { id: 'testidp', name: 'Test IdP' };

const oidc = await startOidcProvider({
  redirectUris: [`${publicUrl}/api/auth/sso/${E2E_OIDC.id}/callback`],
});
const github = await startGithubStandIn();
process.env.OIDC_PROVIDERS = JSON.stringify([oidc.entry(E2E_OIDC)]);
Object.assign(process.env, github.env);
console.log(`e2e sign-in providers: OpenID Connect ${oidc.issuer}, GitHub stand-in ${github.url}`);

await import('../../scripts/start.mjs');
