import { act, renderHook } from '@testing-library/react';
import { useTypewriter } from './use-typewriter';
import { fakeReducedMotion } from '@termpaste/ui/testing';

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
