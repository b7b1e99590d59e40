import { useSyncExternalStore } from 'react';

/** The visitor's wish for less motion (the system setting); theme.css honours it for every animation. */
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

function query(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(REDUCED_MOTION_QUERY)
    : null;
}

/** Whether the visitor asks for reduced motion now. */
export function prefersReducedMotion(): boolean {
  return query()?.matches ?? false;
}

/** How a script scrolls: at once for a visitor who asks for reduced motion (CSS cannot reach JS scrolls). */
export function scrollBehavior(): ScrollBehavior {
  return prefersReducedMotion() ? 'auto' : 'smooth';
}

function subscribe(onChange: () => void): () => void {
  const media = query();
  media?.addEventListener('change', onChange);
  return () => media?.removeEventListener('change', onChange);
}

/** prefersReducedMotion() as React state: follows the setting when it changes while the page is open. */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, prefersReducedMotion, () => false);
}
