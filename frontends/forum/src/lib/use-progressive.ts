import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';

/** Rows drawn in full at once: about a phone's first screen of replies (those on screen follow at once). */
export const FIRST_ROWS = 4;
/** Rows drawn in full in one idle moment: a few milliseconds, well under a long task on a slow phone. */
export const ROWS_PER_IDLE = 4;
/** Rows drawn in full from one that nears the screen on. */
export const ROWS_PER_REVEAL = 4;

/** Whether this browser can tell what nears the screen; where it cannot (a test's jsdom), all at once. */
const canDefer = () => typeof window !== 'undefined' && typeof window.IntersectionObserver === 'function';

type IdleHandle = number;
const whenIdle = (run: () => void): IdleHandle =>
  typeof window.requestIdleCallback === 'function'
    ? window.requestIdleCallback(run, { timeout: 1000 })
    : window.setTimeout(run, 16);
const cancelIdle = (handle: IdleHandle) =>
  typeof window.cancelIdleCallback === 'function'
    ? window.cancelIdleCallback(handle)
    : window.clearTimeout(handle);

export interface Progressive {
  /** Whether row `index` is drawn in full yet (else its light preview). */
  isFull: (index: number) => boolean;
  /** Draws row `index` and the few after it in full now (it nears the screen, or a link names it). */
  reveal: (index: number) => void;
  /** Whether every row is drawn in full. */
  done: boolean;
}

/** `drawn` with `more` added (itself when it has them all, so nothing redraws). */
function withKeys<K>(drawn: ReadonlySet<K>, more: readonly K[]): ReadonlySet<K> {
  const missing = more.filter((key) => !drawn.has(key));
  return missing.length === 0 ? drawn : new Set([...drawn, ...missing]);
}

/**
 * A long list drawn in full a little at a time: the first rows at once, any row when `reveal` is called
 * for it, and with `idle` the rest a batch in each idle moment (a transition: typing and scrolling first).
 * Rows are remembered by key: one drawn stays drawn when rows are inserted above it (a live reply).
 */
export function useProgressive<K>(
  keys: readonly K[],
  { first = FIRST_ROWS, idle = true }: { first?: number; idle?: boolean } = {},
): Progressive {
  // null: every row (nothing to wait for).
  const [drawn, setDrawn] = useState<ReadonlySet<K> | null>(() =>
    canDefer() ? new Set(keys.slice(0, first)) : null,
  );
  const done = drawn === null || keys.every((key) => drawn.has(key));
  const keysRef = useRef(keys);
  keysRef.current = keys;

  useEffect(() => {
    if (done || !idle) return;
    const handle = whenIdle(() =>
      startTransition(() =>
        setDrawn((d) =>
          d === null ? d : withKeys(d, keysRef.current.filter((key) => !d.has(key)).slice(0, ROWS_PER_IDLE)),
        ),
      ),
    );
    return () => cancelIdle(handle);
  }, [drawn, done, idle]);

  const reveal = useCallback((index: number) => {
    setDrawn((d) => (d === null ? d : withKeys(d, keysRef.current.slice(index, index + ROWS_PER_REVEAL))));
  }, []);

  return useMemo(
    () => ({ isFull: (index: number) => drawn === null || drawn.has(keys[index]!), reveal, done }),
    [drawn, keys, reveal, done],
  );
}
