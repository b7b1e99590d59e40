import 'reflect-metadata';
import type { IncomingMessage } from 'node:http';
import { type LoggerService, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { API } from '@termpaste/contracts';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppModule, type AppModuleOptions } from './app.module.js';
import { ErrorFilter } from './common/error.filter.js';
import { frontendsRouter } from './http/frontends.js';
import { SessionWsAdapter } from './infra/ws/session-ws.adapter.js';
import { noSniff } from './http/no-sniff.middleware.js';
import { isHttps, SESSION_MIDDLEWARE } from './modules/auth/session.middleware.js';
import { UsersService } from './modules/users/users.service.js';

/** Largest JSON request body; a bigger one gets a 413. */
export const JSON_BODY_LIMIT = '100kb';

/**
 * Which requests a body parser reads: those of its media type, except uploads to the local storage
 * (`/api/uploads/…`), whose bodies must stream to disk unread, whatever Content-Type they claim.
 */
const parsedUnlessUpload = (type: string) => (req: IncomingMessage) =>
  !(req.url ?? '').startsWith(`${API.uploads}/`) && Boolean((req as Request).is(type));

/** `/api/uploads/` as seen by middleware mounted at `/api`. */
const UPLOADS_UNDER_API = `${API.uploads.slice('/api'.length)}/`;

export interface CreateAppOptions extends AppModuleOptions {
  logger?: LoggerService | LogLevel[] | false;
}

/**
 * The whole HTTP application, wired as in production but not listening yet: main.ts and the tests both
 * build it here. Connects to the database and runs pending migrations.
 */
export async function createApp({
  logger,
  ...moduleOptions
}: CreateAppOptions): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(moduleOptions), {
    abortOnError: false,
    ...(logger === undefined ? {} : { logger }),
  });
  app.disable('x-powered-by');
  // Served over https means behind a TLS-terminating proxy: take the client address and scheme from it.
  if (isHttps(moduleOptions.config)) app.set('trust proxy', 1);
  app.use(noSniff);
  // ALLOWED_ORIGINS (the admin remote's own origin, say) may also call the API from their pages, with
  // the session cookie: CORS answers them, and only them. Same-origin pages need none of it.
  const { allowedOrigins } = moduleOptions.config;
  if (allowedOrigins.length > 0) {
    app.enableCors({ origin: allowedOrigins, credentials: true, maxAge: 600 });
  }
  app.use(frontendsRouter(moduleOptions.config));
  app.useBodyParser('json', { limit: JSON_BODY_LIMIT, type: parsedUnlessUpload('application/json') });
  // Registered here so Nest does not add its own (which would read upload bodies too).
  app.useBodyParser('urlencoded', {
    extended: true,
    type: parsedUnlessUpload('application/x-www-form-urlencoded'),
  });
  const session = app.get<RequestHandler>(SESSION_MIDDLEWARE);
  // Uploads need no session (their signature authorizes them), and stored files, cached publicly, must
  // never carry a (rolling) session cookie.
  app.use('/api', (req: Request, res: Response, next: NextFunction) =>
    req.path.startsWith(UPLOADS_UNDER_API) ? next() : session(req, res, next),
  );
  app.useGlobalFilters(new ErrorFilter());
  // WebSocket gateways (`/ws/chat`): upgrades only from our own site, for a signed-in member.
  app.useWebSocketAdapter(
    new SessionWsAdapter(app.getHttpServer(), {
      config: moduleOptions.config,
      sessionMiddleware: app.get<RequestHandler>(SESSION_MIDDLEWARE),
      users: app.get(UsersService),
    }),
  );
  await app.init();
  return app;
}
