import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import { LIVE_EVENT } from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { type PreparedStatement, prepare, queryPrepared } from '../../infra/database/prepared.js';
import { EventsPort } from '../../infra/events/events.port.js';
import type { User } from '../users/entities/user.entity.js';
import { type UserJoin, userJoin } from '../users/users.service.js';
import { SessionCache } from './session-cache.js';

/** What we keep of a session: express-session's JSON (its cookie and passport's sign-in). */
export type StoredSession = Record<string, unknown>;

/** Expired rows are deleted at most this often, by a write that happens to come along. */
const PRUNE_INTERVAL_MS = 10 * 60 * 1000;

/** A session's row with its member's columns, each as `"member.<property>"` (userJoin). */
type SessionRow = { sessionData: StoredSession } & Record<`member.${string}`, unknown>;
type SessionStatement = PreparedStatement<SessionRow, [sid: string, maxAgeDays: number]>;

let sessionStatement: { statement: SessionStatement; user: UserJoin } | undefined;

/**
 * A request with a session cookie reads its session and its member in one round trip. A session older
 * than its absolute lifetime ($2 days since sign-in) is none, however active: rolling alone would keep
 * a stolen cookie alive for ever.
 */
function sessionBySid(dataSource: DataSource): { statement: SessionStatement; user: UserJoin } {
  if (!sessionStatement) {
    const user = userJoin(dataSource, 'u', 's.user_id');
    sessionStatement = {
      user,
      statement: prepare(
        'session-with-member',
        `SELECT s.data AS "sessionData", ${user.columns} FROM sessions s ${user.join}
         WHERE s.sid = $1 AND s.expires_at > now() AND s.created_at > now() - make_interval(days => $2)`,
      ),
    };
  }
  return sessionStatement;
}

/** The member a session's row names (null: none), as the cache drops a member's sessions by it. */
const memberOfRow = (row: SessionRow): number | null => (row['member.id'] as number | null) ?? null;

/** A stored session, and the member it names as they are now (null: none, or the account is gone). */
export interface SessionWithUser {
  data: StoredSession;
  user: User | null;
}

/** A touch that would move the expiry by less than this writes nothing (saves a write per request). */
const TOUCH_GRANULARITY_MS = 60 * 60 * 1000;

/**
 * Sign-in sessions in the `sessions` table: durable across restarts, shared by every instance, and
 * revocable per user. express-session reads and writes them through the auth module's store.
 */
