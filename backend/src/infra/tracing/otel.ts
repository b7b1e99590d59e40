import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import {
  type Attributes,
  type Context,
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  diag,
  type DiagLogger,
  DiagLogLevel,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import {
  detectResources,
  envDetector,
  hostDetector,
  processDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION, ATTR_URL_QUERY } from '@opentelemetry/semantic-conventions';
import { Logger } from '@nestjs/common';
import { settlesWithin } from '../../common/settles-within.js';
import type { OtlpProtocol, TracingSettings } from '../../config/tracing.js';
import type { SpanOptions, Tracing } from './tracing.js';

/** Loaded by tracing.ts only when tracing is on: importing this file loads the SDK. */

const KINDS = {
  internal: SpanKind.INTERNAL,
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
} as const;

/** Probes and scrapes: a span each would drown the traces that matter. */
const UNTRACED_PATHS = new Set(['/api/health', '/api/ready', '/health', '/metrics', '/api/metrics']);

/**
 * Attribute values are cut to this many characters unless OTEL_(SPAN_)ATTRIBUTE_VALUE_LENGTH_LIMIT says
 * otherwise: a statement's text runs to kilobytes, and exporting it whole for every query halved a page's
 * throughput under load here; its first KiB names it (so does the span, by the prepared statement's name).
 */
const ATTRIBUTE_LENGTH_DEFAULT = 1024;

/** How long a shutdown waits for the last spans to reach the collector. */
const FLUSH_WAIT_MS = 5000;

const LOG_LEVELS: Record<string, DiagLogLevel> = {
  none: DiagLogLevel.NONE,
  error: DiagLogLevel.ERROR,
  warn: DiagLogLevel.WARN,
  info: DiagLogLevel.INFO,
  debug: DiagLogLevel.DEBUG,
  verbose: DiagLogLevel.VERBOSE,
  all: DiagLogLevel.ALL,
};

function untraced(request: IncomingMessage): boolean {
  const url = request.url ?? '';
  const query = url.indexOf('?');
  return UNTRACED_PATHS.has(query < 0 ? url : url.slice(0, query));
}

/**
 * Query strings carry paste keys, link tokens, signatures and search terms: a server span keeps their
 * names only (`key=REDACTED`).
 */
function redactedQuery(request: IncomingMessage): Attributes {
  const url = request.url ?? '';
  const at = url.indexOf('?');
  if (at < 0) return {};
  const names = [...new Set(new URLSearchParams(url.slice(at + 1)).keys())];
  return { [ATTR_URL_QUERY]: names.map((name) => `${encodeURIComponent(name)}=REDACTED`).join('&') };
}

/** Outgoing calls (S3, Akismet, sign-in providers): these parameters' values are not recorded. */
const SECRET_QUERY_PARAMETERS = [
  'X-Amz-Signature',
  'X-Amz-Credential',
  'X-Amz-Security-Token',
  'AWSAccessKeyId',
  'Signature',
  'sig',
  'signature',
  'code',
  'state',
  'token',
  'access_token',
  'client_secret',
  'key',
];

/** A failed export reaches the log as its error serialised to JSON, stack and all: its message is enough. */
function readable(message: string): string {
  if (!message.startsWith('{')) return message;
  try {
    const error = JSON.parse(message) as { message?: unknown };
    return typeof error.message === 'string' ? `Spans not exported: ${error.message}` : message;
  } catch {
    return message;
  }
}

/** The SDK's own complaints (an unreachable collector, say) in our log, each once until another comes. */
function diagLogger(): DiagLogger {
  const logger = new Logger('Tracing');
  let last: string | undefined;
  const once =
    (log: (message: string) => void) =>
    (message: string, ...args: unknown[]): void => {
      const line = [
        readable(message),
        ...args.map((arg) => (arg instanceof Error ? arg.message : String(arg))),
      ].join(' ');
      if (line === last) return;
      last = line;
      log(line);
    };
  return {
    error: once((line) => logger.error(line)),
    warn: once((line) => logger.warn(line)),
    info: once((line) => logger.log(line)),
    debug: once((line) => logger.debug(line)),
    verbose: once((line) => logger.verbose(line)),
  };
}

async function otlpExporter(protocol: OtlpProtocol): Promise<SpanExporter> {
  // Both read OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT, _HEADERS, _TIMEOUT and _COMPRESSION themselves.
  if (protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter();
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter();
}

function backendVersion(): string | undefined {
  try {
    // dist/infra/tracing/ or src/infra/tracing/: the package's file is three folders up.
    return (createRequire(import.meta.url)('../../../package.json') as { version?: string }).version;
  } catch {
    return undefined;
  }
}

export interface OpenTelemetryOptions {
  /** Tests: where spans go instead of the OTLP exporter (a SimpleSpanProcessor over an in-memory one). */
  spanProcessor?: SpanProcessor;
}

/**
 * Registers the tracer provider (W3C trace context, AsyncLocalStorage), exports in batches over OTLP/HTTP,
 * and instruments http (server spans, named by their express route), and pg (a span per query, only
 * inside a trace: the relay's polls and other background queries make none).
 */
export async function startOpenTelemetry(
  settings: TracingSettings,
  options: OpenTelemetryOptions = {},
): Promise<Tracing> {
  const level = LOG_LEVELS[(process.env.OTEL_LOG_LEVEL ?? '').trim().toLowerCase()] ?? DiagLogLevel.WARN;
  diag.setLogger(diagLogger(), { logLevel: level, suppressOverrideMessage: true });

  // Ours, then what the environment says (OTEL_RESOURCE_ATTRIBUTES, OTEL_SERVICE_NAME), host and process.
  const version = backendVersion();
  const resource = resourceFromAttributes({
    [ATTR_SERVICE_NAME]: settings.serviceName,
    ...(version === undefined ? {} : { [ATTR_SERVICE_VERSION]: version }),
  }).merge(detectResources({ detectors: [hostDetector, processDetector, envDetector] }));

  const spanProcessor =
    options.spanProcessor ?? new BatchSpanProcessor(await otlpExporter(settings.protocol));
  const lengthSet = ['OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT', 'OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT'].some(
    (name) => process.env[name]?.trim(),
  );
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [spanProcessor],
    // Given here, it would override the variables: only when they are unset.
    ...(lengthSet ? {} : { spanLimits: { attributeValueLengthLimit: ATTRIBUTE_LENGTH_DEFAULT } }),
  });
  provider.register();
  const unregister = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: untraced,
        startIncomingSpanHook: redactedQuery,
        redactedQueryParams: SECRET_QUERY_PARAMETERS,
        // An outgoing call outside any trace (a background poll) is not worth a trace of its own.
        requireParentforOutgoingSpans: true,
      }),
      // Only to name server spans by their route (`POST /api/threads/:id/replies`): no span per layer.
      new ExpressInstrumentation({
        ignoreLayersType: [
          ExpressLayerType.MIDDLEWARE,
          ExpressLayerType.REQUEST_HANDLER,
          ExpressLayerType.ROUTER,
        ],
      }),
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });

  const tracer = provider.getTracer('termpaste', version);
  const propagator = new W3CTraceContextPropagator();

  const parentOf = (parent: string | null | undefined): Context => {
    if (parent === undefined) return context.active();
    if (parent === null) return ROOT_CONTEXT;
    return propagator.extract(ROOT_CONTEXT, { traceparent: parent }, defaultTextMapGetter);
  };

  return {
    traceparent() {
      const carrier: Record<string, string> = {};
      propagator.inject(context.active(), carrier, defaultTextMapSetter);
      return carrier.traceparent ?? null;
    },

    inSpan<T>(name: string, spec: SpanOptions, fn: () => Promise<T>): Promise<T> {
      const parent = parentOf(spec.parent);
      if (spec.withinTrace && trace.getSpan(parent) === undefined) return fn();
      const attributes = Object.fromEntries(
        Object.entries(spec.attributes ?? {}).filter(([, value]) => value !== undefined),
      ) as Record<string, string | number | boolean>;
      return tracer.startActiveSpan(
        name,
        { kind: KINDS[spec.kind ?? 'internal'], attributes },
        parent,
        async (span) => {
          try {
            return await fn();
          } catch (error) {
            span.recordException(error instanceof Error ? error : String(error));
            span.setStatus({
              code: SpanStatusCode.ERROR,
              message: error instanceof Error ? error.message : String(error),
            });
            throw error;
          } finally {
            span.end();
          }
        },
      );
    },

    outsideTraces<T>(fn: () => T): T {
      return context.with(ROOT_CONTEXT, fn);
    },

    async shutdown() {
      unregister();
      const done = await settlesWithin(provider.shutdown(), FLUSH_WAIT_MS).catch(() => true);
      if (!done)
        new Logger('Tracing').warn(`Spans not sent within ${FLUSH_WAIT_MS} ms of the shutdown: dropped`);
      trace.disable();
      context.disable();
      diag.disable();
    },
  };
}
