import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Logger, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import { type OnGatewayConnection, WebSocketGateway } from '@nestjs/websockets';
import {
  PASTE_LIVE_EVENT,
  LIVE_CLOSE,
  LIVE_EVENT,
  LIVE_MAX_CLIENT_FRAME_BYTES,
  LIVE_SCOPE_USER,
  type LiveWatch,
  liveWatchSchema,
  type PasteLiveEvent,
  type PasteRef,
  WS,
} from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import type { RawData, WebSocket } from 'ws';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { EventsPort, type InstanceEvent, type LiveEnvelope } from '../../infra/events/events.port.js';
import { Metrics } from '../../infra/metrics/metrics.js';
import { readablePastes } from '../pastes/visibility.js';
import {
  ONLINE_TOPIC,
  PresencePort,
  pasteOfTopic,
  pasteTopic,
  visitorsTopic,
} from '../../infra/presence/presence.port.js';
import {
  liveScope,
  upgradeSessionId,
  upgradeUserId,
  upgradeVisitorAddress,
} from '../auth/session-ws.adapter.js';
import { LivePresence } from './live-presence.js';
import { LiveRooms, type Watching, WATCHING_NOTHING, watchingOf } from './live-rooms.js';

/** Close code for a socket that reached the gateway without an authenticated member (policy violation). */
const CLOSE_POLICY_VIOLATION = 1008;
/**
 * Close code (and reason) for the sockets of a member signed out elsewhere: banned or deleted by staff,
 * their password reset, or changed in another session.
 */
export const CLOSE_SIGNED_OUT = LIVE_CLOSE.signedOut.code;
export const CLOSE_SIGNED_OUT_REASON = LIVE_CLOSE.signedOut.reason;
/** A socket that has this much unsent data is too slow to keep up: it is cut (the client reconnects). */
const MAX_BUFFERED_BYTES = 1024 * 1024;
const PONG_FRAME = JSON.stringify({ type: LIVE_EVENT.pong });
/**
 * Live sockets one member may hold on one instance (a few tabs, each with its own and maybe a chat
 * one); a further one is closed at once (1008), so nobody can pile up sockets.
 */
export const MAX_SOCKETS_PER_USER = 16;
/** `watch` frames one socket may send in WATCH_WINDOW_MS (a page change sends one); more close it (4430). */
export const MAX_WATCHES_PER_WINDOW = 30;
const WATCH_WINDOW_MS = 10_000;

/** What a socket may receive: the chat too (`all`), the member's own events only (`user`), or public ones. */
type SocketScope = 'all' | 'user' | 'public';

interface LiveSocket {
  /** A visitor socket's member in its address's topic (presence counts sockets there). */
  id: string;
  /** Null: a visitor's socket (`?scope=public`). */
  userId: number | null;
  /** A visitor's client address (their cap's key). */
  visitorAddress: string | undefined;
  /** The session whose cookie opened it. */
  sessionId: string | undefined;
  scope: SocketScope;
  /** Answered (pong) since the last heartbeat ping. */
  alive: boolean;
  watching: Watching;
  /** The pastes it watches by their key (not their number), by number: its frames name them so. */
  keys: Map<number, string>;
  /** Its watch frames are checked in turn (who may read what); its pongs wait for them. */
  settled: Promise<void>;
  /** The newest watch frame's turn: an older one that settles late is dropped. */
  watchTurn: number;
  /** Watch frames in the current window, and when it began. */
  watches: number;
  watchWindowStart: number;
  closed: boolean;
}

/** The scope a socket URL asks for, as far as its opener may have it. */
function scopeOf(url: string | undefined, visitor: boolean): SocketScope {
  if (visitor) return 'public';
  return liveScope(url) === LIVE_SCOPE_USER ? 'user' : 'all';
}

const onlineFrame = (count: number): string => JSON.stringify({ type: PASTE_LIVE_EVENT.onlineCount, count });
const readersFrame = (threadId: number, count: number) => ({
  type: PASTE_LIVE_EVENT.threadReaders,
  threadId,
  count,
});