@Injectable()
export class SessionsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Sessions');
  /** Signed-in reads' sessions, a moment each (SESSION_CACHE_MS): see SessionCache. */
  private readonly cache: SessionCache<SessionRow>;
  private readonly unsubscribe: Array<() => void> = [];
  private lastPrune = 0;
  /**
   * When this process last stored or touched each session, oldest first: a touch within
   * TOUCH_GRANULARITY_MS of it sends no query (it would move the expiry too little to write anything).
   * Entries older than that are dropped as touches come, so the map holds only recently active sessions.
   */
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig() private readonly config: Pick<AppConfig, 'sessionMaxAgeDays' | 'sessionCacheMs'>,
    @Optional() private readonly events?: EventsPort,
  ) {
    this.cache = new SessionCache(config.sessionCacheMs, memberOfRow);
  }

  onModuleInit(): void {
    if (!this.events) return;
    // Changes the API made on any instance: sessions_changed (memberChanged), a live sign-out (a ban, a
    // password change, a sign-out), a member shown on pages changed (a rename).
    this.unsubscribe.push(
      this.events.onBroadcast((event) => {
        if (event.type === 'sessions_changed') this.cache.dropMembers(event.members);
        if (event.type === 'pages_changed' && event.members) this.cache.dropMembers(event.members);
      }),
      this.events.subscribe((envelope) => {
        if (envelope.to === 'user' && envelope.event.type === LIVE_EVENT.signedOut) {
          this.cache.dropMembers([envelope.userId]);
        }
      }),
    );
  }

  onModuleDestroy(): void {
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
  }

  /**
   * Session `sid` and its member. `cached`: a read's, which may take what this instance read up to
   * SESSION_CACHE_MS ago (a write, a socket's upgrade and a read after a write read afresh).
   */
  async get(sid: string, { cached = false } = {}): Promise<SessionWithUser | undefined> {
    const { statement, user } = sessionBySid(this.dataSource);
    const load = async () =>
      (await queryPrepared(this.dataSource, statement, [sid, this.config.sessionMaxAgeDays]))[0];
    const row = cached ? await this.cache.get(sid, load) : await load();
    if (!row) return undefined;
    // Each request its own copies: express-session and the guards change what they are given.
    return { data: cached ? structuredClone(row.sessionData) : row.sessionData, user: user.userOf(row) };
  }

  /**
   * The API changed member `userId` (banned, silenced, renamed, made admin or not): every instance reads
   * their sessions afresh from now on. Call it once the change has committed.
   */
  async memberChanged(userId: number): Promise<void> {
    this.cache.dropMembers([userId]);
    try {
      await this.events?.broadcast({ type: 'sessions_changed', members: [userId] });
    } catch (error) {
      this.logger.warn(
        `Other instances not told of a changed member: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** `userId`: the member the session is signed in as (null: none), for revokeUserSessions. */
  async set(sid: string, data: StoredSession, userId: number | null, expiresAt: Date): Promise<void> {
    this.pruneNowAndThen();
    this.cache.dropSession(sid);
    await this.dataSource.query(
      `INSERT INTO sessions (sid, user_id, data, expires_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (sid) DO UPDATE SET user_id = $2, data = $3, expires_at = $4`,
      [sid, userId, JSON.stringify(data), expiresAt],
    );
    this.cache.dropSession(sid);
    this.remember(sid);
  }

  /**
   * Extends a session that still exists; a revoked one stays revoked. Skipped when this process stored or
   * touched the session less than TOUCH_GRANULARITY_MS ago, so the stored expiry trails the rolling one
   * by at most twice that (two hours of thirty days).
   */
  async touch(sid: string, cookie: unknown, expiresAt: Date): Promise<void> {
    const last = this.touched.get(sid);
    if (last !== undefined && Date.now() - last < TOUCH_GRANULARITY_MS) return;
    await this.dataSource.query(
      `UPDATE sessions SET expires_at = $2, data = jsonb_set(data, '{cookie}', $3::jsonb)
       WHERE sid = $1 AND expires_at < $4`,
      [sid, expiresAt, JSON.stringify(cookie), new Date(expiresAt.getTime() - TOUCH_GRANULARITY_MS)],
    );
    this.remember(sid);
  }

  async destroy(sid: string): Promise<void> {
    this.touched.delete(sid);
    this.cache.dropSession(sid);
    await this.dataSource.query('DELETE FROM sessions WHERE sid = $1', [sid]);
    // Dropped again once gone: a read that came meanwhile may have kept it.
    this.cache.dropSession(sid);
  }

  /**
   * Signs the user out everywhere (but in `exceptSid`, the session making the request, when given).
   * Pass the transaction's manager to make it part of a larger change.
   */
  async revokeUserSessions(
    userId: number,
    { exceptSid, manager }: { exceptSid?: string; manager?: EntityManager } = {},
  ): Promise<number> {
    const runner = manager ?? this.dataSource.manager;
    const [, affected]: [unknown, number] = await runner.query(
      'DELETE FROM sessions WHERE user_id = $1 AND sid IS DISTINCT FROM $2',
      [userId, exceptSid ?? null],
    );
    // Within a transaction, reads may keep the old rows until it commits: the live sign-out that follows
    // every commit of a revocation drops them again, on every instance.
    this.cache.dropMembers([userId]);
    return affected;
  }

  async pruneExpired(): Promise<number> {
    const [, affected]: [unknown, number] = await this.dataSource.query(
      'DELETE FROM sessions WHERE expires_at <= now() OR created_at <= now() - make_interval(days => $1)',
      [this.config.sessionMaxAgeDays],
    );
    return affected;
  }

  /** Records that the session's expiry was just written or found recent, and forgets stale entries. */
  private remember(sid: string): void {
    const now = Date.now();
    this.touched.delete(sid);
    this.touched.set(sid, now);
    for (const [oldSid, at] of this.touched) {
      if (now - at < TOUCH_GRANULARITY_MS) break;
      this.touched.delete(oldSid);
    }
  }

  private pruneNowAndThen(): void {
    const now = Date.now();
    if (now - this.lastPrune < PRUNE_INTERVAL_MS) return;
    this.lastPrune = now;
    this.pruneExpired().catch((error: unknown) =>
      this.logger.warn(`Pruning expired sessions failed: ${error instanceof Error ? error.message : error}`),
    );
  }
}
