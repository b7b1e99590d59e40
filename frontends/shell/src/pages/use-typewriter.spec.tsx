import { act, renderHook } from '@testing-library/react';
import { useTypewriter } from './use-typewriter';

/** A matchMedia answering the reduced-motion query as the test says, and telling its listeners of a change. */
function fakeReducedMotion(initially: boolean) {
  let matches = initially;
  const listeners = new Set<() => void>();
  const original = window.matchMedia;
  window.matchMedia = ((query: string) => ({
    get matches() {
      return query.includes('prefers-reduced-motion: reduce') && matches;
    },
    media: query,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  })) as unknown as typeof window.matchMedia;
  return {
    set(next: boolean) {
      matches = next;
      listeners.forEach((listener) => listener());
    },
    restore: () => {
      window.matchMedia = original;
    },
  };
}

/** Lets `n` characters' time pass, one act each: every timer is set by the render after the last. */
const typeFor = (n: number) => {
  for (let i = 0; i < n; i++) act(() => jest.advanceTimersByTime(100));
};

describe('useTypewriter', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('types one character every interval', () => {
    const media = fakeReducedMotion(false);
    try {
      const { result } = renderHook(() => useTypewriter('hack', 100));
      expect(result.current).toBe('');
      typeFor(1);
      expect(result.current).toBe('h');
      typeFor(3);
      expect(result.current).toBe('hack');
    } finally {
      media.restore();
    }
  });

  it('shows the text whole at once when the visitor prefers reduced motion, with no timer left', () => {
    const media = fakeReducedMotion(true);
    try {
      const { result } = renderHook(() => useTypewriter('hack the planet', 100));
      expect(result.current).toBe('hack the planet');
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      media.restore();
    }
  });

  it('stops typing and shows the whole text when the setting turns on mid-way', () => {
    const media = fakeReducedMotion(false);
    try {
      const { result } = renderHook(() => useTypewriter('hack the planet', 100));
      typeFor(3);
      expect(result.current).toBe('hac');
      act(() => media.set(true));
      expect(result.current).toBe('hack the planet');
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      media.restore();
    }
  });
});
