import { ConflictException, Injectable, Logger } from '@nestjs/common';
import {
  emailSchema,
  PAGES,
  safeNextPath,
  type SsoErrorCode,
  type SsoIntent,
  type SsoStartQuery,
} from '@termpaste/contracts';
import type { Request } from 'express';
import type { User } from '../../users/entities/user.entity.js';
import { EMAIL_TAKEN, USERNAME_TAKEN, UsersService } from '../../users/users.service.js';
import { signInRefusal } from '../auth.messages.js';
import { EmailVerificationService } from '../email-verification.service.js';
import { OwnerService } from '../owner.service.js';
import { signedInUser } from '../session-user.js';
import { signIn } from '../sign-in.js';
import { IdentitiesService, type LinkRefusal } from './identities.service.js';
import { oidcStrategyName } from './oidc.strategy.js';
import { runStrategy, type StrategyOutcome } from './passport-flow.js';
import type { ProviderIdentity } from './provider-identity.js';
import { baseUsername, numbered, usernameCandidates } from './proposed-username.js';
import { SignInProviders } from './sign-in-providers.js';
import { answersAttempt, beginAttempt, takeAttempt } from './sso-attempt.js';
import { linkedUrl, refusalUrl } from './sso-urls.js';

/** Usernames tried in one query when proposing one (`ada`, `ada_2` … `ada_20`). */
const CANDIDATES = 20;
/** Rounds of proposals (the last ones with random numbers) before giving up on a free username. */
const NAMING_ROUNDS = 4;

/** Error codes of a network that does not reach the provider (Node's, undici's, the `oauth` package's). */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Whether a strategy's error says the provider could not be reached (rather than it refused). */
function isUnreachable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, name, cause, oauthError } = error as Record<string, unknown>;
  if (typeof code === 'string' && UNREACHABLE.has(code)) return true;
  if (name === 'TimeoutError' || name === 'AbortError') return true;
  return isUnreachable(cause, depth + 1) || isUnreachable(oauthError, depth + 1);
}

/** A refusal's code for how a strategy failed at the callback. */
function failureCode(outcome: StrategyOutcome<unknown>): SsoErrorCode {
  if (outcome.kind === 'error' && isUnreachable(outcome.error)) return 'provider_unavailable';
  // openid-client's strategy without its code verifier in the session (another tab's attempt won).
  const message = (outcome.kind === 'fail' ? outcome.info : undefined) as { message?: unknown } | undefined;
  if (message?.message === 'Unable to verify authorization request state') return 'state_mismatch';
  return 'provider_error';
}

/** What a failure says, for the log (never a token: neither strategy puts one in its errors). */
function describe(outcome: StrategyOutcome<unknown>): string {
  if (outcome.kind === 'error') {
    const error = outcome.error as { message?: unknown; code?: unknown; error?: unknown };
    return [error.error, error.code, error.message].filter((part) => typeof part === 'string').join(': ');
  }
  if (outcome.kind === 'fail') return JSON.stringify(outcome.info ?? null);
  return outcome.kind;
}

class IdentityTaken extends Error {
  constructor(readonly refusal: LinkRefusal) {
    super(refusal);
  }
}

/**
 * Signing in with a provider: the start (an attempt in the session, then the provider's
 * page) and the callback (the attempt taken out, the provider's answer judged by its passport strategy,
 * then a sign-in, a new account or a link). Each answer is where the browser goes next.
 */
@Injectable()
export class SsoService {
  private readonly logger = new Logger('SignIn');

  constructor(
    private readonly users: UsersService,
    private readonly identities: IdentitiesService,
    private readonly providers: SignInProviders,
    private readonly owners: OwnerService,
    private readonly verification: EmailVerificationService,
  ) {}

  /** `GET /api/auth/sso/{provider}`: the provider's authorization page, or a refusal. */
  async start(req: Request, providerId: string, { intent, next }: SsoStartQuery): Promise<string> {
    const provider = this.providers.state(providerId);
    if (provider.status === 'unknown') return refusalUrl(intent, 'unknown_provider');
    if (provider.status === 'unavailable') return refusalUrl(intent, 'provider_unavailable');
    let userId: number | undefined;
    if (intent === 'link') {
      const user = await this.unbannedUser(req);
      if (!user) return refusalUrl(intent, 'sign_in_required');
      if (await this.identities.ofUserAt(user.id, providerId)) return refusalUrl(intent, 'already_linked');
      userId = user.id;
    }
    const attempt = beginAttempt(req, { provider: providerId, intent, next: safeNextPath(next), userId });
    const outcome = await runStrategy(
      provider.strategy,
      req,
      provider.provider.kind === 'github' ? { state: attempt.state } : {},
    );
    if (outcome.kind === 'redirect') return outcome.url;
    takeAttempt(req);
    this.logger.warn(`Sign-in with ${providerId} could not start: ${describe(outcome)}`);
    return refusalUrl(intent, failureCode(outcome));
  }

