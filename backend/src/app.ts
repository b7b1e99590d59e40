import 'reflect-metadata';
import type { Server } from 'node:http';
import { type LoggerService, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import { API } from '@termpaste/contracts';
import express, {
  type Application,
  type Express,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import proxyaddr from 'proxy-addr';
import { AppModule, type AppModuleOptions } from './app.module.js';
import { isBearerRequest } from './modules/auth/guards/bearer.js';
import { hasCookie } from './common/cookies.js';
import { ErrorFilter } from './common/error.filter.js';
import { apiDocs } from './http/api-docs.js';
import { noSharedCookies } from './http/edge-cache.js';
import { httpMetrics, metricsEndpoint } from './infra/metrics/metrics-http.js';
import { Metrics } from './infra/metrics/metrics.js';
import { useBodyParsers } from './http/body-parsing.js';
import { frontends } from './http/frontends.js';
import { FreshClients } from './http/fresh-reads.js';
import { FRESH_COOKIE, freshAfterWrites } from './http/page-cache.js';
import { queueDashboard } from './http/queue-dashboard.js';
import { noSniff } from './http/no-sniff.middleware.js';
import { securityHeaders } from './http/security-headers.js';
import { createJsonLogs, type JsonLogs } from './logging/json-logs.js';
import { PrettyLogger } from './logging/pretty-logs.js';
import { requestId } from './logging/request-id.js';
import {
  SESSION_COOKIE,
  SESSION_MIDDLEWARE,
  SESSION_READS_MIDDLEWARE,
} from './modules/auth/session.middleware.js';
import { SessionWsAdapter } from './modules/auth/session-ws.adapter.js';
import { UsersService } from './modules/users/users.service.js';

/** How long an idle keep-alive connection stays open: longer than a proxy in front keeps its own. */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** `/api/uploads` as seen by middleware mounted at `/api`. */
const UPLOADS_UNDER_API = API.uploads.slice('/api'.length);

/** Whether a path is under `/api/uploads` (upload forms, presigned PUTs, the local storage's files). */
const isUploadsPath = (path: string) =>
  path === UPLOADS_UNDER_API || path.startsWith(`${UPLOADS_UNDER_API}/`);

/** `/api/auth/sso/` as seen by middleware mounted at `/api`: a provider sign-in's start and callback. */
const SSO_UNDER_API = API.ssoStart('').slice('/api'.length);

/**
 * A request that may carry a session: it has our session cookie, or it may start one (not a read, or a
 * provider sign-in's start, which keeps its attempt in a new session).
 */
function mayHaveSession(req: Request): boolean {
  return !isRead(req) || hasCookie(req, SESSION_COOKIE) || req.path.startsWith(SSO_UNDER_API);
}

function isRead(req: Request): boolean {
  return req.method === 'GET' || req.method === 'HEAD';
}

/**
 * An Express app whose router is case-sensitive (`/api/Admin` is a 404, never `/api/admin`'s twin). Set
 * before anything touches `app.router`: Express makes the router with the settings of that moment.
 */
export function caseSensitiveExpress(): Application {
  const instance = express();
  instance.set('case sensitive routing', true);
  return instance;
}

/**
 * What every `/api` request goes through before its route, as one middleware (each mounted one costs every
 * request a router step): its session, and the read-your-writes marks.
 */
function apiRequests(
  { session, sessionReads }: { session: RequestHandler; sessionReads: RequestHandler },
  freshClients: RequestHandler,
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    // Uploads need no session (their signature authorizes them), and stored files, cached publicly, must
    // never carry a (rolling) session cookie.
    // A visitor's read skips the session altogether (no store lookup, no cookie): it has none to load.
    // A request with a personal access token is judged by the token alone: it reads and sets no cookie.
    const bearer = isBearerRequest(req);
    const withSession = !bearer && !isUploadsPath(req.path) && mayHaveSession(req);
    // Nor has it a write to mark: a visitor's read goes straight on.
    if (!withSession && !bearer && isRead(req)) return next();
    const marks = (error?: unknown): void => {
      if (error) return next(error);
      // Reads that follow a write skip the page cache for a moment (read-your-writes across instances);
      // an access token's client, which keeps no cookie, is marked on every instance instead.
      freshAfterWrites(req, res, () => void freshClients(req, res, next));
    };
    if (!withSession) return marks();
    // A read may take its session as read a moment ago, unless its member just wrote (their change shows).
    const reads = isRead(req) && !hasCookie(req, FRESH_COOKIE) && req.headers.upgrade === undefined;
    void (reads ? sessionReads : session)(req, res, marks);
  };
}

export interface CreateAppOptions extends AppModuleOptions {
  /** Nest's logger instead of the configured one (tests pass one that keeps the lines). */
  logger?: LoggerService | LogLevel[] | false;
  /**
   * JSON logs already built (bootstrap builds them to log start-up; tests, to read the lines). Unset:
   * built here when LOG_FORMAT is json and no `logger` is given.
   */
  jsonLogs?: JsonLogs;
}

/**
 * The whole HTTP application, wired as in production but not listening yet: main.ts and the tests both
 * build it here. Connects to the database and runs pending migrations.
 */
export async function createApp({
  logger,
  jsonLogs,
  ...moduleOptions
}: CreateAppOptions): Promise<NestExpressApplication> {
  const { config } = moduleOptions;
  const json =
    jsonLogs ?? (logger === undefined && config.logFormat === 'json' ? createJsonLogs(config) : undefined);
  const imports = moduleOptions.imports ?? [];
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.register({ ...moduleOptions, imports }),
    new ExpressAdapter(caseSensitiveExpress()),
    {
      abortOnError: false,
      ...(json ? { logger: json.nest } : { logger: logger ?? new PrettyLogger() }),
    },
  );
  app.disable('x-powered-by');
  // Before everything: a scrape is answered here (or refused), outside the logs, limits and app shell;
  // every other request is timed from here on.
  const metrics = app.get(Metrics);
  app.use(metricsEndpoint(metrics, config.metrics));
  app.use(httpMetrics(metrics));
  // First, so that every response (files and errors too) carries its id, and every log line written for it.
  app.use(requestId);
  if (json) app.use(json.middleware);
  // TRUST_PROXY (by default one proxy when served over https): the client's address and scheme are
  // taken from the proxies it names, for rate limits, logs and secure cookies.
  const { trustProxy } = moduleOptions.config;
  if (trustProxy !== false) app.set('trust proxy', trustProxy);
  app.use(noSniff);
  app.use(securityHeaders(config));
  // An answer that sets a cookie is never shared by a cache in front.
  noSharedCookies(app.getHttpAdapter().getInstance() as Express);
  // ALLOWED_ORIGINS (the admin remote's own origin, say) may also call the API from their pages, with
  // the session cookie: CORS answers them, and only them. Same-origin pages need none of it.
  const { allowedOrigins } = moduleOptions.config;
  if (allowedOrigins.length > 0) {
    app.enableCors({ origin: allowedOrigins, credentials: true, maxAge: 600 });
  }
  app.use(frontends(moduleOptions.config));
  app.use(apiDocs(config));
  // JSON and forms, save the routes that read their own body (OWN_BODY_ROUTES).
  useBodyParsers(app);
  const sessions = {
    session: app.get<RequestHandler>(SESSION_MIDDLEWARE),
    sessionReads: app.get<RequestHandler>(SESSION_READS_MIDDLEWARE),
  };
  app.use('/api', apiRequests(sessions, app.get(FreshClients).middleware));
  // The operators' queue dashboard (bull-board): plain Express, it checks the admin and the origin itself.
  app.use(API.adminQueues, await queueDashboard(app));
  app.useGlobalFilters(new ErrorFilter());
  // Idle keep-alive connections outlive a proxy's (nginx keeps its upstream ones 60 s): else the proxy can
  // send a request on a connection Node is closing (5 s by default) and answer 502 for a POST.
  const server = app.getHttpServer() as Server;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  // WebSocket gateways (`/ws/chat`): upgrades only from our own site, for a signed-in member.
  app.useWebSocketAdapter(
    new SessionWsAdapter(app.getHttpServer(), {
      config: moduleOptions.config,
      sessionMiddleware: app.get<RequestHandler>(SESSION_MIDDLEWARE),
      users: app.get(UsersService),
      // As Express reads `req.ip`: the proxies of TRUST_PROXY believed, none by default.
      clientAddress: (req) =>
        proxyaddr(req, (app.getHttpAdapter().getInstance() as Application).get('trust proxy fn')),
    }),
  );
  await app.init();
  return app;
}
