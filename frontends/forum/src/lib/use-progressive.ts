import { startTransition, useCallback, useEffect, useState } from 'react';

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

/**
 * A long list drawn in full a little at a time: the first rows at once, any row when `reveal` is called
 * for it, and with `idle` the rest a batch in each idle moment (a transition: typing and scrolling first).
 * Keeps each task short, where drawing every row at once would block the page for seconds.
 */
export function useProgressive(
  total: number,
  { first = FIRST_ROWS, idle = true }: { first?: number; idle?: boolean } = {},
): Progressive {
  const [state, setState] = useState(() => ({
    count: canDefer() ? first : Number.POSITIVE_INFINITY,
    windows: [] as (readonly [number, number])[],
  }));
  const { count, windows } = state;
  const done = count >= total;

  useEffect(() => {
    if (done || !idle) return;
    const handle = whenIdle(() =>
      startTransition(() => setState((s) => ({ ...s, count: s.count + ROWS_PER_IDLE }))),
    );
    return () => cancelIdle(handle);
  }, [count, done, idle]);

  const reveal = useCallback((index: number) => {
    setState((s) => {
      if (index < s.count || s.windows.some(([from, to]) => index >= from && index < to)) return s;
      return { ...s, windows: [...s.windows, [index, index + ROWS_PER_REVEAL] as const] };
    });
  }, []);

  const isFull = useCallback(
    (index: number) => index < count || windows.some(([from, to]) => index >= from && index < to),
    [count, windows],
  );
  return { isFull, reveal, done };
}