/** Online count frames a second this instance sends at most, over all its chat sockets (showOnline). */
export const ONLINE_FRAMES_PER_S = 2000;
/** The least time between two broadcasts of the online count to `sockets` sockets: 5 ms for 10, 5 s for 10,000 (10 s at most). */
export const onlineGapMs = (sockets: number): number =>
  Math.min(10_000, (sockets * 1000) / ONLINE_FRAMES_PER_S);

/** What a client frame is: a ping, a watch (valid or not), or anything else (ignored). */
type ClientFrame = { kind: 'ping' } | { kind: 'watch'; watch: LiveWatch } | { kind: 'bad-watch' } | null;

function readFrame(data: RawData, isBinary: boolean): ClientFrame {
  if (isBinary || !Buffer.isBuffer(data)) return null;
  let value: unknown;
  try {
    value = JSON.parse(data.toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const type = (value as { type?: unknown }).type;
  if (type === 'ping') return { kind: 'ping' };
  if (type !== 'watch') return null;
  const parsed = liveWatchSchema.safeParse(value);
  return parsed.success ? { kind: 'watch', watch: parsed.data } : { kind: 'bad-watch' };
}

/**
 * The live socket, `/ws/chat`: every event of the events port (so of every instance) goes to the
 * sockets it is for: chat to members, a member's own to their sockets, a paste's to its watchers.
 * Sign-out closes sockets (4001); bad or too many frames close them too. Codes and rules: docs/backend.md.
 */
@WebSocketGateway({ path: WS.chat, maxPayload: LIVE_MAX_CLIENT_FRAME_BYTES })
export class LiveGateway implements OnGatewayConnection<WebSocket>, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Live');
  private readonly sockets = new Map<WebSocket, LiveSocket>();
  private readonly byUser = new Map<number, Set<WebSocket>>();
  /** Visitor sockets here, by client address (the cap's first check, and its fallback without Redis). */
  private readonly byAddress = new Map<string, Set<WebSocket>>();
  private readonly rooms = new LiveRooms<WebSocket>();
  /** Member sockets that carry the chat (they show the online count). */
  private readonly chatSockets = new Set<WebSocket>();
  private unsubscribe: (() => void) | undefined;
  private unsubscribeInstances: (() => void) | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  /** The online count's last broadcast, and the count waiting for the next (see showOnline). */
  private onlineShownAt = 0;
  private onlineWaiting: number | undefined;
  private onlineTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly events: EventsPort,
    private readonly presence: LivePresence,
    private readonly presencePort: PresencePort,
    private readonly dataSource: DataSource,
    @InjectConfig()
    private readonly config: Pick<AppConfig, 'liveHeartbeatMs' | 'liveVisitorSocketsPerAddress'>,
    @Optional() metrics?: Metrics,
  ) {
    metrics?.onScrape('termpaste_live_sockets', () => {
      let members = 0;
      for (const state of this.sockets.values()) if (state.userId !== null) members++;
      return [
        [{ kind: 'member' }, members],
        [{ kind: 'visitor' }, this.sockets.size - members],
      ];
    });
    metrics?.onScrape('termpaste_live_online_members', async () => [
      [{}, await this.presence.count(ONLINE_TOPIC)],
    ]);
  }

  onModuleInit(): void {
    this.unsubscribe = this.events.subscribe((envelope) => this.deliver(envelope));
    this.unsubscribeInstances = this.events.onBroadcast((event: InstanceEvent) => {
      if (event.type === 'paste_hidden') this.hide(event.threadId, event.authorId);
    });
    this.presence.onCounts((counts) => this.showCounts(counts));
    this.heartbeat = setInterval(() => this.beat(), this.config.liveHeartbeatMs);
    this.heartbeat.unref();
  }

  /** Before the adapter closes the sockets (1001): no more events or pings. */
  onModuleDestroy(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.unsubscribeInstances?.();
    this.unsubscribeInstances = undefined;
    clearInterval(this.heartbeat);
    clearTimeout(this.onlineTimer);
    this.onlineTimer = undefined;
  }

  /** How many sockets are open (for tests and diagnostics). */
  get connectionCount(): number {
    return this.sockets.size;
  }

  handleConnection(socket: WebSocket, req: IncomingMessage): void {
    const userId = upgradeUserId(req);
    const visitorAddress = upgradeVisitorAddress(req);
    if (userId === undefined && visitorAddress === undefined) {
      // Cannot happen behind SessionWsAdapter; refuse rather than serve an unknown client.
      socket.close(CLOSE_POLICY_VIOLATION, 'Unauthorized');
      return;
    }
    let mine = userId === undefined ? undefined : this.byUser.get(userId);
    if (mine && mine.size >= MAX_SOCKETS_PER_USER) {
      socket.close(CLOSE_POLICY_VIOLATION, 'Too many live connections');
      return;
    }
    let fromAddress = visitorAddress === undefined ? undefined : this.byAddress.get(visitorAddress);
    if (fromAddress && fromAddress.size >= this.config.liveVisitorSocketsPerAddress) {
      this.refuseVisitor(socket);
      return;
    }
    const state: LiveSocket = {
      id: randomUUID(),
      userId: userId ?? null,
      visitorAddress,
      sessionId: upgradeSessionId(req),
      scope: scopeOf(req.url, userId === undefined),
      alive: true,
      watching: WATCHING_NOTHING,
      keys: new Map(),
      settled: Promise.resolve(),
      watchTurn: 0,
      watches: 0,
      watchWindowStart: Date.now(),
      closed: false,
    };
    this.sockets.set(socket, state);
    if (userId !== undefined) {
      if (!mine) this.byUser.set(userId, (mine = new Set()));
      mine.add(socket);
      void this.presence.enter(ONLINE_TOPIC, String(userId));
      if (state.scope === 'all') {
        this.chatSockets.add(socket);
        this.presence.watch(ONLINE_TOPIC, true);
        void this.sendCount(socket, ONLINE_TOPIC);
      }
    } else if (visitorAddress !== undefined) {
      if (!fromAddress) this.byAddress.set(visitorAddress, (fromAddress = new Set()));
      fromAddress.add(socket);
      void this.checkVisitorCap(socket, state, visitorAddress);
    }

    socket.on('message', (data: RawData, isBinary: boolean) => this.receive(socket, state, data, isBinary));
    socket.on('pong', () => (state.alive = true));
    // Peer errors are logged by the adapter; the socket closes and is forgotten below.
    socket.on('error', () => undefined);
    socket.once('close', () => this.forget(socket, state));
  }

  private receive(socket: WebSocket, state: LiveSocket, data: RawData, isBinary: boolean): void {
    const frame = readFrame(data, isBinary);
    if (frame === null || state.closed) return;
    if (frame.kind === 'ping') {
      // After the watches sent before it: a client that saw its pong knows what it watches.
      void state.settled.then(() => this.send(socket, PONG_FRAME));
      return;
    }
    if (frame.kind === 'bad-watch') {
      socket.close(LIVE_CLOSE.badWatch.code, LIVE_CLOSE.badWatch.reason);
      return;
    }
    const now = Date.now();
    if (now - state.watchWindowStart > WATCH_WINDOW_MS) {
      state.watchWindowStart = now;
      state.watches = 0;
    }
    if (++state.watches > MAX_WATCHES_PER_WINDOW) {
      socket.close(LIVE_CLOSE.tooManyWatches.code, LIVE_CLOSE.tooManyWatches.reason);
      return;
    }
    const turn = ++state.watchTurn;
    const watch = frame.watch;
    state.settled = state.settled.then(() => this.authorize(socket, state, watch, turn));
  }

  /**
   * Watches what the frame names that the socket's member (or visitor) may read (visibility.ts): a paste
   * they may not read is not watched, so none of its events or counts reach them.
   */
  private async authorize(
    socket: WebSocket,
    state: LiveSocket,
    watch: LiveWatch,
    turn: number,
  ): Promise<void> {
    const refs: PasteRef[] = [...(watch.thread == null ? [] : [watch.thread]), ...(watch.cards ?? [])];
    let readable: Map<number, PasteRef>;
    try {
      readable = await readablePastes(this.dataSource, refs, state.userId);
    } catch (error) {
      this.logger.warn(`Watch not checked: ${error instanceof Error ? error.message : String(error)}`);
      readable = new Map();
    }
    if (state.closed || turn !== state.watchTurn) return;
    state.keys = new Map(
      [...readable].filter((entry): entry is [number, string] => typeof entry[1] === 'string'),
    );
    this.watch(socket, state, watchingOf(watch, readable));
  }

  /**
   * A paste some may no longer read: each socket here that watches it is told it is gone and stops
   * watching it, but its author's reading it (their page reads on). A list's watchers drop its card.
   */
  private hide(threadId: number, authorId: number | null): void {
    const event: PasteLiveEvent = { type: PASTE_LIVE_EVENT.pasteDeleted, threadId };
    const frames = new Map<string | undefined, string>();
    for (const socket of this.rooms.recipients(event)) {
      const state = this.sockets.get(socket);
      if (!state) continue;
      const own = state.userId !== null && state.userId === authorId;
      if (own && state.watching.thread === threadId) continue;
      this.send(socket, this.frameOf(state, event, frames));
      if (own) continue;
      const cards = new Set(state.watching.cards);
      cards.delete(threadId);
      const thread = state.watching.thread === threadId ? null : state.watching.thread;
      state.keys.delete(threadId);
      this.watch(socket, state, { thread, cards, lists: state.watching.lists });
    }
  }

  /**
   * A paste's event as this socket is told it: naming the paste by the key it watches it by, if so.
   * `frames` keeps each text made for one event.
   */
  private frameOf(
    state: LiveSocket | undefined,
    event: { threadId: PasteRef },
    frames: Map<string | undefined, string>,
  ): string {
    const key = state?.keys.get(event.threadId as number);
    let frame = frames.get(key);
    if (frame === undefined) {
      frame = JSON.stringify(key === undefined ? event : { ...event, threadId: key });
      frames.set(key, frame);
    }
    return frame;
  }

  /** The socket now watches `next`: its rooms, and (a member's) which paste it is counted reading. */
  private watch(socket: WebSocket, state: LiveSocket, next: Watching): void {
    const before = state.watching;
    state.watching = next;
    this.rooms.move(socket, before, next);
    if (before.thread === next.thread) return;
    if (before.thread !== null) this.leavePaste(state, before.thread);
    if (next.thread !== null) {
      const topic = pasteTopic(next.thread);
      this.presence.watch(topic, true);
      const entered =
        state.userId === null ? Promise.resolve() : this.presence.enter(topic, String(state.userId));
      // The new reader learns the count with itself in it; the others when the change reaches them.
      void entered.then(() => this.sendCount(socket, topic));
    }
  }

  private leavePaste(state: LiveSocket, threadId: number): void {
    if (state.userId !== null) void this.presence.exit(pasteTopic(threadId), String(state.userId));
    if (this.rooms.readersOf(threadId).size === 0) this.presence.watch(pasteTopic(threadId), false);
  }

  private forget(socket: WebSocket, state: LiveSocket): void {
    state.closed = true;
    this.sockets.delete(socket);
    const { thread } = state.watching;
    this.rooms.move(socket, state.watching, WATCHING_NOTHING);
    if (thread !== null) this.leavePaste(state, thread);
    if (state.userId !== null) {
      const mine = this.byUser.get(state.userId);
      mine?.delete(socket);
      if (mine?.size === 0) this.byUser.delete(state.userId);
      void this.presence.exit(ONLINE_TOPIC, String(state.userId));
      this.chatSockets.delete(socket);
      if (this.chatSockets.size === 0) this.presence.watch(ONLINE_TOPIC, false);
    }
    if (state.visitorAddress !== undefined) {
      const fromAddress = this.byAddress.get(state.visitorAddress);
      fromAddress?.delete(socket);
      if (fromAddress?.size === 0) this.byAddress.delete(state.visitorAddress);
      this.presencePort
        .leave(visitorsTopic(state.visitorAddress), state.id)
        .catch(() => undefined /* expires with its time to live */);
    }
  }

  /**
   * A visitor socket counts against its address's cap over every instance (the presence port counts
   * them); past the cap it is closed (4429). Without the port (Redis away) the count here stands.
   */
  private async checkVisitorCap(socket: WebSocket, state: LiveSocket, address: string): Promise<void> {
    let count: number;
    try {
      count = await this.presencePort.join(visitorsTopic(address), state.id);
    } catch {
      return;
    }
    if (state.closed) {
      // Closed while it joined: its leave may have gone first.
      await this.presencePort.leave(visitorsTopic(address), state.id).catch(() => undefined);
    } else if (count > this.config.liveVisitorSocketsPerAddress) {
      this.refuseVisitor(socket);
    }
  }

  private refuseVisitor(socket: WebSocket): void {
    socket.close(LIVE_CLOSE.tooManyVisitorSockets.code, LIVE_CLOSE.tooManyVisitorSockets.reason);
  }

  /** Sends one socket the count of a topic it shows. */
  private async sendCount(socket: WebSocket, topic: string): Promise<void> {
    const count = await this.presence.count(topic);
    const state = this.sockets.get(socket);
    if (!state) return;
    if (topic === ONLINE_TOPIC) {
      this.send(socket, onlineFrame(count));
      return;
    }
    const threadId = pasteOfTopic(topic);
    // Still showing it (a reader may have moved on meanwhile).
    if (threadId !== null && state.watching.thread === threadId) {
      this.send(socket, this.frameOf(state, readersFrame(threadId, count), new Map()));
    }
  }

  /** Counts that changed, to the sockets here that show them. */
  private showCounts(counts: Map<string, number>): void {
    for (const [topic, count] of counts) {
      if (topic === ONLINE_TOPIC) {
        this.showOnline(count);
        continue;
      }
      const threadId = pasteOfTopic(topic);
      if (threadId === null) continue;
      const frame = readersFrame(threadId, count);
      const frames = new Map<string | undefined, string>();
      for (const socket of this.rooms.readersOf(threadId)) {
        this.send(socket, this.frameOf(this.sockets.get(socket), frame, frames));
      }
    }
  }

  /**
   * The online count to every chat socket here, at most once in onlineGapMs of them: each change reaching
   * every socket costs O(sockets²) as members come and go; this keeps it to ONLINE_FRAMES_PER_S.
   */
  private showOnline(count: number): void {
    this.onlineWaiting = count;
    if (this.onlineTimer) return;
    const wait = this.onlineShownAt + onlineGapMs(this.chatSockets.size) - Date.now();
    if (wait <= 0) {
      this.broadcastOnline();
      return;
    }
    this.onlineTimer = setTimeout(() => this.broadcastOnline(), wait);
    this.onlineTimer.unref();
  }

  private broadcastOnline(): void {
    this.onlineTimer = undefined;
    const count = this.onlineWaiting;
    this.onlineWaiting = undefined;
    if (count === undefined) return;
    this.onlineShownAt = Date.now();
    const frame = onlineFrame(count);
    for (const socket of this.chatSockets) this.send(socket, frame);
  }

  private deliver(envelope: LiveEnvelope): void {
    if (envelope.to === 'paste') {
      const frames = new Map<string | undefined, string>();
      for (const socket of this.rooms.recipients(envelope.event, { listed: envelope.listed !== false })) {
        this.send(socket, this.frameOf(this.sockets.get(socket), envelope.event, frames));
      }
      return;
    }
    const frame = JSON.stringify(envelope.event);
    if (envelope.to === 'all') {
      for (const socket of this.chatSockets) this.send(socket, frame);
    } else {
      const signedOut = envelope.event.type === LIVE_EVENT.signedOut;
      for (const socket of [...(this.byUser.get(envelope.userId) ?? [])]) {
        const sessionId = this.sockets.get(socket)?.sessionId;
        if (envelope.exceptSession !== undefined && sessionId === envelope.exceptSession) continue;
        if (envelope.onlySession !== undefined && sessionId !== envelope.onlySession) continue;
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
