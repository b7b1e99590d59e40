import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { settlesWithin } from '../../src/common/settles-within.js';
import { freePort } from '../../src/infra/free-port.js';
import type { ChildMessage, ChildRequest } from './app-child.js';
import { SPAM_SIGNALS_OFF } from './spam-signals.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface AppProcess {
  url: string;
  /** How the process ended: `{ code, signal }`, once it has. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Makes a reply through the app's PastesService; rejects if the process dies first. */
  reply(authorId: number, threadId: number, content: string): Promise<{ id: number }>;
  /** Everything it printed so far. */
  output(): string;
  /** SIGTERM (a graceful stop), then SIGKILL after 10 s; resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * Termpaste in a child process (support/app-child.ts through the TypeScript loader), with `env` on top of
 * a minimal environment (PATH and HOME only: nothing of jest's), listening on 127.0.0.1 on a free port.
 * Resolves once it serves; rejects, with its output, if it exits before.
 */
export async function startAppProcess(env: Record<string, string>, dataDir: string): Promise<AppProcess> {
  await mkdir(path.join(dataDir, 'no-frontends'), { recursive: true });
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', path.join(here, 'ts-register.mjs'), path.join(here, 'app-child.ts')],
    {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        HOST: '127.0.0.1',
        PORT: String(await freePort()),
        DATA_DIR: dataDir,
        FRONTENDS_DIR: path.join(dataDir, 'no-frontends'),
        RATE_LIMITS: 'off',
        ...SPAM_SIGNALS_OFF,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const died = exited.then(({ code, signal }) => {
    throw new Error(`the app process exited (code ${code}, signal ${signal}):\n${output.slice(-4000)}`);
  });
  died.catch(() => undefined);

  const pending = new Map<number, (message: ChildMessage) => void>();
  let ready!: (url: string) => void;
  const readyUrl = new Promise<string>((resolve) => (ready = resolve));
  child.on('message', (message: ChildMessage) => {
    if ('ready' in message) ready(message.ready);
    else pending.get(message.seq)?.(message);
  });

  const url = await Promise.race([readyUrl, died]);
  let seq = 0;
  return {
    url,
    exited,
    output: () => output,
    reply: (authorId, threadId, content) => {
      const request: ChildRequest = { seq: ++seq, action: 'reply', authorId, threadId, content };
      const answered = new Promise<{ id: number }>((resolve, reject) => {
        pending.set(request.seq, (message) => {
          pending.delete(request.seq);
          if ('error' in message) reject(new Error(message.error));
          else resolve((message as { result: { id: number } }).result);
        });
      });
      child.send(request);
      return Promise.race([answered, died]);
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      if (!(await settlesWithin(exited, 10_000))) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}
