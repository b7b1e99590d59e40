import { setTimeout as sleep } from 'node:timers/promises';

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/** Polls `check` until it returns something truthy (returned), or fails after `timeoutMs` naming `what`. */
export async function waitFor<T>(
  what: string,
  check: () => T | Promise<T>,
  timeoutMs = 10_000,
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}
