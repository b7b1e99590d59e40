import { Module } from '@nestjs/common';
import { HttpModule } from '../../http/http.module.js';
import { EmbedsController } from './embeds.controller.js';
import { FeedsController } from './feeds.controller.js';
import { PasteFeeds } from './paste-feeds.js';
import { PastesModule } from './pastes.module.js';

/** Pastes read from outside the app: the Atom feeds, the embeds and oEmbed. */
@Module({
  imports: [PastesModule, HttpModule],
  controllers: [FeedsController, EmbedsController],
  providers: [PasteFeeds],
})
export class FeedsModule {}
