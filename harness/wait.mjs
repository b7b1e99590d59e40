// Waiting for something real to happen, failing with what was awaited; and a free loopback port.
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A check that did not hold: its message is the whole story (no stack needed). */
export class CheckFailed extends Error {}

export function assert(condition, message) {
  if (!condition) throw new CheckFailed(message);
}

/** Polls `probe` until it returns something truthy; fails naming `what` after `timeoutMs`. */
export async function waitFor(what, probe, timeoutMs = 15_000, intervalMs = 100) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new CheckFailed(
        `timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${lastError.message})` : ''}`,
      );
    }
    await sleep(intervalMs);
  }
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
