/** Standard input, whole, as the bytes that came (a pipe or a redirected file). */
export async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/** Asked when the user pressed Ctrl-C at a prompt. */
export class Interrupted extends Error {}

/**
 * Asks on the terminal without echoing what is typed (a secret): the question on standard error, the
 * answer read in raw mode until Enter. Backspace works; Ctrl-C interrupts, Ctrl-D ends the answer.
 */
export function promptHidden(question: string): Promise<string> {
  const input = process.stdin;
  // Raw (no echo) before the question shows, so nothing typed ahead of it is echoed either.
  input.setRawMode(true);
  process.stderr.write(question);
  input.setEncoding('utf8');
  input.resume();
  return new Promise((resolve, reject) => {
    let answer = '';
    const finish = () => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write('\n');
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || char === '\u0004') {
          finish();
          resolve(answer);
          return;
        }
        if (char === '\u0003') {
          finish();
          reject(new Interrupted('interrupted'));
          return;
        }
        if (char === '\u007f' || char === '\b') answer = answer.slice(0, -1);
        else if (char >= ' ') answer += char;
      }
    };
    input.on('data', onData);
  });
}
