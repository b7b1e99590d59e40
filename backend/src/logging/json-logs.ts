import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoggerService } from '@nestjs/common';
import type { RequestHandler } from 'express';
import { type DestinationStream, type Level, type Logger, pino } from 'pino';
import { pinoHttp } from 'pino-http';
import type { AppConfig } from '../config/config.js';
import { escapeControl, escapeFields } from './escape.js';
import { maskUrl, REDACTED, REDACTED_PATHS } from '../common/redact.js';
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
  /** Express's request: its `ip` is the client's, behind the proxy too (TRUST_PROXY). */
  raw?: { ip?: string };
}

/** The request as logged: method, masked URL, headers (secrets redacted by REDACTED_PATHS); no body, no query object. */
function serializeRequest(req: SerializedRequest): object {
  const headers = { ...req.headers };
  if (typeof headers.referer === 'string') headers.referer = maskUrl(headers.referer);
  return escapeFields({
    id: req.id,
    method: req.method,
    url: maskUrl(req.url),
    headers,
    remoteAddress: req.raw?.ip ?? req.remoteAddress,
  }) as object;
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

/** pino's error serializer (type, message, stack, own fields), escaped; its result is no plain object. */
function escapedError(error: unknown): unknown {
  const serialized: unknown = error instanceof Error ? pino.stdSerializers.err(error) : error;
  return typeof serialized === 'object' && serialized !== null ? escapeFields({ ...serialized }) : serialized;
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
      // Every message, field and error escaped (escape.ts): JSON already escapes C0 characters, not C1
      // ones, which a terminal showing the log still obeys.
      formatters: {
        level: (label) => ({ level: label }),
        log: (object) => escapeFields(object) as Record<string, unknown>,
      },
      hooks: {
        logMethod(args, method) {
          method.apply(
            this,
            args.map((arg) => (typeof arg === 'string' ? escapeControl(arg) : arg)) as Parameters<
              typeof method
            >,
          );
        },
      },
      serializers: { err: escapedError },
      redact: { paths: REDACTED_PATHS, censor: REDACTED },
    },
    destination,
  );
}

/** Where an error's stack trace, passed as Nest's second argument, is told from a context name. */
const STACK_LINE = /\n\s+at /;

/**
 * Nest's logger on pino: each line goes to the current request's logger (carrying its id), else the
 * root one. An object message is merged into the line, an Error logged as `err`.
 */
export class PinoNestLogger implements LoggerService {
  constructor(
    private readonly root: Logger,
    private readonly requests: AsyncLocalStorage<Logger>,
  ) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    const logger = this.requests.getStore() ?? this.root;
    const rest = [...params];
    const context = typeof rest.at(-1) === 'string' ? (rest.pop() as string) : undefined;
    let stack: string | undefined;
    if (level === 'error' && typeof rest[0] === 'string') stack = rest.shift() as string;
    else if (level === 'error' && context !== undefined && params.length === 1 && STACK_LINE.test(context)) {
      // error(message, stack) without a context.
      logger.error({ err: { stack: context } }, String(message));
      return;
    }
    const fields: Record<string, unknown> = context === undefined ? {} : { context };
    if (stack !== undefined) fields.err = { stack };
    if (message instanceof Error) {
      logger[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      const { msg, ...more } = message as Record<string, unknown>;
      logger[level]({ ...fields, ...more }, typeof msg === 'string' ? msg : undefined);
    } else {
      logger[level](fields, String(message));
    }
  }
}

/** Everything JSON logging needs, built once per app (bootstrap builds it before the app, to log start-up). */
export interface JsonLogs {
  root: Logger;
  /** Nest's logger: within a request, each line carries the request's id. */
  nest: LoggerService;
  /**
   * Mounted before any other middleware: a line per request once answered (with its id, method, masked URL,
   * status and time), and the logging context for everything that runs while handling it.
   */
  middleware: RequestHandler;
}

/**
 * JSON logs through pino and pino-http. The request middleware is mounted first, so that the frontends'
 * files and errors raised before Nest's pipeline are logged with a request id too; while a request is
 * handled, Nest's logger writes to that request's logger (AsyncLocalStorage).
 */
export function createJsonLogs(
  config: Pick<AppConfig, 'logLevel'>,
  destination?: DestinationStream,
): JsonLogs {
  const root = createRootLogger(config, destination);
  const requests = new AsyncLocalStorage<Logger>();
  const httpLogger = pinoHttp({
    logger: root,
    quietReqLogger: true,
    genReqId: (req) => requestIdFor(req.headers['x-request-id']),
    customLogLevel: requestLevel,
    serializers: { req: serializeRequest, res: serializeResponse },
  });
  return {
    root,
    nest: new PinoNestLogger(root, requests),
    middleware: (req, res, next) => {
      httpLogger(req, res);
      requests.run(req.log, () => next());
    },
  };
}
