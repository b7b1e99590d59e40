import pg from 'pg';
import { Histogram } from 'prom-client';

/** Every query of every pool of the process (registered with each app's metrics at a scrape). */
export const QUERY_SECONDS = new Histogram({
  name: 'termpaste_db_query_duration_seconds',
  help: 'PostgreSQL queries, from sending to the last row (pool waits not included)',
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
  registers: [],
});

type QueryCallback = (error: Error | null, result: unknown) => void;

/**
 * pg's Client, timing each query: the pool makes its connections of it (the pool's `Client` option), so
 * TypeORM's queries and the prepared statements alike are timed, at two clock reads and an observe each.
 * Streams and cursors (a `submit` method) are left alone.
 */
export class TimedClient extends pg.Client {
  // pg's overloads are many; we forward whatever was given.
  override query(...args: unknown[]): never {
    const [first] = args;
    const run = super.query as (...given: unknown[]) => unknown;
    if (typeof (first as { submit?: unknown } | null)?.submit === 'function')
      return run.apply(this, args) as never;
    const started = performance.now();
    const done = (): void => QUERY_SECONDS.observe((performance.now() - started) / 1000);
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (error: Error | null, result: unknown) => {
        done();
        (callback as QueryCallback)(error, result);
      };
      return run.apply(this, args) as never;
    }
    const result = run.apply(this, args) as Promise<unknown>;
    result.then(done, done);
    return result as never;
  }
}
