import { Controller, Get } from '@nestjs/common';
import { API, type Site } from '@termpaste/contracts';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';

/** Public facts about this installation, for visitors' pages (the welcome toast's product name). */
@Controller()
export class SiteController {
  constructor(
    @InjectConfig() private readonly config: Pick<AppConfig, 'productName' | 'requireVerifiedEmail'>,
  ) {}

  @Get(API.site)
  site(): Site {
    return { productName: this.config.productName, requireVerifiedEmail: this.config.requireVerifiedEmail };
  }
}
