import http, { type IncomingMessage } from 'node:http';
import { WsAdapter } from '@nestjs/platform-ws';
import { LIVE_SCOPE_PUBLIC } from '@termpaste/contracts';
import type { RequestHandler, Request, Response } from 'express';
import type { WebSocket, WebSocketServer } from 'ws';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../../common/database-unavailable.js';
import { originOf, type TrustedOrigins, trustedOrigins } from '../../common/origins.js';
import type { AppConfig } from '../../config/config.js';
import { signedInUser } from './session-user.js';
import type { UsersService } from '../users/users.service.js';

/** Close code sent to every socket when the server shuts down ("going away"). */
export const CLOSE_GOING_AWAY = 1001;
/** How long a shutting-down server waits for its sockets to answer the close frame before cutting them. */
const SHUTDOWN_GRACE_MS = 1000;

export interface SessionWsAdapterOptions {
  config: Pick<AppConfig, 'publicUrl' | 'publicUrlSet' | 'allowedOrigins' | 'liveVisitorSocketsPerAddress'>;
  /** The express-session middleware (SESSION_MIDDLEWARE): run on the upgrade request to read the session. */
  sessionMiddleware: RequestHandler;
  users: Pick<UsersService, 'findById'>;
  /** The client's address as Express reads it (TRUST_PROXY's proxies believed): the visitor cap's key. */
  clientAddress: (req: IncomingMessage) => string;
}

/**
 * Who an accepted upgrade request is: a member (with the session it carried), or a visitor (a
 * `?scope=public` socket: no session read, public events only) and from which client address.
 */
type UpgradeSession =
  { kind: 'user'; userId: number; sessionId: string } | { kind: 'visitor'; address: string };

/** Each accepted upgrade request's member and session (read by the gateway's handleConnection). */
const upgradeSessions = new WeakMap<IncomingMessage, UpgradeSession>();

/** The id of the member whose upgrade request this is; undefined for a visitor, or when not accepted here. */
export function upgradeUserId(req: IncomingMessage): number | undefined {
  const session = upgradeSessions.get(req);
  return session?.kind === 'user' ? session.userId : undefined;
}

/**
 * The id of the session the upgrade request was authenticated by (so that the sockets of one session
 * can be told from the member's others); undefined when it was not authenticated here.
 */
export function upgradeSessionId(req: IncomingMessage): string | undefined {
  const session = upgradeSessions.get(req);
  return session?.kind === 'user' ? session.sessionId : undefined;
}

/** The visitor's client address when this upgrade is a visitor's (`?scope=public`); else undefined. */
export function upgradeVisitorAddress(req: IncomingMessage): string | undefined {
  const session = upgradeSessions.get(req);
  return session?.kind === 'visitor' ? session.address : undefined;
}

/** The socket URL's `scope` parameter (`user`, `public`), if any. */
export function liveScope(url: string | undefined): string | null {
  const query = url?.split('?')[1];
  return query === undefined ? null : new URLSearchParams(query).get('scope');
}

type VerifyCallback = (
  verified: boolean,
  code?: number,
  message?: string,
  headers?: Record<string, string>,
) => void;

/** The first value of a header that may be repeated or comma-joined. */
function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.split(',')[0]?.trim() || undefined;
}

/**
 * The `ws` adapter, authenticating the upgrade: our own Origin (else 403) and a signed-in member not
 * banned (else 401), or with `?scope=public` a visitor within the per-address cap. Frames bypass
 * `@SubscribeMessage`; shutdown closes every socket with 1001. docs/backend.md.
 */
export class SessionWsAdapter extends WsAdapter {
  private readonly trusted: TrustedOrigins;

  constructor(
    httpServer: http.Server,
    private readonly options: SessionWsAdapterOptions,
  ) {
    // Nothing parses frames on Nest's side: `() => undefined` drops each without a trace.
    super(httpServer, { messageParser: () => undefined });
    this.trusted = trustedOrigins(options.config);
  }

  override create(port: number, options: Record<string, unknown> = {}): WebSocketServer {
    return super.create(port, {
      ...options,
      verifyClient: (info: { req: IncomingMessage }, done: VerifyCallback) => this.verify(info.req, done),
    }) as WebSocketServer;
  }

  /**
   * Peer errors (a frame over maxPayload, a bad opcode, invalid UTF-8) close that one socket; they are
   * the client's doing, so they are not worth an error in the log.
   */
  override bindErrorHandler(server: WebSocketServer): WebSocketServer {
    server.on('connection', (socket: WebSocket) =>
      socket.on('error', (error: Error) => this.logger.debug(`WebSocket client error: ${error.message}`)),
    );
    server.on('error', (error: Error) => this.logger.error(error));
    return server;
  }

  /** Closes every socket cleanly (1001), cutting those that do not answer in time, then the server. */
  override async close(server: WebSocketServer): Promise<void> {
    await Promise.all([...server.clients].map((socket) => closeGracefully(socket, SHUTDOWN_GRACE_MS)));
    await super.close(server);
  }

  private verify(req: IncomingMessage, done: VerifyCallback): void {
    if (!this.isOwnOrigin(req)) {
      done(false, 403, 'Forbidden');
      return;
    }
    if (liveScope(req.url) === LIVE_SCOPE_PUBLIC) {
      if (this.options.config.liveVisitorSocketsPerAddress === 0) {
        done(false, 401, 'Unauthorized');
        return;
      }
      upgradeSessions.set(req, { kind: 'visitor', address: this.options.clientAddress(req) });
      done(true);
      return;
    }
    this.authenticate(req).then(
      (session) => {
        if (session === undefined) {
          done(false, 401, 'Unauthorized');
          return;
        }
        upgradeSessions.set(req, session);
        done(true);
      },
      (error: unknown) => {
        if (isDatabaseUnavailable(error)) {
          // The client reconnects with its backoff; the database is restarting or away.
          done(false, 503, 'Service Unavailable', { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) });
          return;
        }
        this.logger.error(
          'WebSocket authentication failed',
          error instanceof Error ? error.stack : String(error),
        );
        done(false, 500, 'Internal Server Error');
      },
    );
  }

  /** As the CSRF check of the HTTP routes, but a missing Origin is refused (browsers always send one). */
  private isOwnOrigin(req: IncomingMessage): boolean {
    const origin = originOf(firstValue(req.headers.origin));
    return origin !== undefined && this.trusted.has(origin);
  }

  /** The signed-in, not banned member the session cookie names, with that session's id; or undefined. */
  private async authenticate(req: IncomingMessage): Promise<UpgradeSession | undefined> {
    const request = req as Request;
    await new Promise<void>((resolve, reject) => {
      // A response that is never sent: the middleware only reads the session here.
      const response = new http.ServerResponse(req) as unknown as Response;
      this.options.sessionMiddleware(request, response, (error?: unknown) =>
        error
          ? reject(error instanceof Error ? error : new Error(String(error), { cause: error }))
          : resolve(),
      );
    });
    const user = await signedInUser(request, this.options.users);
    return user && !user.isBanned
      ? { kind: 'user', userId: user.id, sessionId: request.sessionID }
      : undefined;
  }
}

function closeGracefully(socket: WebSocket, graceMs: number): Promise<void> {
  if (socket.readyState === socket.CLOSED) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      socket.terminate();
      resolve();
    }, graceMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      socket.close(CLOSE_GOING_AWAY, 'Server shutting down');
    } catch {
      socket.terminate();
    }
  });
}
