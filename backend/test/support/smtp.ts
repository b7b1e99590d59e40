import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerEnvelope } from 'smtp-server';

/** An SMTP server on loopback for the app under test to send to (SMTP_URL = `url`). */
export interface LoopbackSmtp {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Starts an SMTP server on 127.0.0.1 (`port`, else a free one) that takes every message, without auth or TLS, and
 * hands each to `onMessage` as its raw text and envelope. Kept apart from mail.ts so that only the
 * suites that speak SMTP load smtp-server.
 */
export async function startSmtp(
  onMessage: (raw: string, envelope: SMTPServerEnvelope) => void,
  port = 0,
): Promise<LoopbackSmtp> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        onMessage(Buffer.concat(chunks).toString('utf8'), session.envelope);
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const listening = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${listening}`,
    port: listening,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
