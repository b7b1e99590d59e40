import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DynamicModule, LoggerService } from '@nestjs/common';
import type { RequestHandler } from 'express';
import { Logger as PinoNestLogger, LoggerModule, type Params, PinoLogger } from 'nestjs-pino';
import { type DestinationStream, type Logger, pino } from 'pino';
import { pinoHttp } from 'pino-http';
import type { AppConfig } from '../config/config.js';
import { maskUrl, REDACTED, REDACTED_PATHS } from './redact.js';
import { requestIdFor } from './request-id.js';

/** Response headers every response carries (security headers): not worth a log line's bytes. */
const UNLOGGED_RESPONSE_HEADERS = new Set([
  'content-security-policy',
  'strict-transport-security',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
  'x-request-id',
]);

interface SerializedRequest {
  id: unknown;
  method: string;
  url: string;
  headers: Record<string, unknown>;
  remoteAddress?: string;
  /** Express's request: its `ip` is the client's, behind the proxy too (`trust proxy` on https). */
  raw?: { ip?: string };
}

/** The request as logged: method, masked URL, headers (secrets redacted by REDACTED_PATHS); no body, no query object. */
function serializeRequest(req: SerializedRequest): object {
  const headers = { ...req.headers };
  if (typeof headers.referer === 'string') headers.referer = maskUrl(headers.referer);
  return {
    id: req.id,
    method: req.method,
    url: maskUrl(req.url),
    headers,
    remoteAddress: req.raw?.ip ?? req.remoteAddress,
  };
}

function serializeResponse(res: { statusCode: number; headers: Record<string, unknown> }): object {
  const headers = Object.fromEntries(
    Object.entries(res.headers ?? {}).filter(([name]) => !UNLOGGED_RESPONSE_HEADERS.has(name.toLowerCase())),
  );
  return { statusCode: res.statusCode, headers };
}

/** Health checks poll often: logged at debug unless they fail. */
const PROBES = /^\/api\/(health|ready)(\?|$)/;

function requestLevel(req: IncomingMessage, res: ServerResponse, error?: Error): 'error' | 'info' | 'debug' {
  if (error || res.statusCode >= 500) return 'error';
  return PROBES.test(req.url ?? '') ? 'debug' : 'info';
}

/** The root pino logger: JSON lines at LOG_LEVEL, ISO timestamps, level names, secrets redacted. */
export function createRootLogger(
  config: Pick<AppConfig, 'logLevel'>,
  destination: DestinationStream = pino.destination({ fd: 1, sync: true }),
): Logger {
  return pino(
    {
      level: config.logLevel,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: REDACTED },
    },
    destination,
  );
}

/** Everything JSON logging needs, built once per app (bootstrap builds it before the app, to log start-up). */
export interface JsonLogs {
  root: Logger;
  /** Nest's logger (nestjs-pino): within a request, each line carries the request's id. */
  nest: LoggerService;
  /** nestjs-pino's module: binds the request's logger for all Nest runs (guards, controllers, filters). */
  module: DynamicModule;
  /**
   * Mounted before any other middleware: a line per request once answered (with its id, method, masked URL,
   * status and time), and the logging context for everything that runs while handling it.
   */
  middleware: RequestHandler;
}

/**
 * JSON logs through nestjs-pino and pino-http. The request middleware is ours, mounted first, so that the
 * frontends' files and errors raised before Nest's pipeline are logged with a request id too; nestjs-pino
 * then uses the request's logger (`useExisting`).
 *
 * nestjs-pino keeps one root logger per process (the first one built): a second app in the same process
 * (tests) logs its lines outside requests to the first one's destination.
 */
export function createJsonLogs(
  config: Pick<AppConfig, 'logLevel'>,
  destination?: DestinationStream,
): JsonLogs {
  const root = createRootLogger(config, destination);
  const params: Params = { pinoHttp: { logger: root }, useExisting: true };
  const context = new PinoLogger(params);
  const httpLogger = pinoHttp({
    logger: root,
    quietReqLogger: true,
    genReqId: (req) => requestIdFor(req.headers['x-request-id']),
    customLogLevel: requestLevel,
    serializers: { req: serializeRequest, res: serializeResponse },
  });
  return {
    root,
    nest: new PinoNestLogger(context, params),
    module: LoggerModule.forRoot(params),
    middleware: (req, res, next) => {
      httpLogger(req, res);
      context.runInContext(() => next(), { bindings: { reqId: req.id } });
    },
  };
}
