import { usePrefersReducedMotion } from '@termpaste/ui';
import { useEffect, useState } from 'react';

/**
 * Types `text` one character every `intervalMs`. A visitor who asks for reduced motion gets it whole, at
 * once, also when the setting changes while it types.
 */
export function useTypewriter(text: string, intervalMs: number): string {
  const reduced = usePrefersReducedMotion();
  const [length, setLength] = useState(0);

  useEffect(() => {
    if (reduced || length >= text.length) return;
    const timer = setTimeout(() => setLength((n) => n + 1), intervalMs);
    return () => clearTimeout(timer);
  }, [reduced, length, text, intervalMs]);

  return reduced ? text : text.slice(0, length);
}
