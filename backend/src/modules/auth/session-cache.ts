import { LRUCache } from 'lru-cache';

/**
 * Sessions one instance keeps at most (LRU): about 3 KB each (the session's JSON and its member's row), so
 * 16 MB at most; more than the members a busy instance serves within one SESSION_CACHE_MS.
 */
export const SESSION_CACHE_MAX = 5_000;

/**
 * Signed-in reads' sessions as read a moment ago (SESSION_CACHE_MS, at most a second): a page load's
 * requests cost one database read, not one each. What the API changes of a session or a member drops its
 * entries at once; a change made elsewhere (SQL, the command line) counts once the entry expires.
 */
export class SessionCache<Row extends object> {
  private readonly rows: LRUCache<string, Row> | undefined;
  private readonly loading = new Map<string, Promise<Row | undefined>>();
  /** Moves at every drop: a read that saw it move keeps its row to itself (it may predate the change). */
  private epoch = 0;

  constructor(
    ttlMs: number,
    private readonly memberOf: (row: Row) => number | null,
    max = SESSION_CACHE_MAX,
  ) {
    this.rows = ttlMs > 0 ? new LRUCache<string, Row>({ max, ttl: ttlMs }) : undefined;
  }

  /** How many sessions are kept now. */
  get size(): number {
    return this.rows?.size ?? 0;
  }

  /** The session `sid` as kept, else `load`ed (once for requests that ask together) and kept if found. */
  get(sid: string, load: () => Promise<Row | undefined>): Promise<Row | undefined> {
    const rows = this.rows;
    if (!rows) return load();
    const kept = rows.get(sid);
    if (kept) return Promise.resolve(kept);
    const running = this.loading.get(sid);
    if (running) return running;
    const epoch = this.epoch;
    const promise = load().finally(() => {
      if (this.loading.get(sid) === promise) this.loading.delete(sid);
    });
    this.loading.set(sid, promise);
    return promise.then((row) => {
      if (row && this.epoch === epoch) rows.set(sid, row);
      return row;
    });
  }

  /** Forgets session `sid` (signed out, saved). */
  dropSession(sid: string): void {
    this.epoch++;
    this.loading.delete(sid);
    this.rows?.delete(sid);
  }

  /** Forgets every session of these members (banned, changed, signed out everywhere). */
  dropMembers(members: Iterable<number>): void {
    this.epoch++;
    const ids = new Set(members);
    if (!this.rows || ids.size === 0) return;
    for (const [sid, row] of this.rows.entries()) {
      const member = this.memberOf(row);
      if (member !== null && ids.has(member)) this.rows.delete(sid);
    }
    // A read under way may have read any of them before the change: it is not shared any further.
    this.loading.clear();
  }
}
