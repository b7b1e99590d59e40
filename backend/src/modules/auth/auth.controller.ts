import { Body, Controller, Get, Header, HttpCode, Post, Redirect, Req, Res, UseGuards } from '@nestjs/common';
import {
  API,
  type ChangePasswordBody,
  changePasswordSchema,
  type CurrentUser as CurrentUserBody,
  type ForgotPasswordBody,
  forgotPasswordSchema,
  type LoginBody,
  loginSchema,
  type MessageBody,
  PAGES,
  type RegisterBody,
  registerSchema,
  type ResetPasswordBody,
  resetPasswordSchema,
} from '@termpaste/contracts';
import type { Request, Response } from 'express';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { CurrentUser } from '../../common/current-user.decorator.js';
import { SessionGuard } from '../../common/session.guard.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import type { User } from '../users/entities/user.entity.js';
import { toCurrentUser } from '../users/users.service.js';
import { AUTH_MESSAGES } from './auth.messages.js';
import { AuthService } from './auth.service.js';
import { PasswordResetService } from './password-reset.service.js';
import { RateLimited } from './rate-limit.guard.js';
import { SESSION_COOKIE, sessionCookieOptions } from './session.middleware.js';
import { signIn, signOut } from './sign-in.js';

/** Accounts and sessions (SPEC §7): sign up, sign in and out, the current user, passwords. */
@Controller()
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly resets: PasswordResetService,
    @InjectConfig() private readonly config: Pick<AppConfig, 'publicUrl'>,
  ) {}

  /** Browser navigation to start a session: the top bar's access button lands on the login page. */
  @Get(API.login)
  @Redirect(PAGES.login, 302)
  startSession(): void {}

  @Get(API.currentUser)
  @UseGuards(SessionGuard)
  @Header('Cache-Control', 'no-store')
  currentUser(@CurrentUser() user: User): CurrentUserBody {
    return toCurrentUser(user);
  }

  /** Creates the account and signs it in. */
  @Post(API.register)
  @RateLimited('register')
  async register(
    @Body(new ZodValidationPipe(registerSchema)) body: RegisterBody,
    @Req() req: Request,
  ): Promise<CurrentUserBody> {
    const user = await this.auth.register(body);
    await signIn(req, user.id);
    return toCurrentUser(user);
  }

  @Post(API.login)
  @HttpCode(200)
  @RateLimited('login')
  async login(
    @Body(new ZodValidationPipe(loginSchema)) body: LoginBody,
    @Req() req: Request,
  ): Promise<CurrentUserBody> {
    const user = await this.auth.checkCredentials(body.usernameOrEmail, body.password);
    await signIn(req, user.id);
    return toCurrentUser(user);
  }

  /** Browser navigation: ends the session and goes home. */
  @Get(API.logout)
  async logout(@Req() req: Request, @Res() res: Response): Promise<void> {
    await signOut(req);
    res.clearCookie(SESSION_COOKIE, sessionCookieOptions(this.config));
    res.redirect(302, PAGES.landing);
  }

  /** The same reply, as fast, whether or not the address has an account. */
  @Post(API.forgotPassword)
  @HttpCode(200)
  @RateLimited('forgot-password')
  forgotPassword(@Body(new ZodValidationPipe(forgotPasswordSchema)) body: ForgotPasswordBody): MessageBody {
    this.resets.requestReset(body.email);
    return { message: AUTH_MESSAGES.resetLinkSent };
  }

  @Post(API.resetPassword)
  @HttpCode(200)
  @RateLimited('reset-password')
  async resetPassword(
    @Body(new ZodValidationPipe(resetPasswordSchema)) body: ResetPasswordBody,
  ): Promise<MessageBody> {
    await this.resets.resetPassword(body.token, body.newPassword);
    return { message: AUTH_MESSAGES.passwordReset };
  }

  /** Signs the user out everywhere else. */
  @Post(API.changePassword)
  @HttpCode(200)
  @UseGuards(SessionGuard)
  async changePassword(
    @Body(new ZodValidationPipe(changePasswordSchema)) body: ChangePasswordBody,
    @CurrentUser() user: User,
    @Req() req: Request,
  ): Promise<MessageBody> {
    await this.auth.changePassword(user, body, req.sessionID);
    return { message: AUTH_MESSAGES.passwordChanged };
  }
}
