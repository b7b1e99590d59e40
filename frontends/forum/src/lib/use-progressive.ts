import { useCallback, useMemo, useRef, useState } from 'react';

/** Rows drawn in full at once: about a phone's first screen of replies (those on screen follow at once). */
export const FIRST_ROWS = 4;
/** Rows drawn in full from one that nears the screen on. */
export const ROWS_PER_REVEAL = 4;

/** Whether this browser can tell what nears the screen; where it cannot (a test's jsdom), all at once. */
const canDefer = () => typeof window !== 'undefined' && typeof window.IntersectionObserver === 'function';

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
 * for it (it nears the screen, or a link names it); not in idle moments: each batch redid the page's
 * layout. Rows are remembered by key: one drawn stays drawn when rows are inserted above (a live reply).
 */
export function useProgressive<K>(
  keys: readonly K[],
  { first = FIRST_ROWS }: { first?: number } = {},
): Progressive {
  // null: every row (nothing to wait for).
  const [drawn, setDrawn] = useState<ReadonlySet<K> | null>(() =>
    canDefer() ? new Set(keys.slice(0, first)) : null,
  );
  const done = drawn === null || keys.every((key) => drawn.has(key));
  const keysRef = useRef(keys);
  keysRef.current = keys;

  const reveal = useCallback((index: number) => {
    setDrawn((d) => (d === null ? d : withKeys(d, keysRef.current.slice(index, index + ROWS_PER_REVEAL))));
  }, []);

  return useMemo(
    () => ({ isFull: (index: number) => drawn === null || drawn.has(keys[index]!), reveal, done }),
    [drawn, keys, reveal, done],
  );
}
