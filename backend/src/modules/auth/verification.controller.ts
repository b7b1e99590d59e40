import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  API,
  type MessageBody,
  type VerifyEmailBody,
  VERIFY_MESSAGES,
  verifyEmailSchema,
} from '@termpaste/contracts';
import { CurrentUser } from './guards/current-user.decorator.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import type { User } from '../users/entities/user.entity.js';
import { EmailVerificationService } from './email-verification.service.js';
import { SignedInRateLimited } from './rate-limit.guard.js';

/** E-mail verification: the mailed link's token, and a new link on request. */
@Controller()
export class VerificationController {
  constructor(private readonly verification: EmailVerificationService) {}

  /** Needs no session: the link may be opened in another browser than the one signed in. */
  @Post(API.verifyEmail)
  @HttpCode(200)
  async verify(@Body(new ZodValidationPipe(verifyEmailSchema)) body: VerifyEmailBody): Promise<MessageBody> {
    await this.verification.verify(body.token);
    return { message: VERIFY_MESSAGES.verified };
  }

  /** A signed-in member (401 otherwise), limited per member and per address. */
  @Post(API.verifyEmailResend)
  @HttpCode(200)
  @SignedInRateLimited('verify-email')
  async resend(@CurrentUser() user: User): Promise<MessageBody> {
    await this.verification.resend(user);
    return { message: VERIFY_MESSAGES.linkSent };
  }
}
