import {
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  Logger,
  UnauthorizedException,
  Post,
  Redirect,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  API,
  type ChangePasswordBody,
  changePasswordSchema,
  type CurrentUser as CurrentUserBody,
  type ForgotPasswordBody,
  forgotPasswordSchema,
  type MessageBody,
  PAGES,
  type RegisterBody,
  registerSchema,
  type ResetPasswordBody,
  resetPasswordSchema,
  SIGNED_OUT_HEADER,
} from '@termpaste/contracts';
import type { Request, Response } from 'express';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { EventsPort } from '../../infra/events/events.port.js';
import { CurrentUser, OptionalCurrentUser } from './guards/current-user.decorator.js';
import { OptionalSessionGuard } from './guards/session.guard.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import type { User } from '../users/entities/user.entity.js';
import { toCurrentUser } from '../users/user-rows.js';
import { AUTH_MESSAGES } from './auth.messages.js';
import { AuthService } from './auth.service.js';
import { LocalAuthGuard } from './local-auth.guard.js';
import { LocalLoginOnly } from './local-login.guard.js';
import { PasswordResetService } from './password-reset.service.js';
import { RateLimited, SignedInRateLimited } from './rate-limit.guard.js';
import { SESSION_COOKIE, sessionCookieOptions } from './session.middleware.js';
import { signOutLive } from './live-sign-out.js';
import { sessionUserId } from './session-user.js';
import { signIn, signOut } from './sign-in.js';
import { AnyToken, NoTokens } from './tokens/token-scope.decorator.js';

/**
 * Whether a request is the browser's own top-level navigation from our site or its address bar (Fetch
 * Metadata: `Sec-Fetch-Dest: document`, `Sec-Fetch-Site: same-origin` or `none`); images, frames, other
 * sites and clients without these headers are not.
 */
export function isSignOutNavigation(req: Pick<Request, 'headers'>): boolean {
  const dest = req.headers['sec-fetch-dest'];
  const site = req.headers['sec-fetch-site'];
  return dest === 'document' && (site === 'same-origin' || site === 'none');
}

/**
 * Accounts and sessions: sign up, in and out, the current user, passwords; the password routes answer 403
 * under LOCAL_LOGIN=off.
 */
@Controller()
export class AuthController {
  private readonly logger = new Logger('Auth');

  constructor(
    private readonly auth: AuthService,
    private readonly resets: PasswordResetService,
    private readonly events: EventsPort,
    @InjectConfig() private readonly config: Pick<AppConfig, 'publicUrl'>,
  ) {}

  /** Browser navigation to start a session: the top bar's access button lands on the login page. */
  @Get(API.login)
  @Redirect(PAGES.login, 302)
  startSession(): void {}

  /**
   * With a token, its member whatever its scopes; the e-mail address only to a token with `read`. A
   * visitor: 401, or 204 when the web app asks with SIGNED_OUT_HEADER (no failed request in its console).
   */
  @Get(API.currentUser)
  @AnyToken()
  @UseGuards(OptionalSessionGuard)
  @Header('Cache-Control', 'no-store')
  currentUser(
    @OptionalCurrentUser() user: User | null,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): CurrentUserBody | Omit<CurrentUserBody, 'email'> | undefined {
    if (!user) {
      if (req.get(SIGNED_OUT_HEADER) !== '204') throw new UnauthorizedException();
      res.status(204);
      return undefined;
    }
    const body = toCurrentUser(user);
    if (!req.accessToken || req.accessToken.scopes.includes('read')) return body;
    const { email: _email, ...withoutEmail } = body;
    return withoutEmail;
  }

  /** Creates the account and signs it in. */
  @Post(API.register)
  @RateLimited('register')
  @LocalLoginOnly()
  async register(
    @Body(new ZodValidationPipe(registerSchema)) body: RegisterBody,
    @Req() req: Request,
  ): Promise<CurrentUserBody> {
    const user = await this.auth.register(body);
    await signIn(req, user);
    return toCurrentUser(user);
  }

  /**
   * Sign-in by passport: the limits count the attempt, then LocalAuthGuard validates, checks and signs in.
   * Guards run bottom-up: LocalAuthGuard is written above the limit to run after it, LocalLoginOnly below
   * to run first.
   */
  @Post(API.login)
  @HttpCode(200)
  @UseGuards(LocalAuthGuard)
  @RateLimited('login')
  @LocalLoginOnly()
  login(@CurrentUser() user: User): CurrentUserBody {
    return toCurrentUser(user);
  }

  /**
   * Browser navigation: ends the session and its live sockets, but only for a top-level navigation from
   * our site (isSignOutNavigation). Anything else, like `![](/api/logout)` in a member's Markdown, just
   * goes home, still signed in.
   */
  @Get(API.logout)
  @NoTokens()
  @Header('Cache-Control', 'no-store')
  async logout(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (isSignOutNavigation(req)) {
      const userId = sessionUserId(req.session);
      const sessionId = req.sessionID;
      await signOut(req);
      res.clearCookie(SESSION_COOKIE, sessionCookieOptions(this.config));
      // The session's live sockets would go on carrying the member's private events: closed, everywhere.
      if (userId !== undefined && sessionId) {
        await signOutLive(this.events, this.logger, userId, { onlySession: sessionId });
      }
    }
    res.redirect(302, PAGES.landing);
  }

  /** The same reply, as fast, whether or not the address has an account. */
  @Post(API.forgotPassword)
  @HttpCode(200)
  @RateLimited('forgot-password')
  @LocalLoginOnly()
  forgotPassword(@Body(new ZodValidationPipe(forgotPasswordSchema)) body: ForgotPasswordBody): MessageBody {
    this.resets.requestReset(body.email);
    return { message: AUTH_MESSAGES.resetLinkSent };
  }

  @Post(API.resetPassword)
  @HttpCode(200)
  @RateLimited('reset-password')
  @LocalLoginOnly()
  async resetPassword(
    @Body(new ZodValidationPipe(resetPasswordSchema)) body: ResetPasswordBody,
  ): Promise<MessageBody> {
    await this.resets.resetPassword(body.token, body.newPassword);
    return { message: AUTH_MESSAGES.passwordReset };
  }

  /** Signs the user out everywhere else. Limited per member and per address. */
  @Post(API.changePassword)
  @HttpCode(200)
  @SignedInRateLimited('change-password')
  async changePassword(
    @Body(new ZodValidationPipe(changePasswordSchema)) body: ChangePasswordBody,
    @CurrentUser() user: User,
    @Req() req: Request,
  ): Promise<MessageBody> {
    await this.auth.changePassword(user, body, req.sessionID);
    return { message: AUTH_MESSAGES.passwordChanged };
  }
}
