import http, { type IncomingMessage } from 'node:http';
import { WsAdapter } from '@nestjs/platform-ws';
import type { RequestHandler, Request, Response } from 'express';
import type { WebSocket, WebSocketServer } from 'ws';
import { originOf, trustedOrigins } from '../../common/origin.guard.js';
import type { AppConfig } from '../../config/config.js';
import type { UsersService } from '../../modules/users/users.service.js';

/** Close code sent to every socket when the server shuts down ("going away"). */
export const CLOSE_GOING_AWAY = 1001;
/** How long a shutting-down server waits for its sockets to answer the close frame before cutting them. */
const SHUTDOWN_GRACE_MS = 1000;

export interface SessionWsAdapterOptions {
  config: Pick<AppConfig, 'publicUrl' | 'allowedOrigins' | 'trustProxy'>;
  /** The express-session middleware (SESSION_MIDDLEWARE): run on the upgrade request to read the session. */
  sessionMiddleware: RequestHandler;
  users: Pick<UsersService, 'findById'>;
}

/** The member each accepted upgrade request was authenticated as (read by the gateway's handleConnection). */
const upgradeUsers = new WeakMap<IncomingMessage, number>();

/** The id of the member whose upgrade request this is; undefined when it was not authenticated here. */
export function upgradeUserId(req: IncomingMessage): number | undefined {
  return upgradeUsers.get(req);
}

type VerifyCallback = (verified: boolean, code?: number, message?: string) => void;

/** The first value of a header that may be repeated or comma-joined. */
function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.split(',')[0]?.trim() || undefined;
}

/**
 * The `ws` adapter with authentication on the upgrade: every WebSocket gateway of the app only accepts
 * a handshake from our own site (Origin: PUBLIC_URL's origin, one of ALLOWED_ORIGINS, or the origin the
 * request was addressed to; else 403) carrying the session cookie of a signed-in member who is not
 * banned (else 401). The member's id is then kept for the gateway (`upgradeUserId(req)`).
 *
 * Frames are not routed through Nest's `@SubscribeMessage` (the gateway reads its sockets itself), and
 * on shutdown every socket is closed with 1001 before the server goes.
 */
export class SessionWsAdapter extends WsAdapter {
  private readonly trusted: Set<string>;
  /** Behind a TLS-terminating proxy (PUBLIC_URL is https): the scheme comes from X-Forwarded-Proto. */
  private readonly behindProxy: boolean;

  constructor(
    httpServer: http.Server,
    private readonly options: SessionWsAdapterOptions,
  ) {
    // Nothing parses frames on Nest's side: `() => undefined` drops each without a trace.
    super(httpServer, { messageParser: () => undefined });
    this.trusted = trustedOrigins(options.config);
    this.behindProxy = options.config.trustProxy !== false;
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
    this.authenticate(req).then(
      (userId) => {
        if (userId === undefined) {
          done(false, 401, 'Unauthorized');
          return;
        }
        upgradeUsers.set(req, userId);
        done(true);
      },
      (error: unknown) => {
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
    if (origin === undefined) return false;
    return this.trusted.has(origin) || origin === this.hostOrigin(req);
  }

  /** The origin the upgrade was addressed to, from its Host header (behind the proxy: as forwarded). */
  private hostOrigin(req: IncomingMessage): string | undefined {
    const host = req.headers.host;
    if (!host) return undefined;
    const direct = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
    const protocol = this.behindProxy ? (firstValue(req.headers['x-forwarded-proto']) ?? direct) : direct;
    return originOf(`${protocol}://${host}`);
  }

  /** The signed-in, not banned member the session cookie names, or undefined. */
  private async authenticate(req: IncomingMessage): Promise<number | undefined> {
    const request = req as Request;
    await new Promise<void>((resolve, reject) => {
      // A response that is never sent: the middleware only reads the session here.
      const response = new http.ServerResponse(req) as unknown as Response;
      this.options.sessionMiddleware(request, response, (error?: unknown) =>
        error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(),
      );
    });
    const userId = request.session?.userId;
    if (userId === undefined) return undefined;
    const user = await this.options.users.findById(userId);
    return user && !user.isBanned ? user.id : undefined;
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
