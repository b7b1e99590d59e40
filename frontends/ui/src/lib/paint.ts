import { PAINT_ID } from '@termpaste/contracts/paint-ids';
import { useLayoutEffect } from 'react';

/** Removes the server's painted page: the app's own shows in its place. */
export function takeOverPaint(): void {
  document.getElementById(PAINT_ID)?.remove();
}

/**
 * For a page the server paints (landing, 404, a member's home and pastes): the painted copy goes as the
 * app's page commits with its data (`ready`), before the next frame: no flash, no spinner between, and
 * nothing moves (painted and drawn are different elements). Shared, so a remote bundles none of it.
 */
export function useTakeOverPaint(ready = true): void {
  useLayoutEffect(() => {
    if (ready) takeOverPaint();
  }, [ready]);
}
