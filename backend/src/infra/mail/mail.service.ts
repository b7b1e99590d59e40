/** The queue mail goes through, and its one job. */
export const MAIL_QUEUE = 'mail';
export const SEND_MAIL_JOB = 'send';

/** An e-mail to send. Delivery happens on the queue, never inside the request. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface SendMailOptions {
  /**
   * A message under an id already queued (or recently sent) is not queued again, e.g. `reset-<token id>`:
   * a retried request does not mail twice. See JobOptions.jobId for the allowed ids.
   */
  jobId?: string;
}

/** Puts mail on the queue (`mail` queue); the mail processor sends it over SMTP or into the outbox. */
export abstract class MailService {
  abstract send(message: MailMessage, options?: SendMailOptions): Promise<void>;
}
