// `npm start` with single sign-on, for the e2e run: starts the test OpenID Connect provider and the
// GitHub stand-in on loopback, sets their environment, then does what `npm start` does in this process,
// so the providers are up before the backend and end with it. docs/testing.md.
//
//   PUBLIC_URL=http://127.0.0.1:3000 node e2e/support/sso-start.mjs
import { startGithubStandIn } from '../../backend/test/support/github-stand-in.mjs';
import { startOidcProvider } from '../../backend/test/support/oidc-provider.mjs';
import { buildAndServe } from '../../harness/start.mjs';
import { logRequests } from './request-log.mjs';

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

// What the server saw of each request, for the report of a test whose page waited on one.
if (process.env.PORT && process.env.DATA_DIR) {
  logRequests({ port: Number(process.env.PORT), dataDir: process.env.DATA_DIR });
}
await buildAndServe();
