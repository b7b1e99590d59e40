import { spawn } from 'node:child_process';
import { access } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { UsageError } from './errors.js';
import { CLI_MESSAGES } from './messages.js';

/** The namespace the server checks paste signatures in. */
export const SIGNING_NAMESPACE = 'termpaste';

/** `--key`'s default: OpenSSH's default ed25519 key. */
export const defaultSigningKey = (): string => path.join(homedir(), '.ssh', 'id_ed25519');

/** The ssh-keygen to run: TERMPASTE_SSH_KEYGEN, else the one on the PATH. */
const sshKeygen = (env: Record<string, string | undefined>): string =>
  env.TERMPASTE_SSH_KEYGEN || 'ssh-keygen';

/**
 * `ssh-keygen -Y sign -n termpaste -f KEY` over `bytes` (standard input to standard output): the armoured
 * signature. Its passphrase prompt, if any, goes to the terminal. A missing key or a failed signing is
 * wrong usage (exit 2), nothing sent.
 */
export async function signPaste(
  bytes: Buffer,
  keyFile: string,
  env: Record<string, string | undefined> = process.env,
): Promise<string> {
  try {
    await access(keyFile);
  } catch {
    throw new UsageError(CLI_MESSAGES.noSigningKey(keyFile));
  }
  const program = sshKeygen(env);
  return new Promise((resolve, reject) => {
    const child = spawn(program, ['-q', '-Y', 'sign', '-n', SIGNING_NAMESPACE, '-f', keyFile], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new UsageError(
          error.code === 'ENOENT'
            ? CLI_MESSAGES.noSshKeygen(program)
            : CLI_MESSAGES.signFailed(error.message),
        ),
      ),
    );
    child.on('close', (code) => {
      const signature = Buffer.concat(out).toString('utf8');
      if (code === 0 && signature.includes('-----BEGIN SSH SIGNATURE-----')) resolve(signature);
      else
        reject(
          new UsageError(
            CLI_MESSAGES.signFailed(Buffer.concat(err).toString('utf8').trim() || `exit ${code}`),
          ),
        );
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(bytes);
  });
}
