import { API, PAGES } from '../routes.js';
import { currentUserSchema } from '../schemas.js';
import { identitiesSchema, ssoRefusalSchema, ssoStartQuerySchema, ssoUsernameSchema } from '../sso.js';
import { type ApiOperation, ID, json } from './operation.js';

/** The path parameter of a sign-in provider: an id of OIDC_PROVIDERS, or `github`. */
export const PROVIDER = '{provider}';

const REFUSED =
  `Refused: to \`${PAGES.login}?sso_error=<code>\` (a link: \`${PAGES.settingsAccounts}?sso_error=<code>\`), ` +
  'a code of SSO_ERROR_CODES.';

/** The single sign-on routes: browser navigations, then JSON calls. */
export const SSO_OPERATIONS: readonly ApiOperation[] = [
  {
    operationId: 'startProviderSignIn',
    method: 'get',
    path: API.ssoStart(PROVIDER),
    summary: 'Browser navigation: signs in (or links, with intent=link) at a provider, redirecting to it',
    description:
      'OpenID Connect providers get state, nonce and PKCE (S256); GitHub gets state. The attempt is kept ' +
      'in the session for ten minutes and works once. `next`: a path of this site to land on after ' +
      'signing in (anything else means `/`). An unknown provider, one whose discovery has not worked ' +
      `yet, or a link without a session: ${REFUSED}`,
    tag: 'Accounts',
    auth: 'none',
    token: false,
    query: ssoStartQuerySchema,
    responses: [
      {
        status: 302,
        description: "To the provider's sign-in page, or refused",
        headers: {
          Location: "The provider's authorization endpoint with this attempt's parameters, or a refusal",
        },
      },
    ],
    errors: [400],
  },
  {
    operationId: 'finishProviderSignIn',
    method: 'get',
    path: API.ssoCallback(PROVIDER),
    summary: 'Where the provider sends the browser back (its `code` and `state`, or its `error`)',
    description:
      'A known provider account signs its member in (to `next`), as a password sign-in does: a new ' +
      'session id, the same cookie, banned members refused. A new one makes an account (no password; ' +
      "the username proposed from the provider's, changeable once; the provider's e-mail, verified only " +
      `when it says so) and signs it in, to \`${PAGES.ssoWelcome}\`, unless a member has that e-mail ` +
      `(email_taken: never linked silently). With intent=link, links it to the signed-in member, to ` +
      `\`${PAGES.settingsAccounts}?linked=<provider>\`. Counts as a sign-in attempt ` +
      `(RATE_LIMIT_LOGIN_*, per address, with POST ${API.login}). ${REFUSED}`,
    tag: 'Accounts',
    auth: 'none',
    token: false,
    responses: [
      {
        status: 302,
        description: 'Signed in, an account made, linked, or refused',
        headers: {
          Location: `\`next\`, \`${PAGES.ssoWelcome}\`, \`${PAGES.settingsAccounts}?linked=<provider>\`, or a refusal`,
        },
      },
    ],
  },
  {
    operationId: 'getSsoRefusal',
    method: 'get',
    path: API.ssoRefusal,
    summary: "The words of this session's last refused provider sign-in (a ban's end and reason)",
    description:
      `The sign-in page calls it when it lands on \`${PAGES.login}?sso_error=banned\`: the message a ` +
      'password sign-in would give (when the ban ends and why), or null when the session holds none.',
    tag: 'Accounts',
    auth: 'none',
    token: false,
    responses: [json(200, 'The message, or null', ssoRefusalSchema)],
  },
  {
    operationId: 'chooseSsoUsername',
    method: 'post',
    path: API.ssoUsername,
    summary: 'Keeps or changes the username a provider sign-in proposed for a new account: once',
    description:
      "Only for an account a provider made, once: afterwards 409. The registration's username rules " +
      '(400) and uniqueness (409).',
    tag: 'Accounts',
    auth: 'member',
    token: false,
    body: ssoUsernameSchema,
    responses: [json(200, 'The member with the chosen username', currentUserSchema)],
    errors: [400, 409],
  },
  {
    operationId: 'listIdentities',
    method: 'get',
    path: API.userIdentities,
    summary: "The member's linked sign-in providers, whether they have a password, and the ones to link",
    tag: 'Settings',
    auth: 'member',
    token: false,
    responses: [json(200, 'The linked providers', identitiesSchema)],
  },
  {
    operationId: 'unlinkIdentity',
    method: 'delete',
    path: API.userIdentity(ID),
    summary: "Unlinks one of the member's providers",
    description: 'Not the last way to sign in: without a password and another provider, 409.',
    tag: 'Settings',
    auth: 'member',
    token: false,
    responses: [{ status: 204, description: 'Unlinked' }],
    errors: [404, 409],
  },
];
