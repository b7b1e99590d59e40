import { Module } from '@nestjs/common';
import { FreshClients } from './fresh-reads.js';
import { PageCache } from './page-cache.js';

/** The cross-cutting HTTP providers: the page cache, which every feature serving public pages shares. */
@Module({
  providers: [PageCache, FreshClients],
  exports: [PageCache, FreshClients],
})
export class HttpModule {}
