import {
  PAINT_DATA_ID,
  PAINT_QUERIES_ID,
  type PaintData,
  type PaintedQuery,
} from '@termpaste/contracts/first-paint';
import { takeOverPaint } from '@termpaste/ui';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';

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

/**
 * The API's answers a member's painted page was drawn from (their user, home's first page or the paste),
 * by query key: the app starts with them, so its first screen needs no request first. Empty elsewhere.
 */
export function paintedQueries(): PaintedQuery[] {
  const script = document.getElementById(PAINT_QUERIES_ID);
  if (!script?.textContent) return [];
  try {
    const queries: unknown = JSON.parse(script.textContent);
    return Array.isArray(queries) ? (queries as PaintedQuery[]) : [];
  } catch {
    return [];
  }
}

export { takeOverPaint, useTakeOverPaint } from '@termpaste/ui';

/** How long a member's painted screen may wait for its app screen before it goes anyway. */
export const PAINT_RELEASE_MS = 15_000;

/**
 * A member's painted screen is taken over by its app screen once that has its data (the forum's
 * useTakeOverPaint). Should the reader move elsewhere first, or that screen never come (its remote failed
 * to load), the painted copy goes anyway: it never hides the app for long.
 */
export function usePaintRelease(): void {
  const { pathname } = useLocation();
  const first = useRef(pathname);
  useEffect(() => {
    if (pathname !== first.current) takeOverPaint();
  }, [pathname]);
  useEffect(() => {
    const timer = setTimeout(takeOverPaint, PAINT_RELEASE_MS);
    return () => clearTimeout(timer);
  }, []);
}
