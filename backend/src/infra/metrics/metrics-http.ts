import { createHash, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import { StartupError } from '../../common/startup-error.js';
import { urlHost } from '../../common/url-host.js';
import type { MetricsConfig } from '../../config/metrics.js';
import { type Metrics, UNMATCHED_ROUTE } from './metrics.js';

/** Where Prometheus scrapes: on the main port (with METRICS_TOKEN), or alone on METRICS_LISTEN. */
export const METRICS_PATH = '/metrics';

export const METRICS_MESSAGES = {
  unauthorized: 'Unauthorized: send Authorization: Bearer <METRICS_TOKEN>',
  notFound: 'Not Found',
} as const;

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** Whether the request carries `Bearer <token>`, compared in constant time (of equal-length digests). */
export function hasMetricsToken(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  contentType = 'text/plain; charset=utf-8',
): void {
  res.writeHead(status, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  res.end(text);
}

/**
 * Answers `GET /metrics` as configured: with `token`, only to `Authorization: Bearer <token>` (401 with
 * a plain message otherwise); without it, only where the caller says the address is private enough
 * (`open`: METRICS_LISTEN's own server).
 */
export async function answerMetrics(
  metrics: Metrics,
  req: IncomingMessage,
  res: ServerResponse,
  { token, open }: { token: string | undefined; open: boolean },
): Promise<void> {
  if (token === undefined && !open) return sendText(res, 404, METRICS_MESSAGES.notFound);
  if (token !== undefined && !hasMetricsToken(req.headers.authorization, token)) {
    res.setHeader('WWW-Authenticate', 'Bearer');
    return sendText(res, 401, METRICS_MESSAGES.unauthorized);
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return sendText(res, 405, 'Method Not Allowed');
  }
  try {
    const { contentType, text } = await metrics.scrape();
    sendText(res, 200, req.method === 'HEAD' ? '' : text, contentType);
  } catch {
    sendText(res, 500, 'Internal error while collecting the metrics');
  }
}

/**
 * The API's middleware for METRICS_PATH, mounted before everything else: it answers there itself (404
 * without METRICS_TOKEN or with METRICS_LISTEN), so a scrape never reaches the app shell, the page
 * cache, the rate limits or the request log.
 */
export function metricsEndpoint(metrics: Metrics, config: MetricsConfig) {
  const onMainPort = config.listen === undefined && config.token !== undefined;
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.path !== METRICS_PATH && req.path !== `${METRICS_PATH}/`) return next();
    if (!onMainPort) return sendText(res, 404, METRICS_MESSAGES.notFound);
    void answerMetrics(metrics, req, res, { token: config.token, open: false });
  };
}

/**
 * Times every request from here to its answer's last byte, labelled with the route's pattern as Express
 * matched it (`/api/threads/:id`), or UNMATCHED_ROUTE. Cost: two clock reads, a listener and one
 * histogram observation of a cached child per request.
 */
export function httpMetrics(metrics: Metrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    res.on('finish', () => {
      const route = (req.route as { path?: unknown } | undefined)?.path;
      metrics.observeRequest(
        typeof route === 'string' ? req.baseUrl + route : UNMATCHED_ROUTE,
        req.method,
        res.statusCode,
        (performance.now() - started) / 1000,
      );
    });
    next();
  };
}

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/** METRICS_LISTEN: a server of its own that answers METRICS_PATH only (with METRICS_TOKEN, to it only). */
export async function listenForMetrics(
  metrics: Metrics,
  config: MetricsConfig,
): Promise<MetricsServer | undefined> {
  const { listen, token } = config;
  if (!listen) return undefined;
  const server = http.createServer((req, res) => {
    if ((req.url ?? '').split('?')[0] !== METRICS_PATH) return sendText(res, 404, METRICS_MESSAGES.notFound);
    void answerMetrics(metrics, req, res, { token, open: true });
  });
  server.listen(listen.port, listen.host);
  try {
    await Promise.race([
      once(server, 'listening'),
      once(server, 'error').then(([error]) => Promise.reject(error as Error)),
    ]);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new StartupError(
      `METRICS_LISTEN ${listen.host}:${listen.port}: ${code === 'EADDRINUSE' ? 'the port is already in use' : String(error)}`,
      { cause: error },
    );
  }
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${urlHost(listen.host)}:${port}${METRICS_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
