import { Module } from '@nestjs/common';
import { PageCache } from './page-cache.js';

/** The cross-cutting HTTP providers: the page cache, which every feature serving public pages shares. */
@Module({
  providers: [PageCache],
  exports: [PageCache],
})
export class HttpModule {}
