import { PAINT_ID } from '@termpaste/contracts/first-paint';
import { useLayoutEffect } from 'react';

/** Removes the server's painted page: the app's own shows in its place. */
export function takeOverPaint(): void {
  document.getElementById(PAINT_ID)?.remove();
}

/**
 * For a page the server paints (the landing and 404 pages, a member's home and pastes): the painted copy
 * goes as the app's page commits with what it shows (`ready`: its data is there), before the browser
 * paints again, so the swap is never seen (no flash, no spinner between). Painted and drawn are
 * different elements: nothing moves (no layout shift). Here, in the shared ui, so a remote that uses it
 * bundles nothing of the contracts' first-paint file.
 */
export function useTakeOverPaint(ready = true): void {
  useLayoutEffect(() => {
    if (ready) takeOverPaint();
  }, [ready]);
}
