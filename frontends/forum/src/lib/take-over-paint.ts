import { PAINT_ID } from '@termpaste/contracts/first-paint';
import { useLayoutEffect } from 'react';

/**
 * For a screen the server paints for members (home, a paste): the painted copy goes as the screen commits
 * with its data (`ready`), before the browser paints again, so the reader never sees a spinner between
 * the two. Painted and drawn are different elements: nothing moves (no layout shift).
 */
export function useTakeOverPaint(ready: boolean): void {
  useLayoutEffect(() => {
    if (ready) document.getElementById(PAINT_ID)?.remove();
  }, [ready]);
}
