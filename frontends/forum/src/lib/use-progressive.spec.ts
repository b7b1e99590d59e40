import { act, renderHook } from '@testing-library/react';
import { FIRST_ROWS, ROWS_PER_REVEAL, useProgressive } from './use-progressive';

/** Idle callbacks the hook asked for, run by the test. */
let idle: Array<() => void> = [];

function installBrowser() {
  idle = [];
  Object.assign(window, {
    IntersectionObserver: class {
      observe() {}
      disconnect() {}
    },
    requestIdleCallback: (run: () => void) => idle.push(run),
    cancelIdleCallback: () => undefined,
  });
}

function removeBrowser() {
  for (const name of ['IntersectionObserver', 'requestIdleCallback', 'cancelIdleCallback'])
    delete (window as unknown as Record<string, unknown>)[name];
}

const keys = (count: number) => Array.from({ length: count }, (_, index) => 1000 + index);

const fullRows = (isFull: (index: number) => boolean, total: number) =>
  Array.from({ length: total }, (_, index) => index).filter(isFull);

describe('useProgressive', () => {
  afterEach(removeBrowser);

  it('draws every row at once where the browser cannot tell what nears the screen', () => {
    const { result } = renderHook(() => useProgressive(keys(50)));
    expect(result.current.done).toBe(true);
    expect(fullRows(result.current.isFull, 50)).toHaveLength(50);
  });

  it('draws a row that nears the screen (and the few after it) at once, however deep', () => {
    installBrowser();
    const { result } = renderHook(() => useProgressive(keys(200)));
    expect(idle).toHaveLength(0);
    act(() => result.current.reveal(150));
    const full = fullRows(result.current.isFull, 200);
    expect(full).toEqual([
      ...Array.from({ length: FIRST_ROWS }, (_, i) => i),
      ...Array.from({ length: ROWS_PER_REVEAL }, (_, i) => 150 + i),
    ]);
    // Asking again for a drawn row changes nothing.
    act(() => result.current.reveal(150));
    expect(fullRows(result.current.isFull, 200)).toEqual(full);
  });

  it('keeps a drawn row drawn when rows are inserted above it (by key, not by place)', () => {
    installBrowser();
    let rows = keys(20);
    const { result, rerender } = renderHook(() => useProgressive(rows));
    act(() => result.current.reveal(10));
    expect(result.current.isFull(10)).toBe(true);
    // A live reply lands above: the drawn row is now the 12th, and still drawn; the new one is not.
    rows = [...rows.slice(0, 5), 9999, ...rows.slice(5)];
    rerender();
    expect(result.current.isFull(11)).toBe(true);
    expect(result.current.isFull(5)).toBe(false);
    expect(result.current.done).toBe(false);
  });
});
