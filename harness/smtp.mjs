// An SMTP listener that keeps what it receives, and the text of a mail for the checks to read.
import { backendRequire } from './paths.mjs';

const { SMTPServer } = backendRequire('smtp-server');

/** An SMTP listener (npm `smtp-server`) that keeps every message it receives. */
export async function startSmtp() {
  const received = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (chunk) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.server.address();
  return {
    received,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The text of a mail (headers and decoded parts): quoted-printable and base64 bodies undone. */
export function mailText(raw) {
  const unfolded = raw.replace(/\r\n/g, '\n');
  const quotedPrintable = unfolded
    .replace(/=\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
  const base64Parts = [
    ...unfolded.matchAll(/content-transfer-encoding:\s*base64\s*\n(?:[^\n]+\n)*\n([A-Za-z0-9+/=\n]+)/gi),
  ]
    .map((m) => Buffer.from(m[1].replace(/\n/g, ''), 'base64').toString('utf8'))
    .join('\n');
  return `${quotedPrintable}\n${base64Parts}`;
}
