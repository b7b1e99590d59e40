import type { MouseEvent } from 'react';

/** The id of the element each page's main content is in (the shell's <main>). */
export const CONTENT_ID = 'content';

/**
 * "Skip to content": the first focusable element of every page, hidden until it has the focus. It moves
 * the focus to the main content itself rather than through the address (a #content there would stand
 * in for a paste's #L3 line link).
 */
export function SkipLink({ targetId = CONTENT_ID }: { targetId?: string }) {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const target = document.getElementById(targetId);
    if (!target) return;
    event.preventDefault();
    if (!target.hasAttribute('tabindex')) target.tabIndex = -1;
    target.focus({ preventScroll: true });
    target.scrollIntoView({ block: 'start' });
  };
  return (
    <a href={`#${targetId}`} className="tp-skip-link" onClick={skip}>
      Skip to content
    </a>
  );
}
