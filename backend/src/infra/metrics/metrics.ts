import { Injectable, Optional } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { settlesWithin } from '../../common/settles-within.js';
import { LeanHistogram, type LeanSeries } from './lean-histogram.js';
import { QUERY_SECONDS } from './query-time.js';

/** How long one family's reading (a queue's counts, the outbox's rows) may take at a scrape. */
export const COLLECT_TIMEOUT_MS = 1000;

/** The route label of a request no route matched (static files, the app shell, 404s). */
export const UNMATCHED_ROUTE = 'unmatched';

/** Latency buckets (seconds): few, so that a request's observation stays cheap. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300];

/** A gauge's value for one set of labels, as a reader gives it at a scrape. */
export type Reading<L extends string> = ReadonlyArray<
  readonly [labels: Partial<Record<L, string>>, value: number]
>;
export type Reader<L extends string> = () => Promise<Reading<L>> | Reading<L>;

/** The queue states `termpaste_queue_jobs` reports. */
export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
export type QueueState = (typeof QUEUE_STATES)[number];
export type QueueDepth = Record<QueueState, number>;

let processRegistry: Registry | undefined;

/**
 * What belongs to the process rather than to one app (tests build several in one process): Node's
 * own metrics (event-loop lag, heap, GC) and the query times of every pool.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    processRegistry.registerMetric(QUERY_SECONDS);
  }
  return processRegistry;
}

/**
 * The app's metrics (an API's or a worker's), in the Prometheus text format. Counters and histograms
 * move where things happen; gauges that need a query or a round trip are read at a scrape (each within
 * COLLECT_TIMEOUT_MS; one that fails or times out is left out of that scrape), never per request.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();

  private readonly httpRequests = new LeanHistogram(
    'termpaste_http_request_duration_seconds',
    'HTTP requests by route pattern, method and status: time to the last byte of the answer',
    HTTP_BUCKETS,
  );
  /** Each (route, method, status)'s series, so that a request costs one Map lookup and an observe. */
  private readonly httpSeries = new Map<string, LeanSeries>();

  readonly pageCache = new Counter({
    name: 'termpaste_page_cache_requests_total',
    help: 'Page cache reads: hit, miss (loaded and kept) or bypass (a fresh read after a write), by page kind',
    labelNames: ['page', 'result'] as const,
    registers: [this.registry],
  });

  readonly jobSeconds = new Histogram({
    name: 'termpaste_queue_job_duration_seconds',
    help: 'Job attempts run by this process, by queue and outcome (completed or failed)',
    labelNames: ['queue', 'outcome'] as const,
    buckets: JOB_BUCKETS,
    registers: [this.registry],
  });

  readonly jobFailures = new Counter({
    name: 'termpaste_queue_job_failures_total',
    help: 'Failed job attempts in this process, by queue (final: no attempt left)',
    labelNames: ['queue', 'final'] as const,
    registers: [this.registry],
  });

  readonly mailSent = new Counter({
    name: 'termpaste_mail_sent_total',
    help: 'E-mails delivered, by transport (smtp, or file: the outbox folder)',
    labelNames: ['transport'] as const,
    registers: [this.registry],
  });

  readonly mailFailures = new Counter({
    name: 'termpaste_mail_failures_total',
    help: 'E-mail deliveries that failed (each attempt; the job is retried), by transport',
    labelNames: ['transport'] as const,
    registers: [this.registry],
  });

  private readonly collectFailures = new Counter({
    name: 'termpaste_metrics_collect_failures_total',
    help: 'Readings at a scrape that failed or took over a second, by family (left out of that scrape)',
    labelNames: ['family'] as const,
    registers: [this.registry],
  });

  private readonly readers = new Map<string, Reader<string>>();

  constructor(@Optional() dataSource?: DataSource) {
    this.registry.registerMetric(this.httpRequests.asMetric());
    // Node's own metrics start with the first app, so that the first scrape has their history.
    processMetrics();
    this.readGauge(
      'termpaste_db_pool_clients',
      'PostgreSQL pool: connections open (total), idle, and requests waiting for one',
      ['state'],
      () => poolReading(dataSource),
    );
    this.readGauge(
      'termpaste_db_pool_max',
      'PostgreSQL pool: the most connections it opens (DATABASE_POOL_SIZE)',
      [],
      () => {
        const max = poolOf(dataSource)?.options?.max;
        return max === undefined ? [] : [[{}, max]];
      },
    );
    this.readGauge(
      'termpaste_queue_jobs',
      'Jobs in each queue, by state (BullMQ: all processes; in-process: this one)',
      ['queue', 'state'],
    );
    this.readGauge(
      'termpaste_outbox_backlog',
      'Outbox rows not relayed to the queue yet (in-process queue: not run yet)',
      [],
    );
    this.readGauge(
      'termpaste_live_sockets',
      'Live sockets open on this instance, by kind (member or visitor)',
      ['kind'],
    );
    this.readGauge(
      'termpaste_live_online_members',
      'Members online (a live socket open), over every instance',
      [],
    );
  }

  /** One request's answer; `route` is the route's pattern (`/api/threads/:id`), never the raw URL. */
  observeRequest(route: string, method: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.httpSeries.get(key);
    if (!series) {
      series = this.httpRequests.series({ route, method, status: String(status) });
      this.httpSeries.set(key, series);
    }
    series.observe(seconds);
  }

  /** `family`'s values are read by `read` at each scrape (the owner of what it counts registers it). */
  onScrape<L extends string>(family: string, read: Reader<L>): void {
    if (!this.readers.has(family) && !this.registry.getSingleMetric(family)) {
      throw new Error(`No gauge ${family} to read`);
    }
    this.readers.set(family, read as Reader<string>);
  }

  /** The text Prometheus reads. */
  async scrape(): Promise<{ contentType: string; text: string }> {
    const merged = Registry.merge([processMetrics(), this.registry]);
    return { contentType: merged.contentType, text: await merged.metrics() };
  }

  private readGauge(name: string, help: string, labelNames: string[], read?: Reader<string>): void {
    if (read) this.readers.set(name, read);
    const readers = this.readers;
    const failures = this.collectFailures;
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        const reader = readers.get(name);
        this.reset();
        if (!reader) return;
        let reading: Reading<string> | undefined;
        try {
          const pending = Promise.resolve().then(reader);
          if (await settlesWithin(pending, COLLECT_TIMEOUT_MS)) reading = await pending;
          else pending.catch(() => undefined);
        } catch {
          reading = undefined;
        }
        if (!reading) {
          failures.inc({ family: name });
          return;
        }
        for (const [labels, value] of reading) this.set(labels, value);
      },
    });
  }
}

interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options?: { max?: number };
}

function poolOf(dataSource: DataSource | undefined): PgPool | undefined {
  if (!dataSource?.isInitialized) return undefined;
  return (dataSource.driver as unknown as { master?: PgPool }).master;
}

function poolReading(dataSource: DataSource | undefined): Reading<'state'> {
  const pool = poolOf(dataSource);
  if (!pool) return [];
  return [
    [{ state: 'total' }, pool.totalCount],
    [{ state: 'idle' }, pool.idleCount],
    [{ state: 'waiting' }, pool.waitingCount],
  ];
}
