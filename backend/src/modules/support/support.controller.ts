import { Body, ConflictException, Controller, Post } from '@nestjs/common';
import {
  API,
  LIMITS,
  SETTINGS_MESSAGES,
  type SupportRequestBody,
  supportRequestSchema,
  type supportResultSchema,
} from '@termpaste/contracts';
import type { z } from 'zod';
import { CurrentUser } from '../auth/guards/current-user.decorator.js';
import { AllowSilenced } from '../auth/guards/writer.guard.js';
import { UserRateLimited } from '../auth/rate-limit.guard.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import { AllowSecrets, refuseSecrets } from '../../common/secrets.js';
import type { User } from '../users/entities/user.entity.js';
import { MessagesService } from '../messages/messages.service.js';

export type SupportResult = z.infer<typeof supportResultSchema>;

/** What staff see in their inbox: the member's subject, marked as a support request. */
export const SUPPORT_SUBJECT_PREFIX = '[Support] ';

export function supportSubject(subject: string): string {
  // By code points, so a cut never splits a surrogate pair.
  return Array.from(`${SUPPORT_SUBJECT_PREFIX}${subject}`).slice(0, LIMITS.subjectMax).join('');
}

/**
 * The Support page: a member not banned writes to the staff, as a private message to the owner and every
 * admin.
 */
@Controller()
export class SupportController {
  constructor(private readonly messages: MessagesService) {}

  @Post(API.support)
  @UserRateLimited('message')
  // Silenced members keep this one way to write: to the staff.
  @AllowSilenced()
  async send(
    @CurrentUser() user: User,
    @Body(new ZodValidationPipe(supportRequestSchema)) body: SupportRequestBody,
    @AllowSecrets() allowSecrets: boolean,
  ): Promise<SupportResult> {
    await refuseSecrets(body.content, allowSecrets);
    const sent = await this.messages.sendToStaff(user, supportSubject(body.subject), body.content);
    // Nobody to read it (OWNER_EMAIL not registered yet, or the only staff member wrote): say so, rather
    // than confirm a message that went nowhere.
    if (sent.length === 0) throw new ConflictException(SETTINGS_MESSAGES.noStaff);
    return { recipients: sent.length };
  }
}