  /** `GET /api/auth/sso/{provider}/callback`: signed in, an account made, linked, or refused. */
  async finish(req: Request, providerId: string): Promise<string> {
    const attempt = takeAttempt(req);
    try {
      const intent: SsoIntent = attempt?.intent ?? 'login';
      const refuse = (code: SsoErrorCode, why: string) => {
        this.logger.log(`Sign-in with ${providerId} refused (${code}): ${why}`);
        return refusalUrl(intent, code);
      };
      if (!answersAttempt(attempt, providerId, req.query['state'])) {
        return refuse(
          'state_mismatch',
          attempt ? 'another state, provider or a stale attempt' : 'no attempt',
        );
      }
      const provider = this.providers.state(providerId);
      if (provider.status !== 'ready') {
        return refuse(
          provider.status === 'unknown' ? 'unknown_provider' : 'provider_unavailable',
          'not ready',
        );
      }
      if (req.query['error'] !== undefined) {
        return refuse('provider_error', `the provider answered ${JSON.stringify(req.query['error'])}`);
      }
      let user: User | undefined;
      if (attempt.intent === 'link') {
        user = await this.unbannedUser(req);
        if (!user || user.id !== attempt.userId) return refuse('sign_in_required', 'not the linking member');
      }
      const outcome = await runStrategy<ProviderIdentity>(provider.strategy, req);
      if (outcome.kind !== 'success') {
        const code = failureCode(outcome);
        return refuse(code, describe(outcome));
      }
      const identity = outcome.user;
      const answer = user
        ? await this.link(user, identity)
        : await this.signInWith(req, identity, attempt.next);
      return typeof answer === 'string'
        ? answer
        : refuse(answer.refused, `${identity.provider} ${identity.subject}`);
    } finally {
      // openid-client's code verifier and nonce, if the strategy did not get to take them.
      delete (req.session as unknown as Record<string, unknown> | undefined)?.[oidcStrategyName(providerId)];
    }
  }

  /** The signed-in member, not banned, or undefined. */
  private async unbannedUser(req: Request): Promise<User | undefined> {
    const user = await signedInUser(req, this.users);
    return user && !user.isBanned ? user : undefined;
  }

  /** A provider account links to the signed-in member, unless another member has it or they have one. */
  private async link(user: User, identity: ProviderIdentity): Promise<string | { refused: SsoErrorCode }> {
    const known = await this.identities.find(identity.provider, identity.subject);
    if (known) {
      return known.userId === user.id ? linkedUrl(identity.provider) : { refused: 'identity_taken' };
    }
    const refusal = await this.identities.link(user, identity);
    if (refusal) return { refused: refusal };
    this.logger.log(`${user.username} linked their ${identity.provider} account`);
    return linkedUrl(identity.provider);
  }

  /**
   * The member of a known provider account signs in (a banned one is refused); an unknown one gets a new
   * account, unless its e-mail address (verified or not) is an existing member's: never linked silently.
   */
  private async signInWith(
    req: Request,
    identity: ProviderIdentity,
    next: string,
  ): Promise<string | { refused: SsoErrorCode }> {
    const known = await this.identities.find(identity.provider, identity.subject);
    const user = known && (await this.users.findById(known.userId));
    if (known && user) {
      if (user.isBanned) {
        // The code alone cannot say when the ban ends and why; the sign-in page reads this.
        req.session.ssoRefusal = signInRefusal(user);
        return { refused: 'banned' };
      }
      await this.identities.used(known.id, identity.email);
      await signIn(req, user);
      return next;
    }
    if (identity.email === null || !emailSchema.safeParse(identity.email).success) {
      return { refused: 'email_required' };
    }
    if (await this.users.findByEmail(identity.email)) return { refused: 'email_taken' };
    const created = await this.createAccount(identity as ProviderIdentity & { email: string });
    if ('refused' in created) return created;
    this.logger.log(`${created.username} signed up with ${identity.provider}`);
    await signIn(req, created);
    return PAGES.ssoWelcome;
  }

  /**
   * A new account for a provider account, in one transaction with its identity (and, for a verified
   * OWNER_EMAIL, the owner's grant; for an unverified address, its first verification link, mailed
   * after): no password, the username a free proposal its member may change once.
   */
  private async createAccount(
    identity: ProviderIdentity & { email: string },
  ): Promise<User | { refused: SsoErrorCode }> {
    const base = baseUsername(identity.usernameHints);
    for (let round = 0; round < NAMING_ROUNDS; round++) {
      const candidates =
        round === 0
          ? usernameCandidates(base, CANDIDATES)
          : Array.from({ length: CANDIDATES }, () =>
              numbered(base, 1000 + Math.floor(Math.random() * 9_000_000)),
            );
      const taken = await this.users.takenUsernames(candidates);
      const username = candidates.find((name) => !taken.has(name.toLowerCase()));
      if (username === undefined) continue;
      try {
        const { user, extra: tokenId } = await this.users.create(
          {
            username,
            email: identity.email,
            passwordHash: null,
            emailVerified: identity.emailVerified,
            usernameChosen: false,
          },
          async (manager, created) => {
            const refusal = await this.identities.link(created, identity, manager);
            if (refusal) throw new IdentityTaken(refusal);
            if (!identity.emailVerified) return this.verification.createToken(manager, created);
            await this.owners.grantIfOwnerEmail(manager, created.id, created.email);
            return undefined;
          },
        );
        if (tokenId !== undefined) await this.verification.mailLink(user.id, tokenId);
        return user;
      } catch (error) {
        if (error instanceof IdentityTaken) return { refused: 'identity_taken' };
        if (error instanceof ConflictException && error.message === EMAIL_TAKEN)
          return { refused: 'email_taken' };
        // Taken meanwhile: propose again.
        if (error instanceof ConflictException && error.message === USERNAME_TAKEN) continue;
        throw error;
      }
    }
    throw new Error(`no free username near "${base}" after ${NAMING_ROUNDS} rounds`);
  }
}
