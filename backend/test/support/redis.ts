import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { settlesWithin } from '../../src/common/settles-within.js';
import { freePort } from '../../src/infra/free-port.js';

export interface RedisHandle {
  url: string;
  port: number;
  stop(): Promise<void>;
}

const MISSING_MESSAGE =
  'redis-server not found — install it (apt-get install redis-server) to run the Redis suites';

/** The redis-server binary: $REDIS_SERVER_BIN, else the first on PATH, else /usr/bin/redis-server. */
export function redisServerPath(): string | undefined {
  const candidates = [
    process.env.REDIS_SERVER_BIN,
    ...(process.env.PATH ?? '').split(path.delimiter).map((dir) => dir && path.join(dir, 'redis-server')),
    '/usr/bin/redis-server',
  ];
  return candidates.find((file): file is string => {
    if (!file) return false;
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * `describe` for suites that need a Redis: without redis-server they are skipped, loudly, on a
 * laptop; on CI (CI=true) the run fails instead, so a missing Redis never passes silently.
 */
export function describeWithRedis(name: string, suite: () => void): void {
  if (redisServerPath()) {
    describe(name, suite);
    return;
  }
  if (process.env.CI === 'true') throw new Error(`${MISSING_MESSAGE} (required on CI)`);
  console.warn(`\n!!! SKIPPED "${name}": ${MISSING_MESSAGE}\n`);
  describe.skip(name, suite);
}

/** Sends one inline command over a raw socket and returns its raw RESP reply (`+PONG`), minus the last CRLF. */
export function redisCommand(port: number, command: string, timeoutMs = 1000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let reply = '';
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no reply from Redis on port ${port}`)));
    // QUIT makes Redis close the connection after answering, so the whole reply is what we read.
    socket.on('connect', () => socket.write(`${command}\r\nQUIT\r\n`));
    socket.on('data', (chunk) => (reply += chunk.toString('utf8')));
    socket.on('end', () => resolve(reply.replace(/\+OK\r\n$/, '').replace(/\r\n$/, '')));
    socket.on('error', reject);
  });
}

/**
 * A throwaway redis-server on 127.0.0.1 on a free port (or `port`: a Redis started again where a stopped
 * one was), without persistence.
 */
export async function startRedis(options: { port?: number } = {}): Promise<RedisHandle> {
  const binary = redisServerPath();
  if (!binary) throw new Error(MISSING_MESSAGE);
  const port = options.port ?? (await freePort());
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const stop = () => stopProcess(child);

  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`redis-server exited during start-up: ${stderr}`);
    }
    if (
      await redisCommand(port, 'PING', 200).then(
        (reply) => reply === '+PONG',
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`redis-server did not answer on port ${port}: ${stderr}`);
    }
    await sleep(20);
  }
  return { url: `redis://127.0.0.1:${port}`, port, stop };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  if (!(await settlesWithin(exited, 5000))) {
    child.kill('SIGKILL');
    await exited;
  }
}
