import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Real keys and signatures from OpenSSH's ssh-keygen, in a temporary folder per use. */

export const SSH_KEYGEN = '/usr/bin/ssh-keygen';

export interface TestKey {
  /** The private key's file (ssh-keygen -f). */
  file: string;
  /** The `.pub` line, with its comment. */
  publicLine: string;
  privateText: string;
  fingerprint: string;
}

const folders: string[] = [];

function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'termpaste-ssh-'));
  folders.push(dir);
  return dir;
}

/** Removes every folder made here (call in afterAll). */
export function removeKeyFolders(): void {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A new key pair: `ed25519`, `rsa` (2048 bits) or `ecdsa` (`bits`: 256, 384, 521). */
export function generateKey(type: 'ed25519' | 'rsa' | 'ecdsa', bits?: number, comment = 'me@test'): TestKey {
  const file = path.join(folder(), `id_${type}`);
  const size = bits ?? (type === 'rsa' ? 2048 : type === 'ecdsa' ? 256 : undefined);
  execFileSync(SSH_KEYGEN, [
    '-q',
    '-t',
    type,
    ...(size ? ['-b', String(size)] : []),
    '-N',
    '',
    '-C',
    comment,
    '-f',
    file,
  ]);
  const publicLine = readFileSync(`${file}.pub`, 'utf8').trim();
  const fingerprint = execFileSync(SSH_KEYGEN, ['-l', '-E', 'sha256', '-f', `${file}.pub`], {
    encoding: 'utf8',
  }).split(' ')[1]!;
  return { file, publicLine, privateText: readFileSync(file, 'utf8'), fingerprint };
}

/** `ssh-keygen -Y sign -n <namespace> -f <key>` over `content`'s exact bytes: the armoured signature. */
export function sign(key: TestKey, content: string | Buffer, namespace = 'termpaste'): string {
  const file = path.join(folder(), 'paste.txt');
  writeFileSync(file, content);
  execFileSync(SSH_KEYGEN, ['-q', '-Y', 'sign', '-n', namespace, '-f', key.file, file], { stdio: 'ignore' });
  return readFileSync(`${file}.sig`, 'utf8');
}

/**
 * `ssh-keygen -Y verify -f allowed_signers -I <who> -n termpaste -s <sig> < content`: its exit status and
 * output. `allowedSigners`: the file's text.
 */
export function sshVerify(
  allowedSigners: string,
  who: string,
  signature: string | Buffer,
  content: string | Buffer,
): { status: number | null; output: string } {
  const dir = folder();
  writeFileSync(path.join(dir, 'allowed_signers'), allowedSigners);
  writeFileSync(path.join(dir, 'paste.sig'), signature);
  const run = spawnSync(
    SSH_KEYGEN,
    ['-Y', 'verify', '-f', 'allowed_signers', '-I', who, '-n', 'termpaste', '-s', 'paste.sig'],
    { cwd: dir, input: content, encoding: 'utf8' },
  );
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}
