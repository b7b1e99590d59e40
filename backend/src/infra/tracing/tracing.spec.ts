import {
  BatchSpanProcessor,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-node';
import { processorFor, startQueueContext } from '../../../test/support/queue-context.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { tracingSettings } from '../../config/tracing.js';
import { inSpan, outsideTraces, stopTracing, traceparent, useTracing } from './tracing.js';
import { startOpenTelemetry } from './otel.js';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

describe('tracing settings', () => {
  it('is off without an OTLP endpoint, or when the SDK is disabled', () => {
    expect(tracingSettings({}, 'termpaste-api')).toBeUndefined();
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
    expect(tracingSettings({ ...endpoint, OTEL_SDK_DISABLED: 'true' }, 'termpaste-api')).toBeUndefined();
    expect(tracingSettings({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' }, 'termpaste-api')).toBeUndefined();
  });

  it('names the service and picks the encoding from OTEL_* variables', () => {
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, 'termpaste-worker')).toEqual({
      serviceName: 'termpaste-worker',
      protocol: 'http/protobuf',
    });
    expect(
      tracingSettings(
        {
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces',
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
          OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
          OTEL_SERVICE_NAME: 'forum-eu',
        },
        'termpaste-api',
      ),
    ).toEqual({ serviceName: 'forum-eu', protocol: 'http/json' });
  });

  it('refuses gRPC and unknown exporters with the variable named', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317' };
    expect(() => tracingSettings({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'x')).toThrow(
      'OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json, not "grpc"',
    );
    expect(() => tracingSettings({ ...endpoint, OTEL_TRACES_EXPORTER: 'zipkin' }, 'x')).toThrow(
      'OTEL_TRACES_EXPORTER must be otlp or none, not "zipkin"',
    );
  });
});

describe('tracing off', () => {
  it('carries no trace and runs spans as plain calls', async () => {
    expect(traceparent()).toBeNull();
    await expect(inSpan('x', {}, async () => traceparent())).resolves.toBeNull();
    expect(outsideTraces(() => 42)).toBe(42);
  });
});

describe('tracing on (spans kept in memory)', () => {
  const exporter = new InMemorySpanExporter();

  beforeAll(async () => {
    useTracing(
      await startOpenTelemetry(
        { serviceName: 'termpaste-test', protocol: 'http/json' },
        { spanProcessor: new SimpleSpanProcessor(exporter) },
      ),
    );
  });
  afterAll(() => stopTracing());
  beforeEach(() => exporter.reset());

  /** The one finished span named `name` (spans are exported once the resource's detectors answered). */
  const span = async (name: string): Promise<ReadableSpan> => {
    const named = () => exporter.getFinishedSpans().filter((s) => s.name === name);
    await waitFor(`span ${name}`, () => named().length > 0);
    expect(named()).toHaveLength(1);
    return named()[0]!;
  };

  it('continues a trace from its traceparent, away from the context it was taken in', async () => {
    let carried: string | null = null;
    await inSpan('request', { kind: 'server' }, async () => {
      carried = traceparent();
    });
    const [, traceId, spanId] = TRACEPARENT.exec(carried ?? '') ?? [];
    expect(traceId).toBeDefined();
    await outsideTraces(() => inSpan('job', { kind: 'consumer', parent: carried }, async () => undefined));
    const job = await span('job');
    expect(job.spanContext().traceId).toBe(traceId);
    expect(job.parentSpanContext?.spanId).toBe(spanId);
    expect((await span('request')).spanContext().spanId).toBe(spanId);
  });

  it('starts a new trace for a null parent, and makes no span "within a trace" outside one', async () => {
    await inSpan('outer', {}, async () => {
      await inSpan('fresh', { parent: null }, async () => undefined);
    });
    expect((await span('fresh')).parentSpanContext).toBeUndefined();
    expect((await span('fresh')).spanContext().traceId).not.toBe((await span('outer')).spanContext().traceId);

    await outsideTraces(() => inSpan('orphan', { withinTrace: true }, async () => undefined));
    await inSpan('after', {}, async () => undefined);
    await span('after');
    expect(exporter.getFinishedSpans().map((s) => s.name)).not.toContain('orphan');
    await outsideTraces(() => expect(traceparent()).toBeNull());
  });

  it('cuts attribute values (a long SQL text) to 1024 characters', async () => {
    await inSpan('long', { attributes: { 'db.query.text': 'x'.repeat(5000) } }, async () => undefined);
    expect((await span('long')).attributes['db.query.text']).toBe('x'.repeat(1024));
  });

  it('marks a span failed when its function throws, and rethrows', async () => {
    await expect(
      inSpan('fails', {}, async () => {
        throw new Error('SMTP refused');
      }),
    ).rejects.toThrow('SMTP refused');
    expect((await span('fails')).status).toEqual({ code: 2, message: 'SMTP refused' });
  });

  it('runs an in-process job in a span of the trace that added it, and what it does under that', async () => {
    const ctx = await startQueueContext({ redisUrl: undefined, queues: ['chores'] }, [
      processorFor('chores', () => inSpan('mail send', { kind: 'client' }, async () => undefined)),
    ]);
    try {
      await inSpan('POST /api/things', { kind: 'server' }, () => ctx.queue.add('chores', 'sweep', {}));
      await waitFor('the job span', () => exporter.getFinishedSpans().some((s) => s.name === 'mail send'));
      const request = await span('POST /api/things');
      const job = await span('process chores/sweep');
      expect(job.spanContext().traceId).toBe(request.spanContext().traceId);
      expect(job.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
      expect(job.attributes).toMatchObject({
        'messaging.system': 'in-process',
        'messaging.destination.name': 'chores',
        'termpaste.job.name': 'sweep',
      });
      expect((await span('mail send')).parentSpanContext?.spanId).toBe(job.spanContext().spanId);
    } finally {
      await ctx.close();
    }
  });
});

describe('tracing stopped at shutdown', () => {
  it('sends the spans still buffered before it returns', async () => {
    const sent: string[] = [];
    const exporter: SpanExporter = {
      export: (spans, done) => {
        sent.push(...spans.map((span) => span.name));
        done({ code: 0 });
      },
      shutdown: async () => undefined,
    };
    // A batch a minute away: only the shutdown's flush sends it.
    const processor = new BatchSpanProcessor(exporter, { scheduledDelayMillis: 60_000 });
    useTracing(
      await startOpenTelemetry(
        { serviceName: 'termpaste-test', protocol: 'http/json' },
        { spanProcessor: processor },
      ),
    );
    await inSpan('last job', {}, async () => undefined);
    expect(sent).toEqual([]);
    await stopTracing();
    expect(sent).toEqual(['last job']);
    expect(traceparent()).toBeNull();
  });
});
