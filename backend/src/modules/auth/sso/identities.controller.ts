import { Controller, Delete, Get, Header, HttpCode, Param, UseGuards } from '@nestjs/common';
import { API, type Identities, SSO_MESSAGES } from '@termpaste/contracts';
import { CurrentUser } from '../guards/current-user.decorator.js';
import { parseId } from '../../../common/parse-id.js';
import { SessionGuard } from '../guards/session.guard.js';
import type { User } from '../../users/entities/user.entity.js';
import { NoTokens } from '../tokens/token-scope.decorator.js';
import { toIdentity } from '../auth-rows.js';
import { IdentitiesService } from './identities.service.js';
import { SignInProviders } from './sign-in-providers.js';

/**
 * The signed-in member's linked provider accounts: session only (a personal access token gets
 * 403, reads included), signed in and not banned (else 401). Linking is a sign-in at the provider
 * (`GET /api/auth/sso/{provider}?intent=link`).
 */
@Controller()
@NoTokens()
@UseGuards(SessionGuard)
export class IdentitiesController {
  constructor(
    private readonly identities: IdentitiesService,
    private readonly providers: SignInProviders,
  ) {}

  @Get(API.userIdentities)
  @Header('Cache-Control', 'no-store')
  async list(@CurrentUser() user: User): Promise<Identities> {
    const rows = await this.identities.list(user.id);
    return {
      // A provider since taken out of the configuration keeps its id as its name.
      identities: rows.map((row) =>
        toIdentity(row, this.providers.configured(row.provider)?.name ?? row.provider),
      ),
      hasPassword: user.passwordHash !== null,
      available: this.providers
        .visible()
        .filter((provider) => !rows.some((row) => row.provider === provider.id)),
    };
  }

  /** 204; another member's, or none: 404; the last way to sign in (no password, no other): 409. */
  @Delete(API.userIdentity(':id'))
  @HttpCode(204)
  async unlink(@CurrentUser() user: User, @Param('id') id: string): Promise<void> {
    await this.identities.unlink(user.id, parseId(id, SSO_MESSAGES.identityNotFound));
  }
}
