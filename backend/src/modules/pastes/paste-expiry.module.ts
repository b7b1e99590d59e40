import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { PasteRemoval } from './paste-removal.js';
import { PasteExpiry } from './paste-expiry.js';

/** Expiry and removal, for the API (PastesModule) and the worker alike (the queue is global). */
@Module({
  imports: [UsersModule],
  providers: [PasteExpiry, PasteRemoval],
  exports: [PasteExpiry, PasteRemoval],
})
export class PasteExpiryModule {}
