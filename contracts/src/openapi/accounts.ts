import {
  changePasswordSchema,
  forgotPasswordSchema,
  loginSchema,
  messageSchema,
  registerSchema,
  resetPasswordSchema,
} from '../auth.js';
import { API, PAGES } from '../routes.js';
import { currentUserSchema } from '../schemas.js';
import { ownerClaimSchema, verifyEmailSchema } from '../verification.js';
import { type ApiOperation, json, redirect } from './operation.js';

/** The Accounts routes of API_OPERATIONS. */
export const ACCOUNTS_OPERATIONS: readonly ApiOperation[] = [
  {
    operationId: 'getCurrentUser',
    method: 'get',
    path: API.currentUser,
    summary: 'The signed-in member',
    description:
      'With a personal access token, its member, whatever its scopes; without `email` unless the token ' +
      'has `read`. A visitor gets 401, or 204 when the request has the header `X-Signed-Out: 204` (the ' +
      "web app's own request, so a visitor's page logs no failed request).",
    tag: 'Accounts',
    auth: 'member',
    token: 'any',
    responses: [
      json(200, 'The signed-in member', currentUserSchema),
      { status: 204, description: 'No member signed in, asked with `X-Signed-Out: 204`' },
    ],
  },
  {
    operationId: 'startSession',
    method: 'get',
    path: API.login,
    summary: 'Browser navigation to sign in: redirects to the login page',
    tag: 'Accounts',
    auth: 'none',
    responses: [redirect(PAGES.login, 'To the login page')],
  },
  {
    operationId: 'login',
    method: 'post',
    path: API.login,
    summary: 'Signs in with a username or e-mail address and a password',
    description: 'Sets the session cookie. A banned account is refused with 403.',
    tag: 'Accounts',
    auth: 'none',
    body: loginSchema,
    responses: [json(200, 'Signed in', currentUserSchema)],
    errors: [400, 401, 403, 429],
  },
  {
    operationId: 'logout',
    method: 'get',
    path: API.logout,
    summary: 'Browser navigation to sign out: ends the session, redirects home',
    description:
      'Only a top-level navigation from our own site ends the session (`Sec-Fetch-Dest: document` and ' +
      '`Sec-Fetch-Site: same-origin` or `none`), and closes its live sockets (`signed_out`); any other ' +
      'request (an image, a cross-site link) is redirected home with the session left as it was.',
    tag: 'Accounts',
    auth: 'none',
    responses: [redirect(PAGES.landing, 'Signed out, to the landing page')],
  },
  {
    operationId: 'register',
    method: 'post',
    path: API.register,
    summary: 'Creates an account and signs it in',
    tag: 'Accounts',
    auth: 'none',
    body: registerSchema,
    responses: [json(201, 'Registered and signed in', currentUserSchema)],
    errors: [400, 409, 429],
  },
  {
    operationId: 'forgotPassword',
    method: 'post',
    path: API.forgotPassword,
    summary: 'Mails a password-reset link (the same answer whether or not the address has an account)',
    tag: 'Accounts',
    auth: 'none',
    body: forgotPasswordSchema,
    responses: [json(200, 'The link is on its way if the account exists', messageSchema)],
    errors: [400, 429],
  },
  {
    operationId: 'resetPassword',
    method: 'post',
    path: API.resetPassword,
    summary: "Sets a new password with a reset link's token",
    description:
      'Signs the member out everywhere, revokes every access token of theirs (`password reset`) and ' +
      'unlinks the sign-in providers linked while the e-mail address was unverified; a mail confirms it.',
    tag: 'Accounts',
    auth: 'none',
    body: resetPasswordSchema,
    responses: [json(200, 'Password reset', messageSchema)],
    errors: [400, 429],
  },
  {
    operationId: 'changePassword',
    method: 'post',
    path: API.changePassword,
    summary: "Changes the signed-in member's password and signs out their other sessions",
    description:
      "The other sessions' live sockets get `signed_out` and are closed. Every access token of the " +
      'member is revoked (`password change`), and the sign-in providers linked while the e-mail address ' +
      'was unverified are unlinked; a mail confirms it. Limited per member and per address ' +
      '(RATE_LIMIT_CHANGE_PASSWORD_PER_HOUR): then 429.',
    tag: 'Accounts',
    auth: 'member',
    body: changePasswordSchema,
    responses: [json(200, 'Password changed', messageSchema)],
    errors: [400, 429],
  },
  {
    operationId: 'verifyEmail',
    method: 'post',
    path: API.verifyEmail,
    summary: "Verifies an e-mail address with the mailed link's token (single use, 24 hours)",
    description:
      'Needs no session. Verifying the address of OWNER_EMAIL makes that account the owner and an admin.',
    tag: 'Accounts',
    auth: 'none',
    body: verifyEmailSchema,
    responses: [json(200, 'Verified', messageSchema)],
    errors: [400],
  },
  {
    operationId: 'resendVerificationEmail',
    method: 'post',
    path: API.verifyEmailResend,
    summary: 'Mails the signed-in member a new verification link (older links stop working)',
    tag: 'Accounts',
    auth: 'member',
    responses: [json(200, 'A new link is on its way', messageSchema)],
    errors: [409, 429],
  },
  {
    operationId: 'claimOwner',
    method: 'post',
    path: API.ownerClaim,
    summary: 'Makes the signed-in, verified member the owner with the one-time setup code',
    description:
      'Only without OWNER_EMAIL and while there is no owner. The code is printed in the start-up log ' +
      '(and by `npm run cli -- setup-code`); it works once.',
    tag: 'Accounts',
    auth: 'member',
    body: ownerClaimSchema,
    responses: [json(200, 'The member is now the owner', currentUserSchema)],
    errors: [400, 409, 429],
  },
];
