import { Body, Controller, Delete, Get, Header, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import {
  type AddSshKeyBody,
  addSshKeySchema,
  API,
  POST_MESSAGES,
  SSH_KEY_MESSAGES,
  type SshKey,
} from '@termpaste/contracts';
import { parseId } from '../../common/parse-id.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import { CurrentUser } from '../auth/guards/current-user.decorator.js';
import { SessionGuard } from '../auth/guards/session.guard.js';
import { NoTokens, TokenScope } from '../auth/tokens/token-scope.decorator.js';
import type { User } from '../users/entities/user.entity.js';
import { SigningService } from './signing.service.js';

/**
 * The member's SSH keys: managed with a session only (a stolen access token must not add a key that signs
 * as its member: 403), signed in and not banned. A member's public keys are anyone's to read.
 */
@Controller()
export class SshKeysController {
  constructor(private readonly signing: SigningService) {}

  @Get(API.userKeys)
  @NoTokens()
  @UseGuards(SessionGuard)
  list(@CurrentUser() user: User): Promise<SshKey[]> {
    return this.signing.list(user.id);
  }

  /** 201 with the key; 400 with what is wrong with the line; 409 beyond SSH_KEYS_PER_USER_MAX or a repeat. */
  @Post(API.userKeys)
  @NoTokens()
  @UseGuards(SessionGuard)
  add(
    @CurrentUser() user: User,
    @Body(new ZodValidationPipe(addSshKeySchema)) body: AddSshKeyBody,
  ): Promise<SshKey> {
    return this.signing.add(user.id, body);
  }

  /** 204; another member's key, or none: 404 `SSH key not found`. */
  @Delete(API.userKey(':id'))
  @NoTokens()
  @UseGuards(SessionGuard)
  @HttpCode(204)
  async remove(@CurrentUser() user: User, @Param('id') id: string): Promise<void> {
    await this.signing.remove(user.id, parseId(id, SSH_KEY_MESSAGES.notFound));
  }

  /** `authorized_keys` lines (`curl …/keys > allowed`), like GitHub's `https://github.com/<name>.keys`. */
  @Get(API.userPublicKeys(':id'))
  @TokenScope('read')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @Header('X-Content-Type-Options', 'nosniff')
  publicKeys(@Param('id') id: string): Promise<string> {
    return this.signing.authorizedKeys(parseId(id, POST_MESSAGES.userNotFound));
  }
}
