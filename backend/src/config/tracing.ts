import { ConfigError } from './config-error.js';

/** The OTLP encodings we export in (OTEL_EXPORTER_OTLP_PROTOCOL); gRPC is not bundled. */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/** Tracing as the environment asks for it, read before anything else loads (see infra/tracing). */
export interface TracingSettings {
  /** OTEL_SERVICE_NAME, else the process's own name (`termpaste-api`, `termpaste-worker`). */
  serviceName: string;
  /** OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, else OTEL_EXPORTER_OTLP_PROTOCOL, else http/protobuf. */
  protocol: OtlpProtocol;
}

type Env = Readonly<Record<string, string | undefined>>;

const set = (value: string | undefined): string | undefined => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
};

/**
 * Undefined (no tracing) unless an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT, or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none turn it off
 * again, as the SDK's own variables do. The rest of OTEL_* is read by the SDK itself.
 */
export function tracingSettings(env: Env, defaultServiceName: string): TracingSettings | undefined {
  const endpoint = set(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) ?? set(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (endpoint === undefined) return undefined;
  if (set(env.OTEL_SDK_DISABLED)?.toLowerCase() === 'true') return undefined;
  const exporter = set(env.OTEL_TRACES_EXPORTER)?.toLowerCase();
  if (exporter === 'none') return undefined;
  if (exporter !== undefined && exporter !== 'otlp') {
    throw new ConfigError(
      `Invalid configuration: OTEL_TRACES_EXPORTER must be otlp or none, not "${exporter}"`,
    );
  }
  const protocolVariable =
    set(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) !== undefined
      ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
      : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = set(env[protocolVariable]) ?? 'http/protobuf';
  if (!(OTLP_PROTOCOLS as readonly string[]).includes(protocol)) {
    throw new ConfigError(
      `Invalid configuration: ${protocolVariable} must be ${OTLP_PROTOCOLS.join(' or ')}, not "${protocol}" ` +
        '(traces go to the OTLP/HTTP port, 4318 by default; gRPC is not supported)',
    );
  }
  return {
    serviceName: set(env.OTEL_SERVICE_NAME) ?? defaultServiceName,
    protocol: protocol as OtlpProtocol,
  };
}
