import type { IncomingMessage } from 'node:http';
import { Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { type OnGatewayConnection, WebSocketGateway } from '@nestjs/websockets';
import { LIVE_EVENT, LIVE_MAX_CLIENT_FRAME_BYTES, LIVE_SCOPE_USER, WS } from '@termpaste/contracts';
import type { RawData, WebSocket } from 'ws';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { EventsPort, type LiveEnvelope } from '../../infra/events/events.port.js';
import { upgradeSessionId, upgradeUserId } from '../../infra/ws/session-ws.adapter.js';

/** Close code for a socket that reached the gateway without an authenticated member (policy violation). */
const CLOSE_POLICY_VIOLATION = 1008;
/**
 * Close code (and reason) for the sockets of a member signed out elsewhere: banned or deleted by staff,
 * their password reset, or changed in another session.
 */
export const CLOSE_SIGNED_OUT = 4001;
export const CLOSE_SIGNED_OUT_REASON = 'Signed out';
/** A socket that has this much unsent data is too slow to keep up: it is cut (the client reconnects). */
const MAX_BUFFERED_BYTES = 1024 * 1024;
const PONG_FRAME = JSON.stringify({ type: LIVE_EVENT.pong });
/**
 * Live sockets one member may hold on one instance (a few tabs, each with its own and maybe a chat
 * one); a further one is closed at once (1008), so nobody can pile up sockets.
 */
export const MAX_SOCKETS_PER_MEMBER = 16;

interface LiveSocket {
  userId: number;
  /** The session whose cookie opened it. */
  sessionId: string | undefined;
  /** `?scope=user`: the member's own events only, no chat. */
  userScopeOnly: boolean;
  /** Answered (pong) since the last heartbeat ping. */
  alive: boolean;
}

/** Whether the socket URL asks for `?scope=user`. */
function wantsUserScopeOnly(url: string | undefined): boolean {
  const query = url?.split('?')[1];
  return query !== undefined && new URLSearchParams(query).get('scope') === LIVE_SCOPE_USER;
}

/** A client frame is read only to answer `{"type":"ping"}`; anything else is ignored. */
function isPing(data: RawData, isBinary: boolean): boolean {
  if (isBinary || !Buffer.isBuffer(data)) return false;
  try {
    const value: unknown = JSON.parse(data.toString('utf8'));
    return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'ping';
  } catch {
    return false;
  }
}

/**
 * The live socket, `/ws/chat` (SPEC §7): every live event of the events port — so of every instance —
 * goes to the sockets it is for. Chat events (`to: 'all'`) go to every socket but those opened with
 * `?scope=user`; a member's own events (`to: 'user'`) to each of that member's sockets. Upgrades are
 * authenticated by SessionWsAdapter (own Origin, signed-in member not banned).
 *
 * A `signed_out` event for a member (banned or deleted by staff, password reset or changed) is sent to
 * each of their sockets, which are then closed (4001 `Signed out`); one with `exceptSession` spares the
 * sockets of that session (the one that changed the password).
 *
 * Clients may send `{"type":"ping"}` (answered `{"type":"pong"}`); other frames are ignored, and one
 * over LIVE_MAX_CLIENT_FRAME_BYTES closes that socket (1009). A heartbeat pings every socket and cuts
 * one that did not answer the previous ping.
 */
@WebSocketGateway({ path: WS.chat, maxPayload: LIVE_MAX_CLIENT_FRAME_BYTES })
export class LiveGateway implements OnGatewayConnection<WebSocket>, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Live');
  private readonly sockets = new Map<WebSocket, LiveSocket>();
  private readonly byUser = new Map<number, Set<WebSocket>>();
  private unsubscribe: (() => void) | undefined;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly events: EventsPort,
    @InjectConfig() private readonly config: Pick<AppConfig, 'liveHeartbeatMs'>,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.events.subscribe((envelope) => this.deliver(envelope));
    this.heartbeat = setInterval(() => this.beat(), this.config.liveHeartbeatMs);
    this.heartbeat.unref();
  }

  /** Before the adapter closes the sockets (1001): no more events or pings. */
  onModuleDestroy(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearInterval(this.heartbeat);
  }

  /** How many sockets are open (for tests and diagnostics). */
  get connectionCount(): number {
    return this.sockets.size;
  }

  handleConnection(socket: WebSocket, req: IncomingMessage): void {
    const userId = upgradeUserId(req);
    if (userId === undefined) {
      // Cannot happen behind SessionWsAdapter; refuse rather than serve an unknown client.
      socket.close(CLOSE_POLICY_VIOLATION, 'Unauthorized');
      return;
    }
    let mine = this.byUser.get(userId);
    if (mine && mine.size >= MAX_SOCKETS_PER_MEMBER) {
      socket.close(CLOSE_POLICY_VIOLATION, 'Too many live connections');
      return;
    }
    const state: LiveSocket = {
      userId,
      sessionId: upgradeSessionId(req),
      userScopeOnly: wantsUserScopeOnly(req.url),
      alive: true,
    };
    this.sockets.set(socket, state);
    if (!mine) this.byUser.set(userId, (mine = new Set()));
    mine.add(socket);

    socket.on('message', (data: RawData, isBinary: boolean) => {
      if (isPing(data, isBinary)) this.send(socket, PONG_FRAME);
    });
    socket.on('pong', () => (state.alive = true));
    // Peer errors are logged by the adapter; the socket closes and is forgotten below.
    socket.on('error', () => undefined);
    socket.once('close', () => this.forget(socket, state));
  }

  private forget(socket: WebSocket, state: LiveSocket): void {
    this.sockets.delete(socket);
    const mine = this.byUser.get(state.userId);
    mine?.delete(socket);
    if (mine?.size === 0) this.byUser.delete(state.userId);
  }

  private deliver(envelope: LiveEnvelope): void {
    const frame = JSON.stringify(envelope.event);
    if (envelope.to === 'all') {
      for (const [socket, state] of this.sockets) if (!state.userScopeOnly) this.send(socket, frame);
    } else {
      const signedOut = envelope.event.type === LIVE_EVENT.signedOut;
      for (const socket of [...(this.byUser.get(envelope.userId) ?? [])]) {
        if (
          envelope.exceptSession !== undefined &&
          this.sockets.get(socket)?.sessionId === envelope.exceptSession
        ) {
          continue;
        }
        this.send(socket, frame);
        // The event goes first: a signed-out member's sockets are then closed (on every instance).
        if (signedOut) socket.close(CLOSE_SIGNED_OUT, CLOSE_SIGNED_OUT_REASON);
      }
    }
  }

  private send(socket: WebSocket, frame: string): void {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.logger.warn('Cut a live socket that does not keep up with its events');
      socket.terminate();
      return;
    }
    socket.send(frame, (error) => {
      if (error) this.logger.debug(`Live event not sent: ${error.message}`);
    });
  }

  /** Pings every socket; one that did not answer the previous ping is gone (cut, the client reconnects). */
  private beat(): void {
    for (const [socket, state] of this.sockets) {
      if (!state.alive) {
        socket.terminate();
        continue;
      }
      state.alive = false;
      try {
        socket.ping();
      } catch {
        socket.terminate();
      }
    }
  }
}
