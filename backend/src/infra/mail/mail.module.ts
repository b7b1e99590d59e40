import { Global, Module } from '@nestjs/common';
import { MailProcessor } from './mail.processor.js';
import { MailService } from './mail.service.js';
import { QueuedMailService } from './queued-mail.service.js';

/** MailService everywhere (needs QueueModule and ConfigModule); its processor runs wherever processors run. */
@Global()
@Module({
  providers: [QueuedMailService, { provide: MailService, useExisting: QueuedMailService }, MailProcessor],
  exports: [MailService],
})
export class MailModule {}
