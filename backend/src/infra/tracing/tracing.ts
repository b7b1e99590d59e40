import { tracingSettings } from '../../config/tracing.js';

/**
 * Traces with OpenTelemetry when OTEL_EXPORTER_OTLP_ENDPOINT is set. The SDK (otel.ts) is imported only
 * then; otherwise nothing of OpenTelemetry is loaded and each helper below is one check of a variable.
 * A trace crosses the outbox and the queue as a W3C traceparent on the row and the job.
 */

export type SpanKind = 'internal' | 'server' | 'client' | 'producer' | 'consumer';

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Readonly<Record<string, string | number | boolean | undefined>>;
  /**
   * What the span continues: a W3C traceparent (an outbox row's, a job's), or null for a new trace.
   * Unset: the active span (none: a new trace).
   */
  parent?: string | null;
  /** Only inside a trace: with no span to continue, `fn` runs without one. */
  withinTrace?: boolean;
}

/** What otel.ts provides once started. */
export interface Tracing {
  traceparent(): string | null;
  inSpan<T>(name: string, options: SpanOptions, fn: () => Promise<T>): Promise<T>;
  outsideTraces<T>(fn: () => T): T;
  /** Sends the spans still buffered, then stops. */
  shutdown(): Promise<void>;
}

let tracing: Tracing | undefined;

/**
 * Starts tracing for this process when the environment asks for it (config/tracing.ts). Call it before
 * the app's modules are imported: http, express and pg are instrumented as they load.
 */
export async function startTracing(defaultServiceName: string, env = process.env): Promise<boolean> {
  const settings = tracingSettings(env, defaultServiceName);
  if (!settings) return false;
  const { startOpenTelemetry } = await import('./otel.js');
  tracing = await startOpenTelemetry(settings);
  return true;
}

/** Flushes and stops tracing (at the end of a graceful shutdown); a no-op when it is off. */
export async function stopTracing(): Promise<void> {
  const stopping = tracing;
  tracing = undefined;
  await stopping?.shutdown();
}

/** Tests: puts `implementation` in place (undefined: tracing off). */
export function useTracing(implementation: Tracing | undefined): void {
  tracing = implementation;
}

/** The active span as a W3C traceparent, to carry across the outbox or the queue; null when off or none. */
export function traceparent(): string | null {
  return tracing ? tracing.traceparent() : null;
}

/** Runs `fn` in a span named `name` (ended when it settles, failed when it throws); just `fn` when off. */
export function inSpan<T>(name: string, options: SpanOptions, fn: () => Promise<T>): Promise<T> {
  return tracing ? tracing.inSpan(name, options, fn) : fn();
}

/**
 * Runs `fn` in no trace: background work started from a request (the outbox relay woken after a commit)
 * must not be counted in that request's trace.
 */
export function outsideTraces<T>(fn: () => T): T {
  return tracing ? tracing.outsideTraces(fn) : fn();
}
