import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { API, type CreatedAccessToken, type TokenScope } from '@termpaste/contracts';
import type { Browser } from '../../../backend/test/support/accounts.js';

/** The built command, as npm installs it (package.json's bin). */
export const BIN = fileURLToPath(new URL('../dist/termpaste.js', import.meta.url));

if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build the CLI first (npx nx run termpaste:build)`);

export interface Run {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs `node dist/termpaste.js …args` in a child process (never spawnSync: the server answering it runs in
 * this process), with only PATH, HOME and `env` in its environment, `input` on its standard input (then
 * closed: a pipe, not a terminal).
 */
export function termpaste(
  args: string[],
  options: { env?: Record<string, string>; input?: string | Buffer } = {},
) {
  return new Promise<Run>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(stdout), stderr }));
    child.stdin.on('error', () => undefined); // it may exit before reading its input
    child.stdin.end(options.input ?? '');
  });
}

/** A fresh folder for XDG_CONFIG_HOME (and files to paste). */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  await chmod(dir, 0o700);
  return dir;
}

/** A new personal access token of the signed-in `browser`'s member, made as the settings screen does. */
export async function makeToken(browser: Browser, scopes: TokenScope[] = ['pastes:write', 'read']) {
  const res = await browser.post(API.userTokens).send({ name: `cli ${scopes.join(' ')}`, scopes });
  if (res.status !== 201) throw new Error(`token not made: ${res.status} ${res.text}`);
  return res.body as CreatedAccessToken;
}

/**
 * Runs the built command on a terminal: util-linux's `script` gives it a pseudo-terminal for standard
 * input and output (`-E always`: the terminal echoes what is typed unless the command turns echo off, as a real one does). When the output shows
 * `prompt`, `answer` and Enter are typed. Terminal output comes back with CRLF line ends.
 */
export function onTerminal(
  args: string[],
  options: { env?: Record<string, string>; prompt?: string; answer?: string } = {},
) {
  const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;
  const command = [process.execPath, BIN, ...args].map(quote).join(' ');
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn('script', ['-q', '-e', '-f', '-E', 'always', '-c', command, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TERM: 'dumb', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    let typed = false;
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (!typed && options.prompt !== undefined && output.includes(options.prompt)) {
        typed = true;
        child.stdin.write(`${options.answer ?? ''}\r`);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}
