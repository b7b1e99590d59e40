import { Controller, Get } from '@nestjs/common';
import { API, type Site } from '@termpaste/contracts';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { SignInProviders } from './sso/sign-in-providers.js';

/**
 * Public facts about this installation, for visitors' pages (the welcome toast's product name, and the
 * sign-in page's form and buttons: LOCAL_LOGIN and the providers ready to sign in with).
 */
@Controller()
export class SiteController {
  constructor(
    @InjectConfig() private readonly config: Pick<AppConfig, 'productName' | 'requireVerifiedEmail' | 'sso'>,
    private readonly providers: SignInProviders,
  ) {}

  @Get(API.site)
  site(): Site {
    return {
      productName: this.config.productName,
      requireVerifiedEmail: this.config.requireVerifiedEmail,
      localLogin: this.config.sso.localLogin,
      signInProviders: this.providers.visible(),
    };
  }
}
