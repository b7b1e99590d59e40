import { useEffect, useState } from 'react';

/** A filter box waits this long after the last key before it asks the server. */
export const FILTER_DELAY_MS = 250;

/**
 * A filter box's text and its settled, trimmed copy `FILTER_DELAY_MS` after the last change: what the
 * filter sends. Returns [text, settled, setText].
 */
export function useDebouncedFilter(initial = ''): [string, string, (text: string) => void] {
  const [text, setText] = useState(initial);
  const [settled, setSettled] = useState(initial.trim());
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text.trim()), FILTER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return [text, settled, setText];
}
