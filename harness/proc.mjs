// Child processes whose output is kept (for the checks to read and for the logs), all tracked so a run
// can stop every one of them on its way out.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { root } from './paths.mjs';
import { CheckFailed } from './wait.mjs';

export const processes = new Set();
/** Set once cleanup began (a signal, or the end): no process may start after it. */
let stopping = false;
/** No process may start from now on (cleanup began). */
export function stopStarting() {
  stopping = true;
}

/** uid and gid of a system user (`id`), for running PostgreSQL as `postgres` when we are root. */
export function systemUser(name) {
  const id = (flag) => Number(spawnSync('id', [flag, name], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) throw new Error(`no system user "${name}"`);
  return { uid, gid };
}

/** A child process whose output goes to a log file and is kept for the checks to read. */
export class Proc {
  constructor(name, command, args, { env, cwd = root, uid, gid, logDir }) {
    if (stopping) throw new CheckFailed(`not starting ${name}: stopping`);
    this.name = name;
    this.output = '';
    this.logFile = join(logDir, `${name}.log`);
    const file = createWriteStream(this.logFile, { flags: 'a' });
    this.child = spawn(command, args, {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(uid === undefined ? {} : { uid, gid }),
    });
    const keep = (chunk) => {
      this.output += chunk.toString('utf8');
      file.write(chunk);
    };
    this.child.stdout.on('data', keep);
    this.child.stderr.on('data', keep);
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        processes.delete(this);
        file.end();
        resolve({ code, signal });
      }),
    );
    this.child.once('error', (error) => {
      this.output += `\n[spawn error] ${error.message}\n`;
    });
    processes.add(this);
  }

  get running() {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Sends `signal`, waits up to `timeoutMs` for the exit, then SIGKILL. */
  async stop(signal = 'SIGTERM', timeoutMs = 15_000) {
    if (!this.running) return this.exited;
    this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  tail(lines = 30) {
    return this.output.trimEnd().split('\n').slice(-lines).join('\n');
  }
}

/** Fails when `proc` exits before `ready` resolves; so a crash at start-up reads as one. */
export async function startedWhile(proc, what, ready) {
  const crashed = proc.exited.then(({ code, signal }) => {
    throw new CheckFailed(`${proc.name} exited (${code ?? signal}) while ${what}:\n${proc.tail()}`);
  });
  return Promise.race([ready, crashed]);
}
