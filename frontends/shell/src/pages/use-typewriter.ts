import { useEffect, useState } from 'react';

function prefersReducedMotion(): boolean {
  return (
    typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}

/** Types `text` one character every `intervalMs`; shows it whole when the visitor prefers reduced motion. */
export function useTypewriter(text: string, intervalMs: number): string {
  const [length, setLength] = useState(() => (prefersReducedMotion() ? text.length : 0));

  useEffect(() => {
    if (length >= text.length) return;
    const timer = setTimeout(() => setLength((n) => n + 1), intervalMs);
    return () => clearTimeout(timer);
  }, [length, text, intervalMs]);

  return text.slice(0, length);
}
