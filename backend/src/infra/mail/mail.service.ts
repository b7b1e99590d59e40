/** The queue mail goes through, and its jobs. */
export const MAIL_QUEUE = 'mail';
/** A message written in full by the sender (no secret in it: the job's data stays in the queue). */
export const SEND_MAIL_JOB = 'send';
/** A mail carrying a single-use link: the job names the token's row, the mail worker mints the token. */
export const SEND_LINK_JOB = 'send-link';

/** An e-mail to send. Delivery happens on the queue, never inside the request. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers (`List-Unsubscribe`): values as they go out. */
  headers?: Record<string, string>;
}

/**
 * A link mail as it waits in the queue: the member and the token row's id. The token exists only in the
 * minting worker, the mail, and as a hash: never in job data, queue logs or the queue dashboard.
 */
export interface LinkMail {
  /** Which mail (`password-reset`, say): names the writer that mints its token (MailModule's `links`). */
  kind: string;
  userId: number;
  tokenId: number;
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
  /** Queues a link mail: the mail processor asks LinkMailWriter for the message when it runs the job. */
  abstract sendLink(link: LinkMail, options?: SendMailOptions): Promise<void>;
}

/**
 * Writes a link mail where mail is sent: mints the token (stored as its hash on the job's row) and puts
 * the link in the text. Null when the row was used, voided or expired. Provided by the token's feature.
 */
export abstract class LinkMailWriter {
  abstract write(link: LinkMail): Promise<MailMessage | null>;
}

/** The link writer the mail processor asks: each kind of link mail goes to the writer that mints its token. */
export class LinkMailRouter extends LinkMailWriter {
  constructor(private readonly writers: Record<string, LinkMailWriter>) {
    super();
  }

  write(link: LinkMail): Promise<MailMessage | null> {
    const writer = this.writers[link.kind];
    if (!writer) throw new Error(`No writer for link mail "${link.kind}"`);
    return writer.write(link);
  }
}

/**
 * Runs a job of the mail queue that a feature owns (a sweep, a mail it writes from ids where it is sent),
 * by the job's name (MailModule's `jobs`). Returns the message to deliver, if any.
 */
export abstract class MailJobRunner {
  abstract run(name: string, data: unknown): Promise<MailMessage | null>;
}

/** The runners the app registered, each for its jobs' names; none by default. */
export class MailJobRouter extends MailJobRunner {
  constructor(private readonly runners: Record<string, MailJobRunner> = {}) {
    super();
  }

  has(name: string): boolean {
    return Object.hasOwn(this.runners, name);
  }

  run(name: string, data: unknown): Promise<MailMessage | null> {
    const runner = this.runners[name];
    if (!runner) throw new Error(`Unknown job "${name}" on the mail queue`);
    return runner.run(name, data);
  }
}
