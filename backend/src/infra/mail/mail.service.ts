/** An e-mail to send. Delivery happens on the queue, never inside the request. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Puts mail on the queue (`mail` queue); the mail processor sends it over SMTP or into the outbox. */
export abstract class MailService {
  abstract send(message: MailMessage): Promise<void>;
}
