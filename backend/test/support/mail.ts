import { Global, Module } from '@nestjs/common';
import { type MailMessage, MailService, type SendMailOptions } from '../../src/infra/mail/mail.service.js';

export type SentMail = MailMessage & SendMailOptions;

/**
 * A MailService that keeps what is sent, for the API suites to read at once. createTestApp puts it in
 * place of the app's queued one (mail.spec.ts tests that one by its class).
 */
export class RecordingMailService extends MailService {
  readonly sent: SentMail[] = [];

  async send(message: MailMessage, options: SendMailOptions = {}): Promise<void> {
    this.sent.push({ ...message, ...options });
  }

  /** The messages sent to `to` (any letter case), oldest first. */
  to(to: string): SentMail[] {
    return this.sent.filter((message) => message.to.toLowerCase() === to.toLowerCase());
  }
}

/** A global module providing `mail` as the MailService. */
export function recordingMailModule(mail: RecordingMailService) {
  @Global()
  @Module({ providers: [{ provide: MailService, useValue: mail }], exports: [MailService] })
  class RecordingMailModule {}
  return RecordingMailModule;
}
