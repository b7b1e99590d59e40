import { act, render, screen } from '@testing-library/react';
import {
  prefersReducedMotion,
  REDUCED_MOTION_QUERY,
  scrollBehavior,
  usePrefersReducedMotion,
} from './motion.js';

/** A matchMedia whose reduced-motion answer the test sets, and changes, like the system setting. */
function fakeReducedMotion(initially: boolean) {
  let matches = initially;
  const listeners = new Set<() => void>();
  const original = window.matchMedia;
  window.matchMedia = ((query: string) => ({
    get matches() {
      return query === REDUCED_MOTION_QUERY && matches;
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
    listeners,
    restore: () => {
      window.matchMedia = original;
    },
  };
}

describe('reduced motion', () => {
  it('prefersReducedMotion and scrollBehavior follow the setting', () => {
    const media = fakeReducedMotion(false);
    try {
      expect(prefersReducedMotion()).toBe(false);
      expect(scrollBehavior()).toBe('smooth');
      media.set(true);
      expect(prefersReducedMotion()).toBe(true);
      expect(scrollBehavior()).toBe('auto');
    } finally {
      media.restore();
    }
  });

  it('usePrefersReducedMotion re-renders when the setting changes, and stops listening on unmount', () => {
    const media = fakeReducedMotion(true);
    function Probe() {
      return <output>{usePrefersReducedMotion() ? 'still' : 'moving'}</output>;
    }
    try {
      const { unmount } = render(<Probe />);
      expect(screen.getByRole('status')).toHaveTextContent('still');
      act(() => media.set(false));
      expect(screen.getByRole('status')).toHaveTextContent('moving');
      unmount();
      expect(media.listeners.size).toBe(0);
    } finally {
      media.restore();
    }
  });

  it('without matchMedia, motion is not reduced', () => {
    const original = window.matchMedia;
    // @ts-expect-error: a browser without matchMedia
    delete window.matchMedia;
    try {
      expect(prefersReducedMotion()).toBe(false);
    } finally {
      window.matchMedia = original;
    }
  });
});
