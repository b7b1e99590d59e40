import { Global, Module } from '@nestjs/common';
import {
  type LinkMail,
  LinkMailWriter,
  type MailMessage,
  MailService,
  type SendMailOptions,
} from '../../src/infra/mail/mail.service.js';

export type SentMail = MailMessage & SendMailOptions;

/**
 * A MailService that keeps what is sent, in place of the queued one (mail.spec.ts tests that). Link mails
 * are written at once by the app's own LinkMailWriter, so the recorded text holds the real link.
 */
export class RecordingMailService extends MailService {
  readonly sent: SentMail[] = [];
  /** The link jobs as they would have been queued (ids only). */
  readonly links: Array<LinkMail & SendMailOptions> = [];
  writer: LinkMailWriter | undefined;

  async send(message: MailMessage, options: SendMailOptions = {}): Promise<void> {
    this.sent.push({ ...message, ...options });
  }

  async sendLink(link: LinkMail, options: SendMailOptions = {}): Promise<void> {
    this.links.push({ ...link, ...options });
    if (!this.writer) throw new Error('RecordingMailService: no LinkMailWriter attached');
    const message = await this.writer.write(link);
    if (message) this.sent.push({ ...message, ...options });
  }

  /**
   * Takes the newest verification mail to `to` out of the record (registered() reads and uses it, so the
   * suites find in `sent` only the mail they are about).
   */
  takeVerification(to: string): SentMail | undefined {
    for (let i = this.sent.length - 1; i >= 0; i--) {
      const message = this.sent[i]!;
      if (message.to.toLowerCase() === to.toLowerCase() && message.jobId?.startsWith('verify-email-')) {
        return this.sent.splice(i, 1)[0];
      }
    }
    return undefined;
  }

  /** The messages sent to `to` (any letter case), oldest first. */
  to(to: string): SentMail[] {
    return this.sent.filter((message) => message.to.toLowerCase() === to.toLowerCase());
  }
}

/** A global module providing `mail` as the MailService, with the app's LinkMailWriter attached. */
export function recordingMailModule(mail: RecordingMailService) {
  @Global()
  @Module({
    providers: [
      {
        provide: MailService,
        inject: [LinkMailWriter],
        useFactory: (writer: LinkMailWriter) => {
          mail.writer = writer;
          return mail;
        },
      },
    ],
    exports: [MailService],
  })
  class RecordingMailModule {}
  return RecordingMailModule;
}
