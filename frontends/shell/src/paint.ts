import { PAINT_DATA_ID, PAINT_ID, type PaintData } from '@termpaste/contracts/first-paint';
import { useLayoutEffect } from 'react';

/**
 * The data the server embedded in a painted page (a visitor's: who they are), read once at start; null
 * when the page came without (a member's, or a page the server does not paint).
 */
export function paintData(): PaintData | null {
  const script = document.getElementById(PAINT_DATA_ID);
  if (!script?.textContent) return null;
  try {
    return JSON.parse(script.textContent) as PaintData;
  } catch {
    return null;
  }
}

/** Removes the server's painted page: the app's own, rendered the same, shows in its place. */
export function takeOverPaint(): void {
  document.getElementById(PAINT_ID)?.remove();
}

/**
 * For a page the server paints: the painted copy goes as this one commits, before the browser paints
 * again, so the swap is never seen (no flash, no shift).
 */
export function useTakeOverPaint(): void {
  useLayoutEffect(takeOverPaint, []);
}
