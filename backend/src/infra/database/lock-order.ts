import { DataSource, type EntityManager, type QueryRunner } from 'typeorm';

/**
 * The order every transaction takes its row locks in: a kind again, or a later one, never an earlier
 * one, so no two transactions wait on each other in a cycle. What each kind is: docs/backend.md.
 */
export const LOCK_ORDER = ['account', 'paste-daily', 'paste', 'reply', 'user', 'daily'] as const;

export type LockKind = (typeof LOCK_ORDER)[number];

const RANK = Object.fromEntries(LOCK_ORDER.map((kind, rank) => [kind, rank])) as Record<LockKind, number>;

/** SQL that takes row locks, and which kinds, in the order it takes them. */
export interface LockingSql {
  readonly sql: string;
  readonly locks: readonly LockKind[];
}

/** What an open transaction holds: its latest-ranked kind, and rows declared by id. */
interface Held {
  last: LockKind;
  rows?: Map<LockKind, Set<number>>;
}

const held = new WeakMap<QueryRunner, Held>();

function outOfOrder(kind: LockKind, after: LockKind, where: string): Error {
  return new Error(
    `Lock order broken ${where}: "${kind}" is locked after "${after}" ` +
      `(the order is ${LOCK_ORDER.join(', ')}: infra/database/lock-order.ts)`,
  );
}

/**
 * Declares that `db`'s transaction now locks rows of `kind` (`ids`: those rows, when known): throws
 * when it already holds a kind ranked after it, unless these very rows are held already. Outside a
 * transaction (a lone statement) nothing is tracked: its locks end with it.
 */
export function takeLock(db: DataSource | EntityManager, kind: LockKind, ids?: readonly number[]): void {
  const runner = db instanceof DataSource ? undefined : db.queryRunner;
  if (!runner?.isTransactionActive) return;
  let state = held.get(runner);
  if (state === undefined) {
    state = { last: kind };
    held.set(runner, state);
  } else if (RANK[kind] > RANK[state.last]) {
    state.last = kind;
  } else if (RANK[kind] < RANK[state.last]) {
    const rows = state.rows?.get(kind);
    if (!ids?.length || !rows || !ids.every((id) => rows.has(id))) {
      throw outOfOrder(kind, state.last, 'in a transaction');
    }
  }
  if (ids?.length) {
    state.rows ??= new Map();
    const rows = state.rows.get(kind) ?? new Set<number>();
    for (const id of ids) rows.add(id);
    state.rows.set(kind, rows);
  }
}

/** takeLock for each kind in turn (one statement's locks). */
export function takeLocks(db: DataSource | EntityManager, kinds: readonly LockKind[]): void {
  for (const kind of kinds) takeLock(db, kind);
}

/** Checks a statement's own lock sequence where it is declared (module load): throws when out of order. */
export function checkLockSequence(name: string, kinds: readonly LockKind[]): readonly LockKind[] {
  for (let i = 1; i < kinds.length; i++) {
    if (RANK[kinds[i]!] < RANK[kinds[i - 1]!]) throw outOfOrder(kinds[i]!, kinds[i - 1]!, `in "${name}"`);
  }
  return kinds;
}

/** SQL that locks rows of `kinds` (in that order), for composing into a statement with `lockingSql`. */
export const locking = (sql: string, ...kinds: LockKind[]): LockingSql => ({ sql, locks: kinds });

/**
 * A statement composed of parts: its text, and the locks its parts take in the order they appear (a
 * WITH's steps run in order when each reads the one before). Declare it once, at module level, and check
 * it by name (`prepare`, or `checkLockSequence`).
 */
export function lockingSql(
  strings: TemplateStringsArray,
  ...parts: Array<LockingSql | string | number>
): LockingSql {
  let sql = strings[0]!;
  const locks: LockKind[] = [];
  parts.forEach((part, i) => {
    if (typeof part === 'object') {
      sql += part.sql;
      locks.push(...part.locks);
    } else {
      sql += String(part);
    }
    sql += strings[i + 1]!;
  });
  return { sql, locks };
}

/** Runs a composed statement in `manager`'s transaction, its locks declared first. */
export function queryLocking<T>(
  manager: EntityManager,
  statement: LockingSql,
  params: unknown[],
): Promise<T> {
  takeLocks(manager, statement.locks);
  return manager.query(statement.sql, params) as Promise<T>;
}
