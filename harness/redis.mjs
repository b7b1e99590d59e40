// redis-server from Debian's packages, on a free loopback port, as docker-compose.yml runs it.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { backendRequire } from './paths.mjs';
import { Proc, startedWhile } from './proc.mjs';
import { freePort, waitFor } from './wait.mjs';

const { Redis } = backendRequire('ioredis');

/**
 * redis-server in <tmp>/redis. `port` given: on that port again, with the append-only file a previous
 * start left (a restart).
 */
export async function startRedis(tools, tmp, logDir, { port: reuse } = {}) {
  const dir = join(tmp, 'redis');
  mkdirSync(dir, { recursive: true });
  const port = reuse ?? (await freePort());
  // As docker-compose.yml runs it: jobs in an append-only file, never evicted.
  const proc = new Proc(
    'redis',
    tools.redisServer,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--maxmemory-policy',
      'noeviction',
      '--save',
      '',
      '--daemonize',
      'no',
    ],
    { env: { PATH: process.env.PATH }, logDir },
  );
  const url = `redis://127.0.0.1:${port}`;
  await startedWhile(
    proc,
    'starting',
    waitFor(
      'Redis to answer PING',
      async () => {
        const client = new Redis(url, {
          lazyConnect: true,
          maxRetriesPerRequest: 0,
          retryStrategy: () => null,
        });
        // A refused connection rejects connect(), which is what this wait retries; the same refusal as
        // an 'error' event would be printed as unhandled.
        client.on('error', () => undefined);
        try {
          await client.connect();
          return (await client.ping()) === 'PONG';
        } finally {
          client.disconnect();
        }
      },
      15_000,
      100,
    ),
  );
  return { proc, port, url };
}
