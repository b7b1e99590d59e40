import { act, render, screen } from '@testing-library/react';
import { prefersReducedMotion, scrollBehavior, usePrefersReducedMotion } from './motion.js';
import { fakeReducedMotion } from '../testing/media.js';

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
